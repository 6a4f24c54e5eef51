//! The fabric's `hosts:`: each server's OS, NIC, ports and MTU, checked on their own and
//! against the switch ports whose peers name them. A fabric without `hosts:` has nothing
//! checked here: peers naming undeclared hosts stay as valid as before.
//!
//! The MTU check: Onyx's `mtu` is the frame size of the port (NVIDIA Onyx user manual,
//! "Interfaces": "Maximum Transmission Unit (MTU) frame size"), a host's MTU the IP packet
//! its interface sends. A frame adds [`WIRE_OVERHEAD`] bytes to the packet: the Ethernet
//! header (14), one 802.1Q tag (4: ESXi port groups and priority-tagged PFC traffic carry
//! one) and the FCS (4), IEEE 802.3 clause 3 and 802.1Q clause 9. Reading Onyx's MTU as the
//! whole frame is the strictest reading [unconfirmed: no capture shows which bytes Onyx
//! counts], so a host that passes fits whichever Onyx counts: 9000 under 9216 passes, as
//! NVIDIA's RoCE guides pair them.

use super::*;
use crate::fabric::raw::{RawHost, RawHostPort};
use crate::fabric::{Host, HostPort};
use crate::types::{HostOs, Nic};

/// Bytes a frame adds to the host's MTU on the wire: Ethernet header, one 802.1Q tag, FCS.
pub const WIRE_OVERHEAD: u16 = 14 + 4 + 4;

/// The largest MTU of a VMkernel interface and a standard vSwitch: 9000 (VMware vSphere
/// Networking, "Enabling Jumbo Frames": "MTU size up to 9000 bytes").
const ESXI_MAX_MTU: i64 = 9000;

/// A peer of a switch port that names a host, with where it is written.
struct Cabled {
    switch: String,
    port: Port,
    nic_port: Option<String>,
    at: Span,
    /// The MTU the switch port resolves to (Onyx's default when none is set), and the line
    /// that sets it.
    mtu: u16,
    mtu_at: Option<Span>,
}

/// Hosts whose frames do not fit the switch ports they are cabled to, by the line to change.
type Misfits<'a> = BTreeMap<(Span, Side), Vec<(&'a str, u16, &'a Cabled)>>;

/// Which line a misfit MTU is reported at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Side {
    /// The host's `mtu`: no switch port could carry it.
    Host,
    /// The line that sets the switch port's MTU.
    Port,
    /// The host's `mtu`, because no line sets the ports' (they run the default).
    Unset,
}

/// The validated hosts, by name.
pub(crate) fn hosts(
    cx: &mut Cx,
    raw: &RawFabric,
    pending: &BTreeMap<String, Pending>,
) -> (BTreeMap<Hostname, Host>, BTreeMap<String, Span>) {
    let Some(entries) = &raw.hosts else {
        return (BTreeMap::new(), BTreeMap::new());
    };
    let d = declared_hosts(cx, entries);
    let cabled = cabled_ports(pending, &d.out);
    let misnamed = misnamed_ports(&d.out, &cabled, &d.port_keys);
    let mut misfits: Misfits = BTreeMap::new();
    for (name, host) in &d.out {
        let name = name.as_str();
        let cables = cabled.get(name).map_or(&[][..], Vec::as_slice);
        let seen = host_cables(cx, (name, host, cables), &d, &misnamed, &mut misfits);
        uncabled_ports(cx, (name, host), &seen, &d, &misnamed);
    }
    misfit_mtus(cx, misfits, &d.mtu_at);
    (d.out, d.mtu_at)
}

/// The hosts declared (each once, E134; one `mgmt` a host), where each was declared, each
/// host port's key and each host's MTU line.
struct Declared {
    out: BTreeMap<Hostname, Host>,
    declared: BTreeMap<String, Span>,
    port_keys: BTreeMap<(String, String), Span>,
    mtu_at: BTreeMap<String, Span>,
}

