#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The network scenarios as sweeps of points: S3 (scheme x cc x load x seed) and S2
(scheme x cc) listed, run one point per process under GNU Parallel and
merged into the same outputs as one process; the merge's refusals (missing,
duplicate, foreign points), the resume of the default run (done points are
not run again: their files keep their mtimes and the log counts them).

The IDs and counts are worked by hand from the options given here
(schemes dsh,sih; cc none,dcqcn; the seeds listed), never from a previous run.

  test_net_points.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import os
import shutil
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
S2 = os.path.join(SCENARIOS, "collateral-damage.toml")
S3 = os.path.join(SCENARIOS, "deadlock.toml")
# S3 shortened: two seeds, 0.4 ms, the paper's load 0.5 read per leaf (an
# overload: SIH without CC deadlocks early).
SHORT3 = ["--set", "deadlock.seeds=3,1", "--set", "deadlock.duration_ms=0.4", "--set", "deadlock.still_us=100",
          "--set", "traffic.load_unit=leaf", "--set", "traffic.load=0.5", "--set", "run.cc=none,dcqcn"]
IDS3 = [f"deadlock,scheme={s},cc={c},load=0.5,seed={n}" for s in ("dsh", "sih") for c in ("none", "dcqcn")
        for n in (3, 1)]
# S2 shortened: no CC, fan-in after 100 us of steady long flows.
SHORT2 = ["--set", "run.cc=none", "--set", "traffic.settle_us=100", "--set", "traffic.tail_us=20"]
IDS2 = ["collateral-damage,scheme=dsh,cc=none", "collateral-damage,scheme=sih,cc=none"]
OUTPUTS3 = ("deadlock.csv", "summary.json", "summary.txt")
OUTPUTS2 = ("throughput.csv", "summary.json", "summary.txt")


def sim(scenario, *args):
    return testlib.run([SIM, scenario, *args])


def fresh(name):
    return testlib.fresh(WORK, name)


read = testlib.read_bytes


def parallel_points(scenario, opts, ids, points_dir):
    return testlib.parallel_points([SIM, scenario, *opts], ids, points_dir)


