#!/usr/bin/env python3
"""The peer of `cargo bench --bench docs`: pyavd's device documentation for as many devices.

For the fabrics the docs benchmark generates (pods of 30 leaves and 2 spines; a leaf with 60
host ports on VLAN 100 with PFC on priority 3, two routed /31 uplinks with an eBGP session
each, a gateway SVI and a loopback; a spine with 30 routed downlinks and their sessions), the
structured config of every device is built, validated once (`pyavd.validate_structured_config`,
not timed: `get_device_doc` takes validated data), then timed: `pyavd.get_device_doc` over all
devices (AVD's eos_cli_config_gen documentation templates, one Markdown document per device),
median of --runs runs. One JSON line per size.

  python3 -m venv /tmp/pyavd-venv && /tmp/pyavd-venv/bin/pip install pyavd==6.4.0
  /tmp/pyavd-venv/bin/python benches/peers/pyavd_docs.py --pods 2 8 32
"""
import argparse
import json
import os
import statistics
import sys
import time
from importlib.metadata import version

import pyavd

LEAVES_PER_POD = 30
HOSTS_PER_LEAF = 60


def leaf(s, pod, k_spines):
    eth = [{
        "name": f"Ethernet{p}",
        "description": f"gpu{s:05d}-{p:02d}_ens1f0",
        "shutdown": False,
        "mtu": 9216,
        "qos": {"trust": "dscp"},
        "priority_flow_control": {"enabled": True, "priorities": [{"priority": 3, "no_drop": True}]},
        "switchport": {"enabled": True, "mode": "access", "access_vlan": 100},
    } for p in range(1, HOSTS_PER_LEAF + 1)]
    neighbors = []
    for k in range(2):
        spine = 2 * pod + k + 1
        addr = link_address(s, k)
        eth.append({
            "name": f"Ethernet{HOSTS_PER_LEAF + 1 + k}",
            "description": f"spine{spine:04d}_Ethernet{(s - 1) % LEAVES_PER_POD + 1}",
            "shutdown": False,
            "mtu": 9216,
            "speed": "100g",
            "switchport": {"enabled": False},
            "ip_address": f"{addr[1]}/31",
        })
        neighbors.append({"ip_address": addr[0], "remote_as": "65000", "description": f"spine{spine:04d}"})
    hi, lo = 64 + s // 256, s % 256
    return {
        "hostname": f"leaf{s:05d}",
        "vlans": [{"id": 100, "name": "gpu"}],
        "vlan_interfaces": [{"name": "Vlan100", "ip_address": f"100.{hi}.{lo}.1/24", "shutdown": False}],
        "loopback_interfaces": [{"name": "Loopback0", "ip_address": f"172.16.{s // 256}.{s % 256}/32"}],
        "ethernet_interfaces": eth,
        "router_bgp": {"as": str(4200000000 + s), "router_id": f"172.16.{s // 256}.{s % 256}", "neighbors": neighbors},
    }


def link_address(s, k):
    """The /31 of leaf s's k-th uplink: (spine's address, leaf's address)."""
    n = 2 * (2 * (s - 1) + k)
    base = (10 << 24) + n
    dot = lambda v: ".".join(str((v >> sh) & 255) for sh in (24, 16, 8, 0))
    return dot(base), dot(base + 1)


def spine(n):
    pod, k = (n - 1) // 2, (n - 1) % 2
    eth, neighbors = [], []
    for down in range(1, LEAVES_PER_POD + 1):
        s = pod * LEAVES_PER_POD + down
        addr = link_address(s, k)
        eth.append({
            "name": f"Ethernet{down}",
            "description": f"leaf{s:05d}_Ethernet{HOSTS_PER_LEAF + 1 + k}",
            "shutdown": False,
            "mtu": 9216,
            "speed": "100g",
            "switchport": {"enabled": False},
            "ip_address": f"{addr[0]}/31",
        })
        neighbors.append({"ip_address": addr[1], "remote_as": str(4200000000 + s), "description": f"leaf{s:05d}"})
    return {
        "hostname": f"spine{n:04d}",
        "loopback_interfaces": [{"name": "Loopback0", "ip_address": f"172.17.0.{n}/32"}],
        "ethernet_interfaces": eth,
        "router_bgp": {"as": "65000", "router_id": f"172.17.0.{n}", "neighbors": neighbors},
    }


def devices(pods):
    out = [spine(n) for n in range(1, 2 * pods + 1)]
    out += [leaf(s, (s - 1) // LEAVES_PER_POD, 2) for s in range(1, pods * LEAVES_PER_POD + 1)]
    return out


def validated(config):
    res = pyavd.validate_structured_config(config)
    if res.validated_data is None:
        sys.exit(f"{config['hostname']}: {[str(v) for v in res.validation_result.violations]}")
    return res.validated_data


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pods", type=int, nargs="+", default=[2, 8, 32])
    ap.add_argument("--runs", type=int, default=3, help="timed runs per size (the largest sizes may take one)")
    a = ap.parse_args()
    validated(devices(1)[0])  # templates and schema loaded before any timing
    for pods in a.pods:
        data = [validated(c) for c in devices(pods)]
        pyavd.get_device_doc(data[0])  # warm-up
        totals, lines = [], 0
        for _ in range(a.runs):
            t0 = time.perf_counter()
            lines = sum(pyavd.get_device_doc(d).count("\n") for d in data)
            totals.append(time.perf_counter() - t0)
        print(json.dumps({
            "tool": f"pyavd-{version('pyavd')}", "op": "get_device_doc",
            "devices": len(data), "runs": a.runs, "seconds": [round(t, 3) for t in totals],
            "seconds_median": round(statistics.median(totals), 3),
            "markdown_lines": lines, "loadavg_1m": round(os.getloadavg()[0], 2),
        }), flush=True)


if __name__ == "__main__":
    main()
