#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The benchmark scenario end to end on a tiny leaf-spine (2 leaves x 2 spines x
4 hosts, fan-ins of 4 senders, 0.1 ms of arrivals): the point list (IDs worked
by hand), the default run's outputs (flows.csv one row per flow, summary.json's
statistics, the plot), one process per point then --merge giving the same
files byte for byte (--reproducible), and the resume; the figures with the
unfinished flows counted and the DSH/SIH ratios recomputed from flows.csv;
the convergence recipe (docs/results/convergence.md) on two tiny windows.

  test_benchmark_sim.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import filecmp
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
BENCH = os.path.join(SCENARIOS, "benchmark.toml")
TINY_NET = ["--set", "net.leaves=2", "--set", "net.spines=2", "--set", "net.hosts_per_leaf=4", "--set",
            "traffic.fanin_senders=4", "--set", "traffic.background_load=0.5", "--reproducible"]
TINY = TINY_NET + ["--set", "bench.duration_ms=0.1", "--set", "bench.drain_ms=0.5"]
IDS = [f"benchmark,scheme={s},cc={c},workload=websearch,load=0.5,seed=1" for s in ("dsh", "sih")
       for c in ("dcqcn", "powertcp")]
COLUMNS = ["scheme", "cc", "workload", "buffer_mb", "load", "seed", "id", "src", "dst", "class", "kind", "size",
           "start_us", "fct_us", "ideal_fct_us", "slowdown", "finished", "delivered"]


def sim(*args):
    return testlib.run([SIM, BENCH, *args], timeout=600)


