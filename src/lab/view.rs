//! The network view: every switch of a lab as the network reads it ([`Node`]) and the cabling
//! with the faults in force, which every `show` that reads the network derives its state
//! from. It is built once per change and shared by every command until the next: a switch's
//! running config changed (its device says so, [`Views::changed`]), a fault file written
//! ([`super::watch`]), a switch gone. A command costs a look at what changed, not a copy of
//! every switch's config; a change costs a read of the switches that changed and a new view.
//! What the view derives for the whole network at once (BGP) is derived once per view.
//!
//! Nothing here prints or changes a switch.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};

use super::cabling::{Cabling, CablingFaults};
use super::device::Device;
use super::network::BgpView;
use super::watch::Watch;
use crate::onyx::Config;
use crate::types::{Mac, Port};

/// A switch as the network reads it: its running config in the network's terms, its OS
/// (which names its ports in what LLDP sends), the pair domain it is in when its OS keeps
/// one beside those terms, and the BGP neighbors its instance (in `config`) names by port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub config: Config,
    pub os: crate::fabric::Os,
    pub pair: Option<PairDomain>,
    /// BGP neighbors named by a port rather than an address (BGP unnumbered: the session runs
    /// between the two ends' IPv6 link-local addresses, learned from router advertisements),
    /// by the port.
    pub port_peers: BTreeMap<Port, PortPeer>,
}

/// A BGP neighbor named by its port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortPeer {
    pub remote_as: RemoteAs,
    /// BFD watches the session.
    pub bfd: bool,
    /// The hold time configured for it (`None`: the network's default).
    pub hold: Option<u16>,
}

/// The AS a neighbor named by its port is expected to have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RemoteAs {
    /// Any AS but this switch's own (eBGP).
    External,
    /// This switch's own AS (iBGP).
    Internal,
    Number(u32),
}

impl RemoteAs {
    /// Whether a far end of AS `far` is what a switch of AS `mine` expects.
    pub fn fits(self, mine: u32, far: u32) -> bool {
        match self {
            RemoteAs::External => far != mine,
            RemoteAs::Internal => far == mine,
            RemoteAs::Number(n) => far == n,
        }
    }

    /// The AS it names: a number's, or for `internal` this switch's own; `None` for `external`.
    pub fn number(self, mine: u32) -> Option<u32> {
        match self {
            RemoteAs::External => None,
            RemoteAs::Internal => Some(mine),
            RemoteAs::Number(n) => Some(n),
        }
    }
}

/// A pair of switches that act as one, where the configuration's terms have no words for it
/// (their MLAG has a peer link VLAN and addresses; such a pair neither): the domain, the ports
/// that link the pair, its MAC and priority, and the port-channels the pair shares. Only the
/// switch's own OS reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairDomain {
    pub id: u8,
    /// The ports that link the pair.
    pub discovery: BTreeSet<Port>,
    pub vlt_mac: Option<Mac>,
    pub primary_priority: Option<u32>,
    /// Each shared port-channel: its id in the pair and its port-channel.
    pub ports: BTreeMap<u16, u16>,
}

/// The network at one moment.
pub struct View {
    /// Every switch that is on, by its name in the fabric.
    pub(super) nodes: BTreeMap<String, Arc<Node>>,
    /// The fabric's cabling with every switch's cabling faults applied.
    pub(super) cabling: Arc<Cabling>,
    /// Every switch's BGP, derived at the first command that asks.
    pub(super) bgp: OnceLock<BTreeMap<String, BgpView>>,
}

impl View {
    /// A network of `nodes` cabled as `cabling` says.
    pub fn new(nodes: BTreeMap<String, Arc<Node>>, cabling: Cabling) -> View {
        View {
            nodes,
            cabling: Arc::new(cabling),
            bgp: OnceLock::new(),
        }
    }
}

/// Where the network reads a switch's running config from.
enum Member {
    /// A switch served by this process.
    Device(Weak<Device>),
    /// A switch served by other processes (`fabric lab --stdio`, one per session): its folder
    /// in the lab's state directory.
    Folder(PathBuf),
}

