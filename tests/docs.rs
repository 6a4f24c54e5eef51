//! `fabric docs`: the committed docs of every example fabric are current and `--check` finds
//! a stale, missing or left-over file; the SVG picture is well-formed XML that names every
//! switch and every cable with its ports, each port as its switch's OS names it (Onyx `1/5`,
//! OS10 `ethernet1/1/5`), a fabric mixing both included; the HTML page renders in a real
//! browser (headless Chromium: a screenshot that is not blank, and every switch in the DOM it
//! built); every picture draws nothing over anything else (boxes, labels, lines: the SVG's
//! geometry and Chromium's text boxes), fits a laptop's screen, and keeps spines above the
//! other switches above the hosts, each tier in name order.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use fabric::fabric::{Fabric, Peer, Role};

use crate::{fabrics, root, run, scratch};

fn fabric_cmd(args: &[&str]) -> (i32, String) {
    run(Command::new(env!("CARGO_BIN_EXE_fabric"))
        .args(args)
        .current_dir(root()))
}

fn load(path: &Path) -> Fabric {
    let mut sources = fabric::diag::Sources::default();
    let (f, diags) = fabric::fabric::read(path, &mut sources).expect("readable");
    f.unwrap_or_else(|| panic!("{} is valid: {diags:?}", path.display()))
}

