//! The peers' generated Onyx configs (`tests/fixtures/peers/gen_onyx.py`, plain python3),
//! shared by the parse and diff benchmarks.

/// `(running, intended)` of `gen_onyx.py --preset PRESET --drift 5`.
pub fn generate(preset: &str) -> (String, String) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("tests/fixtures/peers/gen_onyx.py");
    let out = std::env::temp_dir().join(format!("fabric-bench-{preset}-{}", std::process::id()));
    let status = std::process::Command::new("python3")
        .arg(&script)
        .args(["--preset", preset, "--drift", "5", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .status();
    assert!(
        status.is_ok_and(|s| s.success()),
        "cannot run `python3 {}`",
        script.display()
    );
    let read = |kind: &str| {
        std::fs::read_to_string(out.join(format!("{preset}-d5.{kind}.cfg")))
            .expect("the generator wrote the config")
    };
    let pair = (read("running"), read("intended"));
    let _ = std::fs::remove_dir_all(&out);
    pair
}
