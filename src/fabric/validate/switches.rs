//! Each switch of the fabric before its ports are resolved: the fabric's VLANs and switch
//! names, a switch's own keys (model, releases, management, licences, QoS), its port entries'
//! splits (pass 1) and claims on its ports (pass 2), and the links' claims on both ends. The
//! steps of [`super::validate`] up to port resolution, in its order, so the diagnostics come
//! out as before.

use super::*;

/// The fabric's VLANs with their names and where each is declared, and the MTU given each.
pub(crate) struct FabricVlans {
    pub vlans: BTreeMap<Vlan, (Option<String>, Span)>,
    pub mtu: BTreeMap<Vlan, At<u16>>,
}

/// The fabric's `vlans`: ids and names declared once (E060, E061), their MTUs.
pub(crate) fn fabric_vlans(
    cx: &mut Cx,
    raw: &RawFabric,
    fabric_oses: &[crate::fabric::Os],
) -> FabricVlans {
    let mut vlans: BTreeMap<Vlan, (Option<String>, Span)> = BTreeMap::new();
    let mut vlan_names: BTreeMap<String, Span> = BTreeMap::new();
    let mut vlan_mtu: BTreeMap<Vlan, At<u16>> = BTreeMap::new();
    for v in raw.vlans.iter().flatten() {
        let Some(id) = cx.int(&v.id, Vlan::new) else {
            continue;
        };
        let at = cx.span(&v.id);
        if let Some((_, first)) = vlans.get(&id) {
            let first = *first;
            cx.push(
                Diagnostic::error("E060", format!("VLAN {id} is declared twice"))
                    .at(at, "declared again here")
                    .also(first, "first declared here"),
            );
            continue;
        }
        let name = v.name.as_ref().and_then(|n| {
            let name = cx.text(n, "VLAN name", Field::VlanName, fabric_oses)?;
            let nat = cx.span(n);
            if let Some(first) = vlan_names.get(&name.to_lowercase()) {
                let first = *first;
                cx.push(
                    Diagnostic::error("E061", format!("VLAN name `{name}` is used twice"))
                        .at(nat, "used again here")
                        .also(first, "first used here"),
                );
                return None;
            }
            vlan_names.insert(name.to_lowercase(), nat);
            Some(name)
        });
        if let Some(m) = &v.mtu
            && let Some(mtu) = cx.mtu(m)
        {
            vlan_mtu.insert(id, (mtu, cx.span(m)));
        }
        vlans.insert(id, (name, at));
    }

    FabricVlans {
        vlans,
        mtu: vlan_mtu,
    }
}

/// The switches' names, each a hostname declared once (E022, E070), by lower case; the names
/// refused.
pub(crate) fn switch_names(
    cx: &mut Cx,
    raw: &RawFabric,
) -> (BTreeMap<String, (Hostname, Span)>, BTreeSet<String>) {
    let mut names: BTreeMap<String, (Hostname, Span)> = BTreeMap::new();
    let mut refused: BTreeSet<String> = BTreeSet::new();
    for (name, _) in &raw.switches.0 {
        let at = cx.span(name);
        let h = match name.get().parse::<Hostname>() {
            Ok(h) => h,
            Err(e) => {
                cx.invalid("E022", e, at, "switch name");
                refused.insert(name.get().to_lowercase());
                continue;
            }
        };
        if let Some((_, first)) = names.get(&h.as_str().to_lowercase()) {
            let first = *first;
            cx.push(
                Diagnostic::error(
                    "E070",
                    format!("switch `{h}` is declared twice (hostnames ignore case)"),
                )
                .at(at, "declared again here")
                .also(first, "first declared here"),
            );
            continue;
        }
        names.insert(h.as_str().to_lowercase(), (h, at));
    }
    (names, refused)
}

/// What every switch inherits from the fabric: its release, its release as its OS writes it
/// (OS10's), its VLANs.
pub(crate) struct Inherited<'a> {
    pub release: Option<At<Release>>,
    pub release_text: Option<String>,
    pub vlans: &'a FabricVlans,
}

