#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The switch model in frame mode, checked by tshark (CTest systemc/frames_tshark).

Runs a short S1 point, a short S4.2 point (worst-case-port: DSH's port
pause) and an S2 point (a network) in frame mode (link.flow_control = frames) with a capture of two
hosts' links (--pcap), reads
the capture with tshark and checks, from tshark's own decode, against the
MMU events dsh-sim logged beside it (<pcap>.csv, rows in the order they
happened):

  * every frame decodes without a malformed or error-level expert finding;
    MAC Control frames are 60 bytes to 01:80:c2:00:00:01, data packets are
    IPv4/UDP to the RoCEv2 port 4791 with a DSCP of traffic.class_dscp;
  * the CSV's frame records are exactly the capture's MAC Control frames, in
    order and of the same kind (PFC 0x0101, PAUSE 0x0001);
  * each PFC frame enables exactly the classes the MMU holds paused or the
    frame before on its link left paused, with the pause time for a class
    the MMU holds paused at that moment and 0 (XON) for the others; each
    PAUSE frame carries the pause time exactly when the MMU holds the port
    paused; every event is followed by a frame of its kind on its link, and
    each link ends with what the MMU holds;
  * no class and no port stays paused past its timer without a refresh:
    while the MMU holds a pause, the next frame of its kind comes within the
    pause time of the last.

The last check must fail on a run whose refresh comes after the pause time
(link.refresh_quanta > link.pause_quanta): the test runs one and expects it.

  test_frames_tshark.py DSH_SIM SCENARIO_DIR OUTDIR
