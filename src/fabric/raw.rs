//! The fabric file as written: a serde mirror of the YAML with every value's position kept.
//!
//! Types here are deliberately loose (integers as `i64`, words as strings) so that a value out
//! of range or a misspelt word is not a parse failure that hides every other problem: it
//! reaches `validate`, which reports all of them at once with their positions. Unknown keys are
//! refused here (`deny_unknown_fields`). The JSON Schema for editors is derived from these types.

use std::fmt;
use std::marker::PhantomData;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_saphyr::Spanned;

/// A value with its position in the YAML file: the bytes where it is written (where an alias
/// is used, the alias). Kept to two offsets, not the reader's lines and columns of both the
/// use and the definition: a fabric of 10,000 switches has millions of values.
#[derive(Clone, Debug, PartialEq)]
pub struct Sp<T> {
    value: T,
    start: u32,
    len: u32,
}

impl<T> Sp<T> {
    pub fn get(&self) -> &T {
        &self.value
    }

    /// A value the file does not write but implies, placed where `at` is written (a preset
    /// expanded into the keys it stands for: its diagnostics point at the preset).
    pub fn like<U>(value: T, at: &Sp<U>) -> Sp<T> {
        Sp {
            value,
            start: at.start,
            len: at.len,
        }
    }

    /// The byte range of the value in the file.
    pub fn range(&self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Sp<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Spanned::<T>::deserialize(d)?;
        let s = v.referenced.span();
        // Offsets fit: a fabric file is refused above 64 MiB before it is parsed.
        Ok(Sp {
            value: v.value,
            start: u32::try_from(s.byte_offset().unwrap_or(0)).unwrap_or(u32::MAX),
            len: u32::try_from(s.byte_len().unwrap_or(0)).unwrap_or(0),
        })
    }
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        T::json_schema(generator)
    }
}

/// A key that may be written empty to say "none here" (`qos:` under a switch, `preset:
/// null`): absent is `None` (with `#[serde(default)]`), written empty `Some(None)`.
fn written<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}

/// A YAML mapping kept in the order it was written, keys with their positions. Duplicate keys
/// are refused by the YAML reader before they get here.
#[derive(Clone, Debug, PartialEq)]
pub struct Entries<K, V>(pub Vec<(Sp<K>, V)>);

impl<K, V> Default for Entries<K, V> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for Entries<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V2<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for V2<K, V> {
            type Value = Entries<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a mapping")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::new();
                while let Some(k) = map.next_key::<Sp<K>>()? {
                    out.push((k, map.next_value::<V>()?));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V2(PhantomData))
    }
}

impl<K: JsonSchema, V: JsonSchema> JsonSchema for Entries<K, V> {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Map_of_{}", V::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let value = generator.subschema_for::<V>();
        schemars::json_schema!({ "type": "object", "additionalProperties": value })
    }
}

/// An ETS setting as written: the word `strict`, or a WRR weight.
#[derive(Clone, Debug, PartialEq)]
pub enum RawEts {
    Strict,
    Wrr(i64),
    Other(String),
}

