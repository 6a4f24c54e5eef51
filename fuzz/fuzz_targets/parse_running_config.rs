//! Any bytes as a running-config: the parser returns a config or a located error, never
//! panics; a config it returns prints and reads back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = fabric::onyx::parse(&text) {
        let renderer = fabric::onyx::Renderer::embedded().expect("templates");
        let out = renderer.render(&config).expect("a parsed config renders");
        let back = fabric::onyx::parse(&out).expect("canonical text parses");
        assert_eq!(back, config, "{out}");
    }
});