fn declared_hosts(cx: &mut Cx, entries: &Entries<String, RawHost>) -> Declared {
    let mut out: BTreeMap<Hostname, Host> = BTreeMap::new();
    // Where each host was declared (for a host declared twice), and each host port's key.
    let mut declared: BTreeMap<String, Span> = BTreeMap::new();
    let mut port_keys: BTreeMap<(String, String), Span> = BTreeMap::new();
    let mut mtu_at: BTreeMap<String, Span> = BTreeMap::new();
    for (key, h) in &entries.0 {
        let Some(names) = pattern(cx, key) else {
            continue;
        };
        let at = cx.span(key);
        if let Some(m) = h.mgmt.as_ref().filter(|_| names.len() > 1) {
            cx.push(
                Diagnostic::error(
                    "E134",
                    format!("`{}` names {} hosts but one `mgmt`", key.get(), names.len()),
                )
                .at(cx.span(&m.host), "one address")
                .also(at, "several hosts")
                .help("give each host it reaches over SSH its own entry and `mgmt`"),
            );
        }
        let Some(host) = one_host(cx, h) else {
            continue;
        };
        for name in names {
            let hostname = match name.parse::<Hostname>() {
                Ok(n) => n,
                Err(e) => {
                    cx.invalid("E022", e, at, "host name");
                    break;
                }
            };
            if let Some(first) = declared.get(&name.to_lowercase()) {
                let first = *first;
                cx.push(
                    Diagnostic::error(
                        "E134",
                        format!("host `{name}` is declared twice (host names ignore case)"),
                    )
                    .at(at, "declared again here")
                    .also(first, "first declared here"),
                );
                continue;
            }
            declared.insert(name.to_lowercase(), at);
            for (p, _) in &h.ports.0 {
                port_keys.insert((name.clone(), p.get().clone()), cx.span(p));
            }
            mtu_at.insert(name.clone(), cx.span(&h.mtu));
            out.insert(hostname.clone(), host(hostname));
        }
    }

    Declared {
        out,
        declared,
        port_keys,
        mtu_at,
    }
}

/// Every switch port whose peer names a declared host, by host (looked up by name: a scan of
/// the hosts per peer was quadratic, 60,000 hosts took 25 s).
fn cabled_ports<'a>(
    pending: &'a BTreeMap<String, Pending>,
    out: &BTreeMap<Hostname, Host>,
) -> BTreeMap<&'a str, Vec<Cabled>> {
    let mut cabled: BTreeMap<&str, Vec<Cabled>> = BTreeMap::new();
    for (switch, p) in pending {
        for (port, claims) in &p.claims {
            for c in claims {
                let Some((
                    Peer::Host {
                        host,
                        port: nic_port,
                    },
                    at,
                )) = &c.peer
                else {
                    continue;
                };
                if !out.contains_key(host.as_str()) {
                    continue;
                }
                let mtu = p
                    .switch
                    .ports
                    .get(port)
                    .and_then(|s| s.mtu)
                    .unwrap_or(crate::fabric::meaning::default_mtu(p.switch.os()));
                cabled.entry(host).or_default().push(Cabled {
                    switch: switch.clone(),
                    port: *port,
                    nic_port: nic_port.clone(),
                    at: *at,
                    mtu,
                    mtu_at: p.set_at.get(port).and_then(|a| a.mtu),
                });
            }
        }
    }

    cabled
}

/// A host's cables: each to a port it declares (E131, the name meant where one is close or
/// declared otherwise), one cable a port (E135), the MTU that fits (misfits, reported
/// together); the cable of each port.
fn host_cables<'a>(
    cx: &mut Cx,
    (name, host, cables): (&'a str, &Host, &'a [Cabled]),
    d: &Declared,
    misnamed: &Misnamed,
    misfits: &mut Misfits<'a>,
) -> BTreeMap<&'a str, &'a Cabled> {
    let (declared, mtu_at) = (&d.declared, &d.mtu_at);
    let mut seen: BTreeMap<&str, &Cabled> = BTreeMap::new();
    for c in cables {
        crate::steps::one();
        let Some(nic_port) = c
            .nic_port
            .as_deref()
            .filter(|p| host.ports.contains_key(*p))
        else {
            unknown_port(cx, (name, host, cables), c, declared, misnamed);
            continue;
        };
        if let Some(first) = seen.insert(nic_port, c) {
            cx.push(
                Diagnostic::error(
                    "E135",
                    format!(
                        "`{name}` port `{nic_port}` is cabled to two switch ports, {}:{} and {}:{}",
                        first.switch, first.port, c.switch, c.port
                    ),
                )
                .at(c.at, "second cable")
                .also(first.at, "first cable")
                .help("a NIC port has one cable: fix the port or the host of one peer"),
            );
        }
        if host.mtu + WIRE_OVERHEAD > c.mtu {
            // The line to change: the host's MTU when no switch port could carry it,
            // else the line that sets the port's (or its peer, where none does).
            let key = match (mtu_at.get(name), c.mtu_at) {
                (Some(h), _) if host.mtu + WIRE_OVERHEAD > *crate::types::MTU.end() => {
                    (*h, Side::Host)
                }
                (_, Some(p)) => (p, Side::Port),
                (Some(h), None) => (*h, Side::Unset),
                (None, None) => (c.at, Side::Port),
            };
            misfits.entry(key).or_default().push((name, host.mtu, c));
        }
    }
    seen
}

