//! OS10 configuration-mode commands → state, as the switch takes them: a block header enters
//! its mode (creating the block when it is new), `exit` leaves it, a line sets what it names
//! (the grammar of [`command`](super::command), applied by `apply.rs`), a negation from the
//! plan's table ([`NEGATIONS`]) takes it away. The plan's tests, and the lab's OS10 switches,
//! apply plans with it.
//!
//! Where the switch adds rather than overwrites, so does this: `switchport trunk allowed vlan
//! L` adds L to the port's VLANs and `no switchport trunk allowed vlan L` removes L (Dell OS10
//! user guide, "VLAN configuration"; UNCONFIRMED by a capture). Deleting what does not exist,
//! a second VLT domain or BGP instance, a command unknown in its mode, or a malformed value is
//! refused with its line, as `% Error:` is on the switch; nothing after it is applied.
//! Indentation is ignored, as the switch ignores it.

use std::net::Ipv4Addr;
use std::ops::RangeInclusive;

use super::command::{self, BgpCmd, IfaceCmd, PeerCmd, Top};
use super::plan::rules::{Arg, Field, NEGATIONS};
use super::plan::{deletable, reanchored};
use super::{
    ClassMap, Color, Config, Eth, Iface, Interface, Peer, PolicyClass, PolicyMap, PortGroupId,
    QosKind, QosMap, TrustKind, TrustMap, Vlt, Wred, groups, names,
};

/// A command the switch refuses: its line (1-based), its text, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptError {
    pub line: usize,
    pub text: String,
    pub message: String,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: `{}`: {}", self.line, self.text, self.message)
    }
}

impl std::error::Error for ScriptError {}

#[derive(Clone, Debug, PartialEq, Eq)]
enum PeerId {
    Neighbor(Ipv4Addr),
    Template(String),
}

/// A configuration mode below `(config)`.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// With the interface as it was when entered: its verbatim lines are placed on leaving.
    Iface(Iface, Box<Interface>),
    Wred(String),
    ClassMap(QosKind, String),
    TrustMap(TrustKind, String),
    QosMap(String),
    PolicyMap(QosKind, String),
    Class(QosKind, String, String),
    SystemQos,
    PortGroup(PortGroupId),
    Vlt,
    Bgp,
    BgpAf,
    Peer(PeerId),
    PeerAf(PeerId),
}

/// The fields whose negations are typed in a mode (`None`: configuration mode): a run of
/// [`Field`], which lists each mode's fields together.
fn fields(mode: Option<&Mode>) -> RangeInclusive<Field> {
    use Field::*;
    match mode {
        None => Hostname..=Bgp,
        Some(Mode::Iface(..)) => Description..=VltPortChannel,
        Some(Mode::Wred(_)) => WredColor..=WredEcn,
        Some(Mode::ClassMap(..)) => Match..=Match,
        Some(Mode::TrustMap(..)) => TrustGroup..=TrustGroup,
        Some(Mode::QosMap(_)) => Queue..=Queue,
        Some(Mode::PolicyMap(..)) => Class..=Class,
        Some(Mode::Class(..)) => Bandwidth..=RandomDetect,
        Some(Mode::SystemQos) => SystemTrustMap..=SystemPolicyOut,
        Some(Mode::PortGroup(_)) => PortGroupMode..=PortGroupMode,
        Some(Mode::Vlt) => VltBackup..=VltMac,
        Some(Mode::Bgp) => MultipathRelax..=Neighbor,
        Some(Mode::BgpAf) => Network..=Network,
        Some(Mode::Peer(_)) => PeerDescription..=PeerAddressFamily,
        // A neighbor's address family holds no modeled line.
        Some(Mode::PeerAf(_)) => PeerAddressFamily..=PeerAddressFamily,
    }
}

