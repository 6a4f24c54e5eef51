//! NVUE's REST API of the lab's Cumulus switches over HTTPS (`fabric lab`, loopback): the
//! revision flow with curl, checked against the switch's certificate; then NVIDIA's Ansible
//! collection `nvidia.nvue` through `ansible.netcommon.httpapi`. Each change is read back
//! over SSH with `nv config show`, as the same switch state the CLI changes.

use std::collections::BTreeMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::lab_ssh::{Killed, lab_inventory, ssh2_session, start_lab_of};
use crate::{root, scratch};

/// A lab of the Spectrum-X fabric (six Cumulus switches) in a scratch folder.
fn lab(name: &str) -> (Killed, PathBuf) {
    let state = scratch(&format!("cumulus-rest-{name}"));
    let (lab, table) = start_lab_of(&root().join("fabrics/spectrum-x.yaml"), &state, &[], &[]);
    assert!(table.contains("HTTPS APIs:"), "{table}");
    (lab, state)
}

/// Each switch's API URL, from the lab's `api.yaml`.
fn apis(state: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(state.join("api.yaml")).unwrap();
    serde_saphyr::from_str(&text).unwrap()
}

/// One request with curl, the switch's certificate the only one trusted: status and body.
fn curl(state: &Path, url: &str, method: &str, body: &str, password: &str) -> (u16, String) {
    let out = Command::new("curl")
        .args(["-sS", "--max-time", "20", "-X", method])
        .arg("--cacert")
        .arg(state.join("leaf01/https.crt"))
        .args(["-u", &format!("cumulus:{password}")])
        .args(["-H", "Content-Type: application/json"])
        .args(["--data-binary", body])
        .args(["-w", "\n%{http_code}"])
        .arg(url)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "curl {method} {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let (body, code) = text.rsplit_once('\n').unwrap();
    (code.trim().parse().unwrap(), body.to_string())
}

