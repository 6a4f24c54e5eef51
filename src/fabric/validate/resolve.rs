//! Each port of each switch resolved and checked: its value for each setting is the first
//! of its entry's (several entries merged, E043 where they disagree), its profile's (E063 an
//! unknown one), the fabric's `port_defaults` and what the switch implies; then the checks
//! a resolved port takes (E044 two peers, E062 VLANs, E064 `vlans` in access mode, E045 a
//! speed, W002 PFC, E024 a description made from the peer), each reported once for the ports
//! it concerns. A step of [`super::validate`], after the switches and links
//! ([`super::switches`]).

use std::borrow::Cow;

use super::*;

/// The layers a port's values come from after its own entry's.
pub(crate) struct Layers<'a> {
    pub defaults: &'a Layer,
    pub profiles: &'a BTreeMap<String, (Layer, Span)>,
    pub empty: Layer,
}

/// Problems found on many ports at once, each reported once listing the ports.
struct Grouped {
    file: FileId,
    found: BTreeMap<(&'static str, Span, String), (Diagnostic, Vec<Port>)>,
}

impl Grouped {
    fn add(&mut self, d: Diagnostic, key: String, port: Port) {
        let at = d.primary.as_ref().map_or(
            Span {
                file: self.file,
                start: 0,
                end: 0,
            },
            |l| l.span,
        );
        self.found
            .entry((d.code, at, key))
            .or_insert_with(|| (d, Vec::new()))
            .1
            .push(port);
    }

    fn report(self, cx: &mut Cx) {
        for (_, (mut d, ports)) in self.found {
            d.message = d.message.replace("{ports}", &describe_ports(&ports));
            cx.push(d);
        }
    }
}

/// What resolving reads: the layers, and the ports at the ends of links.
struct Resolving<'a> {
    layers: &'a Layers<'a>,
    link_ends: &'a BTreeSet<(&'a str, Port)>,
}

/// What resolving adds to: the profiles used, the problems, the link ends' settings.
struct Out<'a> {
    used_profiles: &'a mut BTreeSet<String>,
    grouped: Grouped,
    ends: &'a mut BTreeMap<(String, Port), LinkEnd>,
}

/// Resolves every port of every switch (entry → profile → fabric defaults, first value
/// wins) into its switch's `ports`; what each link end runs with.
pub(crate) fn resolve_ports(
    cx: &mut Cx,
    pending: &mut BTreeMap<String, Pending>,
    link_pairs: &[LinkPair],
    layers: &Layers<'_>,
    used_profiles: &mut BTreeSet<String>,
) -> BTreeMap<(String, Port), LinkEnd> {
    let link_ends: BTreeSet<(&str, Port)> = link_pairs
        .iter()
        .flat_map(|((sa, pa), (sb, pb), ..)| [(sa.as_str(), *pa), (sb.as_str(), *pb)])
        .collect();
    let r = Resolving {
        layers,
        link_ends: &link_ends,
    };
    let mut ends = BTreeMap::new();
    for (name, p) in pending.iter_mut() {
        let mut out = Out {
            used_profiles: &mut *used_profiles,
            grouped: Grouped {
                file: cx.file,
                found: BTreeMap::new(),
            },
            ends: &mut ends,
        };
        for port in switch_ports(p) {
            resolve_port(cx, &r, &mut out, name, p, port);
        }
        out.grouped.report(cx);
    }
    ends
}

/// A switch's ports as its splits and port groups make them, but those a split disables.
fn switch_ports(p: &Pending) -> Vec<Port> {
    let sw = &p.switch;
    let mut ports: Vec<Port> = Vec::new();
    for port in sw.model.ports() {
        if p.disabled.contains_key(&port) {
            continue;
        }
        match sw.splits.get(&port) {
            Some(s) => ports.extend((1..=s.ways()).map(|i| Port::sub(port.slot, port.port, i))),
            None if p.renamed.contains(&port.port) => {
                ports.push(Port::sub(port.slot, port.port, 1))
            }
            None => ports.push(port),
        }
    }
    ports
}