fn stem(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

/// Every example fabric's docs, as `fabric docs` makes them.
fn docs_of(path: &Path) -> std::collections::BTreeMap<String, String> {
    let source = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy();
    fabric::docs::render(&load(path), &stem(path), &file, &source)
}

#[test]
fn committed_docs_are_current() {
    let mut args = vec!["docs".to_string(), "--check".into()];
    args.extend(fabrics().iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out) = fabric_cmd(&args);
    assert_eq!(
        code, 0,
        "docs/fabrics/ is stale: run `cargo run -- docs fabrics/*.yaml` and commit\n{out}"
    );
    assert!(out.contains("docs are up to date"), "{out}");
}

#[test]
fn check_names_each_stale_file() {
    let dir = scratch("docs-check");
    let out = dir.to_str().unwrap();
    let (code, text) = fabric_cmd(&["docs", "fabrics/vsphere-mlag.yaml", "--out", out]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("5 written"), "{text}");
    let (code, text) = fabric_cmd(&["docs", "fabrics/vsphere-mlag.yaml", "--out", out, "--check"]);
    assert_eq!(code, 0, "{text}");

    let folder = dir.join("vsphere-mlag");
    let page = folder.join("tor-a.md");
    let edited = std::fs::read_to_string(&page)
        .unwrap()
        .replace("SN2700", "SN2100");
    std::fs::write(&page, edited).unwrap();
    std::fs::remove_file(folder.join("topology.svg")).unwrap();
    std::fs::write(folder.join("tor-c.md"), "# tor-c\n").unwrap();
    let (code, text) = fabric_cmd(&["docs", "fabrics/vsphere-mlag.yaml", "--out", out, "--check"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(&format!("+++ b/{}", page.display())),
        "{text}"
    );
    assert!(
        text.contains("-| Model | SN2100 |") && text.contains("+| Model | SN2700 |"),
        "{text}"
    );
    assert!(
        text.contains(&format!("+++ b/{}", folder.join("topology.svg").display())),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{}: not made from",
            folder.join("tor-c.md").display()
        )),
        "{text}"
    );
    assert!(text.contains("3 doc file(s) are stale"), "{text}");

    // Writing brings the folder back, the file no fabric switch has included.
    let (code, text) = fabric_cmd(&["docs", "fabrics/vsphere-mlag.yaml", "--out", out]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("2 written, 3 unchanged, 1 removed"), "{text}");
    assert!(!folder.join("tor-c.md").exists());
    let (code, text) = fabric_cmd(&["docs", "fabrics/vsphere-mlag.yaml", "--out", out, "--check"]);
    assert_eq!(code, 0, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_invalid_fabric_gets_no_docs() {
    let dir = scratch("docs-invalid");
    let bad = root().join("tests/fixtures/invalid/overlapping_ranges_different_mtu.yaml");
    let (code, text) = fabric_cmd(&[
        "docs",
        bad.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("error[E043]"), "{text}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The text of an element and its descendants.
fn text_of(node: roxmltree::Node) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

/// The example fabrics, and one that cables an Onyx switch to an OS10 one.
fn documented() -> Vec<PathBuf> {
    let mut v = fabrics();
    v.push(root().join("tests/fixtures/os10/lab/mixed.yaml"));
    v
}

#[test]
fn the_picture_names_every_switch_and_cable() {
    for path in documented() {
        let f = load(&path);
        let docs = docs_of(&path);
        let svg = &docs["topology.svg"];
        let xml = roxmltree::Document::parse(svg)
            .unwrap_or_else(|e| panic!("{}: the SVG is not XML: {e}", path.display()));
        let root_el = xml.root_element();
        assert_eq!(root_el.tag_name().name(), "svg");
        assert_eq!(
            root_el.tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        let groups = |class: &str| {
            root_el
                .descendants()
                .filter(|n| {
                    n.attribute("class")
                        .is_some_and(|c| c.split(' ').any(|w| w == class))
                })
                .collect::<Vec<_>>()
        };
        let nodes = groups("node");
        for name in f.switches.keys() {
            let node = nodes
                .iter()
                .find(|n| n.attribute("data-switch") == Some(name.as_str()))
                .unwrap_or_else(|| panic!("{}: no node for {name}", path.display()));
            let label = node
                .children()
                .find(|c| c.has_tag_name("text"))
                .map(text_of)
                .unwrap_or_default();
            assert!(label.starts_with(name.as_str()), "{name}: {label}");
            assert!(node.children().any(|c| c.has_tag_name("rect")));
        }
        // Every cable, with its ports at both ends, in the tooltip of the link it is part of.
        let titles: Vec<String> = groups("link")
            .iter()
            .filter_map(|g| g.children().find(|c| c.has_tag_name("title")))
            .map(text_of)
            .collect();
        let has = |line: &str| titles.iter().any(|t| t.lines().any(|l| l == line));
        let mut cables = 0;
        for (name, sw) in &f.switches {
            for (port, s) in &sw.ports {
                let port = sw.port_name(*port);
                let line = match &s.peer {
                    Some(Peer::Switch { switch, port: far }) => {
                        let far = f.switches[switch.as_str()].port_name(*far);
                        let (a, b) = (format!("{name} {port}"), format!("{switch} {far}"));
                        if has(&format!("{a} — {b}")) {
                            cables += 1;
                            continue;
                        }
                        format!("{b} — {a}")
                    }
                    Some(Peer::Host { host, port: nic }) => match nic {
                        Some(nic) => format!("{name} {port} — {host} {nic}"),
                        None => format!("{name} {port} — {host}"),
                    },
                    None => continue,
                };
                assert!(
                    has(&line),
                    "{}: no link for `{line}` in {titles:?}",
                    path.display()
                );
                cables += 1;
            }
        }
        assert!(cables > 0, "{}", path.display());
    }
}

/// The text of each node a picture draws whose class starts with `class`, in order.
fn drawn(svg: &str, class: &str) -> Vec<String> {
    let xml = roxmltree::Document::parse(svg).unwrap();
    xml.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with(class)))
        .map(|n| text_of(n.children().find(|c| c.has_tag_name("text")).unwrap()))
        .collect()
}

/// The docs of a routed fabric of `pods` pods (6 leaves with 4 servers each, 2 spines), as
/// `fabric docs` makes them, and the layout work they cost.
fn routed_docs(pods: usize) -> (std::collections::BTreeMap<String, String>, u64) {
    let dir = scratch(&format!("docs-routed-{pods}"));
    let path = dir.join("routed.yaml");
    std::fs::write(
        &path,
        crate::leaf_spine::LeafSpine::new(pods * 6, 6, 4).yaml(),
    )
    .unwrap();
    let before = fabric::docs::layout_work();
    let docs = docs_of(&path);
    let work = fabric::docs::layout_work() - before;
    std::fs::remove_dir_all(&dir).unwrap();
    (docs, work)
}

/// The picture's layout costs work in proportion to the fabric at most: 4x the switches, at
/// most 5x the work (a layout comparing every pair of links in a row, as the layout crate the
/// picture once used did, grew with the cube: minutes at a thousand switches). Counted, not
/// timed: the layout counts each element it visits. And a large fabric draws as groups with
/// their counts, not a row per switch.
#[test]
fn layout_work_grows_linearly_and_large_fabrics_draw_groups() {
    let sizes = [2, 8, 32].map(routed_docs);
    let work: Vec<u64> = sizes.iter().map(|(_, w)| *w).collect();
    assert!(work[0] > 0);
    eprintln!("layout work at 16, 64, 256 switches: {work:?}");
    for pair in work.windows(2) {
        assert!(
            pair[1] <= 5 * pair[0],
            "layout work at 16, 64, 256 switches: {work:?}"
        );
    }
    // 256 switches: 32 pods of 6 leaves and 2 spines, 768 servers.
    let (docs, _) = &sizes[2];
    assert_eq!(
        drawn(&docs["topology.svg"], "node "),
        [
            "spine00001 … spine0006464 spines in 32 groups of 2 · SN4600C",
            "leaf00001 … leaf00192192 leaves in 32 groups of 6 · SN4600C",
            "gpu00001-01 … gpu00192-04768 hosts"
        ]
    );
    let readme = &docs["README.md"];
    assert!(
        readme.contains("\"384 cables: 1/1-1/6 ↔ 1/5-1/6\""),
        "{readme}"
    );
    assert!(readme.contains("| [leaf00192](leaf00192.md) |"), "{readme}");
    // 64 switches: a column per pod.
    let (docs, _) = &sizes[1];
    let readme = &docs["README.md"];
    assert!(
        readme.contains("[\"leaf00043 … leaf00048<br/>6 leaves · SN4600C\"]"),
        "{readme}"
    );
    assert!(
        readme.contains("More than 16 switches in a row"),
        "{readme}"
    );
}

/// Names with characters that mean something in XML, Markdown or Mermaid stay text.
#[test]
fn odd_names_stay_text() {
    let dir = scratch("docs-odd");
    let path = dir.join("odd.yaml");
    std::fs::write(
        &path,
        "onyx: 3.10.4606\nswitches:\n  sw1:\n    model: SN2100\n    ports:\n      \
         1/1: { peer: { host: \"we'ird<h>#&`*_1\", port: \"p<1>\" } }\n",
    )
    .unwrap();
    let docs = docs_of(&path);
    let xml = roxmltree::Document::parse(&docs["topology.svg"]).expect("well-formed");
    let titles: Vec<String> = xml
        .descendants()
        .filter(|n| n.has_tag_name("title"))
        .map(text_of)
        .collect();
    assert!(
        titles.contains(&"sw1 1/1 — we'ird<h>#&`*_1 p<1>".to_string()),
        "{titles:?}"
    );
    assert!(
        docs["sw1.md"].contains("| we'ird\\<h\\>\\#\\&\\`\\*\\_1 p\\<1\\> |"),
        "{}",
        docs["sw1.md"]
    );
    assert!(
        docs["README.md"].contains("([\"we'ird#60;h#62;#35;#38;`*_1\"])"),
        "{}",
        docs["README.md"]
    );
    assert!(docs["index.html"].contains("we&apos;ird&lt;h&gt;#&amp;`*_1"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two switches, one cabled to itself.
const LOOPED: &str = "stp: on\nswitches:\n  sw1: { model: SN2100 }\n  sw2: { model: SN2100 }\nlinks:\n  \
     - { a: \"sw1:1/1\", b: \"sw1:1/2\" }\n  \
     - { a: \"sw1:1/3-1/4\", b: \"sw2:1/3-1/4\", role: lag, lag: 1 }\n";

/// A cable from a switch to itself is one line (a loop), listed once, and the layout takes it.
#[test]
fn a_cable_looping_back_is_drawn_once() {
    let dir = scratch("docs-loop");
    let path = dir.join("loop.yaml");
    std::fs::write(&path, LOOPED).unwrap();
    let docs = docs_of(&path);
    let readme = &docs["README.md"];
    assert!(
        readme.contains("    n0 ---|\"1/1 ↔ 1/2\"| n0\n"),
        "{readme}"
    );
    assert!(
        readme.contains("    n0 ---|\"1/3-1/4 ↔ 1/3-1/4\"| n1\n"),
        "{readme}"
    );
    assert!(readme.contains("3 cable(s) between switches"), "{readme}");
    let xml = roxmltree::Document::parse(&docs["topology.svg"]).expect("well-formed");
    let links = xml
        .descendants()
        .filter(|n| n.attribute("class") == Some("link"))
        .count();
    assert_eq!(links, 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn many_hosts_make_few_nodes() {
    let path = root().join("fabrics/ml-cluster.yaml");
    let docs = docs_of(&path);
    let hosts = drawn(&docs["topology.svg"], "node hosts");
    // 128 servers, 32 on each of 4 leaves: one node per leaf's group.
    assert_eq!(
        hosts,
        [
            "gpu001 … gpu03232 hosts",
            "gpu033 … gpu06432 hosts",
            "gpu065 … gpu09632 hosts",
            "gpu097 … gpu12832 hosts"
        ]
    );
    let readme = &docs["README.md"];
    assert!(
        readme.contains("    n0 ---|\"1/1/1 … 1/8/4, 32 ports · ens1f0\"| n6\n"),
        "{readme}"
    );
}

/// The Mermaid source keeps to the flowchart subset GitHub renders: one statement a line,
/// generated ids, every label quoted without a quote inside.
#[test]
fn mermaid_keeps_to_the_flowchart_subset() {
    for path in documented() {
        let readme = docs_of(&path)["README.md"].clone();
        let start = readme.find("```mermaid\n").expect("a Mermaid block") + 11;
        let block = &readme[start..start + readme[start..].find("```").unwrap()];
        let mut lines = block.lines();
        assert_eq!(lines.next(), Some("flowchart TB"));
        let id = |s: &str| {
            s.starts_with('n') && s[1..].chars().all(|c| c.is_ascii_digit()) && s.len() > 1
        };
        let quoted = |s: &str| {
            s.len() >= 2
                && s.starts_with('"')
                && s.ends_with('"')
                && !s[1..s.len() - 1].contains('"')
        };
        for line in lines {
            let l = line.trim_start();
            let ok = if let Some((a, rest)) = l.split_once(" ---|") {
                let (label, b) = rest.rsplit_once("| ").unwrap_or(("", ""));
                id(a) && quoted(label) && id(b)
            } else if let Some((a, label)) = l.split_once("([") {
                id(a) && label.strip_suffix("])").is_some_and(quoted)
            } else if let Some((a, label)) = l.split_once('[') {
                id(a) && label.strip_suffix(']').is_some_and(quoted)
            } else if let Some(rest) = l.strip_prefix("classDef ") {
                rest.split_once(' ')
                    .is_some_and(|(_, style)| style.starts_with("fill:#"))
            } else if let Some(rest) = l.strip_prefix("class ") {
                rest.split_once(' ')
                    .is_some_and(|(ids, _)| ids.split(',').all(id))
            } else if let Some(rest) = l.strip_prefix("linkStyle ") {
                rest.split_once(' ')
                    .is_some_and(|(n, _)| n.parse::<usize>().is_ok())
            } else {
                false
            };
            assert!(ok, "{}: not a flowchart statement: {line}", path.display());
        }
    }
}

/// Headless Chromium, from `PATH`; the test fails, saying how to install it, without it.
fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let exe = dir.join(name);
            if exe.is_file() {
                return exe;
            }
        }
    }
    panic!(
        "headless Chromium is needed to test the HTML page and is not on PATH: install it with `apt-get install chromium` (Debian; .ci/run installs it)"
    );
}

/// Runs Chromium headless on a page (as root it needs `--no-sandbox`; its profile goes to a
/// scratch folder), for at most a minute; what it printed on standard output.
fn chromium_on(page: &Path, args: &[&str], profile: &Path) -> String {
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium starts");
    let started = Instant::now();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).ok();
        s
    });
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took over a minute on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap()
}

#[test]
fn the_html_page_renders_in_chromium() {
    for name in ["ml-cluster", "vsphere-mlag", "vcf-bitfusion"] {
        let path = root().join(format!("fabrics/{name}.yaml"));
        let f = load(&path);
        let dir = scratch(&format!("docs-html-{name}"));
        let page = dir.join("index.html");
        std::fs::write(&page, &docs_of(&path)["index.html"]).unwrap();
        let profile = dir.join("profile");

        let shot = dir.join("shot.png");
        chromium_on(
            &page,
            &[
                &format!("--screenshot={}", shot.display()),
                "--window-size=1280,1600",
            ],
            &profile,
        );
        let decoder = png::Decoder::new(std::io::BufReader::new(
            std::fs::File::open(&shot).expect("chromium wrote the screenshot"),
        ));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut pixels).expect("one frame");
        assert_eq!((info.width, info.height), (1280, 1600));
        let step = info.color_type.samples();
        let rgb: Vec<&[u8]> = pixels[..info.buffer_size()]
            .chunks(step)
            .map(|p| &p[..3])
            .collect();
        let background = rgb[0];
        let inked = rgb.iter().filter(|p| **p != background).count();
        let colours: std::collections::BTreeSet<&[u8]> = rgb.iter().copied().collect();
        // Text, tables and the coloured boxes of the picture: far from a blank page.
        assert!(
            inked * 100 > rgb.len() * 3,
            "{name}: {inked} of {} pixels drawn",
            rgb.len()
        );
        assert!(colours.len() > 50, "{name}: {} colours", colours.len());

        let dom = chromium_on(&page, &["--dump-dom"], &profile);
        assert!(dom.contains("<svg"), "{name}: no picture in the DOM");
        for sw in f.switches.keys() {
            assert!(
                dom.contains(&format!("id=\"switch-{sw}\"")),
                "{name}: no section for {sw}"
            );
            assert!(
                dom.contains(&format!("data-switch=\"{sw}\"")),
                "{name}: {sw} not in the picture"
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The rows of a page's port map, as their cells.
fn port_rows(page: &str) -> Vec<Vec<String>> {
    let start = page.find("### Ports").expect("a port map");
    page[start..]
        .lines()
        .skip_while(|l| !l.starts_with("| Port |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            l.trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// An OS10 VLT pair's pages name every port as OS10 does (`ethernet1/1/1`, runs as
/// `ethernet1/1/17-1/1/48`), call the pair and its peer link by OS10's names, and leave out
/// what OS10 does not have (the IPL's VLAN, traffic pools).
#[test]
fn os10_pages_name_ports_as_os10_does() {
    let docs = docs_of(&root().join("fabrics/vcf-bitfusion.yaml"));
    for leaf in ["leaf-a", "leaf-b"] {
        let page = &docs[&format!("{leaf}.md")];
        let rows = port_rows(page);
        let ports: Vec<&str> = rows.iter().map(|r| r[0].as_str()).collect();
        assert_eq!(
            ports.len(),
            16 + 1 + 2 + 1,
            "{leaf}: one row per cabled port, two runs: {ports:?}"
        );
        assert!(
            ports.iter().all(|p| p.starts_with("ethernet1/1/")),
            "{leaf}: {ports:?}"
        );
        assert!(ports.contains(&"ethernet1/1/17-1/1/48"), "{ports:?}");
        assert!(ports.contains(&"ethernet1/1/51-1/1/56"), "{ports:?}");
        let peer = if leaf == "leaf-a" { "leaf-b" } else { "leaf-a" };
        let vlti = rows.iter().find(|r| r[0] == "ethernet1/1/49").unwrap();
        assert_eq!(vlti[1], format!("[{peer} ethernet1/1/49]({peer}.md)"));
        assert_eq!(
            (vlti[5].as_str(), vlti[10].as_str()),
            ("all (VLTi)", "VLTi")
        );
        let host = rows.iter().find(|r| r[0] == "ethernet1/1/1").unwrap();
        // Speed: the S5248F-ON's native 25G (a default); the VLT port-channel's QoS.
        assert_eq!(host[3], "*25G*");
        assert_eq!(host[10], "VLT port-channel 1");
        assert_eq!(
            &host[6..10],
            [
                "L3",
                "on",
                "TC3 150-1500 KB",
                // Every queue's `bandwidth percent`: the shares of weights 50 on TC0 and TC3
                // beside Onyx's defaults of the other classes.
                "TC0 wrr 31; TC1 wrr 8; TC2 wrr 7; TC3 wrr 31; TC4 wrr 7; TC5 wrr 8; TC6 strict; TC7 wrr 8"
            ]
        );
        assert!(page.contains("| OS10 | 10.5.3.2 |"), "{page}");
        assert!(
            page.contains(
                "| VLT interconnect | ethernet1/1/49-1/1/50, backup destination 192.0.2."
            ),
            "{page}"
        );
        assert!(page.contains("| VLT port-channel 8 | ethernet1/1/8 | active |"));
        assert!(
            !page.contains("| 4000 |") && !page.contains("Traffic pool"),
            "{page}"
        );
        assert!(!page.contains("MLAG"), "{page}");
        assert!(!page.contains("Onyx"), "{page}");
    }
    let readme = &docs["README.md"];
    assert!(
        readme.contains(
            "| [leaf-a](leaf-a.md) | ethernet1/1/49 | [leaf-b](leaf-b.md) | ethernet1/1/49 | VLTi |"
        ),
        "{readme}"
    );
    assert!(
        readme.contains("    n0 ---|\"ethernet1/1/49-1/1/50 ↔ ethernet1/1/49-1/1/50\"| n1\n"),
        "{readme}"
    );
    assert!(
        readme.contains("| Switch | Model | OS10 | Role |"),
        "{readme}"
    );
    let svg = roxmltree::Document::parse(&docs["topology.svg"]).unwrap();
    let vlt = svg
        .descendants()
        .filter(|n| n.attribute("class") == Some("node vlt"))
        .count();
    assert_eq!(vlt, 2);
    let dashed = svg
        .descendants()
        .filter(|n| n.attribute("class") == Some("link ipl"))
        .count();
    assert_eq!(dashed, 1);
    assert!(text_of(svg.root_element()).contains("VLTi"));
}

/// A port an OS10 fabric leaves alone shows OS10's defaults (MTU 1532, no trust map, PFC
/// off), and a breakout's subports are named `ethernet1/1/13:1`.
#[test]
fn os10_defaults_and_breakouts() {
    let dir = scratch("docs-os10-defaults");
    let path = dir.join("breakout.yaml");
    std::fs::write(
        &path,
        "stp: on\nswitches:\n  leaf01:\n    os: os10\n    os10: 10.5.0.2\n    model: S4112F-ON\n    \
         ports:\n      ethernet1/1/13: { split: 4 }\n      \
         ethernet1/1/13:1-1/1/13:4: { peer: { host: \"gpu{1..4}\", port: ens1f0 } }\n      \
         ethernet1/1/14: { peer: { host: gpu5, port: ens1f0 }, mtu: 9216 }\n",
    )
    .unwrap();
    let docs = docs_of(&path);
    let page = &docs["leaf01.md"];
    let rows = port_rows(page);
    let row = |p: &str| {
        rows.iter()
            .find(|r| r[0] == p)
            .unwrap_or_else(|| panic!("no row {p}: {page}"))
    };
    assert_eq!(row("ethernet1/1/13:1")[1], "gpu1 ens1f0");
    assert_eq!(
        &row("ethernet1/1/13:1")[4..8],
        ["*1532*", "*access 1*", "L2", "*off*"]
    );
    // Trust unset is L2 on OS10 as on Onyx: the switch's dot1p trust map.
    assert_eq!(
        &row("ethernet1/1/14")[4..8],
        ["9216", "*access 1*", "L2", "*off*"]
    );
    assert!(
        page.contains("| Breakouts | ethernet1/1/13 (4-way) |"),
        "{page}"
    );
    assert!(
        page.contains("Values in italics are OS10's defaults"),
        "{page}"
    );
    assert!(
        docs["README.md"].contains(
            "| gpu1 … gpu5 | 5 | [leaf01](leaf01.md) | ethernet1/1/13:1-1/1/13:4, ethernet1/1/14 |"
        ),
        "{}",
        docs["README.md"]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A cable between an Onyx and an OS10 switch: each end in its own OS's spelling, on both
/// pages, in the cable table, the Mermaid label and the picture.
#[test]
fn mixed_fabrics_name_each_end_as_its_os_does() {
    let docs = docs_of(&root().join("tests/fixtures/os10/lab/mixed.yaml"));
    let spine = &docs["spine01.md"];
    let leaf = &docs["leaf01.md"];
    assert!(
        port_rows(spine)
            .iter()
            .any(|r| r[0] == "1/1" && r[1] == "[leaf01 ethernet1/1/53](leaf01.md)"),
        "{spine}"
    );
    assert!(
        port_rows(leaf)
            .iter()
            .any(|r| r[0] == "ethernet1/1/53" && r[1] == "[spine01 1/1](spine01.md)"),
        "{leaf}"
    );
    // The descriptions the fabric made from the peers say nothing more: no column for them.
    assert!(!spine.contains("| Description |") && !leaf.contains("| Description |"));
    let readme = &docs["README.md"];
    assert!(
        readme.contains(
            "| [leaf01](leaf01.md) | ethernet1/1/53 | [spine01](spine01.md) | 1/1 | L2 |"
        ),
        "{readme}"
    );
    assert!(readme.contains("\"ethernet1/1/53 ↔ 1/1\""), "{readme}");
    assert!(
        readme.contains("| Switch | Model | Onyx | OS10 | Role |"),
        "{readme}"
    );
    assert!(docs["topology.svg"].contains("leaf01 ethernet1/1/53 — spine01 1/1"));
}

/// A routed leaf-spine fabric of `leaves` leaves (at least 4) under two spines, like one whose
/// picture a user found hard to read: leaf03 and leaf04 an MLAG pair, a storage switch (no
/// role) on a LAG to leaf03, a border switch (no role) on LAGs to spine01 and leaf03, hosts on
/// every leaf and on the storage switch; switches written out of order.
fn user_fabric(leaves: usize) -> String {
    let mut y = String::from(
        "onyx: 3.10.4606\nlldp: true\nstp: on\nqos:\n  preset: roce-lossless\nrouting:\n  \
         spine: { asn: 65000, loopbacks: 10.255.0.0/28 }\n  \
         leaf: { asn_base: 65100, loopbacks: 10.255.1.0/24 }\n  links: 10.240.0.0/16\n\
         port_defaults:\n  mtu: 9216\nmlag:\n  - switches: [leaf03, leaf04]\n    \
         system_mac: 00:00:5E:00:01:60\n    \
         ipl: { port_channel: 1000, vlan: 4000, subnet: 10.254.255.0/30 }\nswitches:\n  \
         storage01:\n    model: SN3700\n    ports:\n      \
         1/1-1/4: { vlan: 1, peer: { host: \"nas{1..4}\", port: eth0 } }\n  \
         spine02: { model: SN3700, role: spine }\n  border01: { model: SN3700 }\n  \
         spine01: { model: SN3700, role: spine }\n",
    );
    let mut links = String::from("links:\n");
    for n in (1..=leaves).rev() {
        // Leaves 1 and 2, and the pair, share their servers' groups: one rail each.
        let (hosts, ports, nic) = match n {
            1 | 2 => ("gpu{01..08}".to_string(), 8, format!("ens1f{}", n - 1)),
            3 | 4 => ("gpu{09..12}".to_string(), 4, format!("ens1f{}", n - 3)),
            _ => (format!("cpu{n}-{{1..4}}"), 4, "eth0".to_string()),
        };
        let _ = write!(
            y,
            "  leaf{n:02}:\n    model: SN3700\n    role: leaf\n    \
             vlans: [{{ id: {v}, name: rack{n}, address: 10.{v}.{n}.1/24 }}]\n    ports:\n      \
             1/1-1/{ports}: {{ vlan: {v}, peer: {{ host: \"{hosts}\", port: {nic} }} }}\n",
            v = 100 + n
        );
        for spine in [1, 2] {
            let _ = writeln!(
                links,
                "  - {{ a: \"leaf{n:02}:1/3{}\", b: \"spine0{spine}:1/{n}\" }}",
                spine
            );
        }
    }
    links.push_str(
        "  - { a: \"leaf03:1/29-1/30\", b: \"leaf04:1/29-1/30\", role: ipl }\n  \
         - { a: \"storage01:1/31-1/32\", b: \"leaf03:1/27-1/28\", role: lag, lag: 1 }\n  \
         - { a: \"border01:1/1-1/4\", b: \"spine01:1/25-1/28\", role: lag, lag: 2 }\n  \
         - { a: \"border01:1/5-1/6\", b: \"leaf03:1/25-1/26\", role: lag, lag: 3 }\n",
    );
    y + &links
}

/// An axis-aligned rectangle: left, top, right, bottom.
#[derive(Clone, Copy, Debug)]
struct Rect {
    x0: f64,
    y0: f64,
    x1: f64,
    y1: f64,
}

impl Rect {
    fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        }
    }

    /// Whether two rectangles share more than a sliver (`slack` px each way).
    fn overlaps(&self, o: &Rect, slack: f64) -> bool {
        self.x0 + slack < o.x1
            && o.x0 + slack < self.x1
            && self.y0 + slack < o.y1
            && o.y0 + slack < self.y1
    }

    /// Whether a point is inside, `slack` px from every edge.
    fn holds(&self, (x, y): (f64, f64), slack: f64) -> bool {
        x > self.x0 + slack && x < self.x1 - slack && y > self.y0 + slack && y < self.y1 - slack
    }
}

type Cubic = [(f64, f64); 4];

/// A picture's geometry as its SVG states it: each box (its node's name and class), each line
/// (its index, its two nodes' names, its curves), the width it is shown at and the drawing's
/// own (its `viewBox`'s: wider than shown when the picture is scaled down).
struct Picture {
    boxes: Vec<(String, String, Rect)>,
    lines: Vec<(String, String, String, Vec<Cubic>)>,
    width: f64,
    drawn: f64,
}

fn picture(svg: &str) -> Picture {
    let xml = roxmltree::Document::parse(svg).unwrap();
    let num = |n: roxmltree::Node, a: &str| -> f64 { n.attribute(a).unwrap().parse().unwrap() };
    let class = |n: &roxmltree::Node, c: &str| {
        n.attribute("class")
            .is_some_and(|v| v.split(' ').any(|w| w == c))
    };
    let mut boxes = Vec::new();
    let mut lines = Vec::new();
    for g in xml.descendants().filter(|n| n.has_tag_name("g")) {
        let attr = |a: &str| g.attribute(a).unwrap_or_default().to_string();
        if class(&g, "node") {
            let r = g.children().find(|c| c.has_tag_name("rect")).unwrap();
            let rect = Rect::new(num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height"));
            boxes.push((attr("data-node"), attr("class"), rect));
        } else if class(&g, "link") {
            let path = g.children().find(|c| c.has_tag_name("path")).unwrap();
            let d = curves(path.attribute("d").unwrap());
            lines.push((attr("data-link"), attr("data-from"), attr("data-to"), d));
        }
    }
    let view = xml.root_element().attribute("viewBox").unwrap();
    Picture {
        boxes,
        lines,
        width: num(xml.root_element(), "width"),
        drawn: view.split(' ').nth(2).unwrap().parse().unwrap(),
    }
}

/// A path's cubic Bézier curves, from the `M x y C x y, x y, x y …` the picture writes.
fn curves(d: &str) -> Vec<Cubic> {
    let words: Vec<&str> = d.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let num = |i: usize| -> f64 { words[i].parse().unwrap() };
    assert_eq!(words[0], "M", "{d}");
    let mut at = (num(1), num(2));
    let mut out = Vec::new();
    let mut i = 3;
    while i < words.len() {
        assert_eq!(words[i], "C", "{d}");
        let c = [
            at,
            (num(i + 1), num(i + 2)),
            (num(i + 3), num(i + 4)),
            (num(i + 5), num(i + 6)),
        ];
        at = c[3];
        out.push(c);
        i += 7;
    }
    out
}

/// Points along a curve, at most 2 px apart (its control polygon bounds its length).
fn samples(c: &Cubic) -> Vec<(f64, f64)> {
    let length: f64 = c
        .windows(2)
        .map(|p| (p[1].0 - p[0].0).hypot(p[1].1 - p[0].1))
        .sum();
    let n = (length / 2.0).ceil().max(1.0) as usize;
    (0..=n)
        .map(|k| {
            let t = k as f64 / n as f64;
            let w = [
                (1.0 - t).powi(3),
                3.0 * (1.0 - t).powi(2) * t,
                3.0 * (1.0 - t) * t * t,
                t.powi(3),
            ];
            let x = (0..4).map(|j| w[j] * c[j].0).sum();
            let y = (0..4).map(|j| w[j] * c[j].1).sum();
            (x, y)
        })
        .collect()
}

/// The box of every line's label and every legend text, as Chromium lays out the pictures
/// (its text boxes, in the browser's own font, turned where the text is, in the picture's
/// coordinates): per picture, each with its line's index (none for the legend's).
fn label_boxes(
    pictures: &[(String, String)],
    dir: &Path,
) -> std::collections::BTreeMap<String, Vec<(Option<String>, Rect)>> {
    let mut page = String::from("<!DOCTYPE html>\n<html><body>\n");
    for (name, svg) in pictures {
        let _ = writeln!(page, "<div data-picture=\"{name}\">{svg}</div>");
    }
    page.push_str(
        "<pre id=\"geometry\"></pre>\n<script>\nconst out = [];\n\
         for (const div of document.querySelectorAll('div[data-picture]')) {\n  \
         const svg = div.querySelector('svg');\n  \
         const s = svg.getBoundingClientRect();\n  \
         const k = s.width / svg.viewBox.baseVal.width;\n  \
         for (const t of div.querySelectorAll('text.label, .legend text')) {\n    \
         const b = t.getBoundingClientRect();\n    \
         out.push({ picture: div.dataset.picture, link: t.getAttribute('data-link'), \
         x: (b.left - s.left) / k, y: (b.top - s.top) / k, w: b.width / k, h: b.height / k });\n  \
         }\n}\ndocument.getElementById('geometry').textContent = JSON.stringify(out);\n</script>\n</body></html>\n",
    );
    let file = dir.join("pictures.html");
    std::fs::write(&file, page).unwrap();
    let dom = chromium_on(&file, &["--dump-dom"], &dir.join("profile"));
    let start = dom.find("<pre id=\"geometry\">").expect("the measures") + 19;
    let json = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let all: serde_json::Value = serde_json::from_str(&json.replace("&quot;", "\"")).unwrap();
    let mut out: std::collections::BTreeMap<String, Vec<_>> = Default::default();
    for l in all.as_array().unwrap() {
        let f = |k: &str| l[k].as_f64().unwrap();
        let link = l["link"].as_str().map(str::to_string);
        let rect = Rect::new(f("x"), f("y"), f("w"), f("h"));
        out.entry(l["picture"].as_str().unwrap().to_string())
            .or_default()
            .push((link, rect));
    }
    out
}

/// What a picture draws over something else, or too wide: two boxes overlapping, two labels,
/// a label and a box, a line through a box other than its two ends' or through a label (its
/// own too: a label goes beside its line, not on it); a width over a laptop's screen (1,400 px),
/// drawn or shown.
fn overlaps(name: &str, p: &Picture, labels: &[(Option<String>, Rect)]) -> Vec<String> {
    let mut found = Vec::new();
    // Wrapped to the screen, not scaled down to it.
    if p.width > 1400.0 || p.drawn > 1400.0 {
        found.push(format!("{name}: {} px wide, shown at {}", p.drawn, p.width));
    }
    for (i, (a, _, ra)) in p.boxes.iter().enumerate() {
        for (b, _, rb) in &p.boxes[i + 1..] {
            if ra.overlaps(rb, 0.5) {
                found.push(format!("{name}: boxes {a} and {b} overlap"));
            }
        }
    }
    for (i, (la, ra)) in labels.iter().enumerate() {
        for (lb, rb) in &labels[i + 1..] {
            if ra.overlaps(rb, 0.5) {
                found.push(format!(
                    "{name}: labels of lines {la:?} and {lb:?} overlap: {ra:?} {rb:?}"
                ));
            }
        }
        for (b, _, rb) in &p.boxes {
            if ra.overlaps(rb, 0.5) {
                found.push(format!("{name}: the label of line {la:?} overlaps box {b}"));
            }
        }
    }
    for (link, from, to, curves) in &p.lines {
        let points: Vec<(f64, f64)> = curves.iter().flat_map(samples).collect();
        for (b, _, rb) in &p.boxes {
            if b != from && b != to && points.iter().any(|&q| rb.holds(q, 1.0)) {
                found.push(format!(
                    "{name}: line {link} ({from} to {to}) crosses box {b}"
                ));
            }
        }
        // Not even its own: a label sits beside its line.
        for (l, rl) in labels {
            if points.iter().any(|&q| rl.holds(q, 0.5)) {
                found.push(format!(
                    "{name}: line {link} ({from} to {to}) crosses the label of line {l:?}"
                ));
            }
        }
    }
    found
}

/// Where a picture of `f` puts its switches out of their tiers or order: every spine (by
/// role: an MLAG pair of spines is coloured as a pair) above every other switch, every switch
/// above every host, and in each tier switches by name, row by row.
fn misplaced(name: &str, p: &Picture, f: &Fabric) -> Vec<String> {
    let spine = |n: &str| {
        f.switches
            .get(n)
            .is_some_and(|s| s.role == Some(Role::Spine))
    };
    let of = |keep: &dyn Fn(&(String, String, Rect)) -> bool| -> Vec<&(String, String, Rect)> {
        let mut v: Vec<_> = p.boxes.iter().filter(|b| keep(b)).collect();
        v.sort_by(|a, b| (a.2.y0, a.2.x0).partial_cmp(&(b.2.y0, b.2.x0)).unwrap());
        v
    };
    let spines = of(&|b| spine(&b.0));
    let switches = of(&|b| !spine(&b.0) && b.1 != "node hosts");
    let hosts = of(&|b| b.1 == "node hosts");
    let mut found = Vec::new();
    for (upper, lower) in [(&spines, &switches), (&switches, &hosts)] {
        for (a, _, ra) in upper.iter() {
            for (b, _, rb) in lower.iter() {
                if ra.y1 >= rb.y0 {
                    found.push(format!("{name}: {a} is not above {b}"));
                }
            }
        }
    }
    for tier in [&spines, &switches] {
        let names: Vec<&str> = tier.iter().map(|b| b.0.as_str()).collect();
        if !names.is_sorted() {
            found.push(format!("{name}: switches out of order: {names:?}"));
        }
    }
    found
}

/// Two spines that are an MLAG pair, over a leaf named before them.
const MLAG_SPINES: &str = "onyx: 3.10.4606\nstp: on\nrouting:\n  \
     spine: { asn: 65000, loopbacks: 10.255.0.0/28 }\n  \
     leaf: { asn_base: 65100, loopbacks: 10.255.1.0/24 }\n  links: 10.254.0.0/20\nmlag:\n  \
     - switches: [spine1, spine2]\n    system_mac: 00:00:5E:00:01:61\n    \
     ipl: { port_channel: 100, vlan: 4000, subnet: 10.254.255.0/30 }\nswitches:\n  \
     spine1: { model: SN2700, role: spine }\n  spine2: { model: SN2700, role: spine }\n  \
     leaf01:\n    model: SN2700\n    role: leaf\n    \
     vlans: [{ id: 101, name: r1, address: 10.101.1.1/24 }]\n    ports:\n      \
     1/1-1/4: { vlan: 101, peer: { host: \"h{1..4}\", port: eth0 } }\nlinks:\n  \
     - { a: \"spine1:1/31-1/32\", b: \"spine2:1/31-1/32\", role: ipl }\n  \
     - { a: \"spine1:1/1\", b: \"leaf01:1/29\" }\n  - { a: \"spine2:1/1\", b: \"leaf01:1/30\" }\n";

/// Every picture `fabric docs` draws for the example fabrics, for a fabric like a user's whose
/// picture was hard to read (10 and 16 switches, a storage and a border switch among the
/// leaves, an MLAG pair), for a switch cabled to itself and for an MLAG pair of spines: nothing over anything else,
/// measured from the SVG's boxes and curves and Chromium's text boxes; at most a laptop's screen
/// wide; spines above the other switches above the hosts, each tier in name order.
#[test]
fn pictures_draw_nothing_over_anything() {
    let dir = scratch("docs-geometry");
    let mut paths = documented();
    let generated = [
        ("user-6", user_fabric(6)),
        ("user-12", user_fabric(12)),
        ("looped", LOOPED.to_string()),
        ("mlag-spines", MLAG_SPINES.to_string()),
    ];
    for (name, yaml) in generated {
        let path = dir.join(format!("{name}.yaml"));
        std::fs::write(&path, yaml).unwrap();
        paths.push(path);
    }
    let pictures: Vec<(String, String)> = paths
        .iter()
        .map(|p| (stem(p), docs_of(p)["topology.svg"].clone()))
        .collect();
    let labels = label_boxes(&pictures, &dir);
    let mut found = Vec::new();
    for (path, (name, svg)) in paths.iter().zip(&pictures) {
        let p = picture(svg);
        assert!(!p.lines.is_empty() && p.boxes.len() > 1, "{name}");
        found.extend(overlaps(name, &p, &labels[name]));
        found.extend(misplaced(name, &p, &load(path)));
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