/// The negation `line` is in `mode`, with its value: the table entry whose words start the
/// line and account for all of it.
fn negation(mode: Option<&Mode>, line: &str) -> Option<(Field, Option<String>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let allowed = fields(mode);
    NEGATIONS
        .iter()
        .filter(|n| allowed.contains(&n.0))
        .find_map(|(f, form, arg, _)| {
            let fw: Vec<&str> = form.split(' ').collect();
            if !words.starts_with(&fw) {
                return None;
            }
            match (arg, &words[fw.len()..]) {
                (Arg::None, []) => Some((*f, None)),
                (Arg::Value, [v]) => Some((*f, Some(v.to_string()))),
                // `no interface port-channel 1`, typed with a space as a session does.
                (Arg::Value, [kind, v])
                    if *f == Field::Interface && names::SPACED.contains(kind) =>
                {
                    Some((*f, Some(format!("{kind}{v}"))))
                }
                _ => None,
            }
        })
}

type Done = Result<(), String>;

fn missing<T>(what: &str) -> Result<T, String> {
    Err(format!("{what} does not exist"))
}

/// Applies configuration-mode `text` to `config` as the switch would. On an error, the
/// commands before the refused line have been applied (as on the switch).
pub fn apply(config: &mut Config, text: &str) -> Result<(), ScriptError> {
    let mut modes: Vec<Mode> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line == "!" {
            continue;
        }
        let fail = |message: String| ScriptError {
            line: n + 1,
            text: line.to_string(),
            message,
        };
        if line == "exit" {
            match modes.pop() {
                Some(m) => leave(config, m),
                None => {
                    return Err(fail(
                        "`exit` in configuration mode would leave it".to_string(),
                    ));
                }
            }
            continue;
        }
        let step = match negation(modes.last(), line) {
            Some((f, v)) => negate(config, modes.last(), f, v.as_deref().unwrap_or_default()),
            None => set(config, &mut modes, line),
        };
        step.map_err(fail)?;
    }
    while let Some(m) = modes.pop() {
        leave(config, m);
    }
    Ok(())
}

/// Leaving an interface's mode: its verbatim lines go back after the modeled lines they
/// followed ([`reanchored`]).
fn leave(config: &mut Config, mode: Mode) {
    if let Mode::Iface(i, before) = mode
        && let Some(e) = config.interfaces.get_mut(&i)
    {
        e.extras = reanchored(&before, e);
    }
}

fn bad(b: command::Bad) -> String {
    format!("expected {} at column {}", b.expected, b.column + 1)
}

fn unknown(mode: Option<&Mode>) -> String {
    match mode {
        None => "not a command of configuration mode that a plan types".to_string(),
        Some(m) => format!("not a command of the {m:?} mode that a plan types"),
    }
}

fn iface_of<'c>(c: &'c mut Config, i: &Iface) -> Result<&'c mut Interface, String> {
    c.interfaces
        .get_mut(i)
        .ok_or_else(|| format!("interface {i} does not exist"))
}

fn peer_of<'c>(c: &'c mut Config, id: &PeerId) -> Result<&'c mut Peer, String> {
    let b = c.bgp.as_mut().ok_or("no router bgp")?;
    let p = match id {
        PeerId::Neighbor(a) => b.neighbors.iter_mut().find(|x| x.0 == *a).map(|x| &mut x.1),
        PeerId::Template(t) => b.templates.iter_mut().find(|x| x.0 == *t).map(|x| &mut x.1),
    };
    p.ok_or_else(|| format!("{id:?} does not exist"))
}

fn wred_of<'c>(c: &'c mut Config, n: &str) -> Result<&'c mut Wred, String> {
    c.wred
        .iter_mut()
        .find(|w| w.name == n)
        .ok_or_else(|| format!("wred {n} does not exist"))
}