/// One port: its claims merged, its values resolved and checked, its settings written.
fn resolve_port(
    cx: &mut Cx,
    r: &Resolving<'_>,
    out: &mut Out<'_>,
    name: &str,
    p: &mut Pending,
    port: Port,
) {
    let claims = p.claims.get(&port).map_or(&[][..], |v| v.as_slice());
    // No entry, link or peer names it (`unused_ports`).
    let unused = claims.is_empty();
    let (profile, peer, entry, conflicts) =
        claimed(claims, &r.layers.empty, name, port, &mut out.grouped);
    report_conflicts(conflicts, name, port, &mut out.grouped);
    let profile_layer = profile_layer(profile, r.layers, out, port);
    let stack = [&*entry, profile_layer, r.layers.defaults, &p.implied];
    let sw = &mut p.switch;
    let switchport = checked_l2(name, sw, port, &stack, &mut out.grouped);
    set_at(cx, name, sw, &mut p.set_at, port, &stack);
    let description = description(cx, sw, &stack, peer, port, &mut out.grouped);
    let (speed, mtu, vlan, vlans) = (
        first!(stack, speed),
        first!(stack, mtu),
        first!(stack, vlan),
        first!(stack, vlans),
    );
    let (trust, pfc) = (first!(stack, trust), first!(stack, pfc));
    let mut ecn = TcMap::new();
    let mut ets = TcMap::new();
    for l in stack.iter().rev() {
        ecn.extend(l.ecn.iter().map(|(k, v)| (*k, v.0)));
        ets.extend(l.ets.iter().map(|(k, v)| (*k, v.0)));
    }
    if r.link_ends.contains(&(name, port)) {
        out.ends
            .insert((name.to_string(), port), link_end(sw, port, &stack, &ets));
    }
    if let Some((_, at)) = peer {
        p.peers.insert(port, *at);
    }
    sw.ports.insert(
        port,
        PortSettings {
            speed: speed.map(|x| x.0),
            mtu: mtu.map(|x| x.0),
            shutdown: (unused && p.policies.unused_shutdown)
                || first!(stack, shutdown).is_some_and(|x| x.0),
            switchport,
            vlan: vlan.map(|x| x.0),
            trust: trust.map(|x| x.0),
            ecn,
            ets,
            pfc: pfc.is_some_and(|x| x.0),
            description,
            peer: peer.map(|x| x.0.clone()),
            // An unknown profile (E063) fails the fabric: only a declared one is kept.
            profile: profile
                .filter(|(pr, _)| r.layers.profiles.contains_key(pr))
                .map(|(pr, _)| pr.clone()),
            address: None,
            bundle: None,
            trunk: vlans.map(|x| x.0.0.keys().copied().collect()),
            stp: crate::fabric::PortStp {
                port_type: first!(stack, stp_type).map(|x| x.0),
                bpduguard: first!(stack, stp_bpduguard).map(|x| x.0),
                guard: first!(stack, stp_guard).map(|x| x.0),
            },
            unused,
            lacp_individual: false,
        },
    );
}

/// What a port's claims say: its profile, its peer (E044 a second one), its entries' layer
/// (several merged), and the values they disagree on.
#[allow(clippy::type_complexity)]
fn claimed<'a>(
    claims: &'a [Claim],
    empty: &'a Layer,
    name: &str,
    port: Port,
    grouped: &mut Grouped,
) -> (
    Option<&'a At<String>>,
    Option<&'a At<Peer>>,
    Cow<'a, Layer>,
    Vec<Conflict>,
) {
    let mut conflicts = Vec::new();
    let mut profile: Option<&At<String>> = None;
    let mut peer: Option<&At<Peer>> = None;
    for c in claims {
        if let Some(pr) = c.profile.as_deref() {
            match profile {
                Some((other, oat)) if *other != pr.0 => {
                    conflicts.push(("profile".into(), other.clone(), *oat, pr.0.clone(), pr.1))
                }
                _ => profile = Some(pr),
            }
        }
        if let Some(pe) = &c.peer {
            match peer {
                Some((other, oat)) => grouped.add(
                    Diagnostic::error(
                        "E044",
                        format!(
                            "two peers claim {{ports}} of `{name}`: `{}` and `{}`",
                            other.description(),
                            pe.0.description()
                        ),
                    )
                    .at(pe.1, "second peer")
                    .also(*oat, "first peer"),
                    format!("{}", oat.start),
                    port,
                ),
                None => peer = Some(pe),
            }
        }
    }
    let entry = match claims {
        [] => Cow::Borrowed(empty),
        [one] => Cow::Borrowed(&*one.layer),
        many => {
            let mut m = Layer::default();
            for c in many {
                m.absorb(&c.layer, &mut conflicts);
            }
            Cow::Owned(m)
        }
    };
    (profile, peer, entry, conflicts)
}

