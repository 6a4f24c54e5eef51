//! The simulated switch's CLI on real files: every shipped golden, pasted into a
//! factory-default lab switch, reads back as that golden.

use fabric::lab::{Session, Switch};

#[test]
fn pasted_goldens_read_back_as_the_golden() {
    let mut checked = 0;
    for dir in std::fs::read_dir(crate::root().join("golden")).unwrap() {
        for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let golden = std::fs::read_to_string(&path).unwrap();
            let model = fabric::onyx::parse(&golden).unwrap();
            // The switch as the fabric describes it: release and certificate.
            let certificate = golden
                .lines()
                .find_map(|l| l.strip_prefix("# Certificate name system-self-signed, ID "));
            let mut sw =
                Switch::factory_as(&model.header.hostname, model.header.release, certificate);
            let mut s = Session::new();
            let mut errors = String::new();
            for line in [
                "no cli session paging enable",
                "enable",
                "configure terminal",
            ]
            .into_iter()
            .chain(golden.lines())
            {
                errors.push_str(&s.input(&mut sw, line).output);
            }
            assert_eq!(errors, "", "{}: the lab refused lines", path.display());
            s.input(&mut sw, "exit");
            let shown = s.input(&mut sw, "show running-config").output;
            let shown: String = shown
                .lines()
                .filter(|l| !l.starts_with("## Generated at "))
                .map(|l| format!("{l}\n"))
                .collect();
            assert_eq!(shown, golden, "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} goldens");
}