"""

import csv
import subprocess
import sys
from pathlib import Path

RATE_GBPS = 100
QUANTUM_PS = 512 * 1000 // RATE_GBPS  # 512 bit times at 100 Gb/s: 5120 ps
CLASS_DSCP = {0, 8, 16, 26, 32, 40, 48}
CNP_DSCP = 48
FIELDS = (["frame.number", "frame.len", "eth.dst", "eth.type", "ip.dsfield.dscp", "udp.dstport", "macc.opcode",
           "macc.cbfc.enbv"] + [f"macc.cbfc.pause_time.c{j}" for j in range(8)] +
          ["macc.pause_time", "_ws.malformed", "_ws.expert.severity", "_ws.expert.message"])
LINKS = "switch-host2,switch-host0"  # S1: a fan-in host (2..17), a background host (0, 1); S4.2: two fan-in hosts


def dsh_sim(exe, scenario, out, pause, refresh, point, links=None):
    out.mkdir(parents=True, exist_ok=True)
    pcap = out / "capture.pcap"
    cmd = [exe, str(scenario), "--point", point, "-o", str(out),
           "--pcap", str(pcap), "--set", "link.flow_control=frames", "--set", f"link.pause_quanta={pause}",
           "--set", f"link.refresh_quanta={refresh}", "--set", f"capture.links={links or LINKS}"]
    if "collateral" not in str(scenario):
        cmd += ["-b", "golden"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r, pcap


def tshark(pcap):
    r = subprocess.run(["tshark", "-r", str(pcap), "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"] +
                       sum((["-e", f] for f in FIELDS), []), capture_output=True, text=True)
    err = [l for l in r.stderr.splitlines() if l.strip() and "Running as user" not in l]
    if r.returncode != 0 or err:
        raise SystemExit(f"tshark failed (exit {r.returncode}):\n{r.stderr}")
    rows = {}
    for line in r.stdout.splitlines():
        v = line.split("\t")
        v += [""] * (len(FIELDS) - len(v))
        row = dict(zip(FIELDS, v))
        rows[int(row["frame.number"])] = row
    return rows


def num(text):
    return int(text, 0) if text else None


def check(pcap, pause, need_port_pause=False):
    """The problems found, [] when every check holds."""
    problems = []
    frames = tshark(pcap)
    if not frames:
        return ["the capture is empty"]
    for n, f in frames.items():
        if f["_ws.malformed"] or "error" in f["_ws.expert.severity"].lower().split(","):
            problems.append(f"frame {n}: decode error: {f['_ws.malformed']} {f['_ws.expert.message']}")
        if f["eth.type"] == "0x8808":
            if f["eth.dst"] != "01:80:c2:00:00:01" or f["frame.len"] != "60":
                problems.append(f"frame {n}: MAC Control to {f['eth.dst']}, {f['frame.len']} bytes")
        elif f["eth.type"] == "0x0800":
            dscp = num(f["ip.dsfield.dscp"])
            if f["udp.dstport"] != "4791" or (dscp not in CLASS_DSCP and dscp != CNP_DSCP):
                problems.append(f"frame {n}: UDP port {f['udp.dstport']}, DSCP {dscp}")
        else:
            problems.append(f"frame {n}: EtherType {f['eth.type']}")
    macc = [n for n, f in frames.items() if f["eth.type"] == "0x8808"]
    with open(str(pcap) + ".csv") as fh:
        rows = list(csv.DictReader(fh))
    records = [int(r["record"]) for r in rows if r["type"] == "frame"]
    if records != macc:
        problems.append(f"the CSV's frame records {records[:8]}... are not the capture's MAC Control frames "
                        f"{macc[:8]}...")
        return problems

    # Replay the MMU events per link; check each frame against them.
    mmu, sent = {}, {}  # link -> {"q": [7 bits], "p": bit}; what the link's frames last said
    last = {}           # (link, class or "port") -> (t_ps, time quanta) of the last frame that paused it
    pending = {}        # (link, "pfc" | "pause") -> an event not yet followed by a frame of its kind
    n_pfc = n_pause = n_events = 0
    for r in rows:
        link, t = r["link"], int(r["t_ps"])
        m = mmu.setdefault(link, {"q": [0] * 7, "p": 0})
        s = sent.setdefault(link, {"q": [0] * 7, "p": 0})
        # A pause the MMU holds must be refreshed before the last frame's time runs out.
        for key, (t0, q) in list(last.items()):
            held = (mmu[key[0]]["p"] if key[1] == "port" else mmu[key[0]]["q"][key[1]])
            if held and t > t0 + q * QUANTUM_PS:
                problems.append(f"{key[0]} {'port' if key[1] == 'port' else 'class ' + str(key[1])}: paused by "
                                f"the MMU, its last frame's {q} quanta ran out at {t0 + q * QUANTUM_PS} ps with no "
                                f"refresh")
                del last[key]
        if r["type"] == "event":
            n_events += 1
            k, j = r["kind"], int(r["queue"])
            if k in ("PAUSE", "RESUME"):
                m["q"][j] = int(k == "PAUSE")
                pending[(link, "pfc")] = r
            else:
                m["p"] = int(k == "PORT_PAUSE")
                pending[(link, "pause")] = r
            continue
        f = frames[int(r["record"])]
        op = num(f["macc.opcode"])
        if op == 0x0101 and r["kind"] == "PFC":
            n_pfc += 1
            pending.pop((link, "pfc"), None)
            enbv = num(f["macc.cbfc.enbv"])
            times = [num(f[f"macc.cbfc.pause_time.c{j}"]) for j in range(8)]
            want_en = sum(1 << j for j in range(7) if m["q"][j] or s["q"][j])
            if enbv != want_en:
                problems.append(f"frame {r['record']} ({link}, {t} ps): enable vector {enbv:#04x}, the MMU holds "
                                f"{m['q']} and the last frame said {s['q']}: want {want_en:#04x}")
            for j in range(8):
                want = pause if j < 7 and m["q"][j] else 0
                if times[j] != want:
                    problems.append(f"frame {r['record']} ({link}): class {j} time {times[j]}, want {want}")
            for j in range(7):
                s["q"][j] = m["q"][j]
                if enbv >> j & 1:
                    if times[j]:
                        last[(link, j)] = (t, times[j])
                    else:
                        last.pop((link, j), None)
        elif op == 0x0001 and r["kind"] == "PAUSE":
            n_pause += 1
            pending.pop((link, "pause"), None)
            time = num(f["macc.pause_time"])
            if time != (pause if m["p"] else 0):
                problems.append(f"frame {r['record']} ({link}): PAUSE time {time}, the MMU holds the port "
                                f"{'paused' if m['p'] else 'resumed'}")
            s["p"] = m["p"]
            if time:
                last[(link, "port")] = (t, time)
            else:
                last.pop((link, "port"), None)
        else:
            problems.append(f"frame {r['record']}: opcode {op} but the CSV says {r['kind']}")
    for (link, kind), r in pending.items():
        problems.append(f"{link}: the event at {r['t_ps']} ps ({r['kind']} {r['queue']}) is followed by no {kind} frame")
    for link in mmu:
        if mmu[link] != sent[link]:
            problems.append(f"{link}: the MMU ends with {mmu[link]}, the frames with {sent[link]}")
    print(f"  {len(frames)} frames, {n_pfc} PFC, {n_pause} PAUSE, {n_events} MMU events")
    if n_events == 0 or n_pfc == 0:
        problems.append("no MMU event or no PFC frame: the run does not exercise frame mode")
    if need_port_pause and n_pause == 0:
        problems.append("no PAUSE frame: the run does not exercise the port pause")
    return problems


def main():
    exe, scenario_dir, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    s1, s4 = scenario_dir / "pfc-avoidance.toml", scenario_dir / "worst-case-port.toml"
    s2 = scenario_dir / "collateral-damage.toml"
    ok = True
    # A short pause time (1024 quanta, 5.24 us) refreshed every 512 quanta,
    # so that pauses held for tens of microseconds are refreshed many times:
    # S1 (class pauses), S4.2 (DSH's port pause: PAUSE frames too) and a
    # network, S2 (a host link and the link between the switches).
    runs = (("S1", s1, "dsh:60", None, False), ("S4.2", s4, "dsh:1", None, True),
            ("S2", s2, "collateral-damage,scheme=dsh,cc=none", "H0-S0,S0-S1", False))
    for name, scenario, point, links, port in runs:
        print(f"{name}, refresh 512 quanta, pause 1024:")
        r, pcap = dsh_sim(exe, scenario, out / name, 1024, 512, point, links)
        if r.returncode != 0:
            print(f"dsh-sim failed (exit {r.returncode}):\n{r.stdout}\n{r.stderr}")
            return 1
        problems = check(pcap, 1024, port)
        for p in problems[:20]:
            print("  " + p)
        ok &= not problems
    # Refresh after the pause time: a held pause runs out, the check must say so.
    print("S1, refresh 2048 quanta, pause 1024 (must fail the refresh check):")
    r, pcap = dsh_sim(exe, s1, out / "late", 1024, 2048, "dsh:60")
    problems = check(pcap, 1024)
    late = [p for p in problems if "with no refresh" in p]
    print(f"  {len(late)} pauses ran out without a refresh (dsh-sim exit {r.returncode})")
    if not late:
        print("  the check found no late refresh on a run with refresh after the pause time")
        ok = False
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
