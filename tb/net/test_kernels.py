#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The two kernels of the switch model agree: the same scenario
run with run.kernel=events (the model's own event queue) and
run.kernel=systemc (the TLM-2.0 netlist on the SystemC kernel) gives the
same outputs byte for byte, timing fields aside (testlib.compare_dirs):
S1 points with and without pauses (golden MMU), S2 (all four runs), and an
S3 seed that deadlocks (SIH with DCQCN, seed 1, ECMP, load 0.5 per
receiver: at 5.79 ms; the run is cut at 10 ms).

  test_kernels.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
CASES = {
    # A pause-free and a pausing burst per scheme, one bisection step.
    "s1": ("pfc-avoidance.toml", ["--set", "run.backend=golden", "--set", "sweep.burst_pct=10,40",
                                  "--set", "sweep.refine_steps=1"], "sweep.csv"),
    # S2 with PowerTCP: its telemetry and ACKs through the sockets too.
    "s2-powertcp": ("collateral-damage.toml", ["--set", "run.cc=powertcp"], "throughput.csv"),
    "s2": ("collateral-damage.toml", [], "throughput.csv"),
    "s3": ("deadlock.toml", ["--set", "run.schemes=sih", "--set", "run.cc=dcqcn", "--set", "deadlock.seeds=1",
                             "--set", "deadlock.duration_ms=10"], "deadlock.csv"),
}


def main():
    failed = 0
    for name, (scenario, extra, must) in CASES.items():
        dirs = []
        for kernel in ("events", "systemc"):
            out = testlib.fresh(WORK, f"{name}-{kernel}", make=False)
            rc, _, err = testlib.run([SIM, os.path.join(SCENARIOS, scenario), "--reproducible", "--no-plot",
                                      "-o", out, "--set", f"run.kernel={kernel}", *extra], timeout=600)
            if rc not in (0, 1) or not os.path.exists(os.path.join(out, must)):
                print(f"FAIL {name} {kernel}: exit {rc}, no {must}\n{err[-2000:]}")
                failed += 1
            dirs.append(out)
        diffs = testlib.compare_dirs(*dirs)
        print(f"{name}: " + ("\n".join(diffs) if diffs else "same (timing fields aside)"))
        failed += bool(diffs)
    print("FAILED" if failed else "OK: both kernels agree")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