impl Member {
    /// The switch as the network reads it: `None` when it is gone or its folder does not
    /// read (a switch that is off). A device's state is read under its own lock alone.
    fn node(&self) -> Option<Node> {
        match self {
            Member::Device(d) => d.upgrade().map(|d| d.with_ref(|sw| sw.node())),
            Member::Folder(dir) => super::device::node_in(dir),
        }
    }

    /// The faults of its cables now.
    fn faults(&self) -> CablingFaults {
        match self {
            Member::Device(d) => d.upgrade().map(|d| d.cabling_faults()).unwrap_or_default(),
            Member::Folder(dir) => super::device::cabling_faults_in(dir),
        }
    }

    /// Whether its running config is in its folder (another process serves it), so that a
    /// change of its files may be a change of its config.
    fn in_folder(&self) -> bool {
        matches!(self, Member::Folder(_))
    }

    fn dir(&self) -> Option<PathBuf> {
        match self {
            Member::Device(d) => d.upgrade()?.dir().map(PathBuf::from),
            Member::Folder(dir) => Some(dir.clone()),
        }
    }
}

/// A switch of the network and what was last read of it.
struct Slot {
    member: Member,
    node: Option<Arc<Node>>,
    faults: CablingFaults,
}

impl Slot {
    /// Reads the switch again: whether it changed.
    fn read_node(&mut self) -> bool {
        let node = self.member.node();
        if node.as_ref() == self.node.as_deref() {
            return false;
        }
        self.node = node.map(Arc::new);
        true
    }

    /// Reads its cables' faults again: whether they changed.
    fn read_faults(&mut self) -> bool {
        let faults = self.member.faults();
        if faults == self.faults {
            return false;
        }
        self.faults = faults;
        true
    }
}

/// What the views are built from, and the last one.
#[derive(Default)]
struct State {
    slots: BTreeMap<String, Slot>,
    view: Option<Arc<View>>,
    /// Switches with a state folder that is not watched: read at every view.
    unwatched: BTreeSet<String>,
}

/// The views of one network: the switches, what changed since the last view, the last view.
pub struct Views {
    state: Mutex<State>,
    /// Switches said to have changed since the last view. Its own lock, never held while
    /// another is taken: a device says so right after a command, without waiting on a view
    /// being built.
    dirty: Mutex<BTreeSet<String>>,
    watch: Mutex<Option<Watch>>,
    builds: AtomicU64,
    reads: AtomicU64,
}

impl Views {
    pub fn new() -> Views {
        Views {
            state: Mutex::new(State::default()),
            dirty: Mutex::new(BTreeSet::new()),
            watch: Mutex::new(Watch::new()),
            builds: AtomicU64::new(0),
            reads: AtomicU64::new(0),
        }
    }

    /// Adds a switch served by this process.
    pub fn add_device(&self, name: &str, device: &Arc<Device>) {
        self.add(name, Member::Device(Arc::downgrade(device)));
    }

    /// Adds a switch whose state is kept in `dir` by other processes.
    pub fn add_folder(&self, name: &str, dir: PathBuf) {
        self.add(name, Member::Folder(dir));
    }

    fn add(&self, name: &str, member: Member) {
        let watched = match member.dir() {
            Some(dir) => lock(&self.watch)
                .as_mut()
                .is_some_and(|w| w.add(name, &dir)),
            // Nothing on disk: it changes only as its device says.
            None => true,
        };
        let mut st = lock(&self.state);
        if !watched {
            st.unwatched.insert(name.to_string());
        }
        st.slots.insert(
            name.to_string(),
            Slot {
                member,
                node: None,
                faults: CablingFaults::default(),
            },
        );
        drop(st);
        self.changed(name);
    }

    /// Says that the switch `name` may have changed (its running config, its faults): the
    /// next view reads it again.
    pub fn changed(&self, name: &str) {
        lock(&self.dirty).insert(name.to_string());
    }

