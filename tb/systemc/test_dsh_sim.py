#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""dsh-sim, the executable, on short runs of scenario S1 (golden MMU).

Expectations come from the analytic model (DSH pause-free up to ~38 % of the
buffer, SIH up to ~8.9 %: golden/theory.h, scenarios §S1.4) and from what a
user of the tool relies on (exit codes, the CSV's columns, the JSON summary,
--no-plot), never from a previous run's output.

  test_dsh_sim.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
S1 = os.path.join(SCENARIOS, "pfc-avoidance.toml")


def run(*args):
    rc, out, err = testlib.run([SIM, S1, "-b", "golden", *args])
    return rc, out + err


def fresh(name):
    return testlib.fresh(WORK, name, make=False)


class DshSim(unittest.TestCase):
    def test_short_sweep_writes_csv_and_json(self):
        out = fresh("sweep")
        rc, log = run("--set", "sweep.burst_pct=10,40", "--set", "sweep.refine_steps=0", "--no-plot", "-o", out)
        self.assertEqual(rc, 0, log)
        rows = testlib.read_csv(os.path.join(out, "sweep.csv"))
        for col in ("scheme", "burst_pct", "burst_bytes", "fanin_pause_us", "fanin_pause_frames", "drops",
                    "peak_shared_cells", "mmu_cycles"):
            self.assertIn(col, rows[0], f"sweep.csv lacks column {col}")
        got = {(r["scheme"], float(r["burst_pct"])): r for r in rows}
        self.assertEqual(set(got), {("dsh", 10), ("dsh", 40), ("sih", 10), ("sih", 40)})
        self.assertTrue(all(int(r["drops"]) == 0 for r in rows), "a lossless class dropped")
        # 10 %: under DSH's edge, over SIH's; 40 %: over both.
        self.assertEqual(int(got[("dsh", 10)]["fanin_pause_frames"]), 0)
        self.assertGreater(int(got[("sih", 10)]["fanin_pause_frames"]), 0)
        self.assertGreater(int(got[("dsh", 40)]["fanin_pause_frames"]), 0)
        s = testlib.read_json(os.path.join(out, "summary.json"))
        self.assertEqual(s["drops"], 0)
        self.assertEqual(s["backend"], "golden")
        self.assertAlmostEqual(s["schemes"]["dsh"]["theorem_pct"], 38.0, delta=0.5)
        self.assertEqual(s["schemes"]["dsh"]["sim_pause_free_pct"], 10)
        self.assertEqual(s["schemes"]["sih"]["first_paused_pct"], 10)
        self.assertFalse(os.path.exists(os.path.join(out, "sweep.png")), "--no-plot wrote a plot")

    def test_one_point(self):
        rc, log = run("--point", "dsh:20", "-o", fresh("point"))
        self.assertEqual(rc, 0, log)
        self.assertRegex(log, r"dsh burst 20\.00% .*fan-in paused 0\.00 us, PAUSE frames to fan-in 0 .*drops 0")

    def test_drops_exit_1(self):
        # One lane at 50 MHz cannot admit 32 x 100 Gb/s: packets wait
        # tens of microseconds for admission, longer than the headroom covers.
        rc, log = run("--set", "chip.mmu_clock_ghz=0.05", "--set", "chip.lanes=1", "--set", "chip.deq_per_cycle=1",
                      "--point", "sih:30", "-o", fresh("drops"))
        self.assertEqual(rc, 1, log)
        self.assertRegex(log, r"drops [1-9][0-9]*")

    def test_bad_key_and_value_named(self):
        rc, log = run("--set", "chip.n_portz=3", "-o", fresh("badkey"))
        self.assertEqual(rc, 2, log)
        self.assertIn("'chip.n_portz'", log)
        rc, log = run("--set", "chip.alpha_log2=9", "-o", fresh("badvalue"))
        self.assertEqual(rc, 2, log)
        self.assertIn("alpha_log2", log)
        self.assertIn("9", log)


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=[sys.argv[0], "-v"])