fn class_of<'c>(
    c: &'c mut Config,
    k: QosKind,
    p: &str,
    n: &str,
) -> Result<&'c mut PolicyClass, String> {
    c.policy_maps
        .iter_mut()
        .find(|m| m.kind == k && m.name == p)
        .and_then(|m| m.classes.iter_mut().find(|x| x.name == n))
        .ok_or_else(|| format!("class {n} of policy-map {p} does not exist"))
}

/// Removes the item `same` finds from `v`, or says it does not exist.
fn take<T>(v: &mut Vec<T>, same: impl Fn(&T) -> bool, what: &str) -> Done {
    match v.iter().position(same) {
        Some(i) => {
            v.remove(i);
            Ok(())
        }
        None => missing(what),
    }
}

/// A negation in `mode`: takes away what field `f` (with value `v`) names there.
fn negate(c: &mut Config, mode: Option<&Mode>, f: Field, v: &str) -> Done {
    let Some(m) = mode else {
        return negate_top(c, f, v);
    };
    match m {
        Mode::Iface(i, _) => negate_iface(iface_of(c, i)?, m, f, v),
        Mode::Wred(n) => negate_wred(wred_of(c, n)?, m, f, v),
        Mode::ClassMap(..) | Mode::TrustMap(..) | Mode::QosMap(_) | Mode::PolicyMap(..) => {
            negate_entry(c, m, v)
        }
        Mode::Class(..) | Mode::SystemQos => negate_qos_line(c, m, f),
        Mode::Vlt => {
            let d = c.vlt.as_mut().ok_or("no vlt-domain")?;
            match f {
                Field::VltBackup => d.backup = None,
                Field::VltDiscovery => d.discovery.clear(),
                Field::VltPeerRouting => d.peer_routing = false,
                Field::VltPriority => d.primary_priority = None,
                Field::VltMac => d.vlt_mac = None,
                _ => return Err(unknown(mode)),
            }
            Ok(())
        }
        Mode::Bgp | Mode::BgpAf | Mode::Peer(_) => negate_bgp(c, m, f, v),
        Mode::PortGroup(_) | Mode::PeerAf(_) => Err(unknown(mode)),
    }
}

/// A negation in configuration mode: a setting cleared, a block deleted.
fn negate_top(c: &mut Config, f: Field, v: &str) -> Done {
    use Field as F;
    match f {
        F::Hostname => c.hostname = None,
        F::Dcbx => c.dcbx = false,
        F::BfdEnable => c.bfd = false,
        F::BfdInterval => c.bfd_interval = None,
        F::Breakout => {
            let e = Eth::parse(v)?;
            if c.breakouts.remove(&e).is_none() {
                return missing(&format!("breakout {v}"));
            }
            rebreak(c, e);
        }
        F::Interface => {
            let i = Iface::parse(v)?.ok_or_else(|| format!("`{v}` is not an interface"))?;
            if !deletable(&i) {
                return Err(format!("interface {i} cannot be deleted"));
            }
            if c.interfaces.remove(&i).is_none() {
                return missing(&format!("interface {i}"));
            }
        }
        F::Wred => take(&mut c.wred, |w| w.name == v, v)?,
        F::ClassMapNetworkQos | F::ClassMapQueuing => {
            let k = qos_kind(f == F::ClassMapNetworkQos);
            take(&mut c.class_maps, |m| m.kind == k && m.name == v, v)?
        }
        F::TrustMapDot1p | F::TrustMapDscp => {
            let k = if f == F::TrustMapDot1p {
                TrustKind::Dot1p
            } else {
                TrustKind::Dscp
            };
            take(&mut c.trust_maps, |m| m.kind == k && m.name == v, v)?
        }
        F::QosMap => take(&mut c.qos_maps, |m| m.name == v, v)?,
        F::PolicyMapNetworkQos | F::PolicyMapQueuing => {
            let k = qos_kind(f == F::PolicyMapNetworkQos);
            take(&mut c.policy_maps, |m| m.kind == k && m.name == v, v)?
        }
        F::SystemQos => {
            if c.system_qos.take().is_none() {
                return missing("system qos");
            }
        }
        F::Vlt => match &c.vlt {
            Some(d) if d.id.to_string() == v => c.vlt = None,
            _ => return missing(&format!("vlt-domain {v}")),
        },
        F::Bgp => {
            if c.bgp.take().is_none() {
                return missing("router bgp");
            }
        }
        _ => return Err(unknown(None)),
    }
    Ok(())
}

