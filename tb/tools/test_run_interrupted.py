#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An interrupted dsh-run leaves no temporary file: SIGTERM (and SIGINT)
while it writes its FST trace removes the trace's temporary file and the
FST writer's side file (<temp>.hier), exits 128 + the signal (143, 130),
says "interrupted" and leaves no out/dsh_run.fst.

usage: test_run_interrupted.py DSH_RUN     Standard library only."""

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one(run, sig, fails):
    with tempfile.TemporaryDirectory(prefix="dsh-run-interrupt-") as tmp:
        out = Path(tmp) / "out"
        # A run far longer than the test, traced from its first cycle, so
        # that the trace's files exist when the signal comes.
        cmd = [run, "-n", "1000000000", "--trace-cycles", "1000000000"]
        p = subprocess.Popen(cmd, cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        t0 = time.monotonic()
        seen = []
        while time.monotonic() - t0 < 60 and p.poll() is None:
            seen = sorted(f.name for f in out.iterdir()) if out.is_dir() else []
            if any(f.endswith(".hier") for f in seen):
                break
            time.sleep(0.05)
        if p.poll() is not None:
            fails.append(f"{sig.name}: dsh-run ended before the signal (status {p.returncode})")
            return
        if not any(f.endswith(".hier") for f in seen):
            fails.append(f"{sig.name}: no <temp>.hier appeared in {out} within 60 s (files: {seen}); "
                         "the test would not see it left")
        time.sleep(0.3)  # inside the run's loop
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            _, err = p.communicate()
            fails.append(f"{sig.name}: dsh-run did not stop within 30 s")
        left = sorted(f.name for f in out.iterdir()) if out.is_dir() else []
        print(f"{sig.name}: files before the signal {seen}, after {left}; exit {p.returncode}; "
              f"stderr {err.strip()!r}")
        if p.returncode != 128 + sig.value:
            fails.append(f"{sig.name}: exit status {p.returncode}, expected {128 + sig.value}")
        if "interrupted" not in err:
            fails.append(f"{sig.name}: no 'interrupted' message")
        if left:
            fails.append(f"{sig.name}: files left in out/: {left}")


def main():
    fails = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        one(sys.argv[1], sig, fails)
    for f in fails:
        print(f"FAIL: {f}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
