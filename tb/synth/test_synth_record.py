# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the typed result record (synth.record): to and from
summary.json, with the keys and their order the flow has always written.
Hand-made records; no tool runs (synth/unit-record)."""
import json
import sys
import unittest

import synth_fixtures as fx
from synth.record import CheckVerdict, FpgaResult, RunResult, SeedResult, spread

TOP_KEYS = ["schema", "config", "mode", "status", "errors", "steps_s", "tools", "date", "rtl",
            "abc_script", "generic", "asic", "cache_key", "checks"]
ASIC_KEYS = ["liberty", "library", "period_ns", "target_mhz", "driving_cell", "output_load",
             "dont_use_removed", "area_um2", "cells", "flops", "seq_area_um2", "comb_area_um2",
             "top_cells_by_area", "worst_slack_ns", "tns_ns", "hold_slack_ns", "timing_met",
             "fmax_mhz", "critical_path", "reg2reg_path", "reg2reg_fmax_mhz",
             "unconstrained_endpoints", "check_setup", "constant_outputs"]


class RoundTrip(unittest.TestCase):
    def test_asic_result_round_trips_through_json(self):
        res = fx.asic_result()
        res.checks = {"latch": CheckVerdict("pass", "no latch inferred")}
        back = RunResult.from_dict(json.loads(res.to_json()))
        self.assertEqual(back, res)
        self.assertEqual(back.to_json(), res.to_json())

    def test_summary_layout(self):
        res = fx.asic_result()
        res.checks = {"timing": CheckVerdict("fail", "worst slack")}
        d = json.loads(res.to_json())
        self.assertEqual(list(d), TOP_KEYS)
        self.assertEqual(list(d["asic"]), ASIC_KEYS)
        self.assertEqual(d["config"], {"name": "dsh_4x4", "scheme": "dsh", "NumPorts": 4,
                                       "NumQueues": 4, "CellW": 20, "SizeW": 8, "CntW": 32,
                                       "Dsh": 1, "ThreshLatency": 2})
        self.assertEqual(d["checks"], {"timing": {"status": "fail", "detail": "worst slack"}})
        self.assertEqual(d["asic"]["critical_path"]["cells"][0],
                         {"inst": "_1_", "pin": "Y", "cell": "inv_1", "delay_ns": 0.07,
                          "at_ns": 0.42})

    def test_seeds_round_trip_and_spread(self):
        res = fx.asic_result()
        self.assertNotIn("seeds", res.to_dict()["asic"])   # one seed: no key
        self.assertIsNone(res.asic.fmax_spread())
        res.asic.seeds = [SeedResult(0, 100.0, 800, -0.2, -3.0, 238.1, 238.1, "a_q", "b_q"),
                          SeedResult(1, 101.0, 805, -0.5, -9.0, 222.2, 222.2, "c_q", "b_q"),
                          SeedResult(2, 99.0, 790, 0.1, 0.0, 250.0, 250.0, "a_q", "d_q")]
        d = json.loads(res.to_json())
        self.assertEqual(list(d["asic"])[-1], "seeds")
        self.assertEqual(d["asic"]["seeds"][1]["fmax_mhz"], 222.2)
        self.assertEqual(RunResult.from_dict(d), res)
        self.assertEqual(res.asic.fmax_spread(), (222.2, 238.1, 250.0))
        self.assertEqual(spread([3.0, None, 1.0, 2.0, 10.0]), (1.0, 2.5, 10.0))
        self.assertIsNone(spread([None]))

    def test_absent_parts_stay_absent(self):
        res = fx.asic_result()
        res.asic.sta = None                      # OpenSTA failed
        res.generic = None
        res.status, res.errors = "error", ["OpenSTA printed no slack"]
        d = json.loads(res.to_json())
        self.assertNotIn("generic", d)
        self.assertNotIn("checks", d)
        self.assertNotIn("worst_slack_ns", d["asic"])
        self.assertEqual(RunResult.from_dict(d), res)

    def test_reg2reg_fmax_only_with_a_reg2reg_slack(self):
        res = fx.asic_result()
        res.asic.sta.reg2reg_path.slack_ns = None
        res.asic.sta.reg2reg_fmax_mhz = None
        self.assertNotIn("reg2reg_fmax_mhz", res.to_dict()["asic"])
        self.assertEqual(RunResult.from_dict(res.to_dict()), res)

    def test_fpga_keys_follow_the_flow(self):
        f = FpgaResult("hx8k", "ct256", 206, 7680, "direct", 428, 50.0, ios=428, fits=False,
                       reason="does not fit: 428 IOs > 206 pins of hx8k/ct256")
        self.assertEqual(list(f.to_dict())[-3:], ["ios", "fits", "reason"])
        ok = FpgaResult("hx8k", "ct256", 206, 7680, "wrap", 428, 50.0, ios=5, wrapper_flops=426,
                        luts=4000, flops=2000, carries=10, brams=0, fits=True)
        d = ok.to_dict()
        self.assertIsNone(d["fmax_mhz"])        # fits, frequency not reported: null
        self.assertNotIn("lcs_used", d)
        self.assertEqual(FpgaResult.from_dict(d), ok)

    def test_a_summary_of_the_flow_reads_back_unchanged(self):
        # the layout scripts/synth.py wrote before it became a package
        d = {"schema": 1, "config": {"name": "sih_2x1_l1", "scheme": "sih", "NumPorts": 2,
                                     "NumQueues": 1, "CellW": 20, "SizeW": 8, "CntW": 32,
                                     "Dsh": 0, "ThreshLatency": 1},
             "mode": "generic", "status": "ok", "errors": [], "steps_s": {"total": 1.0},
             "tools": {"yosys": "Yosys 0.23"}, "date": "2026-01-01",
             "rtl": {"manifest": "/r/dsh_mmu.f", "sha1": "00", "git": "abc",
                     "rtl_modified": True},
             "generic": fx.generic().to_dict(), "cache_key": "k",
             "asic_skipped": "no Liberty file"}
        res = RunResult.from_dict(d)
        self.assertEqual(res.config.name, "sih_2x1_l1")
        self.assertEqual(res.generic.transistors, 1000)
        self.assertEqual(json.dumps(res.to_dict()), json.dumps(d))


if __name__ == "__main__":
    sys.exit(unittest.main())