/// A negation in an interface's mode (`mode`): the line cleared; of a trunk's VLANs, those
/// `v` lists.
fn negate_iface(e: &mut Interface, mode: &Mode, f: Field, v: &str) -> Done {
    use Field as F;
    match f {
        F::Description => e.description = None,
        F::ChannelGroup => e.channel_group = None,
        F::Routed => e.routed = false,
        F::SwitchportMode => e.mode = None,
        F::AccessVlan => e.access_vlan = None,
        F::TrunkAllowed => {
            let gone = names::parse_vlans(v).map_err(|(_, m)| m)?;
            if let Some(set) = &mut e.trunk_allowed {
                for x in gone.iter() {
                    set.remove(x);
                }
                if set.is_empty() {
                    e.trunk_allowed = None;
                }
            }
        }
        F::Mtu => e.mtu = None,
        F::Address => e.address = None,
        F::FlowcontrolRx => e.flowcontrol_rx = None,
        F::FlowcontrolTx => e.flowcontrol_tx = None,
        F::Pfc => e.pfc = false,
        F::PolicyIn => e.policy_in = None,
        F::PolicyOut => e.policy_out = None,
        F::Ets => e.ets = false,
        F::QosMapUse => e.qos_map = None,
        F::TrustMapUse => e.trust_map = None,
        F::VltPortChannel => e.vlt_port_channel = None,
        F::StpBpduguard => e.bpduguard = None,
        F::StpGuard => e.stp_guard = None,
        F::StpPortType => e.stp_type = None,
        _ => return Err(unknown(Some(mode))),
    }
    Ok(())
}

/// A negation in a WRED profile's mode (`mode`): a colour's thresholds, or ECN.
fn negate_wred(w: &mut Wred, mode: &Mode, f: Field, v: &str) -> Done {
    match f {
        Field::WredColor => {
            let color = [Color::Green, Color::Yellow, Color::Red]
                .into_iter()
                .find(|x| x.word() == v)
                .ok_or("expected `green`, `yellow` or `red`")?;
            w.colors.remove(&color);
        }
        Field::WredEcn => w.ecn = false,
        _ => return Err(unknown(Some(mode))),
    }
    Ok(())
}

/// A negation in a class-map, trust map, qos-map or policy-map (`mode`): its `match` line, the
/// entry or the class `v` names.
fn negate_entry(c: &mut Config, mode: &Mode, v: &str) -> Done {
    match mode {
        Mode::ClassMap(k, n) => {
            let m = c
                .class_maps
                .iter_mut()
                .find(|m| m.kind == *k && m.name == *n)
                .ok_or("the class-map does not exist")?;
            m.matches = None;
        }
        Mode::TrustMap(k, n) => {
            let m = c
                .trust_maps
                .iter_mut()
                .find(|m| m.kind == *k && m.name == *n)
                .ok_or("the trust map does not exist")?;
            let g: u8 = v.parse().map_err(|_| "expected a qos-group 0-7")?;
            m.groups.remove(&g);
        }
        Mode::QosMap(n) => {
            let m = c
                .qos_maps
                .iter_mut()
                .find(|m| m.name == *n)
                .ok_or("the qos-map does not exist")?;
            let q: u8 = v.parse().map_err(|_| "expected a queue 0-7")?;
            m.queues.remove(&q);
        }
        Mode::PolicyMap(k, n) => {
            let m = c
                .policy_maps
                .iter_mut()
                .find(|m| m.kind == *k && m.name == *n)
                .ok_or("the policy-map does not exist")?;
            take(&mut m.classes, |x| x.name == v, v)?;
        }
        _ => return Err(unknown(Some(mode))),
    }
    Ok(())
}