/// A switch's own keys, checked, as a [`Pending`] switch without ports yet; `None` when its
/// model is not one (E021, E071: reported).
pub(crate) fn pending_switch(
    cx: &mut Cx,
    raw: &RawFabric,
    index: usize,
    (name, sw): (&Sp<String>, &super::super::raw::RawSwitch),
    hostname: &Hostname,
    inherited: &Inherited<'_>,
) -> Option<Pending> {
    let (vlans, vlan_mtu) = (&inherited.vlans.vlans, &inherited.vlans.mtu);
    let os = cx
        .oses
        .get(&name.get().to_lowercase())
        .copied()
        .unwrap_or_default();
    let model = target::hardware(cx, os, &sw.model);
    target::foreign_keys(cx, os, raw, name.get(), sw);
    let (release_text, release) = releases(cx, os, sw, inherited);
    let mgmt = sw.mgmt.as_ref().and_then(|m| values::mgmt(cx, m));
    let licenses: Vec<String> = sw
        .licenses
        .iter()
        .flatten()
        .filter_map(|l| cx.text(l, "license key", Field::LicenseKey, &[os]))
        .collect();
    let certificate = sw.certificate.as_ref().and_then(|c| certificate(cx, c));
    let lldp = sw
        .lldp
        .as_ref()
        .or(raw.lldp.as_ref())
        .is_some_and(|v| *v.get());
    let verify = thresholds(raw.verify.as_ref(), sw.verify.as_ref());
    let merged = merged_qos(raw.qos.as_ref(), sw.qos.as_ref());
    let (qos, implied) = qos(cx, &merged, release, os);

    let set_hostname = sw.set_hostname.as_ref().is_none_or(|v| *v.get());
    let extra = extra(cx, os, sw.extra.as_ref());

    let model = model?;
    let model_at = cx.span(&sw.model);
    // A switch whose OS writes its release otherwise has no typed release (`onyx` there is
    // E073).
    let release = release.filter(|_| os.target().rules().typed_release());
    let check = crate::targets::ModelCheck {
        name: name.get(),
        model,
        model_at,
        release_text: release_text.as_deref(),
        release,
        raw_qos: &merged,
        qos: &qos,
    };
    os.target().rules().check_model(cx, check);
    let switch = Switch {
        hostname: hostname.clone(),
        model,
        release_text,
        release: release.map(|r| r.0),
        mgmt,
        licenses,
        certificate,
        lldp,
        verify,
        qos,
        vlans: vlans.iter().map(|(k, (n, _))| (*k, n.clone())).collect(),
        splits: BTreeMap::new(),
        port_groups: BTreeMap::new(),
        ports: BTreeMap::new(),
        set_hostname,
        extra,
        role: None,
        routing: None,
        gateways: BTreeMap::new(),
        loopback: None,
        hashing: BTreeSet::new(),
        bundles: BTreeMap::new(),
        mlag: None,
        stp: None,
    };
    let policies = policies::policies(cx, raw, sw);
    let mut p = Pending::new(switch, policies, implied, index);
    hosts::switch_vlans(cx, sw, vlans, vlan_mtu, &mut p);
    Some(p)
}

/// A switch's release as its OS writes it (its own, else the fabric's: OS10's) and its typed
/// release (its own, else the fabric's).
fn releases(
    cx: &mut Cx,
    os: crate::fabric::Os,
    sw: &super::super::raw::RawSwitch,
    inherited: &Inherited<'_>,
) -> (Option<String>, Option<At<Release>>) {
    let release_text = os
        .target()
        .rules()
        .release_text(cx, sw, inherited.release_text.as_ref());
    let release = match &sw.onyx {
        Some(v) => release(cx, v),
        None => inherited.release,
    };
    (release_text, release)
}

