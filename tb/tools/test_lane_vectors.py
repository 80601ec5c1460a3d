#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Vector format 3 (vector format §7) through dsh-run and
dsh-replay, and the shipped files of formats 1 and 2 unchanged.

- dsh-run on the 2-lane, 2-slot chip (vectors/dsh_p4q2_n2d2.toml) writes a
  format 3 stimulus whose header names lanes and deq_per_cycle and whose
  column line is the spec's; replayed through the golden model, the
  response's regions, events and error digits add up to what dsh-run
  counted during the run (a second path through the writer and the reader).
- The RTL lane chip (backends rtl and lockstep) gives that response's rows,
  and rtl and lockstep the same response.
- A one-lane chip's stimulus stays format 2.
- Every shipped format 2 and 3 pair replays to a response byte-identical
  to the shipped one (header included); the format 1 pair matches its rows.

usage: test_lane_vectors.py DSH_RUN DSH_REPLAY VECTORS_DIR [golden|rtl]
("golden": the golden parts only, for a build without the lane chip).
Standard library only."""

import re
import subprocess
import sys
import tempfile
from pathlib import Path


def run(cmd, rc=0):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if p.returncode != rc:
        sys.exit(f"{' '.join(map(str, cmd))}: exit {p.returncode}, expected {rc}\n{p.stdout}{p.stderr}")
    return p.stdout + p.stderr


def rows(path):
    """The lines after the header block and the column line, up to '# final'."""
    lines = [l for l in Path(path).read_text().splitlines()]
    body = [l for l in lines if not l.startswith("#")]
    end = lines.index("# final") if "# final" in lines else len(lines)
    return body[0], [l for l in lines[:end] if l and not l.startswith("#")][1:]


def counted(report):
    m = re.search(r"admissions +(\d+): private (\d+) .*shared (\d+) .*insurance (\d+) .*drop (\d+)", report)
    e = re.search(r"flow control PAUSE (\d+), RESUME (\d+), PORT_PAUSE (\d+), PORT_RESUME (\d+)", report)
    err = re.search(r"protocol errors (\d+)", report)
    if not (m and e and err):
        sys.exit("dsh-run's report lacks its counts:\n" + report)
    return {"P": int(m[2]), "S": int(m[3]), "H": int(m[4]), "D": int(m[5]), "PAUSE": int(e[1]),
            "RESUME": int(e[2]), "PORT_PAUSE": int(e[3]), "PORT_RESUME": int(e[4]), "errors": int(err[1])}


def main():
    dsh_run, replay, vec = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    with_rtl = len(sys.argv) < 5 or sys.argv[4] != "golden"
    fails = []
    with tempfile.TemporaryDirectory(prefix="dsh-lane-vectors-") as tmp:
        t = Path(tmp)
        stim, resp = t / "stim.csv", t / "resp.csv"
        report = run([dsh_run, "-b", "golden", "-n", "4000", "--seed", "3", "--config", vec / "dsh_p4q2_n2d2.toml",
                      "--stimulus-out", stim])
        text = stim.read_text().splitlines()
        if text[0] != "# dsh-vectors 3 stimulus":
            fails.append(f"stimulus format line {text[0]!r}")
        for field in ("# lanes = 2", "# deq_per_cycle = 2", "# n_ports = 4"):
            if field not in text:
                fails.append(f"stimulus header lacks {field!r}")
        columns = ("cycle,deq0_port,deq0_queue,deq0_cells,deq1_port,deq1_queue,deq1_cells,"
                   "enq0_port,enq0_queue,enq0_cells,enq1_port,enq1_queue,enq1_cells")
        col, stim_rows = rows(stim)
        if col != columns:
            fails.append(f"stimulus column line {col!r}")
        run([replay, "-b", "golden", stim, "-o", resp])
        col, resp_rows = rows(resp)
        if col != "cycle,regions,T,S,events,enq_errors,deq_errors,deq_taken":
            fails.append(f"response column line {col!r}")
        if len(resp_rows) != len(stim_rows) or not stim_rows:
            fails.append(f"{len(resp_rows)} response rows for {len(stim_rows)} stimulus rows")
        want = counted(report)
        got = dict.fromkeys(want, 0)
        for r in resp_rows:
            f = r.split(",")
            for letter in f[1]:
                if letter in "PSHD":
                    got[letter] += 1
            for ev in filter(None, f[4].split(";")):
                got[ev.split(" ")[0]] += 1
            got["errors"] += sum(int(d) for d in f[5] + f[6])
        if got != want:
            fails.append(f"the replay's response counts {got}, dsh-run counted {want}")
        taken = sum(r.split(",")[7].count("1") for r in resp_rows)
        deqs = sum(1 for r in stim_rows for k in (1, 4) if r.split(",")[k])
        if not 0 < taken <= deqs:
            fails.append(f"{taken} dequeue slots taken of {deqs} given")
        if with_rtl:
            # The rows as the golden model gave them; the final state too,
            # but for the counters, which wrap at the RTL's CntW (8 bits).
            for backend in ("lockstep", "rtl"):
                out = run([replay, "-b", backend, stim, "-o", t / f"resp_{backend}.csv"])
                if rows(t / f"resp_{backend}.csv") != rows(resp):
                    fails.append(f"{backend}: the response's rows differ from the golden model's")
            if (t / "resp_rtl.csv").read_bytes() != (t / "resp_lockstep.csv").read_bytes():
                fails.append("the rtl and lockstep responses differ")
            out = run([dsh_run, "-n", "3000", "--config", vec / "dsh_p4q2_n2d2.toml", "--fst", "",
                       "--stimulus-out", t / "stim_lockstep.csv"])
            if "matched 3000 cycles" not in out:
                fails.append("dsh-run lockstep on the lane chip: " + out)
            run([replay, t / "stim_lockstep.csv", "-o", "/dev/null"])
        one = t / "one.csv"
        run([dsh_run, "-b", "golden", "-n", "100", "--config", vec / "sih_p2q1.toml", "--stimulus-out", one])
        if one.read_text().splitlines()[0] != "# dsh-vectors 2 stimulus":
            fails.append("a one-lane chip's stimulus is not format 2")
        for name in ("sih_p2q1", "dsh_p3q3_eta", "dsh_p6q4", "sih_p4q2_n4d4"):
            out = t / f"{name}_resp.csv"
            run([replay, "-b", "golden", vec / f"{name}_stim.csv", "-o", out])
            if out.read_bytes() != (vec / f"{name}_resp.csv").read_bytes():
                fails.append(f"{name}: the replayed response differs from the shipped one")
        run([replay, "-b", "golden", "--config", vec / "sih_p2q1.toml", vec / "sih_p2q1_stim_format1.csv",
             "-o", t / "f1.csv", "--expect", vec / "sih_p2q1_resp_format1.csv"])
    for f in fails:
        print("FAIL:", f)
    print("ok" if not fails else f"{len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