/// A negation in a policy-map's class or in `system qos` (`mode`): the line cleared.
fn negate_qos_line(c: &mut Config, mode: &Mode, f: Field) -> Done {
    use Field as F;
    match mode {
        Mode::Class(k, p, n) => {
            let pc = class_of(c, *k, p, n)?;
            match f {
                F::Bandwidth => pc.bandwidth = None,
                F::Pause => pc.pause = false,
                F::PfcCos => pc.pfc_cos = None,
                F::Priority => pc.priority = false,
                F::RandomDetect => pc.random_detect = None,
                _ => return Err(unknown(Some(mode))),
            }
        }
        Mode::SystemQos => {
            let s = c.system_qos.as_mut().ok_or("no system qos")?;
            match f {
                F::SystemTrustMap => s.trust_map = None,
                F::SystemEts => s.ets = false,
                F::SystemPolicyIn => s.policy_in = None,
                F::SystemPolicyOut => s.policy_out = None,
                _ => return Err(unknown(Some(mode))),
            }
        }
        _ => return Err(unknown(Some(mode))),
    }
    Ok(())
}

/// A negation in `router bgp`, its address family or a neighbor or template (`mode`).
fn negate_bgp(c: &mut Config, mode: &Mode, f: Field, v: &str) -> Done {
    use Field as F;
    match mode {
        Mode::Bgp => {
            let b = c.bgp.as_mut().ok_or("no router bgp")?;
            match f {
                F::MultipathRelax => b.multipath_relax = false,
                F::FastExternalFallover => b.fast_external_fallover = true,
                F::MaxPathsEbgp => b.max_paths_ebgp = None,
                F::MaxPathsIbgp => b.max_paths_ibgp = None,
                F::RouterId => b.router_id = None,
                F::AddressFamily => b.ipv4 = None,
                F::Template => take(&mut b.templates, |t| t.0 == v, v)?,
                F::Neighbor => {
                    let a: Ipv4Addr = v.parse().map_err(|_| "expected an IPv4 address")?;
                    take(&mut b.neighbors, |x| x.0 == a, v)?
                }
                _ => return Err(unknown(Some(mode))),
            }
        }
        Mode::BgpAf => {
            let af = c
                .bgp
                .as_mut()
                .and_then(|b| b.ipv4.as_mut())
                .ok_or("no address family")?;
            let net = v
                .parse::<crate::types::Ipv4Net>()
                .map_err(|e| e.to_string())?;
            take(&mut af.networks, |x| *x == net, v)?;
        }
        Mode::Peer(id) => {
            let p = peer_of(c, id)?;
            match f {
                F::PeerDescription => p.description = None,
                F::PeerBfd => p.bfd = false,
                F::PeerTimers => p.timers = None,
                F::Inherit => p.inherit = None,
                F::RemoteAs => p.remote_as = None,
                F::PeerAddressFamily => p.ipv4 = None,
                _ => return Err(unknown(Some(mode))),
            }
        }
        _ => return Err(unknown(Some(mode))),
    }
    Ok(())
}

/// A port group's mode: set, and the interfaces of the ports whose mode changes deleted, as a
/// breakout change deletes them ([`rebreak`]); the new mode's are created when entered. A
/// mode the group does not take, where the configuration's groups name a model
/// ([`groups::model_of`]), is refused.
fn set_group_mode(c: &mut Config, id: PortGroupId, mode: String) -> Done {
    let before = c.port_groups.clone();
    c.port_groups.entry(id).or_default().mode = Some(mode);
    let Some(model) = groups::model_of([&c.port_groups]) else {
        return Ok(());
    };
    groups::regroup(model, &before, c).map_err(|id| {
        let maps = model.port_group(id.number).map(|g| g.run.maps.join(", "));
        c.port_groups = before;
        format!(
            "port group {id} of the {} takes `mode Eth` {}",
            model.name,
            maps.unwrap_or_default()
        )
    })
}