/// E131: a cable to a port its host does not declare (or naming none): the port its host
/// declares under another name where a peer's line names it for every host of its entry,
/// else the name meant where one is close (a port no other cable names first).
fn unknown_port(
    cx: &mut Cx,
    (name, host, cables): (&str, &Host, &[Cabled]),
    c: &Cabled,
    declared: &BTreeMap<String, Span>,
    misnamed: &Misnamed,
) {
    let known: Vec<&str> = host.ports.keys().map(String::as_str).collect();
    let moved = c
        .nic_port
        .as_ref()
        .and_then(|p| misnamed.at_key.get(&(name.to_string(), p.clone())));
    if let (Some((best, key)), Some(p)) = (moved, &c.nic_port) {
        cx.push(
            Diagnostic::error(
                "E131",
                format!(
                    "the switch ports cabled to `{name}` name its port `{p}`, but `{name}` declares `{best}`"
                ),
            )
            .at(*key, format!("declared as `{best}`"))
            .also(c.at, format!("`{p}` here"))
            .help(format!("did you mean `{p}`? Rename the port here: this line names it for every host of its entry")),
        );
        return;
    }
    let mut d = Diagnostic::error(
        "E131",
        match &c.nic_port {
            Some(p) => format!(
                "{}:{} is cabled to `{name}` port `{p}`, which `{name}` does not declare",
                c.switch, c.port
            ),
            None => format!(
                "{}:{} is cabled to `{name}` without naming the host's port",
                c.switch, c.port
            ),
        },
    )
    .at(c.at, "this peer");
    if let Some(at) = declared.get(&name.to_lowercase()) {
        d = d.also(*at, format!("`{name}` declared here"));
    }
    // A port no other cable names first: the one this cable was meant for.
    let named: BTreeSet<&str> = cables
        .iter()
        .filter_map(|x| x.nic_port.as_deref())
        .collect();
    let free = known.iter().copied().filter(|k| !named.contains(k));
    let help = match c
        .nic_port
        .as_deref()
        .and_then(|p| did_you_mean(p, free).or_else(|| did_you_mean(p, known.iter().copied())))
    {
        Some(best) => format!("did you mean `{best}`?"),
        None => format!("the host's ports: {}", known.join(", ")),
    };
    cx.push(d.help(help));
}

/// A host's ports no cable names (E130), where the line to change is.
fn uncabled_ports(
    cx: &mut Cx,
    (name, host): (&str, &Host),
    seen: &BTreeMap<&str, &Cabled>,
    d: &Declared,
    misnamed: &Misnamed,
) {
    let port_keys = &d.port_keys;
    for port in host.ports.keys() {
        crate::steps::one();
        if seen.contains_key(port.as_str()) {
            continue;
        }
        let key = (name.to_string(), port.clone());
        if misnamed.renamed.contains(&key) {
            continue;
        }
        let misnamed_at = misnamed.at_peer.get(&key);
        if let Some(peer) = misnamed_at {
            // The peer that names it otherwise: that peer's E131.
            let peer = *peer;
            cx.push(
                Diagnostic::error(
                    "E130",
                    format!("`{name}` port `{port}` is cabled to no switch port"),
                )
                .at(peer, "named otherwise here")
                .follows(),
            );
        } else if let Some(entry) = cx.refused_peers.get(&key) {
            // Its cable is in an entry refused for its ports: that entry's error.
            let entry = *entry;
            cx.push(
                Diagnostic::error(
                    "E130",
                    format!("`{name}` port `{port}` is cabled to no switch port"),
                )
                .at(entry, "the entry that cables it is refused")
                .follows(),
            );
        } else if let Some(at) = port_keys.get(&key) {
            cx.push(
                Diagnostic::error(
                    "E130",
                    format!("`{name}` port `{port}` is cabled to no switch port"),
                )
                .at(*at, "no switch port's peer names it")
                .help(format!(
                    "add `peer: {{ host: {name}, port: {port} }}` to the switch port it is cabled to, or remove the port"
                )),
            );
        }
    }
}