/// Pass 1 over a switch's port entries: splits, so subports can be checked in pass 2.
/// Refusals are reported once per entry and reason, listing the ports; ports the model lacks
/// are left to pass 2.
pub(crate) fn split_pass(cx: &mut Cx, entries: &[(Sp<String>, RawPort)], p: &mut Pending) {
    let (model, hostname) = (p.switch.model, p.switch.hostname.clone());
    let mut split_at: BTreeMap<Port, Span> = BTreeMap::new();
    for (key, entry) in entries {
        let Some(ways) = &entry.split else { continue };
        let Some(split) = cx.int(ways, Split::from_ways) else {
            continue;
        };
        let ask = SplitAsk {
            p: &mut *p,
            key,
            ways,
            split,
            split_at: &mut split_at,
        };
        model.os().target().rules().split(cx, ask);
    }
    let mut taken: BTreeMap<(Span, Span), Vec<Port>> = BTreeMap::new();
    for (port, by) in &p.disabled {
        if let Some(at) = split_at.get(port) {
            taken.entry((*at, *by)).or_default().push(*port);
        }
    }
    for ((at, by), ports) in taken {
        let their = if ports.len() == 1 { "its" } else { "their" };
        cx.push(
            Diagnostic::error(
                "E046",
                format!(
                    "{} of `{hostname}` cannot be split: a 4-way split takes {their} lanes",
                    describe_ports(&ports)
                ),
            )
            .at(at, "split here")
            .also(by, "4-way split here"),
        );
    }
}

/// Pass 2 over a switch's port entries: each entry's claims on its ports (the profiles they
/// name counted as used).
pub(crate) fn claim_pass(
    cx: &mut Cx,
    entries: &[(Sp<String>, RawPort)],
    p: &mut Pending,
    used_profiles: &mut BTreeSet<String>,
) {
    let os = p.switch.os();
    for (key, entry) in entries {
        // A profile named by an entry is in use, even when the entry has other problems
        // or loses a conflict with another entry (W001 is for profiles nothing names).
        if let Some(pr) = &entry.profile {
            used_profiles.insert(pr.get().clone());
        }
        let at = cx.span(key);
        let Some(ports) = target::ports(cx, os, key.get(), at) else {
            continue;
        };
        let settings = entry.settings();
        let has_settings = settings != RawSettings::default()
            || entry.profile.is_some()
            || entry.peer.is_some()
            || entry.description.is_some()
            || entry.address.is_some()
            || entry.advertise.is_some()
            || entry.mlag.is_some()
            || entry.lag.is_some()
            || entry.lacp_individual.is_some()
            || entry.bundle_description.is_some();
        // A split-only entry had its split checked in pass 1, lanes taken included.
        let split_only = entry.split.is_some() && !has_settings;
        let none = BTreeMap::new();
        let disabled = if split_only { &none } else { &p.disabled };
        let usable = check_ports(cx, &p.switch, disabled, &ports, at, split_only);
        if !usable {
            refused_peers(cx, entry, at);
        }
        if !usable || !has_settings {
            continue;
        }
        for port in &ports {
            if ports::group_subport(&p.switch, *port) {
                p.named_sub.entry(*port).or_insert(at);
            }
        }
        let mut layer = cx.layer(&settings);
        if let Some(d) = &entry.description {
            if ports.len() > 1 {
                cx.push(
                    Diagnostic::warning(
                        "W004",
                        format!("{} ports get the same description", ports.len()),
                    )
                    .at(cx.span(d), "one description for a range"),
                );
            }
            layer.description = cx
                .text(d, "description", Field::Description, &[os])
                .map(|t| (t, cx.span(d)));
        }
        let profile = entry
            .profile
            .as_ref()
            .map(|pr| Rc::new((pr.get().clone(), cx.span(pr))));
        let peers = entry
            .peer
            .as_ref()
            .and_then(|peer| entry_peers(cx, key, peer, ports.len(), at));
        hosts::port_entry(cx, key, entry, &ports, p);
        let layer = Rc::new(layer);
        for (i, port) in ports.iter().enumerate() {
            p.claims.entry(*port).or_default().push(Claim {
                profile: profile.clone(),
                layer: Rc::clone(&layer),
                peer: peers.as_ref().map(|v| v[i].clone()),
            });
        }
    }
}

