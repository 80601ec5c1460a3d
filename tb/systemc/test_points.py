#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Sweeps as points: the point list, one point per process under
GNU Parallel and the merge (byte-identical to one process), the merge's
refusals (missing, duplicate, foreign points), the resume of a stopped sweep
(done points are not run again: their files keep their mtimes and the run
log shows only the others), and the generation sweep's per-scheme
infeasibility with its JSON keys.

Expected values are worked by hand from the scenario (the grid, the IDs'
format, the chip arithmetic of scenarios/link-speeds.toml), never from a
previous run.

  test_points.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
S1 = os.path.join(SCENARIOS, "pfc-avoidance.toml")
LINKS = os.path.join(SCENARIOS, "link-speeds.toml")
# S1 shortened: two bursts per scheme, one bisection step, golden MMU.
SHORT = ["-b", "golden", "--set", "sweep.burst_pct=10,40", "--set", "sweep.refine_steps=1"]
IDS = ["pfc-avoidance,scheme=dsh,burst_pct=10", "pfc-avoidance,scheme=dsh,burst_pct=40",
       "pfc-avoidance,scheme=sih,burst_pct=10", "pfc-avoidance,scheme=sih,burst_pct=40"]


def sim(*args, scenario=S1):
    return testlib.run([SIM, scenario, *args])


def fresh(name):
    return testlib.fresh(WORK, name)


read = testlib.read_bytes