impl<'de> Deserialize<'de> for RawEts {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RawEts;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`strict` or a WRR weight (1-100)")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawEts, E> {
                Ok(if s.eq_ignore_ascii_case("strict") {
                    RawEts::Strict
                } else {
                    RawEts::Other(s.to_string())
                })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawEts, E> {
                Ok(RawEts::Wrr(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawEts, E> {
                Ok(RawEts::Wrr(i64::try_from(v).unwrap_or(i64::MAX)))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for RawEts {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Ets".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "description": "`strict`, or the WRR weight of this traffic class (1-100)",
            "oneOf": [
                { "const": "strict" },
                { "type": "integer", "minimum": 1, "maximum": 100 }
            ]
        })
    }
}

/// ECN/RED marking of one traffic class. Thresholds are absolute (`min`/`max`, in KB) or
/// relative (`min_percent`/`max_percent` of the port buffer), not both.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Ecn")]
pub struct RawEcn {
    /// `ecn` (default), `red` or `both`.
    pub mode: Option<Sp<String>>,
    /// Minimum threshold in KB.
    pub min: Option<Sp<i64>>,
    /// Maximum threshold in KB.
    pub max: Option<Sp<i64>>,
    /// Minimum threshold in percent of the port buffer.
    pub min_percent: Option<Sp<i64>>,
    /// Maximum threshold in percent of the port buffer.
    pub max_percent: Option<Sp<i64>>,
}

/// The settings a port can take, shared by `port_defaults`, profiles, port entries and links.
/// Written once as a macro so the three places cannot drift apart (serde's `flatten` would
/// lose the positions).
macro_rules! port_settings {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $field:ident : $ty:ty,)* }) => {
        #[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, JsonSchema)]
        $(#[$m])*
        #[serde(deny_unknown_fields)]
        pub struct $name {
            $($(#[$fm])* pub $field: $ty,)*
            /// Port speed: `1G` `10G` `25G` `40G` `50G` `56G` `100G` `200G` `400G`.
            pub speed: Option<Sp<String>>,
            /// MTU, 1500-9216.
            pub mtu: Option<Sp<i64>>,
            /// Administrative state: `up` (default) or `down`.
            pub admin: Option<Sp<String>>,
            /// `switchport mode`: `access` (default), `trunk` or `hybrid`.
            pub switchport: Option<Sp<String>>,
            /// Access VLAN id; the VLAN must be declared under `vlans`.
            pub vlan: Option<Sp<i64>>,
            /// The VLANs a trunk port carries (`switchport: trunk`, implied), or a hybrid
            /// port's tagged VLANs besides its access `vlan` (`switchport: hybrid`); each
            /// declared under `vlans`.
            pub vlans: Option<Sp<Vec<Sp<i64>>>>,
            /// `qos trust`: `port`, `L2` (Onyx default), `L3` or `both`.
            pub trust: Option<Sp<String>>,
            /// ECN per traffic class (0-7).
            pub ecn: Option<Entries<i64, RawEcn>>,
            /// ETS per traffic class (0-7): `strict` or a WRR weight.
            pub ets: Option<Entries<i64, Sp<RawEts>>>,
            /// Per-port PFC (`dcb priority-flow-control mode on force`). Default: on where the
            /// switch's global PFC is (a lossless pool gives it), so `false` opts a port out.
            pub pfc: Option<Sp<bool>>,
            /// Print a description derived from the peer when none is given (default true).
            pub auto_description: Option<Sp<bool>>,
            /// Spanning tree on the port (or on the bundle it joins). Default: a port whose
            /// peer is a host is an edge port with BPDU guard (`host_ports: edge`); others
            /// keep the switch's defaults.
            pub stp: Option<RawStp>,
        }

        impl $name {
            /// The settings part of this entry.
            pub fn settings(&self) -> RawSettings {
                RawSettings {
                    speed: self.speed.clone(),
                    mtu: self.mtu.clone(),
                    admin: self.admin.clone(),
                    switchport: self.switchport.clone(),
                    vlan: self.vlan.clone(),
                    vlans: self.vlans.clone(),
                    trust: self.trust.clone(),
                    ecn: self.ecn.clone(),
                    ets: self.ets.clone(),
                    pfc: self.pfc.clone(),
                    auto_description: self.auto_description.clone(),
                    stp: self.stp.clone(),
                }
            }
        }
    };
}

port_settings!(
    /// Settings for every port of every switch (`port_defaults`) or a named profile.
    #[schemars(rename = "PortSettings")]
    RawSettings {}
);

port_settings!(
    /// One entry of a switch's port map: a port (`1/5`), a range (`1/1-1/8`) or subports.
    #[schemars(rename = "Port")]
    RawPort {
        /// Profile whose settings this port takes (then this entry's own settings win).
        profile: Option<Sp<String>>,
        /// Description; derived from the peer when not given.
        description: Option<Sp<String>>,
        /// What is plugged in.
        peer: Option<RawPeer>,
        /// Split this front-panel port 2 or 4 ways; its subports are `1/N/1` … `1/N/4`.
        split: Option<Sp<i64>>,
        /// A routed host port: its address and prefix length (`10.20.1.0/31`); the switch
        /// advertises the subnet in BGP.
        address: Option<Sp<String>>,
        /// Whether the switch advertises a routed port's subnet in BGP (default true);
        /// `false` for a port to a router outside the fabric, whose session is one of
        /// `bgp.neighbors` (how `fabric import` writes an uplink to a switch it does not
        /// import).
        advertise: Option<Sp<bool>>,
        /// The MLAG port-channel (`mlag-port-channel N`) this port joins, for a host
        /// dual-homed to an MLAG pair: the same number on the pair's other switch.
        mlag: Option<Sp<i64>>,
        /// The port-channel (`port-channel N`) this port joins, for a host bonded to this
        /// switch alone.
        lag: Option<Sp<i64>>,
        /// LACP mode of `mlag`/`lag` membership: `active` (default), `passive` or `on`.
        lacp: Option<Sp<String>>,
        /// The `mlag`/`lag` bundle forwards on its members as single ports while LACP does
        /// not come up (Onyx `lacp-individual enable force`), for hosts that boot over the
        /// network before their bond forms. Default false.
        lacp_individual: Option<Sp<bool>>,
        /// The description of the `mlag`/`lag` bundle itself (the port-channel's), the same
        /// on every member.
        bundle_description: Option<Sp<String>>,
    }
);

/// Spanning tree on a port.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Stp")]
pub struct RawStp {
    /// `edge` (a host: forwards at once), `network` (a switch: blocks without BPDUs, Onyx
    /// only) or `normal` (the switch's default).
    #[serde(rename = "type")]
    pub kind: Option<Sp<String>>,
    /// BPDU guard: a BPDU received shuts the port (a switch plugged in where a host belongs).
    pub bpduguard: Option<Sp<bool>>,
    /// `root` (the port never becomes a root port), `loop`, or `none` (the default).
    pub guard: Option<Sp<String>>,
}

/// A server (or other host) on a port. For a range of ports, `host` may hold a numbered
/// pattern, `clx-mld-{41..48}`, giving one host per port in order.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Peer")]
pub struct RawPeer {
    pub host: Sp<String>,
    /// The host's NIC port, e.g. `vmnic2` or `ens1f0`.
    pub port: Option<Sp<String>>,
}

/// How to reach a switch for `diff` and `push`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Mgmt")]
pub struct RawMgmt {
    /// The destination as `ssh` takes it: an address, or a name the SSH config's `Host`
    /// entries describe (`HostName`, `ProxyJump` …).
    pub host: Sp<String>,
    /// SSH port (default: the SSH config's `Port` for `host`, else 22).
    pub port: Option<Sp<i64>>,
    /// SSH user (default: the SSH config's `User` for `host`, else `admin`).
    pub user: Option<Sp<String>>,
}

/// One traffic pool (`traffic pool NAME …`).
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Pool")]
pub struct RawPool {
    /// `lossless`, `lossy` or `lossy-mc`.
    #[serde(rename = "type")]
    pub kind: Sp<String>,
    /// Share of the shared buffer, in percent (two decimals at most).
    pub memory: Option<Sp<f64>>,
    /// Switch priorities (0-7) mapped to this pool.
    pub priorities: Option<Sp<Vec<Sp<i64>>>>,
}

/// `qos.pfc` as written: `false` / `off` (no PFC: the opt-out), `true` / `on` (the default,
/// said out loud), or the global PFC written out.
#[derive(Clone, Debug, PartialEq)]
pub enum RawPfcSetting {
    Flag(bool),
    Word(String),
    Table(RawPfc),
}

impl<'de> Deserialize<'de> for RawPfcSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawPfcSetting;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "`false` (no PFC), `true`, or a mapping with `enabled` and `priorities`",
                )
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawPfcSetting, E> {
                Ok(RawPfcSetting::Flag(v))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<RawPfcSetting, E> {
                Ok(RawPfcSetting::Word(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawPfcSetting, A::Error> {
                RawPfc::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(RawPfcSetting::Table)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for RawPfcSetting {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PfcSetting".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let table = generator.subschema_for::<RawPfc>();
        schemars::json_schema!({
            "description": "Global PFC. Default, where the switch has a lossless pool (and no `roce` mode): enabled on the lossless pools' priorities, and PFC mode on every port (a port opts out with `pfc: false`). `false` or `off`: no PFC at all (the opt-out); `true` or `on`: the default, said out loud; or written out.",
            "oneOf": [
                { "type": "boolean" },
                { "enum": ["on", "off"] },
                table
            ]
        })
    }
}

/// Global priority flow control.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Pfc")]
pub struct RawPfc {
    /// `dcb priority-flow-control enable force` (default true when this block is present).
    pub enabled: Option<Sp<bool>>,
    /// Priorities with PFC on; each must be in a lossless pool.
    pub priorities: Option<Sp<Vec<Sp<i64>>>>,
}

/// The DSCP values the hosts mark, to check they land on the right priorities.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Dscp")]
pub struct RawDscp {
    /// DSCP of RoCE data (hosts commonly mark 26).
    pub roce: Option<Sp<i64>>,
    /// DSCP of congestion notification packets (commonly 48).
    pub cnp: Option<Sp<i64>>,
}

/// Switch-wide QoS: buffer pools, PFC, or the one-shot `roce` mode.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Qos")]
pub struct RawQos {
    /// `roce-lossless`: the lossless RoCE recipe written out line by line on Onyx (from
    /// 3.6.5000) and OS10 alike (a lossless pool `roce` of 50 % on priority 3, PFC on 3
    /// globally and on every port, trust L3, ECN 150/1500 KB on TC3, TC3 WRR 50, TC6 strict,
    /// DSCP 26 for RoCE and 48 for CNP). Keys written beside it (`pools`, `pfc`, `dscp`, port
    /// settings) replace its values; `null` under a switch clears the fabric's.
    #[serde(default, deserialize_with = "written")]
    #[schemars(with = "Option<String>")]
    pub preset: Option<Option<Sp<String>>>,
    /// One-shot RoCE mode (Onyx ≥ 3.8.2000): `lossless`, `semi-lossless` or `lossy`.
    /// Exclusive with `pools`.
    pub roce: Option<Sp<String>>,
    /// Traffic pools by name (at most 20 characters).
    pub pools: Option<Entries<String, RawPool>>,
    pub pfc: Option<Sp<RawPfcSetting>>,
    pub dscp: Option<RawDscp>,
}

/// One switch.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Switch")]
pub struct RawSwitch {
    /// The switch's OS: `onyx` (default), `os10` (Dell EMC SmartFabric OS10) or `cumulus`
    /// (NVIDIA Cumulus Linux, NVUE); overrides the fabric's.
    pub os: Option<Sp<String>>,
    /// `SN2100`, `SN2410`, `SN2700`, `SN3700`, `SN4600`, `SN4600C`; with `os: os10`,
    /// `S5248F-ON`, `S4112F-ON`, `S5232F-ON`, `Z9264F-ON`, `S4148F-ON`, `S6010-ON`, `S3048-ON`.
    pub model: Sp<String>,
    /// Onyx release, e.g. `3.9.3210` (overrides the fabric's).
    pub onyx: Option<Sp<String>>,
    /// OS10 release, e.g. `10.5.3.2` (overrides the fabric's).
    pub os10: Option<Sp<String>>,
    /// Cumulus Linux release, e.g. `5.9.2` (overrides the fabric's).
    pub cumulus: Option<Sp<String>>,
    pub mgmt: Option<RawMgmt>,
    /// License keys to carry (`license install KEY`).
    pub licenses: Option<Vec<Sp<String>>>,
    /// ID of the switch's self-signed certificate as `show running-config` prints it, so the
    /// golden file reads exactly like the switch.
    pub certificate: Option<Sp<String>>,
    /// Global LLDP (overrides the fabric's).
    pub lldp: Option<Sp<bool>>,
    /// What `fabric verify --counters` tolerates on this switch (each key given replaces the
    /// fabric's).
    pub verify: Option<RawVerify>,
    /// QoS for this switch; each key given replaces the fabric's (`preset: null` leaves the
    /// fabric's preset out); `qos:` written empty takes none of the fabric's QoS.
    #[serde(default, deserialize_with = "written")]
    #[schemars(with = "Option<RawQos>")]
    pub qos: Option<Option<RawQos>>,
    /// Port map: port, range or subports → settings and peer.
    pub ports: Option<Entries<String, RawPort>>,
    /// Whether the switch gets a `hostname` line with its name (default true); `false` for a
    /// switch whose running config has none (it keeps the name it has).
    pub set_hostname: Option<Sp<bool>>,
    /// Role in a routed leaf-spine underlay: `leaf` or `spine` (needed where `routing` is).
    pub role: Option<Sp<String>>,
    /// Number of the switch within its role, for its AS and loopback (default: the number
    /// its name ends with, `leaf07` → 7). Stable when the fabric grows.
    pub id: Option<Sp<i64>>,
    /// AS number, instead of the one its role gives.
    pub asn: Option<Sp<i64>>,
    /// Loopback 0 address (router-id), instead of the one its role's pool gives.
    pub loopback: Option<Sp<String>>,
    /// VLANs of this switch, in addition to the fabric's, each optionally with a gateway
    /// address (`interface vlan N ip address`), advertised in BGP.
    pub vlans: Option<Vec<RawVlan>>,
    /// Spanning tree on this switch (overrides the fabric's): `on` or `off`.
    pub stp: Option<Sp<String>>,
    /// What this switch's host-facing ports get (overrides the fabric's): `edge` or `keep`.
    pub host_ports: Option<Sp<String>>,
    /// What this switch's unused ports get (overrides the fabric's): `shutdown` or `keep`.
    pub unused_ports: Option<Sp<String>>,
    /// BGP written out: on a switch outside the derived underlay, or beyond it (peers
    /// outside the fabric, a router-id of its own). Values given here win over derived ones;
    /// neighbors and networks add to them.
    pub bgp: Option<RawBgp>,
    /// This switch's half of an MLAG pair written out (the fabric's `mlag` pairs derive it):
    /// for a pair whose other switch this fabric does not describe.
    pub mlag: Option<RawMlagHalf>,
    /// Configuration lines the fabric format does not model, by the running-config section
    /// they are printed in (`Other IP configuration`, `NTP and NTPdate configuration` …), as
    /// the switch prints them without the indent. Checked against the Onyx grammar and printed
    /// in that section; `fabric push` does not send them (they are not managed).
    pub extra: Option<Entries<String, Vec<Sp<String>>>>,
}

/// A cable between two switches, declared once: `a: leaf01:1/31`, `b: spine01:1/1`. Both
/// ends may be ranges of equal length, paired in order.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Link")]
pub struct RawLink {
    pub a: Sp<String>,
    pub b: Sp<String>,
    /// Profile applied to both ends.
    pub profile: Option<Sp<String>>,
    /// What the link is, at both ends: `routed` (default where the fabric has `routing`: a
    /// point-to-point subnet and a BGP session per cable), `access` (default otherwise),
    /// `trunk`, `lag` (the cables bundled in a port-channel) or `ipl` (an MLAG pair's peer
    /// link).
    pub role: Option<Sp<String>>,
    /// `access`: the VLAN; the VLAN must be declared.
    pub vlan: Option<Sp<i64>>,
    /// `trunk`, `lag`: the VLANs carried.
    pub vlans: Option<Vec<Sp<i64>>>,
    /// `lag`: the port-channel number at both ends.
    pub lag: Option<Sp<i64>>,
    /// `lag`: LACP mode, `active` (default), `passive` or `on`.
    pub lacp: Option<Sp<String>>,
}

/// A VLAN.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Vlan")]
pub struct RawVlan {
    pub id: Sp<i64>,
    pub name: Option<Sp<String>>,
    /// Under a switch: the gateway address of the VLAN's interface (`10.10.1.1/24`).
    pub address: Option<Sp<String>>,
    /// The MTU of the VLAN's interface where it has a gateway address, 1500-9216; default:
    /// the largest MTU of the switch's ports that carry the VLAN. Fabric-wide, for every
    /// switch's interface of the VLAN.
    pub mtu: Option<Sp<i64>>,
}

/// A BGP session to a peer outside the fabric, named by its address or by the switch's port
/// (BGP unnumbered, over the port's IPv6 link-local address, where the switch's OS peers so):
/// one of `address` and `port`.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "BgpNeighbor")]
#[schemars(extend("oneOf" = [{ "required": ["address"] }, { "required": ["port"] }]))]
pub struct RawNeighbor {
    /// The peer's IPv4 address.
    pub address: Option<Sp<String>>,
    /// The switch's routed port the session runs over, unnumbered (`swp33`); not in a VLAN
    /// nor a bundle.
    pub port: Option<Sp<String>>,
    /// The peer's AS: a number, or (with `port`) `external` (any AS but the switch's) or
    /// `internal` (the switch's own).
    pub remote_as: Sp<RawRemoteAs>,
    /// BFD on this session (default false: a peer outside the fabric may not run it), with
    /// the switch's BFD timers.
    pub bfd: Option<Sp<bool>>,
    /// BGP keepalive and hold timers of this session (default: the OS's, 60 s and 180 s).
    pub timers: Option<RawTimers>,
}

/// A neighbor's `remote_as` as written: a number, or a word (`external`, `internal`).
#[derive(Clone, Debug, PartialEq)]
pub enum RawRemoteAs {
    Number(i64),
    Word(String),
}

impl<'de> Deserialize<'de> for RawRemoteAs {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = RawRemoteAs;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an AS number, `external` or `internal`")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawRemoteAs, E> {
                Ok(RawRemoteAs::Number(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawRemoteAs, E> {
                Ok(RawRemoteAs::Number(i64::try_from(v).unwrap_or(i64::MAX)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawRemoteAs, E> {
                Ok(RawRemoteAs::Word(v.to_string()))
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for RawRemoteAs {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "RemoteAs".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "description": "The peer's AS: a number (1-4294967295), or, for a session named by its `port`, `external` (any AS but the switch's: eBGP) or `internal` (the switch's own: iBGP).",
            "oneOf": [
                { "type": "integer", "minimum": 1, "maximum": 4294967295u64 },
                { "type": "string", "enum": ["external", "internal"] }
            ]
        })
    }
}

/// BGP's keepalive and hold timers, in seconds (RFC 4271 §4.2, §10). The two ends of a
/// session use the smaller hold time, and send keepalives at least three times per hold time.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "BgpTimers")]
pub struct RawTimers {
    /// Seconds between keepalives, 1-65535, below the hold time.
    pub keepalive: Sp<i64>,
    /// Seconds without a message before the session is declared down, 3-65535.
    pub hold: Sp<i64>,
}

/// BFD as written: `true`, `false`, or its timers (which turn it on).
#[derive(Clone, Debug, PartialEq)]
pub enum RawBfdSetting {
    Flag(bool),
    Table(RawBfd),
}

impl<'de> Deserialize<'de> for RawBfdSetting {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawBfdSetting;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("`true`, `false`, or a mapping with `interval`, `min_rx`, `multiplier`")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawBfdSetting, E> {
                Ok(RawBfdSetting::Flag(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawBfdSetting, A::Error> {
                RawBfd::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(RawBfdSetting::Table)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for RawBfdSetting {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "BfdSetting".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let table = generator.subschema_for::<RawBfd>();
        schemars::json_schema!({
            "description": "BFD on the BGP sessions over routed links (RFC 5880, RFC 5882): a dead link is noticed in `interval` × `multiplier` milliseconds instead of BGP's hold time. Default on, at 300 ms × 3. `false`: off; `true`: on, at the default timers; or the timers written out.",
            "oneOf": [
                { "type": "boolean" },
                table
            ]
        })
    }
}

/// BFD's timers (RFC 5880 §6.8.2-§6.8.4): a session is declared down after `multiplier`
/// intervals without a packet.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Bfd")]
pub struct RawBfd {
    /// Desired transmit interval in milliseconds (default 300; Onyx 50-60000, OS10 50-1000).
    pub interval: Option<Sp<i64>>,
    /// Required receive interval in milliseconds (default: `interval`; Onyx 50-6000, OS10
    /// 50-1000).
    pub min_rx: Option<Sp<i64>>,
    /// Packets missed before the session is down, 3-50 (default 3).
    pub multiplier: Option<Sp<i64>>,
}

/// BGP on one switch, written out.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Bgp")]
pub struct RawBgp {
    pub asn: Option<Sp<i64>>,
    pub router_id: Option<Sp<String>>,
    pub maximum_paths: Option<Sp<i64>>,
    pub multipath_relax: Option<Sp<bool>>,
    /// Sessions besides those of routed links (peers outside the fabric).
    #[schemars(with = "Option<Vec<RawNeighbor>>")]
    pub neighbors: Option<Vec<Sp<RawNeighbor>>>,
    /// Prefixes advertised besides the loopback, gateway subnets and routed host ports.
    pub networks: Option<Vec<Sp<String>>>,
    /// BFD on this switch's sessions over routed links, and its timers (replaces
    /// `routing.bfd`).
    pub bfd: Option<Sp<RawBfdSetting>>,
    /// BGP timers of this switch's sessions over routed links (replaces `routing.timers`).
    pub timers: Option<RawTimers>,
    /// Reset an eBGP session at once when its link goes down (replaces
    /// `routing.fast_external_fallover`).
    pub fast_external_fallover: Option<Sp<bool>>,
}

/// One switch's half of an MLAG pair's peer link.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "IplHalf")]
pub struct RawIplHalf {
    pub port_channel: Sp<i64>,
    pub vlan: Sp<i64>,
    /// This switch's address on the IPL VLAN, with its prefix length (left out when the
    /// switch prints it in a form the format does not write, kept under `extra`).
    pub address: Option<Sp<String>>,
    /// The peer switch's address.
    pub peer: Sp<String>,
}

/// One switch's half of an MLAG pair.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "MlagHalf")]
pub struct RawMlagHalf {
    pub system_mac: Sp<String>,
    pub domain: Option<Sp<String>>,
    pub vip: Option<Sp<String>>,
    pub ipl: RawIplHalf,
    /// The peer switch's management address, which the peer is not in this fabric to give:
    /// OS10's VLT heartbeat backup (`backup destination`).
    pub peer_mgmt: Option<Sp<String>>,
}

/// How the switches of one role are numbered in the underlay.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "RoleRouting")]
pub struct RawRoleRouting {
    /// One AS for every switch of the role (spines, RFC 7938).
    pub asn: Option<Sp<i64>>,
    /// One AS per switch: this number plus the switch's `id` (leaves, RFC 7938).
    pub asn_base: Option<Sp<i64>>,
    /// Pool of loopback addresses: switch `id` N gets the Nth address.
    pub loopbacks: Sp<String>,
}

/// What `fabric verify --counters` tolerates over one interval before it is a finding.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Verify")]
pub struct RawVerify {
    /// PFC pause frames per second, received or sent on a lossless priority, that make a
    /// pause storm (default 1000).
    pub pause_rate: Option<Sp<u64>>,
    /// Packets dropped on a lossless traffic class (default 0).
    pub drops: Option<Sp<u64>>,
    /// Frames received with a bad FCS (CRC) (default 0).
    pub errors: Option<Sp<u64>>,
    /// Times a link changed state, down or up (default 0).
    pub flaps: Option<Sp<u64>>,
}

/// A routed underlay: eBGP over every routed link, ECMP across them.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Routing")]
pub struct RawRouting {
    pub spine: Option<RawRoleRouting>,
    pub leaf: Option<RawRoleRouting>,
    /// Pool of point-to-point subnets for routed links, one per cable (not needed when every
    /// routed link's ends have an `address`).
    pub links: Option<Sp<String>>,
    /// Length of a point-to-point subnet: 31 (default) or 30.
    pub link_prefix: Option<Sp<i64>>,
    /// BGP `maximum-paths` (default: the most sessions a switch has to one neighbouring AS,
    /// so every parallel uplink carries traffic).
    pub maximum_paths: Option<Sp<i64>>,
    /// ECMP hashing (`ip load-sharing`) on every switch that routes: `source-ip-port`
    /// (default) and/or `consistent`; `[]` for the switch's default.
    pub load_sharing: Option<Vec<Sp<String>>>,
    pub bfd: Option<Sp<RawBfdSetting>>,
    /// BGP keepalive and hold timers of the sessions over routed links (default: the OS's,
    /// 60 s and 180 s).
    pub timers: Option<RawTimers>,
    /// Reset an eBGP session at once when its directly connected link goes down, instead of
    /// waiting out the hold time (default true where a switch has sessions over routed
    /// links).
    pub fast_external_fallover: Option<Sp<bool>>,
}

/// The IPL of an MLAG pair: its port-channel, VLAN and subnet.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Ipl")]
pub struct RawIpl {
    /// Port-channel number of the peer link (its ports are the `role: ipl` link's).
    pub port_channel: Sp<i64>,
    /// VLAN of the IPL interface.
    pub vlan: Sp<i64>,
    /// Subnet of the IPL interface: the first switch gets the first address, the second the
    /// next (`10.254.255.0/30` → .1 and .2).
    pub subnet: Sp<String>,
}

/// An MLAG pair.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Mlag")]
pub struct RawMlag {
    /// The two switches.
    pub switches: Sp<Vec<Sp<String>>>,
    /// MLAG domain name (`mlag-vip NAME`), with `vip`.
    pub domain: Option<Sp<String>>,
    /// Virtual IP of the domain on the management network, with its prefix length.
    pub vip: Option<Sp<String>>,
    /// System MAC both switches present to hosts.
    pub system_mac: Sp<String>,
    pub ipl: RawIpl,
}

/// A fabric: switches, their ports and peers, and the RoCE intent they share.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "fabric")]
pub struct RawFabric {
    /// OS of every switch unless a switch says otherwise: `onyx` (default), `os10` or
    /// `cumulus`.
    pub os: Option<Sp<String>>,
    /// Onyx release of every switch unless a switch says otherwise.
    pub onyx: Option<Sp<String>>,
    /// OS10 release of every OS10 switch unless a switch says otherwise (`10.5.3.2`).
    pub os10: Option<Sp<String>>,
    /// Cumulus Linux release of every Cumulus switch unless a switch says otherwise (`5.9.2`).
    pub cumulus: Option<Sp<String>>,
    /// Global LLDP on every switch (default false).
    pub lldp: Option<Sp<bool>>,
    /// What `fabric verify --counters` tolerates on every switch unless a switch says
    /// otherwise.
    pub verify: Option<RawVerify>,
    pub qos: Option<RawQos>,
    pub vlans: Option<Vec<RawVlan>>,
    /// Settings for every port of every switch, connected or not.
    pub port_defaults: Option<RawSettings>,
    /// Named sets of port settings (`roce-host`, `uplink`).
    pub profiles: Option<Entries<String, RawSettings>>,
    pub switches: Entries<String, RawSwitch>,
    pub links: Option<Vec<RawLink>>,
    /// A routed underlay (eBGP, ECMP) over the links.
    pub routing: Option<RawRouting>,
    /// MLAG pairs.
    pub mlag: Option<Vec<RawMlag>>,
    /// Spanning tree on every switch: `on` (Onyx's default) or `off`.
    pub stp: Option<Sp<String>>,
    /// What a port whose peer is a host gets unless its settings say otherwise: `edge`
    /// (default: a spanning-tree edge port with BPDU guard, on the port or on the bundle it
    /// joins; not on a routed port, nor where spanning tree is off) or `keep` (the switch's
    /// defaults).
    pub host_ports: Option<Sp<String>>,
    /// What a front-panel port (or subport) that no port-map entry, link or peer names gets:
    /// `shutdown` (default: shut until the fabric uses it; its `port_defaults` still apply)
    /// or `keep` (left up).
    pub unused_ports: Option<Sp<String>>,
    /// The servers the switch ports' peers name, by host name (a `{01..08}` pattern gives
    /// one host per number): their OS, NIC, ports and MTU, so `fabric hosts` can say how to
    /// make them agree with the switches and `fabric audit --hosts` can check that they do.
    pub hosts: Option<Entries<String, RawHost>>,
}

/// One host (or a numbered family of hosts) cabled to the fabric.
#[derive(Clone, Debug, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Host")]
pub struct RawHost {
    /// `esxi` (nmlx5_core) or `linux` (mlx5_core, `mlnx_qos`).
    pub os: Sp<String>,
    /// NIC family: `ConnectX-4`, `ConnectX-4 Lx`, `ConnectX-5`, `ConnectX-5 Ex`,
    /// `ConnectX-6`, `ConnectX-6 Dx`, `ConnectX-6 Lx`, `ConnectX-7`, `BlueField-2`,
    /// `BlueField-3`.
    pub nic: Sp<String>,
    /// The NIC ports the switch ports' peers name (Linux netdev `ens1f0`, ESXi `vmnic2`).
    pub ports: Entries<String, RawHostPort>,
    /// MTU of the RoCE interfaces (Linux netdev; ESXi vmknic and vSwitch), 1280-9216.
    pub mtu: Sp<i64>,
    /// How to reach the host over SSH for `fabric audit --hosts-live` (Linux).
    pub mgmt: Option<RawMgmt>,
}

/// One NIC port of a host.
#[derive(Clone, Debug, Default, PartialEq, serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "HostPort")]
pub struct RawHostPort {
    /// Linux: the RDMA device of this port (`mlx5_0`).
    pub rdma: Option<Sp<String>>,
    /// ESXi: the VMkernel interface that carries RDMA over this uplink (`vmk1`).
    pub vmknic: Option<Sp<String>>,
    /// ESXi: the standard vSwitch this uplink belongs to (`vSwitch1`).
    pub vswitch: Option<Sp<String>>,
}
