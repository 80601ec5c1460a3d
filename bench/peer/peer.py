#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The peer benchmark: the fabric and ns-3 on one leaf-spine.

Reads a deadlock-kind scenario file that describes a regular leaf-spine
(bench/peer/leafspine256.toml), runs the fabric on it (dsh-sim) and ns-3 on
the same topology, flows and window (ns3-leafspine, which rebuilds the
fabric runner's flow list from the same keys and seed), each as its own
process, and prints one table: packets forwarded, wall and CPU seconds of
the whole process, packets per wall second, and the ratio fabric / ns-3
from this one run; then what the two models do not share. Writes
OUT/peer.json and keeps each side's output under OUT.

  peer.py --fabric build/systemc/dsh-sim --ns3 build/bench/ns3-leafspine SCENARIO.toml
  peer.py ... --check SCENARIO.toml   # the test: same flows, ns-3's counts add up; no speed

Exit status: 0 done, 1 a side failed or (with --check) a check failed,
2 bad input, 77 ns-3 side not built (the test's SKIP_RETURN_CODE).
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import time
import tomllib
from pathlib import Path

RANGE = re.compile(r"^([A-Za-z_]*)(\d+)\.\.([A-Za-z_]*)(\d+)$")


class BadInput(Exception):
    pass


def expand_range(item):
    m = RANGE.match(item)
    if not m:
        return [item]
    if m.group(1) != m.group(3) or int(m.group(4)) < int(m.group(2)):
        raise BadInput(f"{item!r}: not a range P<a>..P<b> with a <= b")
    return [f"{m.group(1)}{i}" for i in range(int(m.group(2)), int(m.group(4)) + 1)]


def expand_list(items):
    """As dsh-sim's expand_list: ranges, and a range on the left of a link."""
    if isinstance(items, str):
        items = [x.strip() for x in items.split(",") if x.strip()]
    out = []
    for item in items:
        dash = item.find("-")
        if dash >= 0 and ".." in item:
            out += [x + item[dash:] for x in expand_range(item[:dash])]
        else:
            out += expand_range(item)
    return out


def leafspine(path):
    """The benchmark's description from the scenario file, or BadInput naming the key."""
    with open(path, "rb") as f:
        s = tomllib.load(f)

    def key(section, name, default=None):
        v = s.get(section, {}).get(name, default)
        if v is None:
            raise BadInput(f"{path}: {section}.{name} is missing")
        return v

    if key("scenario", "kind") != "deadlock":
        raise BadInput(f"{path}: scenario.kind must be deadlock (the runner whose flows ns-3 rebuilds)")
    switches = expand_list(key("net", "switches"))
    spines = [x for x in switches if x.startswith("S")]
    leaves = [x for x in switches if x.startswith("L")]
    hosts = expand_list(key("net", "hosts"))
    if len(spines) + len(leaves) != len(switches) or not spines or len(leaves) < 2:
        raise BadInput(f"{path}: net.switches must be spines S* and at least two leaves L*")
    if len(hosts) % len(leaves):
        raise BadInput(f"{path}: net.hosts: {len(hosts)} hosts do not divide among {len(leaves)} leaves")
    hpl = len(hosts) // len(leaves)
    want = {frozenset((l, sp)) for l in leaves for sp in spines}
    want |= {frozenset((h, leaves[i // hpl])) for i, h in enumerate(hosts)}
    links = expand_list(key("net", "links"))
    got = set()
    for item in links:
        if ":" in item:
            raise BadInput(f"{path}: net.links: {item!r}: every link at link.rate_gbps and link.prop_delay_ns here")
        a, _, b = item.partition("-")
        got.add(frozenset((a, b)))
    if got != want or len(links) != len(want):
        raise BadInput(f"{path}: net.links is not the regular leaf-spine of net.switches and net.hosts "
                       f"(every leaf to every spine; hosts in order, {hpl} to a leaf)")
    for k in ("failed_links", "routes", "rtl_switches"):
        if expand_list(s.get("net", {}).get(k, [])):
            raise BadInput(f"{path}: net.{k} must be empty")
    if key("traffic", "load_unit", "receiver") != "leaf":
        raise BadInput(f"{path}: traffic.load_unit must be leaf")
    index = {name: i for i, name in enumerate(leaves)}
    pairs = []
    for p in expand_list(key("traffic", "pairs")):
        a, _, b = p.partition(">")
        if a not in index or b not in index or a == b:
            raise BadInput(f"{path}: traffic.pairs: {p!r} is not SRC_LEAF>DST_LEAF of two leaves")
        pairs.append((index[a], index[b]))
    loads = expand_list(str(key("traffic", "load")))
    seeds = expand_list(str(key("deadlock", "seeds")))
    cc, schemes = expand_list(key("run", "cc")), expand_list(key("run", "schemes"))
    if len(loads) != 1 or len(seeds) != 1 or cc != ["none"] or len(schemes) != 1:
        raise BadInput(f"{path}: one run: one traffic.load, one deadlock.seeds, one run.schemes, run.cc = none")
    window = float(key("deadlock", "duration_ms"))
    if float(key("deadlock", "check_us")) * 1e-3 <= window:
        raise BadInput(f"{path}: deadlock.check_us must exceed the window (no deadlock check inside it)")
    return {
        "name": key("scenario", "name"),
        "spines": len(spines), "leaves": len(leaves), "hosts_per_leaf": hpl,
        "rate_gbps": key("link", "rate_gbps"), "delay_ns": key("link", "prop_delay_ns"),
        "packet_bytes": key("traffic", "packet_bytes"),
        "whole_packets": bool(key("traffic", "whole_packets", True)),
        "cdf": str((Path(path).parent / key("traffic", "cdf")).resolve()),
        "pairs": pairs,
        "fanin": (key("traffic", "fanin_min"), key("traffic", "fanin_max")),
        "load": loads[0], "seed": seeds[0], "window_ms": str(key("deadlock", "duration_ms")),
        "scheme": schemes[0], "backend": key("run", "backend", "golden"),
        "buffer_mib": key("chip", "buffer_cells") * key("chip", "cell_bytes") / 2**20,
    }


def run_measured(cmd, log):
    """Runs cmd; returns (exit status, wall s, CPU s of it and its children)."""
    t0 = time.monotonic()
    with open(log, "w") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, wall, ru.ru_utime + ru.ru_stime


def run_fabric(args, b, out):
    d = out / "fabric"
    cmd = [args.fabric, args.scenario, "-o", str(d), "--no-plot", "--rerun",
           "--set", f"deadlock.duration_ms={b['window_ms']}", "--set", f"deadlock.seeds={b['seed']}"]
    rc, wall, cpu = run_measured(cmd, out / "fabric.log")
    rows = []
    if (d / "deadlock.csv").exists():
        with open(d / "deadlock.csv") as f:
            rows = list(csv.DictReader(f))
    if rc != 0 or len(rows) != 1 or rows[0].get("error"):
        sys.stderr.write((out / "fabric.log").read_text())
        raise RuntimeError(f"fabric: exit {rc}, {len(rows)} runs in {d}/deadlock.csv (log: {out}/fabric.log)")
    r = rows[0]
    return {"command": cmd, "flows": int(r["flows"]), "packets_forwarded": int(r["packets_forwarded"]),
            "sim_ms": float(r["sim_ms"]), "lossless_drops": int(r["lossless_drops"]),
            "pause_frames": int(r["pause_frames"]), "flows_done": int(r["flows_done"]),
            "run_wall_s": float(r["wall_s"]), "wall_s": wall, "cpu_s": cpu}


def run_ns3(args, b, out):
    cmd = [args.ns3, f"--spines={b['spines']}", f"--leaves={b['leaves']}", f"--hosts-per-leaf={b['hosts_per_leaf']}",
           f"--rate-gbps={b['rate_gbps']}", f"--delay-ns={b['delay_ns']}", f"--packet-bytes={b['packet_bytes']}",
           f"--whole-packets={'true' if b['whole_packets'] else 'false'}", f"--cdf={b['cdf']}",
           f"--pair-load={b['load']}", "--pairs=" + ",".join(f"{a}>{c}" for a, c in b["pairs"]),
           f"--fanin-min={b['fanin'][0]}", f"--fanin-max={b['fanin'][1]}", f"--seed={b['seed']}",
           f"--window-ms={b['window_ms']}"]
    if args.check:
        cmd += ["--drain=true", "--check=true"]
    rc, wall, cpu = run_measured(cmd, out / "ns3.log")
    lines = [x for x in (out / "ns3.log").read_text().splitlines() if x.startswith("{")]
    if rc != 0 or not lines:
        sys.stderr.write((out / "ns3.log").read_text())
        raise RuntimeError(f"ns-3: exit {rc} (log: {out}/ns3.log)")
    r = json.loads(lines[-1])
    r.update(command=cmd, wall_s=wall, cpu_s=cpu)
    return r


NOT_SHARED = [
    "flow control: the fabric is lossless (PFC per class, PAUSE frames, headroom); ns-3 3.37 has no PFC, "
    "its queues drop at overflow",
    "buffer: the fabric's switch is one shared buffer of 256 B cells managed by the MMU (the golden DSH model, "
    "{buffer_mib:g} MiB, thresholds and headroom of docs/spec/mmu.md); ns-3 gives each port its own queues "
    "(a pfifo_fast queue disc of 1000 packets over a 100-packet device queue), nothing shared",
    "ECMP: the fabric hashes each flow to one path (a per-switch seed); ns-3 3.37's global routing picks a "
    "random next hop per packet (RandomEcmpRouting; no per-flow hash there), so a flow's packets reorder",
    "stack: ns-3 builds IPv4 and UDP headers, looks every packet's route up in global routing's table (a "
    "linear search over all /30 link networks) and passes sockets and the traffic-control layer; the "
    "fabric's packets are records with no headers, routed by a precomputed table of next ports",
    "wire: ns-3's frame is the {pkt} B IPv4 packet plus 2 B of PPP; the fabric sends {pkt} B",
    "switch: the fabric serves classes by DWRR and admits each packet by the MMU's decision (its latency "
    "and clock); ns-3 forwards at once, one FIFO per port",
    "hosts: both send at line rate, round robin over their flows, no congestion control (the fabric's "
    "DCQCN and PowerTCP are off); the fabric's hosts stop when paused, ns-3's never learn of a drop",
    "counting: both count packets a switch starts on an egress link; ns-3's include packets a later hop "
    "drops, the fabric drops none; both times are whole processes: building the network, routes and flows too",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", help="deadlock-kind scenario file of a regular leaf-spine")
    ap.add_argument("--fabric", required=True, help="dsh-sim")
    ap.add_argument("--ns3", required=True, help="ns3-leafspine")
    ap.add_argument("--out", help="output directory (default out/peer/<scenario.name>)")
    ap.add_argument("--window-ms", help="simulated window of both (default: the file's deadlock.duration_ms)")
    ap.add_argument("--seed", help="the traffic's seed (default: the file's deadlock.seeds)")
    ap.add_argument("--check", action="store_true",
                    help="test mode: ns-3 drains and checks its counts, both must run the same flows; no speed")
    args = ap.parse_args()
    try:
        b = leafspine(args.scenario)
    except (BadInput, OSError, tomllib.TOMLDecodeError, ValueError, TypeError) as e:
        print(f"peer: {e}", file=sys.stderr)
        return 2
    if args.window_ms:
        b["window_ms"] = args.window_ms
    if args.seed:
        b["seed"] = args.seed
    if not os.access(args.ns3, os.X_OK):
        print(f"peer: {args.ns3}: the ns-3 side is not built: ns-3 is not installed "
              "(Debian: apt-get install libns3-dev, then configure again); skipped", file=sys.stderr)
        return 77
    out = Path(args.out or f"out/peer/{b['name']}")
    out.mkdir(parents=True, exist_ok=True)
    try:
        fab = run_fabric(args, b, out)
        ns3 = run_ns3(args, b, out)
    except RuntimeError as e:
        print(f"peer: {e}", file=sys.stderr)
        return 1

    same = fab["flows"] == ns3["flows"]
    if args.check:
        bad = []
        if fab["flows"] == 0:
            bad.append("no flows in the window: nothing was checked")
        if not same:
            bad.append(f"flows: fabric {fab['flows']}, ns-3 {ns3['flows']}: not the same list")
        if ns3["check"] != "ok":
            bad.append("ns-3's counts do not add up (see its log)")
        if fab["lossless_drops"]:
            bad.append(f"fabric dropped {fab['lossless_drops']} lossless packets")
        for x in bad:
            print(f"peer --check: {x}", file=sys.stderr)
        if not bad:
            print(f"peer --check: matched {fab['flows']} flows; ns-3 drained: {ns3['packets_sent']} sent = "
                  f"{ns3['packets_received']} received + {sum(ns3['drops'].values())} dropped, "
                  f"{ns3['packets_forwarded']} forwarded")
        return 1 if bad else 0

    n_hosts = b["leaves"] * b["hosts_per_leaf"]
    host_load = float(b["load"]) * len(b["pairs"]) / b["leaves"]
    rows = [(f"fabric (dsh-sim, {b['backend']} {b['scheme'].upper()})", fab),
            (f"ns-3 {ns3['simulator'].split()[-1]} (p2p, IPv4/UDP)", ns3)]
    print(f"peer benchmark: {args.scenario}: {b['spines']} spines x {b['leaves']} leaves x {b['hosts_per_leaf']} "
          f"hosts ({n_hosts} hosts), {b['rate_gbps']} Gb/s links of {b['delay_ns']} ns, {Path(b['cdf']).name} "
          f"flow sizes, Poisson arrivals at {host_load:g} of each host link ({b['load']} of a leaf per pair x "
          f"{len(b['pairs'])} pairs), {b['packet_bytes']} B packets, seed {b['seed']}, window {b['window_ms']} ms")
    print(f"flows: fabric {fab['flows']}, ns-3 {ns3['flows']}: "
          + ("the same list (the fabric runner's generator and seed)" if same else "NOT the same list"))
    print()
    print(f"{'model':34} {'packets forwarded':>17} {'wall s':>8} {'CPU s':>8} {'M packets/wall s':>16} "
          f"{'M packets/CPU s':>15}")
    for name, r in rows:
        r["per_wall_s"] = r["packets_forwarded"] / r["wall_s"]
        r["per_cpu_s"] = r["packets_forwarded"] / r["cpu_s"] if r["cpu_s"] > 0 else 0
        print(f"{name:34} {r['packets_forwarded']:>17} {r['wall_s']:>8.2f} {r['cpu_s']:>8.2f} "
              f"{r['per_wall_s'] / 1e6:>16.4f} {r['per_cpu_s'] / 1e6:>15.4f}")
    ratio_wall = fab["per_wall_s"] / ns3["per_wall_s"] if ns3["per_wall_s"] else float("inf")
    ratio_cpu = fab["per_cpu_s"] / ns3["per_cpu_s"] if ns3["per_cpu_s"] else float("inf")
    print(f"{'fabric / ns-3':34} {'':>17} {'':>8} {'':>8} {ratio_wall:>16.1f} {ratio_cpu:>15.1f}")
    print()
    drops = sum(ns3["drops"].values())
    print(f"fabric: {fab['lossless_drops']} drops, {fab['pause_frames']} PAUSE frames, {fab['flows_done']} of "
          f"{fab['flows']} flows done, {fab['sim_ms']:g} ms simulated")
    print(f"ns-3:   {drops} drops ({', '.join(f'{k} {v}' for k, v in ns3['drops'].items())}), "
          f"{ns3['packets_sent']} packets sent, {ns3['packets_received']} received, "
          f"{ns3['sim_ms']:g} ms simulated; setup (network, global routes, flows) {ns3['setup_wall_s']:.2f} s wall")
    print()
    not_shared = [x.format(pkt=b["packet_bytes"], buffer_mib=b["buffer_mib"]) for x in NOT_SHARED]
    print("what the two models do not share:")
    for x in not_shared:
        print("  - " + x)
    report = {"scenario": args.scenario, "benchmark": {k: v for k, v in b.items() if k != "pairs"},
              "pairs": len(b["pairs"]), "same_flows": same, "fabric": fab, "ns3": ns3,
              "ratio_per_wall_s": ratio_wall, "ratio_per_cpu_s": ratio_cpu, "not_shared": not_shared}
    (out / "peer.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"\n{out}/peer.json; logs {out}/fabric.log, {out}/ns3.log")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
