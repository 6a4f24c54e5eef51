#!/usr/bin/env python3
"""Netmiko on the switches of a running `fabric lab`: the peer columns of `cargo bench --bench
verify` and `--bench push`.

For each switch of the lab (STATE/inventory.yaml: where each listens), one Netmiko connection
(`mellanox_mlnxos`), WORKERS switches at a time:

- without `--config`: the show commands of the last session in STATE/NAME/commands.log (the
  `fabric verify` that just ran) read again, `send_command` per show;
- with `--config FILE`: the configuration commands of FILE (one a line: what `fabric push`
  plans for each switch) sent with `send_config_set`, then `write memory` and `show
  running-config` (the push's save and read-back).

Prints one JSON line: switches, commands, workers, seconds (wall, connections included),
failures.

  netmiko_lab.py --state STATE [--workers 16] [--password admin] [--config FILE]
"""
import argparse
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import yaml
from netmiko import ConnectHandler


def last_session_shows(log: Path):
    """The `show` lines of the log's last session (`SESSION<TAB>LINE` per line)."""
    sessions = {}
    for line in log.read_text(errors="replace").splitlines():
        session, _, command = line.partition("\t")
        sessions.setdefault(session, []).append(command)
    if not sessions:
        return []
    last = max(sessions, key=lambda s: int(s) if s.isdigit() else -1)
    return [c for c in sessions[last] if c.startswith("show ")]


def session(address, user, password, commands, config):
    conn = ConnectHandler(
        device_type="mellanox_mlnxos",
        host=address["host"],
        port=address["port"],
        username=user,
        password=password,
        secret=password,
        conn_timeout=15,
    )
    try:
        if config:
            conn.enable()
            conn.send_config_set(
                commands, read_timeout=60, cmd_verify=True, error_pattern=r"% |Unrecognized command"
            )
            conn.send_command("write memory", read_timeout=60)
            conn.send_command("show running-config", read_timeout=60)
        else:
            for c in commands:
                conn.send_command(c, read_timeout=60)
    finally:
        conn.disconnect()
    return len(commands)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--state", required=True, type=Path)
    ap.add_argument("--workers", type=int, default=16)
    ap.add_argument("--password", default=os.environ.get("FABRIC_PASSWORD", "admin"))
    ap.add_argument("--config", type=Path, help="configuration commands to push, one a line")
    args = ap.parse_args()
    config = None
    if args.config:
        config = [l.strip() for l in args.config.read_text().splitlines() if l.strip()]
    inventory = yaml.safe_load((args.state / "inventory.yaml").read_text())["switches"]
    jobs = []
    for name, address in sorted(inventory.items()):
        commands = config or last_session_shows(args.state / name / "commands.log")
        if not commands:
            raise SystemExit(f"{name}: no show commands logged (run `fabric verify` first)")
        jobs.append((address, address.get("user") or "admin", commands))
    t0 = time.monotonic()
    failures, commands = 0, 0
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        for f in [pool.submit(session, a, u, args.password, c, config is not None) for a, u, c in jobs]:
            try:
                commands += f.result()
            except Exception as e:  # a switch that fails is counted, not hidden
                failures += 1
                print(f"error: {e}", flush=True)
    seconds = time.monotonic() - t0
    print(json.dumps({
        "switches": len(jobs),
        "commands": commands,
        "workers": args.workers,
        "seconds": round(seconds, 2),
        "failures": failures,
    }))


if __name__ == "__main__":
    main()
