#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The RTL can stand in any switch. One Fig. 14 point
(scenarios/benchmark.toml: 256 hosts, DSH, DCQCN, background load 0.5, seed
1; arrivals shortened to bench.duration_ms = 0.5 and drain 1 ms so that it
runs in a minute) with the Verilated RTL deciding for leaf L0 and spine S0,
lockstepped against the golden model every cycle, gives the golden-only
run's results: the same point metrics (but CPU and wall seconds and memory)
and the same flows.csv byte for byte.

  test_benchmark_rtl.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
BENCH = os.path.join(SCENARIOS, "benchmark.toml")
SHORT = ["--set", "bench.duration_ms=0.5", "--set", "bench.drain_ms=1"]
ID = "benchmark,scheme=dsh,cc=dcqcn,workload=websearch,load=0.5,seed=1"
TIMING = ("wall_s", "cpu_s", "max_rss_mb")


def point(out, *extra):
    rc, _, err = testlib.run([SIM, BENCH, *SHORT, *extra, "--point", ID, "-o", out], timeout=3000)
    print(err.strip())
    if rc not in (0, 1):
        sys.exit(f"FAIL: dsh-sim exited {rc}")
    return (testlib.read_json(os.path.join(out, ID + ".json"))["metrics"],
            testlib.read_bytes(os.path.join(out, ID + ".flows.csv")))


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    golden, gflows = point(os.path.join(WORK, "golden"))
    rtl, rflows = point(os.path.join(WORK, "lockstep"), "--set", "run.backend=lockstep", "--set",
                        "net.rtl_switches=L0,S0")
    if rtl.get("error"):
        sys.exit("FAIL: lockstep: " + rtl["error"])
    diff = [k for k in golden if k not in TIMING and golden[k] != rtl.get(k)]
    if diff:
        def show(v):
            return "(differs)" if isinstance(v, (dict, list)) else repr(v)
        sys.exit("FAIL: metrics differ: " + ", ".join(f"{k}: golden {show(golden[k])}, lockstep {show(rtl.get(k))}"
                                                       for k in diff))
    if gflows != rflows:
        sys.exit("FAIL: flows.csv differs")
    flows = sum(golden["kinds"][k]["flows"] for k in ("background", "fanin"))
    print(f"PASS: RTL in L0 and S0 (lockstep) equals golden: {flows} flows, {golden['packets_forwarded']} packets "
          f"forwarded, {golden['pause_frames']} PAUSE frames, {golden['lossless_drops']} drops")


if __name__ == "__main__":
    main()