class Benchmark(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shutil.rmtree(WORK, ignore_errors=True)
        os.makedirs(WORK)

    def test_1_points_listed(self):
        rc, out, err = sim(*TINY, "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.split(), IDS)
        # Fig. 5's buffer sweep and Fig. 15's workloads are coordinates too.
        rc, out, err = sim(*TINY, "--set", "bench.buffer_mb=14,30", "--set", "traffic.workload=websearch,hadoop",
                           "--set", "run.schemes=sih", "--set", "run.cc=powertcp", "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.split(), [f"benchmark,scheme=sih,cc=powertcp,workload={w},buffer_mb={b},load=0.5,seed=1"
                                       for w in ("websearch", "hadoop") for b in ("14", "30")])

    def test_2_default_run_outputs(self):
        out_dir = os.path.join(WORK, "one")
        rc, _, err = sim(*TINY, "-o", out_dir)
        self.assertIn(rc, (0, 1), err)
        s = testlib.read_json(os.path.join(out_dir, "summary.json"))
        self.assertEqual(s["kind"], "benchmark")
        self.assertEqual(s["topology"], {"generate": "leaf-spine", "switches": 4, "hosts": 8, "leaves": 2, "spines": 2,
                                         "hosts_per_leaf": 4})
        self.assertIn("shrunk", s)
        rows = testlib.read_csv(os.path.join(out_dir, "flows.csv"))
        self.assertEqual(list(rows[0].keys()), COLUMNS)
        total = 0
        for cc in ("dcqcn", "powertcp"):
            for sch in ("dsh", "sih"):
                x = s["results"]["websearch"]["chip"][cc]["0.5"][sch]
                for kind in ("background", "fanin"):
                    k = x[kind]
                    self.assertEqual(k["flows"], k["finished"] + k["unfinished"])
                    mine = [r for r in rows if r["cc"] == cc and r["scheme"] == sch and r["kind"] == kind]
                    self.assertEqual(len(mine), k["flows"])
                    done = [r for r in mine if r["finished"] == "1"]
                    self.assertEqual(len(done), k["finished"])
                    total += k["flows"]
                    if done:
                        mean = sum(float(r["fct_us"]) for r in done) / len(done)
                        self.assertAlmostEqual(k["all"]["mean_fct_us"], mean, delta=0.002 + 1e-6 * mean)
                        for r in done:  # slowdown = FCT / ideal, and never below 1 by more than rounding
                            self.assertAlmostEqual(float(r["slowdown"]),
                                                   float(r["fct_us"]) / float(r["ideal_fct_us"]), places=4)
                            self.assertGreaterEqual(float(r["slowdown"]), 0.9999)
                        fcts = sorted(float(r["fct_us"]) for r in done)
                        p99 = fcts[max(0, -(-99 * len(fcts) // 100) - 1)]
                        self.assertAlmostEqual(k["all"]["p99_fct_us"], p99, delta=0.006 * p99)
                    for r in mine:
                        if kind == "fanin":
                            self.assertEqual((r["size"], r["class"]), ("66000", "0"))  # 64 KB in whole 1500 B packets
                        else:
                            self.assertNotEqual(r["class"], "0")
            self.assertIn("background", s["normalised"]["websearch"]["chip"][cc]["0.5"])
            # With each unfinished flow counted at (run end - start): the
            # mean from the rows and the point's end, and DSH/SIH of seed 1.
            lb = {}
            for sch in ("dsh", "sih"):
                pid = f"benchmark,scheme={sch},cc={cc},workload=websearch,load=0.5,seed=1"
                end_us = testlib.read_json(os.path.join(out_dir, "points", pid + ".json"))["metrics"]["sim_ms"] * 1000
                for kind in ("background", "fanin"):
                    mine = [r for r in rows if r["cc"] == cc and r["scheme"] == sch and r["kind"] == kind]
                    if not mine:
                        continue
                    times = [float(r["fct_us"]) if r["finished"] == "1" else end_us - float(r["start_us"])
                             for r in mine]
                    lb[sch, kind] = sum(times) / len(times)
                    w = s["results"]["websearch"]["chip"][cc]["0.5"][sch][kind]["with_unfinished"]["all"]
                    self.assertEqual(w["n"], len(mine))
                    self.assertEqual(w["censored"], len(mine) - len([r for r in mine if r["finished"] == "1"]))
                    self.assertAlmostEqual(w["mean_fct_us"], lb[sch, kind], delta=0.002 + 1e-6 * lb[sch, kind])
            for kind in ("background", "fanin"):
                if ("dsh", kind) in lb and ("sih", kind) in lb:
                    r = s["ratios_over_seeds"]["websearch"]["chip"][cc]["0.5"][kind]["mean_fct_with_unfinished"]
                    self.assertEqual(r["n"], 1)
                    self.assertAlmostEqual(r["per_seed"]["1"], lb["dsh", kind] / lb["sih", kind], delta=2e-4)
        self.assertEqual(len(rows), total)
        self.assertTrue(os.path.getsize(os.path.join(out_dir, "benchmark.png")) > 1000)
        for id_ in IDS:
            self.assertTrue(os.path.exists(os.path.join(out_dir, "points", id_ + ".json")))
            self.assertTrue(os.path.exists(os.path.join(out_dir, "points", id_ + ".flows.csv")))
        # Run again: every point is done, nothing runs, the same outputs.
        before = open(os.path.join(out_dir, "summary.json")).read()
        rc, _, err = sim(*TINY, "-o", out_dir)
        self.assertIn("4 of 4 points already done", err)
        self.assertEqual(open(os.path.join(out_dir, "summary.json")).read(), before)

    def test_3_points_then_merge_equal_one_process(self):
        one = os.path.join(WORK, "one")
        if not os.path.exists(os.path.join(one, "summary.json")):
            self.skipTest("needs test_2")
        pts = os.path.join(WORK, "merged", "points")
        for id_ in IDS:
            rc, out, err = sim(*TINY, "--point", id_, "-o", pts)
            self.assertIn(rc, (0, 1), err)
        merged = os.path.join(WORK, "merged")
        rc, _, err = sim(*TINY, "--merge", pts, "-o", merged, "--no-plot")
        self.assertIn(rc, (0, 1), err)
        for f in ("summary.json", "summary.txt", "flows.csv"):
            self.assertTrue(filecmp.cmp(os.path.join(one, f), os.path.join(merged, f), shallow=False), f)

    def test_4_convergence_recipe(self):
        # docs/results/convergence.md on the tiny net: two windows, two
        # seeds, one CC; a point list per window, --point into a folder per
        # window, --merge each, then the plot of the ratios against the window.
        # --full's load is bench.full_background_load: TINY_NET's traffic.background_load would be refused.
        i = TINY_NET.index("traffic.background_load=0.5")
        net = TINY_NET[:i - 1] + TINY_NET[i + 1:]
        base = net + ["--set", "run.cc=dcqcn", "--set", "bench.full_seeds=1,2", "--set",
                      "bench.full_background_load=0.5", "--full"]
        conv = os.path.join(WORK, "conv")
        summaries = []
        for w in ("0.05", "0.1"):
            setw = base + ["--set", f"bench.full_duration_ms={w}", "--set", "bench.full_drain_ms=0.2"]
            rc, out, err = sim(*setw, "--list-points")
            self.assertEqual(rc, 0, err)
            self.assertEqual(len(out.split()), 4)
            for id_ in out.split():
                rc, _, err = sim(*setw, "--point", id_, "-o", os.path.join(conv, "w" + w, "points"))
                self.assertIn(rc, (0, 1), err)
            rc, _, err = sim(*setw, "--merge", os.path.join(conv, "w" + w, "points"), "-o", os.path.join(conv, "w" + w),
                             "--no-plot")
            self.assertIn(rc, (0, 1), err)
            s = testlib.read_json(os.path.join(conv, "w" + w, "summary.json"))
            self.assertEqual(s["duration_ms"], float(w))  # --full's window, not bench.duration_ms's
            self.assertEqual(s["drain_ms"], 0.2)
            # The fan-in: both seeds have some in so short a window.
            r = s["ratios_over_seeds"]["websearch"]["chip"]["dcqcn"]["0.5"]["fanin"]["mean_fct_with_unfinished"]
            self.assertEqual(r["n"], 2)
            self.assertLessEqual(r["lo"], r["mean"])
            self.assertLessEqual(r["mean"], r["hi"])
            self.assertAlmostEqual(r["mean"], (r["per_seed"]["1"] + r["per_seed"]["2"]) / 2, delta=1e-4)
            summaries.append(os.path.join(conv, "w" + w, "summary.json"))
        # A point of another window is refused by the merge (its keys differ).
        rc, _, err = sim(*base, "--set", "bench.full_duration_ms=0.1", "--set", "bench.full_drain_ms=0.2", "--merge",
                         os.path.join(conv, "w0.05", "points"), "-o", os.path.join(conv, "wrong"), "--no-plot")
        self.assertEqual(rc, 2, err)
        # The same window given the default run's way is the same point: the
        # merge takes it (a point's keys are its window, not the key naming it).
        rc, _, err = sim(*TINY_NET, "--set", "run.cc=dcqcn", "--set", "bench.seeds=1,2", "--set",
                         "bench.duration_ms=0.05", "--set", "bench.drain_ms=0.2", "--merge",
                         os.path.join(conv, "w0.05", "points"), "-o", os.path.join(conv, "same"), "--no-plot")
        self.assertIn(rc, (0, 1), err)
        self.assertEqual(testlib.read_json(os.path.join(conv, "same", "summary.json"))["ratios_over_seeds"],
                         testlib.read_json(os.path.join(conv, "w0.05", "summary.json"))["ratios_over_seeds"])
        # A window given on the command line beside --full would be dropped: refused, naming both keys.
        rc, out, err = sim(*base, "--set", "bench.duration_ms=0.1", "--list-points")
        self.assertEqual(rc, 2, err)
        self.assertEqual(out, "")
        self.assertIn("bench.duration_ms = '0.1' (--set): --full runs bench.full_duration_ms = '5'", err)
        rc, _, err = sim(*base, "--set", "bench.drain_ms=1", "--list-points")
        self.assertEqual(rc, 2, err)
        self.assertIn("bench.drain_ms = '1' (--set): --full runs bench.full_drain_ms = '10'", err)
        # So would the seeds and the load of a default run.
        rc, _, err = sim(*base, "--set", "bench.seeds=3", "--list-points")
        self.assertEqual(rc, 2, err)
        self.assertIn("bench.seeds = '3' (--set): --full runs bench.full_seeds = '1,2' (--set)", err)
        rc, _, err = sim(*base, "--set", "traffic.background_load=0.6", "--list-points")
        self.assertEqual(rc, 2, err)
        self.assertIn("traffic.background_load = '0.6' (--set): --full runs bench.full_background_load = '0.5'", err)
        script = os.path.join(SCENARIOS, "..", "systemc", "network", "plot_convergence.py")
        png = os.path.join(conv, "convergence.png")
        python = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable  # dsh-sim's --python
        p = subprocess.run([python, script, png, *summaries], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("websearch chip dcqcn 0.5 fanin mean_fct_with_unfinished: 0.05 ", p.stdout)
        self.assertTrue(os.path.getsize(png) > 1000)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"])