/// A breakout change deletes the port's interfaces (the port and its subports); the new map's
/// are created when entered. UNCONFIRMED by a capture: the Dell OS10 user guide ("Breakout
/// interfaces") says the old interfaces and their configuration are removed.
fn rebreak(c: &mut Config, port: Eth) {
    c.interfaces
        .retain(|i, _| !matches!(i, Iface::Ethernet(e) if Eth { sub: None, ..*e } == port));
}

fn qos_kind(network_qos: bool) -> QosKind {
    if network_qos {
        QosKind::NetworkQos
    } else {
        QosKind::Queuing
    }
}

/// A positive line: a setting, or a block header that enters its mode.
fn set(c: &mut Config, modes: &mut Vec<Mode>, line: &str) -> Done {
    let enter = match modes.last() {
        None => set_top(c, line)?,
        Some(m @ Mode::Iface(i, _)) => {
            let cmd = known(command::iface(line), m)?;
            let e = iface_of(c, i)?;
            match cmd {
                IfaceCmd::TrunkAllowed(add) => {
                    let set = e.trunk_allowed.get_or_insert_with(Default::default);
                    for v in add.iter() {
                        set.insert(v);
                    }
                }
                other => e.apply(&other),
            }
            None
        }
        Some(
            m @ (Mode::ClassMap(..) | Mode::TrustMap(..) | Mode::QosMap(_) | Mode::PolicyMap(..)),
        ) => set_entry(c, m, line)?,
        Some(m @ (Mode::Wred(_) | Mode::Class(..) | Mode::SystemQos | Mode::PortGroup(_))) => {
            set_qos_line(c, m, line)?;
            None
        }
        Some(m @ Mode::Vlt) => {
            let cmd = known(command::vlt(line), m)?;
            c.vlt.as_mut().ok_or("no vlt-domain")?.apply(&cmd);
            None
        }
        Some(m @ (Mode::Bgp | Mode::BgpAf | Mode::Peer(_))) => set_bgp(c, m, line)?,
        Some(m @ Mode::PeerAf(_)) => return Err(unknown(Some(m))),
    };
    if let Some(m) = enter {
        modes.push(m);
    }
    Ok(())
}

/// A command `mode` knows, read: a malformed one, or one the mode does not know, is refused.
fn known<T>(read: Result<Option<T>, command::Bad>, mode: &Mode) -> Result<T, String> {
    read.map_err(bad)?.ok_or_else(|| unknown(Some(mode)))
}

/// A line in configuration mode: a setting, or a block header ([`enter_block`]); the mode it
/// enters, if it is a block's.
fn set_top(c: &mut Config, line: &str) -> Result<Option<Mode>, String> {
    let Some(t) = command::top(line).map_err(bad)? else {
        return Err(unknown(None));
    };
    match t {
        Top::Hostname(h) => c.hostname = Some(h),
        Top::Dcbx => c.dcbx = true,
        Top::BfdEnable => c.bfd = true,
        Top::BfdInterval(b) => c.bfd_interval = Some(b),
        Top::Breakout(e, m) => {
            if c.breakouts.get(&e) != Some(&m) {
                rebreak(c, e);
            }
            c.breakouts.insert(e, m);
        }
        Top::Banner(_) => return Err("a banner is not typed by a plan".to_string()),
        block => return enter_block(c, block).map(Some),
    }
    Ok(None)
}