class Points(unittest.TestCase):
    def test_list_points(self):
        rc, out, err = sim(*SHORT, "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), IDS)

    def test_parallel_merge_equals_one_process(self):
        self.assertIsNotNone(shutil.which("parallel"), "GNU Parallel (Debian package parallel) is not installed")
        one, dist = fresh("one"), fresh("dist")
        rc, _, err = sim(*SHORT, "--no-plot", "--reproducible", "-o", one)
        self.assertEqual(rc, 0, err)
        _, ids, _ = sim(*SHORT, "--list-points")
        pts = os.path.join(dist, "points")
        rc, log = testlib.parallel_points([SIM, S1, *SHORT], ids.split(), pts, timeout=300)
        self.assertEqual(rc, 0, log)
        self.assertEqual(sorted(os.listdir(pts)), sorted(i + ".json" for i in IDS))
        merged = os.path.join(dist, "merged")  # not there yet: the merge makes it
        rc, _, err = sim(*SHORT, "--no-plot", "--reproducible", "--merge", pts, "-o", merged)
        self.assertEqual(rc, 0, err)
        for f in ("sweep.csv", "summary.txt", "summary.json"):
            self.assertEqual(read(os.path.join(one, f)), read(os.path.join(merged, f)), f"{f} differs")
        # The merge ran the bisection step of each scheme (after the grid)
        # and kept it as a point file: 10 % and 40 % bracket DSH's edge, so
        # its step is at 25 %; SIH pauses at 10 %, so its step is at 5 %.
        self.assertTrue(os.path.isfile(os.path.join(pts, "pfc-avoidance,scheme=dsh,burst_pct=25,refine=1.json")))
        self.assertTrue(os.path.isfile(os.path.join(pts, "pfc-avoidance,scheme=sih,burst_pct=5,refine=1.json")))

    def test_merge_refuses_missing_duplicate_foreign(self):
        d = fresh("refuse")
        pts = os.path.join(d, "points")
        for i in IDS[:3]:  # the fourth is missing
            rc, _, err = sim(*SHORT, "--point", i, "-o", pts)
            self.assertEqual(rc, 0, err)
        rc, _, err = sim(*SHORT, "--no-plot", "--merge", pts, "-o", d)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing", err)
        self.assertIn(IDS[3], err)
        self.assertFalse(os.path.exists(os.path.join(d, "sweep.csv")), "a refused merge wrote outputs")
        rc, _, err = sim(*SHORT, "--point", IDS[3], "-o", pts)
        self.assertEqual(rc, 0, err)
        # The same point twice (results gathered from two machines).
        os.makedirs(os.path.join(pts, "host2"))
        shutil.copy(os.path.join(pts, IDS[0] + ".json"), os.path.join(pts, "host2"))
        rc, _, err = sim(*SHORT, "--no-plot", "--merge", pts, "-o", d)
        self.assertEqual(rc, 2, err)
        self.assertRegex(err, r"point " + re.escape(IDS[0]) + r" twice: .* \(duplicate\)")
        shutil.rmtree(os.path.join(pts, "host2"))
        # A point of another configuration of the scenario, and a stray file.
        other = fresh("other")
        rc, _, err = sim(*SHORT, "--set", "chip.alpha_log2=-3", "--point", IDS[1], "-o", other)
        self.assertEqual(rc, 0, err)
        os.replace(os.path.join(other, IDS[1] + ".json"), os.path.join(pts, IDS[1] + ".json"))
        with open(os.path.join(pts, "notes.json"), "w") as f:
            f.write('{"hello": 1}\n')
        rc, _, err = sim(*SHORT, "--no-plot", "--merge", pts, "-o", d)
        self.assertEqual(rc, 2, err)
        self.assertIn("chip.alpha_log2 = -3 there, -4 here", err)
        self.assertIn("notes.json: foreign file", err)

    def test_merge_names_a_missing_or_ill_typed_field(self):
        d = fresh("fields")
        pts = os.path.join(d, "points")
        for i in IDS:
            rc, _, err = sim(*SHORT, "--point", i, "-o", pts)
            self.assertEqual(rc, 0, err)
        path = os.path.join(pts, IDS[0] + ".json")
        rec = testlib.read_json(path)
        rec["metrics"]["drops"] = "0"
        with open(path, "w") as f:
            json.dump(rec, f)
        rc, _, err = sim(*SHORT, "--no-plot", "--merge", pts, "-o", d)
        self.assertEqual(rc, 2, err)
        self.assertIn("field 'drops' is not a number (it is string)", err)
        rec["metrics"]["drops"] = 0
        del rec["metrics"]["sim_us"]
        with open(path, "w") as f:
            json.dump(rec, f)
        rc, _, err = sim(*SHORT, "--no-plot", "--merge", pts, "-o", d)
        self.assertEqual(rc, 2, err)
        self.assertIn("field 'sim_us' is missing", err)
        self.assertFalse(os.path.exists(os.path.join(d, "sweep.csv")), "a refused merge wrote outputs")

    def test_resume_skips_done_points(self):
        d = fresh("resume")
        pts = os.path.join(d, "points")
        # A sweep stopped half-way: two of its four grid points done.
        for i in IDS[:2]:
            rc, _, err = sim(*SHORT, "--point", i, "-o", pts)
            self.assertEqual(rc, 0, err)
        before = {i: os.stat(os.path.join(pts, i + ".json")).st_mtime_ns for i in IDS[:2]}
        rc, _, err = sim(*SHORT, "--no-plot", "-o", d)
        self.assertEqual(rc, 0, err)
        self.assertIn("2 of 4 grid points already done", err)
        for i in IDS[:2]:
            self.assertEqual(os.stat(os.path.join(pts, i + ".json")).st_mtime_ns, before[i], f"{i} was run again")
        # The run log: one line per point run here, i.e. the two missing grid
        # points and the two bisection steps, and none of the done ones.
        ran = [l for l in err.splitlines() if l.startswith("[")]
        self.assertEqual(len(ran), 4, err)
        self.assertFalse(any(" dsh  10.00%" in l or " dsh  40.00%" in l for l in ran), err)
        # Run again: nothing left to run.
        rc, _, err = sim(*SHORT, "--no-plot", "-o", d)
        self.assertEqual(rc, 0, err)
        self.assertIn("4 of 4 grid points already done", err)
        self.assertFalse(any(l.startswith("[") for l in err.splitlines()), err)
        # --point on a done point says so and does not run it.
        rc, _, err = sim(*SHORT, "--point", IDS[0], "-o", pts)
        self.assertEqual(rc, 0, err)
        self.assertIn("already done", err)


    def test_slurm_script_with_a_stand_in_sbatch(self):
        # scripts/sweep-slurm.sh against a stand-in sbatch that runs each array
        # task in turn with SLURM_ARRAY_TASK_ID set, then the merge job.
        d = fresh("slurm")
        fake = os.path.join(d, "bin")
        os.makedirs(fake)
        with open(os.path.join(fake, "sbatch"), "w") as f:
            f.write("#!/bin/bash\narr=; wrap=\nfor a in \"$@\"; do case $a in --array=*) arr=${a#--array=};; "
                    "--wrap=*) wrap=${a#--wrap=};; esac; done\n"
                    "if [ -n \"$arr\" ]; then for i in $(seq ${arr#1-}); do SLURM_ARRAY_TASK_ID=$i bash -c \"$wrap\" "
                    ">/dev/null 2>&1; done; echo 1; else bash -c \"$wrap\" >&2; echo 2; fi\n")
        os.chmod(os.path.join(fake, "sbatch"), 0o755)
        script = os.path.join(os.path.dirname(SCENARIOS), "scripts", "sweep-slurm.sh")
        out = os.path.join(d, "out")
        p = subprocess.run(["bash", script, S1, out, *SHORT, "--no-plot"], capture_output=True, text=True, timeout=300,
                           env=dict(os.environ, PATH=fake + os.pathsep + os.environ["PATH"], DSH_SIM=SIM))
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("submitted 4 points", p.stdout)
        for i in IDS:
            self.assertTrue(os.path.isfile(os.path.join(out, "points", i + ".json")), i)
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["schemes"]["dsh"]["sim_pause_free_pct"], 25)