/// Host ports cabled under a name close to the declared one ([`misnamed_ports`]).
#[derive(Default)]
struct Misnamed {
    /// (host, name the peers give) → the declared name and its key, where the declaration is
    /// the line to change (several peer entries agree on the other name).
    at_key: BTreeMap<(String, String), (String, Span)>,
    /// (host, declared name) → the one peer that names it otherwise, the line to change: the
    /// declared port's E130 follows from it.
    at_peer: BTreeMap<(String, String), Span>,
    /// (host, declared name) of every port of `at_key`: its E131 is at the declaration, so no
    /// E130 of its own (looked up, not found by a scan of `at_key` per port: a pattern entry
    /// misnaming its hosts' port puts every host in `at_key`).
    renamed: BTreeSet<(String, String)>,
}

/// Host ports declared under one name and cabled under another: a declared port no cable
/// names, the close name (`did_you_mean`) that several peer entries give instead. The line
/// to change is then the one declaring the port (it names the port of every host of its
/// entry), not each peer: by (host, name the peers give), the declared name and its key.
fn misnamed_ports(
    hosts: &BTreeMap<Hostname, Host>,
    cabled: &BTreeMap<&str, Vec<Cabled>>,
    port_keys: &BTreeMap<(String, String), Span>,
) -> Misnamed {
    // (declared port's key, name the peers give) → (host, declared name), and the peers.
    type Guess = (Span, String);
    type Seen = (Vec<(String, String)>, BTreeSet<Span>);
    let mut guesses: BTreeMap<Guess, Seen> = BTreeMap::new();
    for (name, host) in hosts {
        let cables = cabled.get(name.as_str()).map_or(&[][..], Vec::as_slice);
        let named: BTreeSet<&str> = cables
            .iter()
            .filter_map(|c| c.nic_port.as_deref())
            .collect();
        for c in cables {
            let Some(p) = c
                .nic_port
                .as_deref()
                .filter(|p| !host.ports.contains_key(*p))
            else {
                continue;
            };
            let unused = host
                .ports
                .keys()
                .map(String::as_str)
                .filter(|k| !named.contains(k));
            let Some(best) = did_you_mean(p, unused) else {
                continue;
            };
            let Some(key) = port_keys.get(&(name.to_string(), best.to_string())) else {
                continue;
            };
            let e = guesses.entry((*key, p.to_string())).or_default();
            e.0.push((name.to_string(), best.to_string()));
            e.1.insert(c.at);
        }
    }
    let mut out = Misnamed::default();
    for ((key, p), (hosts, peers)) in guesses {
        for (h, best) in hosts {
            match peers.iter().next() {
                Some(_) if peers.len() > 1 => {
                    out.renamed.insert((h.clone(), best.clone()));
                    out.at_key.insert((h, p.clone()), (best, key));
                }
                Some(peer) => {
                    out.at_peer.insert((h, best), *peer);
                }
                None => {}
            }
        }
    }
    out
}

