#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""dsh-sim on short runs of the network scenarios: what a script relies on
(exit codes, the CSV columns, summary.json's results.<scheme>.<cc> keys, the
plot) and the direction of the paper's claims, never a previous run's
numbers.

  test_net_sim.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
S2 = os.path.join(SCENARIOS, "collateral-damage.toml")
S3 = os.path.join(SCENARIOS, "deadlock.toml")


def run(scenario, *args):
    rc, out, err = testlib.run([SIM, scenario, *args])
    return rc, out + err


def fresh(name):
    return testlib.fresh(WORK, name, make=False)


class NetSim(unittest.TestCase):
    def test_collateral_damage_summary(self):
        out = fresh("s2")
        # No CC, fan-in after 100 us of steady long flows: seconds, not the default's ms.
        rc, log = run(S2, "--set", "run.cc=none", "--set", "traffic.settle_us=100", "--set", "traffic.tail_us=20",
                      "-o", out)
        self.assertEqual(rc, 0, log)
        s = testlib.read_json(os.path.join(out, "summary.json"))
        for scheme in ("dsh", "sih"):
            r = s["results"][scheme]["none"]
            for key in ("f0_mean_gbps_during_fanin", "f0_min_gbps_during_fanin", "f0_mean_gbps_before_fanin",
                        "lossless_drops"):
                self.assertIn(key, r, f"results.{scheme}.none lacks {key}")
            self.assertEqual(r["lossless_drops"], 0)
            self.assertGreater(r["f0_mean_gbps_before_fanin"], 45)  # two flows share 100 Gb/s
        dsh, sih = s["results"]["dsh"]["none"], s["results"]["sih"]["none"]
        self.assertGreater(dsh["f0_mean_gbps_during_fanin"], 45)
        self.assertLess(sih["f0_mean_gbps_during_fanin"], 0.8 * dsh["f0_mean_gbps_during_fanin"])
        rows = testlib.read_csv(os.path.join(out, "throughput.csv"))
        self.assertEqual(set(rows[0]), {"scheme", "cc", "t_us", "f0_gbps", "f1_gbps", "fanin_gbps"})
        self.assertTrue(os.path.getsize(os.path.join(out, "collateral.png")) > 1000, "no plot")

    def test_deadlock_summary_and_cdf(self):
        out = fresh("s3")
        # The paper's load 0.5 read per leaf overloads L0's one uplink and the
        # detour links twice over: SIH without CC deadlocks within ~1 ms.
        rc, log = run(S3, "--set", "deadlock.seeds=1", "--set", "deadlock.duration_ms=1.5", "--set",
                      "deadlock.still_us=200", "--set", "traffic.load_unit=leaf", "--set", "traffic.load=0.5",
                      "--set", "run.schemes=sih", "--set", "run.cc=none", "-o", out)
        self.assertEqual(rc, 0, log)
        s = testlib.read_json(os.path.join(out, "summary.json"))
        self.assertEqual(s["routes"], "ecmp")
        self.assertEqual(s["load_unit"], "leaf")
        self.assertEqual(s["loads"], ["0.5"])
        self.assertEqual(s["offered"]["0.5"]["utilisation"], 2.0)  # worked in test_deadlock.cpp OfferedLoadByHand
        r = s["results"]["sih"]["none"]["0.5"]
        self.assertEqual(r["runs"], 1)
        self.assertEqual(r["deadlocked_runs"], 1)
        self.assertEqual(len(r["onset_ms"]), 1)
        self.assertEqual(r["median_onset_ms"], r["onset_ms"][0])
        # Wilson 95 % for 1 of 1: [1/(1 + z^2), 1] = [1/4.841459, 1].
        self.assertAlmostEqual(r["ci95"][0], 0.206549, places=6)
        self.assertEqual(r["ci95"][1], 1.0)
        self.assertEqual(r["lossless_drops"], 0)
        self.assertIn("OVERLOADED", log)
        rows = testlib.read_csv(os.path.join(out, "deadlock.csv"))
        self.assertEqual(rows[0]["load"], "0.5")
        self.assertIn(rows[0]["cycle"], ("S0>L1 L1>S1 S1>L2 L2>S0", "S0>L2 L2>S1 S1>L1 L1>S0"))
        self.assertTrue(os.path.getsize(os.path.join(out, "deadlock.png")) > 1000, "no plot")

    def test_bad_keys_are_refused_before_any_run(self):
        for scenario, kv, name in ((S2, "traffic.fanin_dst=Q", "traffic.fanin_dst"),
                                   (S3, "traffic.load=2", "traffic.load"),
                                   (S3, "net.rtl_switches=X", "net.rtl_switches"),
                                   (S2, "dcqcn.pmax=1.5", "dcqcn.pmax")):
            out = fresh("bad")
            rc, log = run(scenario, "--set", kv, "-o", out)
            self.assertEqual(rc, 2, log)
            self.assertIn(name, log)
            self.assertFalse(os.path.exists(os.path.join(out, "summary.json")), "a refused run wrote a summary")

    def test_class_without_queue_is_refused_before_any_run(self):
        out = fresh("noqueue")
        rc, log = run(S3, "--set", "chip.n_queues=2", "--set", "traffic.class=3", "--list-points")
        self.assertEqual(rc, 2, log)
        self.assertIn("traffic.class = '3' (--set): switch", log)
        self.assertNotIn("deadlock,", log, "a refused setup listed points")
        self.assertFalse(os.path.exists(out))

    def test_failed_points_write_no_outputs(self):
        # A planted RTL fault (tb/faults, fault 3) makes the lockstep switch
        # S1 mismatch its golden model: the run's one point fails.
        out = fresh("failed")
        rc, log = run(S2, "-b", "lockstep", "--set", "net.rtl_switches=S1", "--set", "run.cc=none", "--set",
                      "run.schemes=dsh", "--set", "run.rtl_fault=3", "-j", "1", "--no-plot", "-o", out)
        self.assertEqual(rc, 1, log)  # a lockstep mismatch
        self.assertIn("1 of 1 points failed", log)
        self.assertNotIn("S2 collateral damage", log, "a summary of failed points")
        self.assertNotIn("wrote", log)
        self.assertEqual(sorted(os.listdir(out)), ["points"])
        self.assertEqual(os.listdir(os.path.join(out, "points")), [], "a failed point kept a result file")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
