//! The layouts of OS10's `show vlt N` and `show vlt N vlt-port-detail`, shared by the lab that
//! prints them and `fabric verify` that reads them. No capture of either is in the corpus: the
//! layout is the OS10 user guide's example (10.5), and every text here is UNCONFIRMED on a
//! switch. Changing one line here changes both the lab and the reader.

/// The VLT domain the compiler writes (`vlt-domain 1`): the `N` of `show vlt N`.
pub const VLT_DOMAIN: u8 = 1;

/// `show vlt N`'s fields, `label : value`, labels padded to this width (UNCONFIRMED).
pub const VLT_LABEL_WIDTH: usize = 27;

/// The fields of `show vlt N` the lab prints and verify reads (UNCONFIRMED), in order.
pub mod field {
    pub const DOMAIN: &str = "Domain ID";
    pub const UNIT: &str = "Unit ID";
    pub const ROLE: &str = "Role";
    pub const VERSION: &str = "Version";
    pub const LOCAL_MAC: &str = "Local System MAC address";
    pub const VLT_MAC: &str = "VLT MAC address";
    pub const IP: &str = "IP address";
    pub const DELAY_RESTORE: &str = "Delay-Restore timer";
    pub const PEER_ROUTING: &str = "Peer-Routing";
    pub const PEER_ROUTING_TIMEOUT: &str = "Peer-Routing-Timeout timer";
}

/// What the lab prints for the VLT protocol version, and the prefix of a unit's VLTi IPv6
/// address (`PREFIX:N::U`, N the domain, U the unit), as the guide's example (UNCONFIRMED).
pub const VLT_VERSION: &str = "3.1";
pub const VLTI_IPV6_PREFIX: &str = "fda5:74c8:b79e";

/// The heading of the VLTi's rows (`    port-channel1000       : up`), UNCONFIRMED.
pub const VLTI_HEADING: &str = "VLTi Link Status";

/// The port-channel OS10 makes of the `discovery-interface` ports (UNCONFIRMED).
pub const VLTI_PORT_CHANNEL: u16 = 1000;

/// The peer table's header: unit, system MAC, status (`up`/`down`), IP address on the VLTi
/// (OS10's own IPv6 link-local), version (UNCONFIRMED).
pub const VLT_PEER_HEADER: &str =
    "VLT Peer Unit ID    System MAC Address    Status    IP Address             Version";

/// `show vlt N vlt-port-detail`: a block per VLT port-channel, `vlt-port-channel ID : N`, then
/// a row per unit (`*` the local one): port-channel, status, configured and active ports
/// (UNCONFIRMED).
pub const VLT_PORT_ID: &str = "vlt-port-channel ID";
pub const VLT_PORT_HEADER: &str =
    "VLT Unit ID    Port-Channel      Status    Configured ports    Active ports";

/// A rule under a header, as long as the header.
pub fn rule(header: &str) -> String {
    "-".repeat(header.len())
}
