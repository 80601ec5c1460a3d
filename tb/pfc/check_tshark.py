#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The RTL PFC/PAUSE sender's frames, decoded by tshark (CTest rtl/pfc_tx_tshark).

Runs pfc_capture (the Verilated dsh_pfc_tx, 7 classes, 100 Gb/s at 1 GHz)
on scripted qoff/poff sequences, reads each capture with tshark and checks
from tshark's own decode (spec §6.3, §6.4):

  * every frame is a well-formed MAC Control frame: no malformed or expert
    finding, destination 01:80:c2:00:00:01, EtherType 0x8808, 60 bytes;
  * PFC frames (opcode 0x0101) enable only classes 0..6, give each enabled
    class the configured pause time (XOFF) or 0 (XON) and each other class 0;
    PAUSE frames (opcode 0x0001) carry the pause time or 0;
  * the XOFF/XON transitions the frames make, in order, are the scripted
    events (changes 5 to 10 cycles apart, coalesced into the next frame,
    included), and everything ends resumed;
  * no class and no port stays paused past its timer: each frame that keeps
    a class (or the port) paused arrives within the time of the frame before.

  check_tshark.py PFC_CAPTURE OUTDIR
Exit status 0 when every check holds, 1 otherwise.
"""

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

CLASSES = 7
RATE_BPS, CLOCK_HZ = 100 * 10**9, 10**9
QUANTA_PER_CYCLE = 12800  # 100 Gb/s at 1 GHz: 0.1953125 quanta a cycle, 8.16 fixed point

# (name, pause quanta, refresh quanta, events (cycle, qoff, poff), end cycle)
RUNS = [
    # The defaults (0xFFFF, refresh 0x7FFF): no refresh falls in this run.
    ("defaults", 0xFFFF, 0x7FFF,
     [(100, 0b0000101, 0), (1000, 0b0000101, 1), (3000, 0b0000100, 1), (3010, 0b0100100, 1),
      (8000, 0b0100100, 0), (12000, 0b1000100, 0), (12005, 0b1000101, 0), (20000, 0, 0)], 21000),
    # Short times: 1024 quanta (5243 cycles), refresh every 512 (2622
    # cycles), so pauses held for tens of microseconds are refreshed.
    ("refresh", 0x0400, 0x0200,
     [(100, 0b0000001, 0), (5000, 0b0000011, 0), (9000, 0b0000011, 1), (30000, 0b0000010, 1),
      (30020, 0b0000010, 0), (45000, 0b1000010, 0), (60000, 0, 0), (61000, 0b0010000, 1),
      (62000, 0b0010000, 0), (63000, 0, 0)], 80000),
]

FIELDS = (["frame.number", "frame.time_relative", "frame.len", "eth.dst", "eth.type", "macc.opcode",
           "macc.cbfc.enbv"] + [f"macc.cbfc.pause_time.c{j}" for j in range(8)] +
          ["macc.pause_time", "_ws.malformed", "_ws.expert.message"])


def expected_transitions(events):
    """The scripted XOFF/XON transitions in order, class bits low to high."""
    out, qoff, poff = [], 0, 0
    for _, q, p in events:
        for j in range(CLASSES):
            if (q ^ qoff) >> j & 1:
                out.append(("class", j, "XOFF" if q >> j & 1 else "XON"))
        if p != poff:
            out.append(("port", None, "XOFF" if p else "XON"))
        qoff, poff = q, p
    return out


def run_tshark(pcap):
    r = subprocess.run(["tshark", "-r", str(pcap), "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"] +
                       sum((["-e", f] for f in FIELDS), []), capture_output=True, text=True)
    err = [l for l in r.stderr.splitlines() if l.strip() and "Running as user" not in l]
    if r.returncode != 0 or err:
        raise SystemExit(f"tshark failed (exit {r.returncode}):\n" + r.stderr)
    rows = []
    for line in r.stdout.splitlines():
        v = line.split("\t")
        v += [""] * (len(FIELDS) - len(v))
        rows.append(dict(zip(FIELDS, v)))
    return rows


def check_run(capture, outdir, name, pause, refresh, events, end):
    problems = []
    script = outdir / f"{name}.script"
    pcap = outdir / f"{name}.pcap"
    lines = [f"rate {QUANTA_PER_CYCLE}", f"pause {pause}", f"refresh {refresh}"]
    lines += [f"{c} {q:x} {p}" for c, q, p in events] + [f"end {end}"]
    script.write_text("\n".join(lines) + "\n")
    r = subprocess.run([capture, str(script), str(pcap)], capture_output=True, text=True)
    if r.returncode != 0:
        return [f"pfc_capture failed (exit {r.returncode}): {r.stdout}{r.stderr}"]
    written = int(r.stdout.split()[0])
    rows = run_tshark(pcap)
    if len(rows) != written:
        problems.append(f"tshark read {len(rows)} frames, pfc_capture wrote {written}")
    cls = [False] * 8
    port = False
    deadline = [None] * 8  # time (ns) a class's or the port's (index 7 unused) pause ends
    port_deadline = None
    seen = []
    refreshes = 0

    def ns_to_quanta(ns):
        return ns * RATE_BPS / 512 / 10**9

    for f in rows:
        n = f["frame.number"]
        t = Decimal(f["frame.time_relative"]) * 10**9
        if f["_ws.malformed"] or f["_ws.expert.message"]:
            problems.append(f"frame {n}: tshark: malformed {f['_ws.malformed']!r}, expert {f['_ws.expert.message']!r}")
        if f["eth.dst"] != "01:80:c2:00:00:01" or f["eth.type"] != "0x8808" or f["frame.len"] != "60":
            problems.append(f"frame {n}: dst {f['eth.dst']}, type {f['eth.type']}, length {f['frame.len']}")
        op = f["macc.opcode"]
        if op == "0x0101":
            enbv = int(f["macc.cbfc.enbv"], 16)
            times = [int(f[f"macc.cbfc.pause_time.c{j}"] or -1) for j in range(8)]
            if enbv >> CLASSES:
                problems.append(f"frame {n}: enable vector 0x{enbv:04x} beyond class {CLASSES - 1}")
            for j in range(8):
                on = enbv >> j & 1
                if not on:
                    if times[j] != 0:
                        problems.append(f"frame {n}: class {j} not enabled but time {times[j]}")
                    continue
                if cls[j] and t > deadline[j]:
                    problems.append(f"frame {n}: class {j} refreshed {ns_to_quanta(t - deadline[j]):.1f} quanta "
                                    f"after its pause ran out")
                if times[j] == pause:
                    if cls[j]:
                        refreshes += 1
                    else:
                        seen.append(("class", j, "XOFF"))
                    cls[j] = True
                    deadline[j] = t + Decimal(pause) * 512 * 10**9 / RATE_BPS
                elif times[j] == 0:
                    if not cls[j]:
                        problems.append(f"frame {n}: XON for class {j}, which was not paused")
                    seen.append(("class", j, "XON"))
                    cls[j] = False
                else:
                    problems.append(f"frame {n}: class {j} time {times[j]}, neither {pause} nor 0")
            for j in range(8):
                if cls[j] and not enbv >> j & 1:
                    problems.append(f"frame {n}: class {j} paused but not refreshed in this PFC frame")
        elif op == "0x0001":
            pt = int(f["macc.pause_time"] or -1)
            if port and t > port_deadline:
                problems.append(f"frame {n}: port refreshed after its pause ran out")
            if pt == pause:
                if port:
                    refreshes += 1
                else:
                    seen.append(("port", None, "XOFF"))
                port = True
                port_deadline = t + Decimal(pause) * 512 * 10**9 / RATE_BPS
            elif pt == 0:
                if not port:
                    problems.append(f"frame {n}: PAUSE XON while the port was not paused")
                seen.append(("port", None, "XON"))
                port = False
            else:
                problems.append(f"frame {n}: PAUSE time {pt}, neither {pause} nor 0")
        else:
            problems.append(f"frame {n}: opcode {op!r}")
    # Class and port transitions each in the scripted order (a class and the
    # port changing in one cycle may leave in either order).
    want = expected_transitions(events)
    for kind in ("class", "port"):
        got_k = [x for x in seen if x[0] == kind]
        want_k = [x for x in want if x[0] == kind]
        if got_k != want_k:
            problems.append(f"{kind} transitions on the wire:\n  {got_k}\nscripted:\n  {want_k}")
    if any(cls) or port:
        problems.append("the capture ends with a class or the port paused")
    # While paused, every refresh period brings a frame: the short run must refresh.
    if pause < 0x1000 and refreshes < 10:
        problems.append(f"only {refreshes} refresh frames")
    print(f"{name}: {len(rows)} frames, {len(seen)} transitions as scripted, {refreshes} refreshes"
          + ("" if not problems else f", {len(problems)} problems"))
    return problems


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    capture, outdir = sys.argv[1], Path(sys.argv[2])
    outdir.mkdir(parents=True, exist_ok=True)
    problems = []
    for run in RUNS:
        problems += [f"{run[0]}: {p}" for p in check_run(capture, outdir, *run)]
    for p in problems:
        print("FAIL " + p)
    print("PASS" if not problems else f"FAIL: {len(problems)} problems")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
