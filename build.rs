//! Build script: the index of the diagnostic codes' docs. Each code is one file,
//! `src/codes/<CODE>.md`, so a new code is a new file (a branch adding one never touches a
//! line another branch adds); this writes the list that embeds them all.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new("src/codes");
    println!("cargo::rerun-if-changed=src/codes");
    let mut codes: Vec<String> = std::fs::read_dir(dir)
        .expect("src/codes/ is readable")
        .map(|e| {
            e.expect("a readable entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|name| name.strip_suffix(".md").map(str::to_string))
        .collect();
    codes.sort();
    let mut index = String::from("&[\n");
    for code in &codes {
        writeln!(
            index,
            "    ({code:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/src/codes/{code}.md\"))),"
        )
        .expect("writing to a String");
    }
    index.push_str("]\n");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("codes.rs");
    std::fs::write(out, index).expect("OUT_DIR is writable");
}
