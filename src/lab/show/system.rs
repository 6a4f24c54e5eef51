//! The switch itself: `show version`.

use super::{Cx, Shown};

/// `show version`, in the layout of Onyx 3.10's.
pub fn version(cx: &Cx<'_>) -> Shown {
    let r = cx.sw.release;
    Shown::text(format!(
        "Product name:      Onyx\nProduct release:   {r}\nBuild ID:          #1-lab\nTarget arch:       x86_64\nVersion summary:   X86_64 {r} fabric-lab\n\nProduct model:     fabric lab\nHost ID:           NA\n"
    ))
}