fn json(body: &str) -> serde_json::Value {
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

/// `command` run over SSH on `switch` (an exec request, as `ssh HOST COMMAND` sends it).
fn ssh(state: &Path, switch: &str, command: &str) -> String {
    let a = &lab_inventory(state).switches[switch];
    let addr = format!("{}:{}", a.host, a.port).parse().unwrap();
    let session = ssh2_session(addr, &state.join("known_hosts"));
    session.userauth_password(&a.user, "admin").unwrap();
    let mut channel = session.channel_session().unwrap();
    channel.exec(command).unwrap();
    let mut out = String::new();
    channel.read_to_string(&mut out).unwrap();
    let _ = channel.wait_close();
    out
}

#[test]
fn the_rest_api_revision_flow_changes_the_switch_the_cli_reads() {
    let (_lab, state) = lab("curl");
    let apis = apis(&state);
    assert_eq!(apis.len(), 6, "{apis:?}");
    let base = &apis["leaf01"];
    assert!(base.starts_with("https://127.0.0.1:") && base.ends_with("/nvue_v1"));
    let call = |method: &str, path: &str, body: &str| {
        curl(&state, &format!("{base}{path}"), method, body, "admin")
    };
    // Plain HTTP and garbage on the TLS port are dropped; the server goes on.
    let addr: std::net::SocketAddr = base
        .trim_start_matches("https://")
        .trim_end_matches("/nvue_v1")
        .parse()
        .unwrap();
    for junk in [
        &b"GET / HTTP/1.1\r\n\r\n"[..],
        &[0x16, 0x03, 0x01, 0xff, 0xff, 0][..],
    ] {
        let mut tcp = std::net::TcpStream::connect(addr).unwrap();
        std::io::Write::write_all(&mut tcp, junk).unwrap();
        let _ = tcp.shutdown(std::net::Shutdown::Write);
        let mut rest = Vec::new();
        let _ = tcp.read_to_end(&mut rest);
    }
    // A wrong password is refused.
    let url = format!("{base}/revision");
    assert_eq!(curl(&state, &url, "POST", "{}", "wrong").0, 401);

    let (code, made) = call("POST", "/revision", "{}");
    assert_eq!(code, 200, "{made}");
    let made = json(&made);
    let rev = made.as_object().unwrap().keys().next().unwrap().clone();
    assert_eq!(made[&rev]["state"], "pending");
    let body = r#"{"swp1": {"description": "rest-was-here", "link": {"mtu": 9000}}}"#;
    let (code, out) = call("PATCH", &format!("/interface?rev={rev}"), body);
    assert_eq!(code, 200, "{out}");
    let (code, out) = call("DELETE", &format!("/system/timezone?rev={rev}"), "");
    assert_eq!(code, 204, "{out}");
    let apply = r#"{"state": "apply", "auto-prompt": {"ays": "ays_yes"}}"#;
    let (code, out) = call("PATCH", &format!("/revision/{rev}"), apply);
    assert_eq!(code, 200, "{out}");
    let (_, out) = call("GET", &format!("/revision/{rev}"), "");
    assert_eq!(json(&out)["state"], "applied", "{out}");
    let (code, out) = call("GET", "/interface/swp1?rev=applied", "");
    assert_eq!(code, 200, "{out}");
    assert_eq!(json(&out)["link"]["mtu"], 9000, "{out}");

    // The CLI reads the same switch: applied, not saved, its history says REST.
    let commands = ssh(&state, "leaf01", "nv config show -o commands");
    assert!(
        commands.contains("nv set interface swp1 description rest-was-here\n")
            && commands.contains("nv set interface swp1 link mtu 9000\n")
            && !commands.contains("timezone"),
        "{commands}"
    );
    let history = ssh(&state, "leaf01", "nv config history");
    assert!(history.contains("method: REST"), "{history}");
    let startup = std::fs::read_to_string(state.join("leaf01/startup.yaml")).unwrap();
    assert!(!startup.contains("rest-was-here"), "{startup}");
    // Logged as requests, the other switches untouched.
    let log = std::fs::read_to_string(state.join("leaf01/commands.log")).unwrap();
    assert!(
        log.contains(&format!("\tPATCH /nvue_v1/revision/{rev}\n")),
        "{log}"
    );
    assert!(!ssh(&state, "leaf02", "nv config show -o commands").contains("rest-was-here"));
}

#[test]
fn switches_of_an_os_without_an_api_serve_none() {
    let state = scratch("cumulus-rest-onyx");
    std::fs::write(state.join("api.yaml"), "stale: https://127.0.0.1:1/x\n").unwrap();
    let fabric = root().join("fabrics/rdg-roce-dscp.yaml");
    let (_lab, table) = start_lab_of(&fabric, &state, &[], &[]);
    assert!(!table.contains("HTTPS APIs:"), "{table}");
    assert!(!state.join("api.yaml").exists());
    assert!(!state.join("swx-mld-1-2").join("https.crt").exists());
}

/// NVIDIA's `nvidia.nvue` collection (1.2.5, kept in `tests/fixtures/clients/nvidia-nvue/`:
/// `tests/fixtures/SOURCES.md`) over `ansible.netcommon.httpapi`, against a lab Cumulus
/// switch's REST API: its changes read back over SSH.
#[test]
fn ansible_nvidia_nvue_changes_a_lab_cumulus_switch_over_the_rest_api() {
    let venv = crate::clients::venv();
    let collections = root().join("tests/fixtures/clients/nvidia-nvue");
    let (_lab, state) = lab("ansible");
    let url = apis(&state)["leaf01"].clone();
    let port = url
        .trim_start_matches("https://127.0.0.1:")
        .trim_end_matches("/nvue_v1");
    let dir = state.join("ansible");
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    std::os::unix::fs::symlink(&collections, dir.join("collections")).unwrap();
    std::fs::write(
        dir.join("inventory.ini"),
        format!(
            "sw ansible_host=127.0.0.1 ansible_httpapi_port={port} ansible_user=cumulus ansible_password=admin\n"
        ),
    )
    .unwrap();
    let tasks = crate::clients::play(&venv, &dir, "nvue.yml");
    let changed: Vec<&str> = tasks
        .iter()
        .filter(|t| t.changed)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(changed, ["interface", "api set into the revision"]);
    let commands = ssh(&state, "leaf01", "nv config show -o commands");
    assert!(
        commands.contains("nv set interface swp1 description ansible-nvue\n")
            && commands.contains("nv set interface swp1 link mtu 9000\n")
            && commands.contains("nv set system message pre-login ansible-nvue-banner\n"),
        "{commands}"
    );
}