/// A block header in configuration mode: the block, created when it is new; the mode it
/// enters.
fn enter_block(c: &mut Config, t: Top) -> Result<Mode, String> {
    Ok(match t {
        Top::Interface(i) => {
            let e = c.interfaces.entry(i).or_default();
            Mode::Iface(i, Box::new(e.clone()))
        }
        Top::Wred(n) => {
            if !c.wred.iter().any(|w| w.name == n) {
                c.wred.push(Wred::new(n.clone()));
            }
            Mode::Wred(n)
        }
        Top::ClassMap(k, n) => {
            if !c.class_maps.iter().any(|m| m.kind == k && m.name == n) {
                c.class_maps.push(ClassMap::new(k, n.clone()));
            }
            Mode::ClassMap(k, n)
        }
        Top::TrustMap(k, n) => {
            if !c.trust_maps.iter().any(|m| m.kind == k && m.name == n) {
                c.trust_maps.push(TrustMap::new(k, n.clone()));
            }
            Mode::TrustMap(k, n)
        }
        Top::QosMap(n) => {
            if !c.qos_maps.iter().any(|m| m.name == n) {
                c.qos_maps.push(QosMap::new(n.clone()));
            }
            Mode::QosMap(n)
        }
        Top::PolicyMap(k, n) => {
            if !c.policy_maps.iter().any(|m| m.kind == k && m.name == n) {
                c.policy_maps.push(PolicyMap::new(k, n.clone()));
            }
            Mode::PolicyMap(k, n)
        }
        Top::SystemQos => {
            c.system_qos.get_or_insert_with(Default::default);
            Mode::SystemQos
        }
        Top::PortGroup(id) => {
            c.port_groups.entry(id).or_default();
            Mode::PortGroup(id)
        }
        Top::Vlt(id) => enter_vlt(c, id)?,
        Top::Bgp(asn) => enter_bgp(c, asn)?,
        Top::Hostname(_)
        | Top::Dcbx
        | Top::BfdEnable
        | Top::BfdInterval(_)
        | Top::Breakout(..)
        | Top::Banner(_) => return Err(unknown(None)),
    })
}

/// `vlt-domain ID`: the domain, created when there is none; a second domain is refused.
fn enter_vlt(c: &mut Config, id: u8) -> Result<Mode, String> {
    match &c.vlt {
        Some(v) if v.id != id => {
            return Err(format!(
                "vlt-domain {} is configured: one domain per switch",
                v.id
            ));
        }
        Some(_) => {}
        None => c.vlt = Some(Vlt::new(id)),
    }
    Ok(Mode::Vlt)
}

/// `router bgp ASN`: the instance, created when there is none; a second instance is refused.
fn enter_bgp(c: &mut Config, asn: u32) -> Result<Mode, String> {
    match &c.bgp {
        Some(b) if b.asn != asn => {
            return Err(format!(
                "router bgp {} is configured: one instance per switch",
                b.asn
            ));
        }
        Some(_) => {}
        None => c.bgp = Some(super::Bgp::new(asn)),
    }
    Ok(Mode::Bgp)
}

/// A line in a class-map, trust map, qos-map or policy-map (`mode`): its `match` line, an
/// entry, or a class header (the class's mode, entered).
fn set_entry(c: &mut Config, mode: &Mode, line: &str) -> Result<Option<Mode>, String> {
    match mode {
        Mode::ClassMap(k, n) => {
            let r = known(command::class_match(*k, line), mode)?;
            let m = c
                .class_maps
                .iter_mut()
                .find(|m| m.kind == *k && m.name == *n)
                .ok_or("the class-map does not exist")?;
            m.matches = Some(r);
        }
        Mode::TrustMap(k, n) => {
            let (g, r) = known(command::trust_entry(*k, line), mode)?;
            let m = c
                .trust_maps
                .iter_mut()
                .find(|m| m.kind == *k && m.name == *n)
                .ok_or("the trust map does not exist")?;
            m.groups.insert(g, r);
        }
        Mode::QosMap(n) => {
            let (q, r) = known(command::qos_map_entry(line), mode)?;
            let m = c
                .qos_maps
                .iter_mut()
                .find(|m| m.name == *n)
                .ok_or("the qos-map does not exist")?;
            m.queues.insert(q, r);
        }
        Mode::PolicyMap(k, n) => {
            let name = known(command::policy_class(line), mode)?;
            let m = c
                .policy_maps
                .iter_mut()
                .find(|m| m.kind == *k && m.name == *n)
                .ok_or("the policy-map does not exist")?;
            if !m.classes.iter().any(|x| x.name == name) {
                m.classes.push(PolicyClass {
                    name: name.clone(),
                    ..PolicyClass::default()
                });
            }
            return Ok(Some(Mode::Class(*k, n.clone(), name)));
        }
        _ => return Err(unknown(Some(mode))),
    }
    Ok(None)
}