/// The links: both ends get the other as peer and the link's profile; the pairs of ports.
pub(crate) fn links(
    cx: &mut Cx,
    raw: &RawFabric,
    names: &BTreeMap<String, (Hostname, Span)>,
    refused: &BTreeSet<String>,
    pending: &mut BTreeMap<String, Pending>,
    used_profiles: &mut BTreeSet<String>,
) -> Vec<LinkPair> {
    let mut link_pairs: Vec<LinkPair> = Vec::new();
    for (index, link) in raw.links.iter().flatten().enumerate() {
        if let Some(pr) = &link.profile {
            used_profiles.insert(pr.get().clone());
        }
        let a = endpoint(cx, &link.a, names, refused);
        let b = endpoint(cx, &link.b, names, refused);
        let (Some((sa, pa)), Some((sb, pb))) = (a, b) else {
            continue;
        };
        let (at_a, at_b) = (cx.span(&link.a), cx.span(&link.b));
        if pa.len() != pb.len() {
            cx.push(
                Diagnostic::error(
                    "E052",
                    format!("link ends have {} and {} ports", pa.len(), pb.len()),
                )
                .at(at_a, "this end")
                .also(at_b, "other end")
                .help("both ends of a link list the same number of ports, paired in order"),
            );
            continue;
        }
        let profile = link
            .profile
            .as_ref()
            .map(|pr| Rc::new((pr.get().clone(), cx.span(pr))));
        for (x, y) in pa.iter().zip(&pb) {
            if sa == sb && x == y {
                cx.error(
                    "E052",
                    format!("link from {sa}:{x} to itself"),
                    at_a,
                    "both ends are the same port",
                );
                continue;
            }
            let ends = [(&sa, *x, at_a), (&sb, *y, at_b)];
            if !ends_usable(cx, pending, ends) {
                continue;
            }
            claim_ends(pending, names, ends, &profile);
            link_pairs.push(((sa.clone(), *x), (sb.clone(), *y), at_a, at_b, index));
        }
    }

    link_pairs
}

/// One cable's two ends (switch, port, where written), each checked against its switch
/// ([`check_ports`]; both, whatever the first gives); an OS10 port named as its group's
/// subport noted where first named so.
fn ends_usable(
    cx: &mut Cx,
    pending: &mut BTreeMap<String, Pending>,
    ends: [(&String, Port, Span); 2],
) -> bool {
    let mut ok = true;
    for (sw, port, at) in ends {
        if let Some(p) = pending.get_mut(sw.as_str()) {
            let (switch, disabled) = (&p.switch, &p.disabled);
            ok &= check_ports(cx, switch, disabled, &[port], at, false);
            if ports::group_subport(&p.switch, port) {
                p.named_sub.entry(port).or_insert(at);
            }
        }
    }
    ok
}

/// Each end of a cable claims its port, the other end as its peer, with the link's profile.
fn claim_ends(
    pending: &mut BTreeMap<String, Pending>,
    names: &BTreeMap<String, (Hostname, Span)>,
    [(sa, x, at_a), (sb, y, at_b)]: [(&String, Port, Span); 2],
    profile: &Option<Rc<At<String>>>,
) {
    for (me, port, at, other, oport) in [(sa, x, at_a, sb, y), (sb, y, at_b, sa, x)] {
        let Some(p) = pending.get_mut(me.as_str()) else {
            continue;
        };
        let switch = names.get(&other.to_lowercase()).map(|(h, _)| h.clone());
        let Some(switch) = switch else { continue };
        p.claims.entry(port).or_default().push(Claim {
            profile: profile.clone(),
            layer: Rc::new(Layer::default()),
            peer: Some((
                Peer::Switch {
                    switch,
                    port: oport,
                },
                at,
            )),
        });
    }
}