/// E043 for each value two entries give one port differently.
fn report_conflicts(conflicts: Vec<Conflict>, name: &str, port: Port, grouped: &mut Grouped) {
    for (what, a, sa, b, sb) in conflicts {
        grouped.add(
            Diagnostic::error(
                "E043",
                format!("two values for `{what}` on {{ports}} of `{name}`: `{a}` and `{b}`"),
            )
            .at(sb, format!("`{b}` here"))
            .also(sa, format!("`{a}` here"))
            .help("one port takes one value; remove one of the entries or make them agree"),
            format!("{what} {}", sa.start),
            port,
        );
    }
}

/// The layer of the port's profile (E063 an unknown one; the name meant, when one is close,
/// counted as used); the empty layer without one.
fn profile_layer<'a>(
    profile: Option<&At<String>>,
    layers: &'a Layers<'_>,
    out: &mut Out<'_>,
    port: Port,
) -> &'a Layer {
    let mut profile_layer = &layers.empty;
    if let Some((pr, at)) = profile {
        match layers.profiles.get(pr) {
            Some((pl, _)) => profile_layer = pl,
            None => {
                let mut d = Diagnostic::error("E063", format!("unknown profile `{pr}`"))
                    .at(*at, "not declared under `profiles`");
                if let Some(best) = did_you_mean(pr, layers.profiles.keys().map(String::as_str)) {
                    d = d.help(format!("did you mean `{best}`?"));
                    out.used_profiles.insert(best.to_string());
                }
                out.grouped.add(d, String::new(), port);
            }
        }
    }
    profile_layer
}

/// The port's VLANs declared (E062), `vlans` not on an access port (E064; on a port of no
/// mode they make it a trunk), its speed within its native one (E045), its PFC with the
/// switch's (W002); its switchport mode.
fn checked_l2(
    name: &str,
    sw: &Switch,
    port: Port,
    stack: &[&Layer; 4],
    grouped: &mut Grouped,
) -> Option<SwitchportMode> {
    let vlan = first!(stack, vlan);
    let vlans = first!(stack, vlans);
    let tagged = vlans.iter().flat_map(|(l, _)| l.0.iter());
    for (v, at) in vlan.map(|(v, at)| (v, at)).into_iter().chain(tagged) {
        if v.get() != 1 && !sw.vlans.contains_key(v) {
            let d = Diagnostic::error("E062", format!("VLAN {v} is not declared"))
                .at(*at, "used here")
                .help(format!("add `- id: {v}` under `vlans`"));
            grouped.add(d, format!("{v}"), port);
        }
    }
    let mut switchport = first!(stack, switchport).map(|x| x.0);
    if let Some((list, at)) = vlans {
        // At the first VLAN listed: a flow list's own span is its opening bracket.
        let at = list.0.values().next().unwrap_or(at);
        match first!(stack, switchport) {
            Some((SwitchportMode::Access, mode_at)) => {
                let d = Diagnostic::error(
                    "E064",
                    format!("`vlans` on {{ports}} of `{name}`, in access mode"),
                )
                .at(*at, "tagged VLANs")
                .also(*mode_at, "access mode")
                .help("an access port carries one VLAN (`vlan`); for several, `switchport: trunk` (or `hybrid`, with `vlan` untagged)");
                grouped.add(d, String::new(), port);
            }
            None => switchport = Some(SwitchportMode::Trunk),
            Some(_) => {}
        }
    }
    let split = port.sub.and(sw.splits.get(&port.parent()).copied());
    let native = sw.model.native_speed(port.parent(), split);
    let speed = first!(stack, speed);
    if let (Some((s, at)), Some(n)) = (speed, native)
        && s.gbps() > n.gbps()
    {
        let d = Diagnostic::error(
            "E045",
            format!(
                "speed {s} is above the {n} that {{ports}} of `{name}` ({}) can run",
                sw.model.name()
            ),
        )
        .at(*at, "too fast");
        grouped.add(d, String::new(), port);
    }
    let pfc = first!(stack, pfc);
    if let Some((true, at)) = pfc
        && !sw.qos.pfc.as_ref().is_some_and(|p| p.enabled)
        && !matches!(sw.qos.roce, Some(RoceMode::Lossless))
    {
        let d = Diagnostic::warning("W002", format!("per-port PFC is on for {{ports}} but PFC is not enabled globally on `{name}`"))
            .at(*at, "port PFC mode on")
            .help("turn global PFC on (remove `qos.pfc: false`, or give a lossless pool) so the switch sends and honours pause frames");
        grouped.add(d, String::new(), port);
    }
    switchport
}

