//! Any bytes as a fabric file: a located diagnostic or a fabric, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut sources = fabric::diag::Sources::default();
    match fabric::fabric::parse_bytes("fuzz.yaml", data.to_vec(), &mut sources) {
        Ok(loaded) => {
            let (fabric, diags) = fabric::fabric::validate(&loaded.raw, loaded.file);
            let _ = fabric::diag::render(&diags, &sources, false);
            if let Some(f) = fabric {
                let _ = fabric::compile::compile(&f);
            }
        }
        Err(d) => {
            let _ = fabric::diag::render(&[d], &sources, false);
        }
    }
});
