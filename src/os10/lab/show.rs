//! The `show` commands of the lab's OS10 switch, in the layouts the captures show:
//! `show running-configuration` (the renderer's text), `… interface NAME` (the block after a
//! `!`, CSM `sw-cdu-001`), `show version` and `show port-group` (AzureStack TOR, 10.5.3.2).
//! What the network around the switch decides is in [`super::state`].

use std::time::Instant;

use crate::os10::{self, Config, Iface};

use super::Os10Switch;

fn render(config: &Config) -> Result<String, String> {
    os10::Renderer::shared()?.render(config)
}

pub fn running(config: &Config) -> Result<String, String> {
    render(config)
}

/// The lines of the block at `path` (headers, outermost first), after a `!`: `None` when
/// there is no such block.
fn lines_of(config: &Config, path: &[String]) -> Result<Option<String>, String> {
    let text = render(config)?;
    let lines: Vec<&str> = text.lines().collect();
    let (mut start, mut end) = (0, lines.len());
    for (d, h) in path.iter().enumerate() {
        let depth = |l: &str| l.len() - l.trim_start_matches(' ').len();
        let Some(at) = (start..end).find(|&i| depth(lines[i]) == d && lines[i].trim() == h) else {
            return Ok(None);
        };
        start = at;
        end = (at + 1..end)
            .find(|&i| depth(lines[i]) <= d && !lines[i].trim().is_empty())
            .unwrap_or(end);
    }
    let mut out = String::from("!\n");
    for l in &lines[start..end] {
        out.push_str(l);
        out.push('\n');
    }
    Ok(Some(out))
}

/// `show running-configuration interface NAME`.
pub fn interface(config: &Config, iface: &Iface) -> Result<Option<String>, String> {
    lines_of(config, &[format!("interface {iface}")])
}

/// `show configuration` in a sub-mode: its block (grantcurell, 10.5.0.2).
pub fn block(config: &Config, path: &[String]) -> Result<String, String> {
    Ok(lines_of(config, path)?.unwrap_or_default())
}

/// `Up Time:` as the capture prints it (`10 weeks 4 days 23:25:39`); the lab prints weeks and
/// days when there are some, UNCONFIRMED for a switch up less than a day.
fn uptime(booted: Instant) -> String {
    let s = booted.elapsed().as_secs();
    let (weeks, days) = (s / 604_800, s / 86_400 % 7);
    let clock = format!("{:02}:{:02}:{:02}", s / 3600 % 24, s / 60 % 60, s % 60);
    match (weeks, days) {
        (0, 0) => clock,
        (0, d) => format!("{d} days {clock}"),
        (w, d) => format!("{w} weeks {d} days {clock}"),
    }
}

/// The software's long name, as `show version` prints it first (10.5.3.2) and its XML
/// document's `sw-name-long` (10.4.0E: `Dell EMC Networking OS10 Enterprise`).
pub const SW_NAME: &str = "Dell EMC Networking OS10 Enterprise";

/// The copyright line of the captured 10.5.3.2 build.
pub const COPYRIGHT: &str = "Copyright (c) 1999-2021 by Dell Inc. All Rights Reserved.";

/// The captured 10.5.3.2 build's time, and its number after the release.
pub const BUILD_TIME: &str = "2021-12-03T21:05:43+0000";
pub const BUILD: &str = "89";

/// `show version`, the 10.5.3.2 layout; the build version and time are the captured build's.
pub fn version(sw: &Os10Switch) -> String {
    format!(
        "{SW_NAME}\n\
         {COPYRIGHT}\n\
         OS Version: {release}\n\
         Build Version: {release}.{BUILD}\n\
         Build Time: {BUILD_TIME}\n\
         System Type: {model}\n\
         Architecture: x86_64\n\
         Up Time: {up}\n",
        release = sw.release,
        model = sw.model.name,
        up = uptime(sw.booted),
    )
}

/// `show port-group`, the TOR's layout (10.5.3.2, S5248F-ON): each group of the model with its
/// mode (the configuration's, else the native one) and its ports. The capture's spacing: the
/// name and mode columns padded to 22 and 15, the ports joined by two spaces, then five spaces
/// before the FEM column's `-`, nine after a group's only port (as captured; the rule behind
/// it is not known, so other layouts are UNCONFIRMED).
pub fn port_groups(config: &Config, model: &os10::models::Model) -> String {
    let mut out = String::from("Port-group            Mode           Ports     FEM\n");
    for g in model.port_groups() {
        let mode = os10::groups::mode(&config.port_groups, &g);
        let ports: Vec<String> = g.ports().map(|n| n.to_string()).collect();
        let gap = if g.size() == 1 { 9 } else { 5 };
        out.push_str(&format!(
            "{:<22}{:<15}{}{}-\n",
            format!("port-group1/1/{}", g.number),
            format!("Eth {mode}"),
            ports.join("  "),
            " ".repeat(gap)
        ));
    }
    out
}