class Generations(unittest.TestCase):
    def test_infeasible_scheme_reported_and_keys(self):
        # 800 Gb/s (Tomahawk 5 row): buffer 165 * 2^20 B * 32 * 800 / 51200 = 86.5 MB = 337920 cells;
        # eta = 2 (800e9 * 2e-6 / 8 + 1500) + 3840 = 406840 B -> 272 packets of 6 cells = 1632 cells;
        # SIH needs 32 * 7 * (1632 + 12) = 368256 cells > 337920: infeasible. DSH is still run.
        # (the admission wait and decision latency, 6 MMU cycles at 0.64 GHz = 938 B at 800 Gb/s, leave it 272 packets)
        # 100 Gb/s (Tomahawk row) is S1's chip: 65536 cells, eta 234 (test_params.cpp).
        d = fresh("links")
        rc, out, err = sim("--set", "sweep.generations=100,800", "--set", "sweep.burst_pct=20",
                           "--set", "sweep.refine_steps=0", "--no-plot", "-o", d, scenario=LINKS)
        self.assertEqual(rc, 0, err)
        s = testlib.read_json(os.path.join(d, "summary.json"))
        self.assertEqual(sorted(s["results"], key=float), ["100", "800"])
        sih, dsh = s["results"]["800"]["sih"], s["results"]["800"]["dsh"]
        self.assertIs(sih.get("infeasible"), True)
        self.assertNotIn("sim_pause_free_cells_pct", sih)
        self.assertIn("sim_pause_free_cells_pct", dsh)
        for r in (sih, dsh, s["results"]["100"]["sih"]):
            for k in ("theorem_pct", "n_ports", "n_queues", "buffer_cells", "private_cells", "headroom_cells",
                      "alpha_log2", "prop_delay_ns"):
                self.assertIn(k, r)
        self.assertEqual((dsh["buffer_cells"], dsh["headroom_cells"], dsh["n_ports"], dsh["n_queues"]),
                         (337920, 1632, 32, 7))
        self.assertEqual((dsh["private_cells"], dsh["alpha_log2"], dsh["prop_delay_ns"]), (12, -4, 2000))
        self.assertEqual(s["results"]["100"]["dsh"]["buffer_cells"], 65536)
        self.assertEqual(s["results"]["100"]["dsh"]["headroom_cells"], 234)
        self.assertEqual(s["drops"], 0)
        self.assertIn("800 Gb/s sih: infeasible", out)
        # The point list has no SIH point at 800 Gb/s, and the IDs name the rate.
        rc, out, err = sim("--set", "sweep.generations=100,800", "--set", "sweep.burst_pct=20", "--list-points",
                           scenario=LINKS)
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), ["link-speeds,rate_gbps=100,scheme=dsh,burst_pct=20",
                                            "link-speeds,rate_gbps=100,scheme=sih,burst_pct=20",
                                            "link-speeds,rate_gbps=800,scheme=dsh,burst_pct=20"])

    def test_single_run_still_refuses_an_all_infeasible_chip(self):
        rc, _, err = sim("-b", "golden", "--set", "chip.buffer_cells=32768", "--point", "sih:10", "-o", fresh("inf"))
        self.assertEqual(rc, 2, err)
        self.assertIn("leaves no shared buffer under SIH", err)


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v"])