class NetPoints(unittest.TestCase):
    def test_list_points(self):
        rc, out, err = sim(S3, *SHORT3, "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), IDS3)
        # --full: deadlock.full_seeds = 1..100, 2 schemes x the file's 3 cc, its one load.
        rc, out, err = sim(S3, "--full", "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(len(out.splitlines()), 600)
        self.assertIn("deadlock,scheme=sih,cc=dcqcn,load=0.5,seed=100", out.splitlines())
        self.assertIn("deadlock,scheme=dsh,cc=powertcp,load=0.5,seed=1", out.splitlines())
        # A duration given on the command line beside --full would be dropped: refused, naming the --full key.
        rc, out, err = sim(S3, "--full", "--set", "deadlock.duration_ms=5", "--list-points")
        self.assertEqual(rc, 2, err)
        self.assertEqual(out, "")
        self.assertIn("deadlock.duration_ms = '5' (--set): --full runs deadlock.full_duration_ms = '100'", err)
        rc, out, err = sim(S3, "--full", "--set", "deadlock.seeds=7", "--list-points")
        self.assertEqual(rc, 2, err)
        self.assertEqual(out, "")
        self.assertIn("deadlock.seeds = '7' (--set): --full runs deadlock.full_seeds = '1..100'", err)
        # A load sweep: each load a coordinate, written as given once (0.50 is 0.5).
        rc, out, err = sim(S3, "--set", "traffic.load=0.1,0.50,0.9", "--set", "deadlock.seeds=1", "--set",
                           "run.schemes=dsh", "--set", "run.cc=dcqcn", "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [f"deadlock,scheme=dsh,cc=dcqcn,load={x},seed=1" for x in ("0.1", "0.5", "0.9")])
        rc, out, err = sim(S2, "--list-points")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.splitlines(), [f"collateral-damage,scheme={s},cc={c}" for s in ("dsh", "sih")
                                            for c in ("none", "dcqcn")])
        rc, _, err = sim(S3, *SHORT3, "--point", "deadlock,scheme=dsh,cc=none,seed=2", "-o", fresh("unknown"))
        self.assertEqual(rc, 2, err)
        self.assertIn("not a point", err)

    def test_s3_parallel_merge_equals_one_process(self):
        self.assertIsNotNone(shutil.which("parallel"), "GNU Parallel (Debian package parallel) is not installed")
        one, dist = fresh("s3_one"), fresh("s3_dist")
        rc, _, err = sim(S3, *SHORT3, "--no-plot", "--reproducible", "-o", one)
        self.assertIn(rc, (0, 1), err)  # 1 would be lossless drops: still a result to compare
        pts = os.path.join(dist, "points")
        prc, log = parallel_points(S3, SHORT3, IDS3, pts)
        self.assertEqual(prc, rc, log)
        self.assertEqual(sorted(os.listdir(pts)), sorted(i + ".json" for i in IDS3))
        mrc, _, err = sim(S3, *SHORT3, "--no-plot", "--reproducible", "--merge", pts, "-o", dist)
        self.assertEqual(mrc, rc, err)
        for f in OUTPUTS3:
            self.assertEqual(read(os.path.join(one, f)), read(os.path.join(dist, f)), f"{f} differs")
        s = testlib.read_json(os.path.join(dist, "summary.json"))
        self.assertEqual(s["seeds"], [3, 1])
        for sch in ("dsh", "sih"):
            for cc in ("none", "dcqcn"):
                self.assertEqual(s["results"][sch][cc]["0.5"]["runs"], 2)
        self.assertIsNone(s["speed"]["cpu_s"])  # --reproducible

    def test_s3_merge_refuses_missing_duplicate_foreign(self):
        d = fresh("s3_refuse")
        pts = os.path.join(d, "points")
        # One cheap point per scheme and seed without CC; the list below is that run's.
        opts = [o if o != "run.cc=none,dcqcn" else "run.cc=none" for o in SHORT3]
        ids = [i for i in IDS3 if ",cc=none," in i]
        prc, log = parallel_points(S3, opts, ids[:3], pts)  # the fourth is missing
        self.assertIn(prc, (0, 1), log)
        out = os.path.join(d, "out")
        rc, _, err = sim(S3, *opts, "--merge", pts, "-o", out)
        self.assertEqual(rc, 2, err)
        self.assertIn("missing", err)
        self.assertIn(ids[3], err)
        self.assertFalse(os.path.exists(os.path.join(out, "summary.json")), "a refused merge wrote a summary")
        # The fourth point, and a copy of the first gathered from another machine.
        prc, log = parallel_points(S3, opts, ids[3:], pts)
        self.assertIn(prc, (0, 1), log)
        os.makedirs(os.path.join(pts, "node2"))
        shutil.copy(os.path.join(pts, ids[0] + ".json"), os.path.join(pts, "node2"))
        rc, _, err = sim(S3, *opts, "--merge", pts, "-o", out)
        self.assertEqual(rc, 2, err)
        self.assertIn("duplicate", err)
        self.assertIn(ids[0], err)
        self.assertFalse(os.path.exists(os.path.join(out, "summary.json")))
        # A point run with the other load unit (foreign): the message names the key.
        os.remove(os.path.join(pts, "node2", ids[0] + ".json"))
        other = os.path.join(d, "other")
        # (a key is given once on a command line: the other unit replaces SHORT3's)
        other_opts = [o.replace("traffic.load_unit=leaf", "traffic.load_unit=receiver") for o in opts]
        rc, _, err = sim(S3, *other_opts, "--point", ids[1], "-o", other)
        self.assertIn(rc, (0, 1), err)
        shutil.copy(os.path.join(other, ids[1] + ".json"), os.path.join(pts, "node2"))
        os.remove(os.path.join(pts, ids[1] + ".json"))
        rc, _, err = sim(S3, *opts, "--merge", pts, "-o", out)
        self.assertEqual(rc, 2, err)
        self.assertIn("foreign", err)
        self.assertIn("traffic.load_unit = receiver there, leaf here", err)
        # A point of a 0.4 ms run is not one of a 0.5 ms run, whichever key set the duration.
        longer = [o.replace("deadlock.duration_ms=0.4", "deadlock.duration_ms=0.5") for o in opts]
        rc, _, err = sim(S3, *longer, "--merge", pts, "-o", out)
        self.assertEqual(rc, 2, err)
        self.assertIn("deadlock.duration_ms = 0.4 there, 0.5 here", err)

    def test_s3_default_run_resumes(self):
        out = fresh("s3_resume")
        opts = SHORT3 + ["--set", "run.schemes=sih", "--no-plot", "--reproducible", "-o", out]
        ids = [i for i in IDS3 if "scheme=sih" in i]
        rc, _, err = sim(S3, *opts)
        self.assertIn(rc, (0, 1), err)
        pts = os.path.join(out, "points")
        self.assertEqual(sorted(os.listdir(pts)), sorted(i + ".json" for i in ids))
        first = {f: read(os.path.join(out, f)) for f in OUTPUTS3}
        mtimes = {i: os.stat(os.path.join(pts, i + ".json")).st_mtime_ns for i in ids}
        os.remove(os.path.join(pts, ids[2] + ".json"))  # as if stopped before this point
        rc2, _, err = sim(S3, *opts)
        self.assertEqual(rc2, rc, err)
        self.assertIn("3 of 4 points already done", err)
        self.assertIn("1 of 4 runs", err)
        for i in ids:
            if i != ids[2]:
                self.assertEqual(os.stat(os.path.join(pts, i + ".json")).st_mtime_ns, mtimes[i], f"{i} was run again")
        self.assertTrue(os.path.isfile(os.path.join(pts, ids[2] + ".json")))
        for f in OUTPUTS3:
            self.assertEqual(read(os.path.join(out, f)), first[f], f"{f} differs after the resume")
        # --point on a done point skips it too.
        rc3, _, err = sim(S3, *SHORT3, "--set", "run.schemes=sih", "--point", ids[0], "-o", pts)
        self.assertEqual(rc3, 0 if '"lossless_drops": 0' in read(os.path.join(pts, ids[0] + ".json")).decode() else 1)
        self.assertIn("already done", err)
        self.assertEqual(os.stat(os.path.join(pts, ids[0] + ".json")).st_mtime_ns, mtimes[ids[0]])

    def test_s2_points_merge_equals_one_process(self):
        one, dist = fresh("s2_one"), fresh("s2_dist")
        rc, _, err = sim(S2, *SHORT2, "--reproducible", "-o", one)
        self.assertEqual(rc, 0, err)
        rc, out, err = sim(S2, *SHORT2, "--list-points")
        self.assertEqual(out.splitlines(), IDS2)
        pts = os.path.join(dist, "points")
        for i in IDS2:
            rc, _, err = sim(S2, *SHORT2, "--point", i, "-o", pts)
            self.assertEqual(rc, 0, err)
        rc, _, err = sim(S2, *SHORT2, "--reproducible", "--merge", pts, "-o", dist)
        self.assertEqual(rc, 0, err)
        for f in OUTPUTS2:
            self.assertEqual(read(os.path.join(one, f)), read(os.path.join(dist, f)), f"{f} differs")
        self.assertTrue(os.path.getsize(os.path.join(dist, "collateral.png")) > 1000, "no plot")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