/// E132, once per line to change: the hosts whose frames do not fit the switch ports they are
/// cabled to, at the line that sets those ports' MTU (or the host's, when no port could carry
/// it; or the peer, when no line sets the port's).
fn misfit_mtus(cx: &mut Cx, misfits: Misfits, mtu_at: &BTreeMap<String, Span>) {
    for ((at, side), list) in misfits {
        let (name, mtu, c) = list[0];
        let frame = mtu + WIRE_OVERHEAD;
        let more = match list.len() {
            1 => String::new(),
            n => format!(
                " (and {} more host{})",
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        };
        let mut d = Diagnostic::error(
            "E132",
            format!(
                "`{name}` has MTU {mtu} but {}:{} has MTU {}: frames of {frame} bytes do not fit{more}",
                c.switch, c.port, c.mtu
            ),
        );
        let lower = c.mtu.saturating_sub(WIRE_OVERHEAD);
        let help = match side {
            Side::Host => {
                d = d.at(at, "host MTU").also(c.at, "cabled here");
                format!("lower the host's MTU to {lower} or less")
            }
            Side::Port => {
                d = match c.mtu_at {
                    Some(_) => d
                        .at(at, format!("MTU {} set here", c.mtu))
                        .also(c.at, "cabled here"),
                    None => d.at(
                        at,
                        format!("cabled here; the port has no `mtu` ({})", c.mtu),
                    ),
                };
                if let Some(h) = mtu_at.get(name) {
                    d = d.also(*h, "host MTU");
                }
                format!("raise the switch port's MTU (9216), or lower the host's to {lower}")
            }
            Side::Unset => {
                let ports = list.len();
                d = d.at(at, "host MTU").also(
                    c.at,
                    format!(
                        "cabled here; {ports} port{} of these hosts set{} no `mtu` ({})",
                        if ports == 1 { "" } else { "s" },
                        if ports == 1 { "s" } else { "" },
                        c.mtu
                    ),
                );
                format!(
                    "give the switch ports an MTU (`port_defaults: {{ mtu: 9216 }}`, or in their profile), or lower the hosts' MTU to {lower}"
                )
            }
        };
        cx.push(d.help(format!(
            "a frame carries the host's MTU plus {WIRE_OVERHEAD} bytes (Ethernet header, 802.1Q tag, FCS): {help}"
        )));
    }
}

/// One host entry's settings, checked: the host each of its expanded names gets.
fn one_host(cx: &mut Cx, h: &RawHost) -> Option<impl Fn(Hostname) -> Host + use<>> {
    let os = cx.word(&h.os, HostOs::parse);
    let nic = cx.word(&h.nic, Nic::find);
    let max = if os == Some(HostOs::Esxi) {
        ESXI_MAX_MTU
    } else {
        9216
    };
    let mtu = cx.int(&h.mtu, |v| {
        u16::try_from(v)
            .ok()
            .filter(|v| (1280..=max).contains(&i64::from(*v)))
            .ok_or_else(|| format!("host MTU {v} is out of range 1280-{max}"))
    });
    let mgmt = h.mgmt.as_ref().and_then(|m| {
        if os == Some(HostOs::Esxi) {
            cx.push(
                Diagnostic::error(
                    "E133",
                    "`mgmt` on an `esxi` host: live host reads are for Linux hosts",
                )
                .at(cx.span(&m.host), "mgmt")
                .help("audit ESXi hosts from reports (`fabric hosts --format collect`, then `fabric audit --hosts`)"),
            );
            return None;
        }
        values::mgmt(cx, m)
    });
    let mut ports = BTreeMap::new();
    let mut ok = true;
    for (name, p) in &h.ports.0 {
        match (os, host_port(cx, name, p, os)) {
            (_, None) => ok = false,
            (_, Some(port)) => {
                ports.insert(name.get().clone(), port);
            }
        }
    }
    if h.ports.0.is_empty() {
        cx.push(
            Diagnostic::error("E011", "a host declares no port")
                .at(cx.span(&h.os), "this host")
                .help("list the NIC ports its switch ports' peers name under `ports`"),
        );
        ok = false;
    }
    if !ok || h.mgmt.is_some() && mgmt.is_none() {
        return None;
    }
    let (os, nic, mtu) = (os?, nic?, mtu?);
    let ports = std::sync::Arc::new(ports);
    Some(move |name| Host {
        name,
        os,
        nic,
        mtu,
        ports: std::sync::Arc::clone(&ports),
        mgmt: mgmt.clone(),
    })
}

/// A name printed into a shell script: letters, digits, `_`, `.`, `-`, at most `max`.
fn shell_token(cx: &mut Cx, v: &Sp<String>, what: &str, max: usize) -> Option<String> {
    let t = cx.token(
        v,
        what,
        |c| c.is_ascii_alphanumeric() || "_.-".contains(c),
        &format!("{what} is letters, digits, `_`, `.` and `-` (it is printed into shell commands)"),
    )?;
    if t.len() > max || t.starts_with('-') {
        cx.push(
            Diagnostic::error(
                "E024",
                if t.starts_with('-') {
                    format!("{what} `{t}` starts with `-`: a command would read it as an option")
                } else {
                    format!("{what} `{t}` is {} characters, at most {max}", t.len())
                },
            )
            .at(cx.span(v), "refused"),
        );
        return None;
    }
    Some(t)
}

/// One NIC port: its name and the keys its OS takes.
fn host_port(
    cx: &mut Cx,
    name: &Sp<String>,
    p: &RawHostPort,
    os: Option<HostOs>,
) -> Option<HostPort> {
    // Linux interface names fit IFNAMSIZ (16 with the NUL, include/uapi/linux/if.h).
    let port = shell_token(cx, name, "NIC port name", 15);
    let rdma = p
        .rdma
        .as_ref()
        .and_then(|v| shell_token(cx, v, "RDMA device name", 63));
    let vmknic = p
        .vmknic
        .as_ref()
        .and_then(|v| shell_token(cx, v, "VMkernel interface name", 15));
    let vswitch = p
        .vswitch
        .as_ref()
        .and_then(|v| shell_token(cx, v, "vSwitch name", 31));
    let keys_fit = os_keys(cx, name, p, os);
    let ok = port.is_some() && keys_fit;
    if !ok || p.rdma.is_some() && rdma.is_none() || p.vmknic.is_some() && vmknic.is_none() {
        return None;
    }
    if p.vswitch.is_some() && vswitch.is_none() {
        return None;
    }
    Some(HostPort {
        rdma,
        vmknic,
        vswitch,
    })
}

/// Whether a NIC port's keys fit its host's OS: a Linux port names its RDMA device and no
/// ESXi key; an ESXi port no `rdma`, and `vmknic` and `vswitch` together (E133 each).
fn os_keys(cx: &mut Cx, name: &Sp<String>, p: &RawHostPort, os: Option<HostOs>) -> bool {
    let misfit = |cx: &mut Cx, at: Span, msg: String, help: &str| {
        cx.push(
            Diagnostic::error("E133", msg)
                .at(at, "here")
                .help(help.to_string()),
        );
    };
    let n = name.get();
    let mut ok = true;
    match os {
        Some(HostOs::Linux) => {
            for (v, key) in [(&p.vmknic, "vmknic"), (&p.vswitch, "vswitch")] {
                if let Some(v) = v {
                    misfit(
                        cx,
                        cx.span(v),
                        format!("`{key}` on port `{n}` of a `linux` host"),
                        "`vmknic` and `vswitch` are ESXi's; a Linux port names its RDMA device (`rdma: mlx5_0`)",
                    );
                    ok = false;
                }
            }
            if p.rdma.is_none() {
                misfit(
                    cx,
                    cx.span(name),
                    format!("port `{n}` of a `linux` host names no RDMA device"),
                    "add `rdma: mlx5_0` (the device `rdma link show` lists for the port)",
                );
                ok = false;
            }
        }
        Some(HostOs::Esxi) => {
            if let Some(v) = &p.rdma {
                misfit(
                    cx,
                    cx.span(v),
                    format!("`rdma` on port `{n}` of an `esxi` host"),
                    "ESXi ports name the VMkernel interface and vSwitch that carry RDMA (`vmknic`, `vswitch`)",
                );
                ok = false;
            }
            if p.vmknic.is_some() != p.vswitch.is_some() {
                misfit(
                    cx,
                    cx.span(name),
                    format!("port `{n}` of an `esxi` host names one of `vmknic` and `vswitch`"),
                    "an RDMA uplink names both its VMkernel interface and its vSwitch; a port without RDMA names neither",
                );
                ok = false;
            }
        }
        None => {}
    }
    ok
}