/// A line in a WRED profile, a policy-map's class, `system qos` or a port group (`mode`).
fn set_qos_line(c: &mut Config, mode: &Mode, line: &str) -> Done {
    match mode {
        Mode::Wred(n) => {
            let cmd = known(command::wred(line), mode)?;
            wred_of(c, n)?.apply(&cmd);
        }
        Mode::Class(k, p, n) => {
            let cmd = known(command::class_line(*k, line), mode)?;
            class_of(c, *k, p, n)?.apply(&cmd);
        }
        Mode::SystemQos => {
            let cmd = known(command::system_qos(line), mode)?;
            c.system_qos.as_mut().ok_or("no system qos")?.apply(&cmd);
        }
        Mode::PortGroup(id) => {
            let m = known(command::port_group_mode(line), mode)?;
            set_group_mode(c, *id, m)?;
        }
        _ => return Err(unknown(Some(mode))),
    }
    Ok(())
}

/// A line in `router bgp`, its address family or a neighbor or template (`mode`); the mode it
/// enters, if it is a sub-block's header.
fn set_bgp(c: &mut Config, mode: &Mode, line: &str) -> Result<Option<Mode>, String> {
    match mode {
        Mode::Bgp => {
            let cmd = known(command::bgp(line), mode)?;
            let b = c.bgp.as_mut().ok_or("no router bgp")?;
            match cmd {
                BgpCmd::MultipathRelax => b.multipath_relax = true,
                BgpCmd::FastExternalFallover(on) => b.fast_external_fallover = on,
                BgpCmd::MaxPathsEbgp(n) => b.max_paths_ebgp = Some(n),
                BgpCmd::MaxPathsIbgp(n) => b.max_paths_ibgp = Some(n),
                BgpCmd::RouterId(a) => b.router_id = Some(a),
                BgpCmd::Ipv4Unicast => {
                    b.ipv4.get_or_insert_with(Default::default);
                    return Ok(Some(Mode::BgpAf));
                }
                BgpCmd::Template(t) => {
                    if !b.templates.iter().any(|x| x.0 == t) {
                        b.templates.push((t.clone(), Peer::default()));
                    }
                    return Ok(Some(Mode::Peer(PeerId::Template(t))));
                }
                BgpCmd::Neighbor(a) => {
                    if !b.neighbors.iter().any(|x| x.0 == a) {
                        b.neighbors.push((a, Peer::default()));
                    }
                    return Ok(Some(Mode::Peer(PeerId::Neighbor(a))));
                }
            }
            Ok(None)
        }
        Mode::BgpAf => {
            let net = known(command::af_network(line), mode)?;
            let af = c
                .bgp
                .as_mut()
                .and_then(|b| b.ipv4.as_mut())
                .ok_or("no address family")?;
            if !af.networks.contains(&net) {
                af.networks.push(net);
            }
            Ok(None)
        }
        Mode::Peer(id) => {
            let cmd = known(command::peer(line), mode)?;
            let p = peer_of(c, id)?;
            p.apply(&cmd);
            Ok((cmd == PeerCmd::Ipv4Unicast).then(|| Mode::PeerAf(id.clone())))
        }
        _ => Err(unknown(Some(mode))),
    }
}