/// The peers an entry's `peer` gives its `n` ports, one each (a pattern's hosts and NIC ports
/// numbered alike, or one of them for all); `None` when a pattern does not fit (E047) or is
/// malformed (reported).
fn entry_peers(
    cx: &mut Cx,
    key: &Sp<String>,
    peer: &super::super::raw::RawPeer,
    n: usize,
    at: Span,
) -> Option<Vec<At<Peer>>> {
    let hosts = pattern(cx, &peer.host)?;
    let nics = match &peer.port {
        Some(np) => pattern(cx, np)?.into_iter().map(Some).collect(),
        None => vec![None],
    };
    let fit = |v: usize| v == n || v == 1;
    let count = |k: usize, one: &str| match k {
        1 => format!("one {one}"),
        k => format!("{k} {one}s"),
    };
    // The pattern that does not fit: the NIC ports' when only they are off, else
    // the hosts' (one host for a range of ports is the usual slip).
    let misfit = if fit(hosts.len()) && !fit(nics.len()) {
        peer.port.as_ref().map(|np| {
            (
                np,
                count(nics.len(), "NIC port"),
                format!("`port: ens{{1..{n}}}`, or one NIC port for all"),
            )
        })
    } else if !fit(hosts.len()) || (n > 1 && hosts.len() == 1 && nics.len() == 1) {
        Some((
            &peer.host,
            count(hosts.len(), "host"),
            format!("`host: gpu{{01..{n:02}}}`"),
        ))
    } else {
        None
    };
    if let Some((v, names, example)) = misfit {
        cx.push(
            Diagnostic::error(
                "E047",
                format!(
                    "`{}` is {} but `{}` names {names}",
                    key.get(),
                    count(n, "port"),
                    v.get().escape_debug()
                ),
            )
            .at(cx.span(v), names)
            .also(at, count(n, "port"))
            .help(format!(
                "give one peer per port with a numbered pattern, e.g. {example}"
            )),
        );
        return None;
    }
    let at = cx.span(&peer.host);
    Some(
        (0..n)
            .map(|i| {
                let host = hosts[if hosts.len() == 1 { 0 } else { i }].clone();
                let port = nics[if nics.len() == 1 { 0 } else { i }].clone();
                (Peer::Host { host, port }, at)
            })
            .collect::<Vec<_>>(),
    )
}

/// A switch's `certificate`: the 40 hexadecimal digits of its self-signed certificate's ID
/// (E024 otherwise).
fn certificate(cx: &mut Cx, c: &Sp<String>) -> Option<String> {
    const HINT: &str = "a certificate ID is 40 hexadecimal digits, as in `# Certificate name system-self-signed, ID …`";
    let id = cx.token(c, "certificate ID", |ch| ch.is_ascii_hexdigit(), HINT)?;
    if id.len() != 40 {
        cx.push(
            Diagnostic::error(
                "E024",
                format!("certificate ID is {} digits, not 40", id.len()),
            )
            .at(cx.span(c), "refused")
            .help(HINT),
        );
        return None;
    }
    Some(id)
}

/// The counters' thresholds of a switch: each key its own `verify:` gives, else the fabric's,
/// else the default.
fn thresholds(
    fabric: Option<&crate::fabric::raw::RawVerify>,
    switch: Option<&crate::fabric::raw::RawVerify>,
) -> crate::fabric::Thresholds {
    let d = crate::fabric::Thresholds::default();
    let pick = |f: fn(&crate::fabric::raw::RawVerify) -> Option<&Sp<u64>>, default: u64| {
        switch
            .and_then(f)
            .or_else(|| fabric.and_then(f))
            .map_or(default, |v| *v.get())
    };
    crate::fabric::Thresholds {
        pause_rate: pick(|v| v.pause_rate.as_ref(), d.pause_rate),
        drops: pick(|v| v.drops.as_ref(), d.drops),
        errors: pick(|v| v.errors.as_ref(), d.errors),
        flaps: pick(|v| v.flaps.as_ref(), d.flaps),
    }
}
