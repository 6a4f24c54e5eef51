//! Any bytes as a running-config: the parser returns a config or a located error, never
//! panics; a config it returns prints, and its canonical text is a fixed point (printing what
//! it reads back gives the same text and the same model).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(config) = fabric::onyx::parse(&text) {
        let renderer = fabric::onyx::Renderer::embedded().expect("templates");
        let once = renderer.render(&config).expect("a parsed config renders");
        let back = fabric::onyx::parse(&once).expect("canonical text parses");
        let twice = renderer.render(&back).expect("renders again");
        assert_eq!(once, twice);
        assert_eq!(fabric::onyx::parse(&twice).expect("parses again"), back, "{twice}");
    }
});
