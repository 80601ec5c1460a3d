#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fig. 12 as the scenario file runs it (label long): the
default run of scenarios/deadlock.toml (ECMP, 100 ms, load 0.5 of one
receiver's downlink, the file's seeds, DSH and SIH with and without DCQCN).
Checks what must hold whatever the outcome: every run either deadlocked or
simulated the whole window, no lossless drop, each fraction's 95 % interval
is the Wilson interval of its counts (recomputed here from the formula),
the median onset is the median of the onsets, SIH deadlocks at least as
often as DSH under each CC, and the summary and the onset CDF are written.
Prints the table and the wall time (the target: 10 min on 2 cores).

  test_fig12.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import math
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
Z = 1.959963984540054


def wilson(k, n):
    p = k / n
    c = (k + Z * Z / 2) / (n + Z * Z)
    h = Z * math.sqrt(n) / (n + Z * Z) * math.sqrt(p * (1 - p) + Z * Z / (4 * n))
    return (0.0 if k == 0 else c - h, 1.0 if k == n else c + h)


def main():
    out = testlib.fresh(WORK, "fig12", make=False)
    t0 = time.time()
    rc, _, err = testlib.run([SIM, os.path.join(SCENARIOS, "deadlock.toml"), "-o", out], timeout=None)
    wall = time.time() - t0
    print(err[-3000:])
    problems = []
    if rc != 0:
        problems.append(f"exit {rc}")
    s = testlib.read_json(os.path.join(out, "summary.json"))
    dur = s["duration_ms"]
    if dur != 100 or s["routes"] != "ecmp" or s["load_unit"] != "receiver" or s["loads"] != ["0.5"]:
        problems.append(f"not the documented setup: {dur} ms, routes {s['routes']}, load {s['loads']} per {s['load_unit']}")
    for sch, by_cc in s["results"].items():
        for cc, by_load in by_cc.items():
            for load, r in by_load.items():
                n, k = r["runs"], r["deadlocked_runs"]
                lo, hi = wilson(k, n)
                if abs(r["ci95"][0] - lo) > 1e-9 or abs(r["ci95"][1] - hi) > 1e-9:
                    problems.append(f"{sch} {cc} {load}: CI {r['ci95']} is not Wilson's {lo, hi}")
                o = sorted(r["onset_ms"])
                if o:
                    med = o[len(o) // 2] if len(o) % 2 else (o[len(o) // 2 - 1] + o[len(o) // 2]) / 2
                    if abs(r["median_onset_ms"] - med) > 1e-9:
                        problems.append(f"{sch} {cc} {load}: median {r['median_onset_ms']} != {med}")
                if r["lossless_drops"]:
                    problems.append(f"{sch} {cc} {load}: {r['lossless_drops']} lossless drops")
    for cc in s["results"].get("sih", {}):
        if s["results"]["sih"][cc]["0.5"]["deadlocked_fraction"] < s["results"]["dsh"][cc]["0.5"]["deadlocked_fraction"]:
            problems.append(f"{cc}: DSH deadlocks more often than SIH")
    with open(os.path.join(out, "deadlock.csv")) as f:
        rows = f.read().splitlines()[1:]
    for row in rows:
        c = row.split(",")
        if c[4] == "0" and abs(float(c[7]) - dur) > 1e-6:
            problems.append(f"run {c[:4]} neither deadlocked nor ran {dur} ms (sim_ms {c[7]})")
    if not os.path.getsize(os.path.join(out, "deadlock.png")) > 1000:
        problems.append("no plot")
    print(f"default run: {len(rows)} runs in {wall:.0f} s wall")
    for m in problems:
        print("FAIL", m)
    print("FAILED" if problems else "OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