/// Where the port's values are written (for link mismatches), and `trust: both` refused on
/// OS10.
fn set_at(
    cx: &mut Cx,
    name: &str,
    sw: &Switch,
    set_at: &mut BTreeMap<Port, SetAt>,
    port: Port,
    stack: &[&Layer; 4],
) {
    let (pfc, vlan, vlans) = (
        first!(stack, pfc),
        first!(stack, vlan),
        first!(stack, vlans),
    );
    let mtu = first!(stack, mtu);
    let trust = first!(stack, trust);
    let tc_at = |f: fn(&Layer) -> Option<Span>| stack.iter().find_map(|l| f(l));
    set_at.insert(
        port,
        SetAt {
            mtu: mtu.map(|x| x.1),
            pfc: pfc.map(|x| x.1),
            trust: trust.map(|x| x.1),
            l2: vlans
                .map(|x| x.1)
                .or(vlan.map(|x| x.1))
                .or(first!(stack, switchport).map(|x| x.1)),
            ecn: tc_at(|l| l.ecn.values().next().map(|x| x.1)),
            ets: tc_at(|l| l.ets.values().next().map(|x| x.1)),
        },
    );
    if let Some((Trust::Both, at)) = trust
        && let Some(what) = sw.os().target().rules().trust_both()
    {
        target::refuse(cx, sw.os(), name, "trust: both", *at, what);
    }
}

/// The port's description: its own, else the one made from its peer (when
/// `auto_description` allows), which must fit the switch's OS (E024).
fn description(
    cx: &mut Cx,
    sw: &Switch,
    stack: &[&Layer; 4],
    peer: Option<&At<Peer>>,
    port: Port,
    grouped: &mut Grouped,
) -> Option<String> {
    let auto = first!(stack, auto_description).is_none_or(|(a, _)| *a);
    match first!(stack, description) {
        Some((d, _)) => Some(d.clone()),
        // The description made from the peer follows the rule of any description.
        None if auto => peer.and_then(|(p, at)| {
            // The far port as its own OS names it (`leaf-b:ethernet1/1/49`).
            let d = match p {
                Peer::Switch { switch, port } => {
                    let os = cx.oses.get(&switch.as_str().to_lowercase()).copied();
                    let os = os.unwrap_or_default();
                    format!("{switch}:{}", os.port_name(*port))
                }
                Peer::Host { .. } => p.description(),
            };
            match strings::check(&[sw.os()], Field::Description, &d) {
                Ok(()) => Some(d),
                Err(e) => {
                    // One diagnostic for the ports whose descriptions fail alike.
                    let diagnostic = Diagnostic::error(
                        "E024",
                        format!(
                            "the description of {{ports}} made from its peer {} (`{}`)",
                            e.message,
                            d.escape_debug()
                        ),
                    )
                    .at(*at, "this peer")
                    .help("write a shorter `description` for the port, or shorter peer names");
                    grouped.add(diagnostic, e.message, port);
                    None
                }
            }
        }),
        None => None,
    }
}