    /// How many views have been built: one per change the network saw, not one per command.
    pub fn builds(&self) -> u64 {
        self.builds.load(Ordering::Relaxed)
    }

    /// How many times a switch's running config was read: once per switch for the first
    /// view, then once per switch that changed.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    /// The network now, with `cabling` the fabric's: the last view when nothing changed since,
    /// else a new one from the switches that changed and the others as last read.
    pub fn view(&self, cabling: &Cabling) -> Arc<View> {
        // Held until the view is stored: a command that starts after a change was said
        // waits for the view that has it.
        let mut st = lock(&self.state);
        // Said by their devices to have changed: config and faults read again. Their files
        // changed (or are not watched): faults read again, and the config of a switch
        // another process serves.
        let told = std::mem::take(&mut *lock(&self.dirty));
        let mut lost = BTreeSet::new();
        let seen = lock(&self.watch)
            .as_mut()
            .map(|w| w.changed(&mut lost))
            .unwrap_or_default();
        st.unwatched.extend(lost);
        let mut files = seen.switches;
        if seen.all {
            files.extend(st.slots.keys().cloned());
        }
        files.extend(st.unwatched.iter().cloned());
        if let Some(v) = &st.view
            && told.is_empty()
            && files.is_empty()
        {
            return v.clone();
        }
        let (mut nodes_changed, mut faults_changed) = (st.view.is_none(), st.view.is_none());
        for (name, config) in told
            .iter()
            .map(|n| (n, true))
            .chain(files.iter().map(|n| (n, false)))
        {
            let Some(slot) = st.slots.get_mut(name) else {
                continue;
            };
            if config || slot.member.in_folder() {
                self.reads.fetch_add(1, Ordering::Relaxed);
                nodes_changed |= slot.read_node();
            }
            faults_changed |= slot.read_faults();
        }
        if let Some(v) = &st.view
            && !nodes_changed
            && !faults_changed
        {
            return v.clone();
        }
        let cabling = match &st.view {
            Some(v) if !faults_changed => v.cabling.clone(),
            _ => Arc::new(with_faults(cabling, &st.slots)),
        };
        let nodes = st
            .slots
            .iter()
            .filter_map(|(name, s)| s.node.clone().map(|n| (name.clone(), n)))
            .collect();
        let view = Arc::new(View {
            nodes,
            cabling,
            bgp: OnceLock::new(),
        });
        self.builds.fetch_add(1, Ordering::Relaxed);
        st.view = Some(view.clone());
        view
    }
}

impl Default for Views {
    fn default() -> Views {
        Views::new()
    }
}

/// The fabric's cabling with the faults of every switch that has some.
fn with_faults(cabling: &Cabling, slots: &BTreeMap<String, Slot>) -> Cabling {
    let faults: Vec<(&str, &CablingFaults)> = slots
        .iter()
        .filter(|(_, s)| !s.faults.is_empty())
        .map(|(n, s)| (n.as_str(), &s.faults))
        .collect();
    if faults.is_empty() {
        return cabling.clone();
    }
    cabling.with_faults(faults)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// States the QoS of an OS's audit view (`view`) in the network's terms (`out`), for the
/// counters ([`super::counters`]): the priorities PFC pauses, and each port's PFC mode and
/// ECN marking per traffic class, on the ports `out` has (none is made here).
pub fn qos_terms(view: &crate::audit::view::View, out: &mut crate::onyx::Config) {
    out.pfc = crate::onyx::Pfc {
        enabled: view.pfc.enabled,
        priorities: view
            .pfc
            .priorities
            .iter()
            .filter_map(|p| crate::types::Priority::new(i64::from(*p)).ok())
            .collect(),
    };
    for (k, v) in &view.ports {
        if let (crate::types::Iface::Ethernet(_), Some(i)) = (k, out.interfaces.get_mut(k)) {
            i.pfc = v.pfc;
            i.ecn = v.ecn;
        }
    }
}
