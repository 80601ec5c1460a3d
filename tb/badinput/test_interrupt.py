#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Ctrl-C on a dsh-sim sweep: the per-point child processes stop,
temporary files are removed, no file that looks complete is left, and the
points that finished are kept in sweep.partial.csv. Exit status 128 + the
signal: 130 for SIGINT, 143 for SIGTERM.

usage: test_interrupt.py DSH_SIM [group|parent|term]
  group:  SIGINT to the whole process group, as a terminal's Ctrl-C does
  parent: SIGINT to dsh-sim alone; it must stop its children itself
  term:   SIGTERM to dsh-sim alone (a batch system's stop)
Standard library only."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def children_of(pid):
    kids = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                fields = (d / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(d.name))
    return kids


def alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def main():
    sim, how = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else "group")
    sig = signal.SIGTERM if how == "term" else signal.SIGINT
    fails = []
    with tempfile.TemporaryDirectory(prefix="dsh-interrupt-") as tmp:
        out = Path(tmp) / "out"
        # Points of a few tenths of a second each (a long settle), so that the
        # interrupt lands while points run.
        cmd = [sim, "-b", "golden", "-j", "2", "--no-plot", "-o", str(out), "--set", "burst_pct=5:60:5",
               "--set", "traffic.settle_us=5000", "--set", "traffic.max_run_us=20000"]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True,
                             env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
        partial = out / "sweep.partial.csv"
        t0 = time.monotonic()
        # Wait for a finished point, so that there is something to keep.
        while time.monotonic() - t0 < 90 and p.poll() is None:
            if partial.is_file() and len(partial.read_text().splitlines()) >= 2:
                break
            time.sleep(0.05)
        kids = children_of(p.pid)
        if p.poll() is not None:
            fails.append(f"dsh-sim ended before the interrupt (status {p.returncode})")
        elif how == "group":
            os.killpg(p.pid, signal.SIGINT)
        else:
            os.kill(p.pid, sig)
        try:
            so, se = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            so, se = p.communicate()
            fails.append(f"dsh-sim did not stop within 60 s of {sig.name}")
        print(se.rstrip())
        print(f"exit status {p.returncode}; children at the interrupt: {kids}")
        if p.returncode != 128 + sig.value:
            fails.append(f"exit status {p.returncode}, expected {128 + sig.value}")
        if "interrupted" not in se:
            fails.append("no 'interrupted' message")
        time.sleep(0.5)
        for k in kids:
            if alive(k):
                fails.append(f"point process {k} still running")
                os.kill(k, signal.SIGKILL)
        files = sorted(f.name for f in out.iterdir()) if out.is_dir() else []
        print(f"left in the output directory: {files}")
        for f in ("sweep.csv", "summary.txt", "summary.json", "sweep.png"):
            if f in files:
                fails.append(f"{f} written by an interrupted sweep")
        for f in files:
            if ".tmp" in f or f.endswith(".vcd"):
                fails.append(f"temporary file {f} left")
        if not partial.is_file():
            fails.append("sweep.partial.csv (the finished points) not kept")
        else:
            rows = partial.read_text().splitlines()
            if len(rows) < 2 or not rows[0].startswith("scheme,"):
                fails.append(f"sweep.partial.csv holds no finished point: {rows[:2]}")
            elif f"{len(rows) - 1} finished points kept" not in se:
                fails.append("the message does not say how many points were kept")
    for f in fails:
        print(f"FAIL: {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
