# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the area split (synth.split): the threshold pipeline (the
Stats = 0 companion run) and the statistics block (the difference) as rows,
their DSH/SIH ratios, where they are printed and reported, and the
companion run the flow adds. Hand-made records; no tool runs
(synth/unit-split)."""
import csv
import json
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

import synth_fixtures as fx
from synth import cli, report, split
from synth.config import Config, FlowOptions
from synth.flow import Run
from synth.record import RunResult

from test_synth_report import context


def with_split(full, pipe_area, pipe_flops=60, pipe_transistors=700, pipe_fmax=250.0):
    """full with a split against a companion of the given figures."""
    pipe = fx.asic_result(full.config.ports, full.config.queues, full.config.scheme,
                          area=pipe_area, fmax=pipe_fmax)
    pipe.config = split.companion(full.config)
    pipe.asic.flops = pipe_flops
    pipe.generic.transistors = pipe_transistors
    full.split = split.split_of(full, pipe)
    return full


class Rows(unittest.TestCase):
    def test_pipeline_is_the_companion_statistics_the_difference(self):
        full = with_split(fx.asic_result(area=1200.0), 840.0, pipe_flops=60, pipe_transistors=700)
        sp = full.split
        self.assertEqual(sp.companion, "dsh_4x4_nostats")
        self.assertEqual((sp.pipeline_area_um2, sp.stats_area_um2), (840.0, 360.0))
        # the fixture's full design: 100 flops, 1000 transistors
        self.assertEqual((sp.pipeline_flops, sp.stats_flops), (60, 40))
        self.assertEqual((sp.pipeline_transistors, sp.stats_transistors), (700, 300))
        self.assertEqual(sp.pipeline_fmax_mhz, 250.0)
        self.assertEqual(split.rows(full, "um2"), [("whole MMU", 1200.0),
                                                  ("threshold pipeline (Stats = 0)", 840.0),
                                                  ("statistics (difference)", 360.0)])
        self.assertEqual([v for _, v in split.rows(full, "transistors")], [1000, 700, 300])

    def test_generic_runs_split_transistors_and_flops(self):
        full, pipe = fx.asic_result(), fx.asic_result()
        full.asic = pipe.asic = None
        full.mode = pipe.mode = "generic"
        pipe.config = split.companion(full.config)
        pipe.generic = fx.generic(transistors=640, flops=70)
        sp = split.split_of(full, pipe)
        self.assertEqual((sp.pipeline_area_um2, sp.stats_area_um2), (None, None))
        self.assertEqual((sp.pipeline_transistors, sp.stats_transistors), (640, 360))
        self.assertEqual((sp.pipeline_flops, sp.stats_flops), (70, 30))
        self.assertIsNone(sp.pipeline_fmax_mhz)
        full.split = sp
        self.assertEqual(split.unit_of(full), "transistors")

    def test_no_split_no_rows(self):
        self.assertEqual(split.rows(fx.asic_result(), "um2"), [])
        self.assertEqual(split.split_lines(fx.asic_result()), [])
        self.assertEqual(split.report_section([fx.asic_result()], "um2"), [])

    def test_companion_and_when_it_runs(self):
        cfg = Config(8, 8, "sih", latency=3)
        self.assertEqual(split.companion(cfg), Config(8, 8, "sih", latency=3, stats=0))
        self.assertEqual(split.companion(cfg).params()["Stats"], 0)
        opts = FlowOptions()
        self.assertTrue(split.wanted(cfg, "asic", opts))
        self.assertTrue(split.wanted(cfg, "generic", opts))
        self.assertFalse(split.wanted(cfg, "fpga", opts))
        self.assertFalse(split.wanted(split.companion(cfg), "asic", opts))
        self.assertFalse(split.wanted(cfg, "asic", FlowOptions(split=False)))


class Ratios(unittest.TestCase):
    def setUp(self):
        # SIH: 1000 = 800 + 200; DSH: 1200 = 840 + 360
        self.sih = with_split(fx.asic_result(scheme="sih", area=1000.0), 800.0)
        self.dsh = with_split(fx.asic_result(scheme="dsh", area=1200.0), 840.0)

    def test_each_row_has_its_ratio(self):
        lines = split.ratio_lines(self.dsh, self.sih, "x/sih_4x4/summary.json")
        self.assertEqual(lines, ["  DSH/SIH (um2; sih_4x4 from x/sih_4x4/summary.json): "
                                 "whole MMU 1.200, threshold pipeline (Stats = 0) 1.050, "
                                 "statistics (difference) 1.800"])
        # the same ratios whichever scheme is printing
        self.assertIn("whole MMU 1.200, threshold pipeline (Stats = 0) 1.050, statistics "
                      "(difference) 1.800", split.ratio_lines(self.sih, self.dsh, "y")[0])

    def test_ratio_needs_both_and_a_positive_sih(self):
        self.assertAlmostEqual(split.ratio(3.0, 2.0), 1.5)
        self.assertIsNone(split.ratio(None, 2.0))
        self.assertIsNone(split.ratio(3.0, 0))

    def test_comparable_only_across_schemes_of_one_rtl_and_flow(self):
        self.assertTrue(split.comparable(self.dsh, self.sih))
        self.assertFalse(split.comparable(self.dsh, self.dsh))
        other = with_split(fx.asic_result(8, 8, "sih", area=1000.0), 800.0)
        self.assertFalse(split.comparable(self.dsh, other))          # another size
        slow = with_split(fx.asic_result(scheme="sih", area=1000.0, period=5.0), 800.0)
        self.assertFalse(split.comparable(self.dsh, slow))           # another target
        self.sih.rtl.sha1 = "ffff"
        self.assertFalse(split.comparable(self.dsh, self.sih))       # another RTL
        self.assertFalse(split.comparable(self.dsh, fx.asic_result(scheme="sih")))  # no split

    def test_printed_rows(self):
        lines = report.summary_lines(self.dsh)
        self.assertIn("  threshold pipeline (Stats = 0, dsh_4x4_nostats): 840 um2, 60 flops, "
                      "max clock 250.0 MHz", lines)
        self.assertIn("  statistics (the difference): 360 um2 (30.0 %), 40 flops", lines)

    def test_report_table_and_csv(self):
        md = split.report_section([self.dsh, self.sih], "um2")
        self.assertIn("## Threshold pipeline and statistics (um2)", md)
        self.assertIn("| 4×4 | whole MMU | 1,000 | 1,200 | 1.200 |", md)
        self.assertIn("| 4×4 | threshold pipeline (Stats = 0) | 800 | 840 | 1.050 |", md)
        self.assertIn("| 4×4 | statistics (difference) | 200 | 360 | 1.800 |", md)
        with tempfile.TemporaryDirectory() as d:
            report.write_report([self.dsh, self.sih], Path(d), context(), "asic")
            self.assertIn("| 4×4 | statistics (difference) | 200 | 360 | 1.800 |",
                          (Path(d) / "report.md").read_text())
            with open(Path(d) / "report.csv", newline="") as f:
                rows = {r["config"]: r for r in csv.DictReader(f)}
        self.assertEqual((rows["sih_4x4"]["pipeline_area_um2"], rows["sih_4x4"]["stats_area_um2"]),
                         ("800.0", "200.0"))
        self.assertEqual((rows["dsh_4x4"]["pipeline_flops"], rows["dsh_4x4"]["stats_flops"]),
                         ("60", "40"))

    def test_a_size_with_one_scheme_shows_dashes(self):
        md = split.report_section([self.dsh], "um2")
        self.assertIn("| 4×4 | whole MMU | - | 1,200 | - |", md)

    def test_split_round_trips_through_summary_json(self):
        back = RunResult.from_dict(json.loads(self.dsh.to_json()))
        self.assertEqual(back, self.dsh)
        self.assertEqual(list(json.loads(self.dsh.to_json()))[-2:], ["cache_key", "split"])


class Counterpart(unittest.TestCase):
    """asic/generic print DSH/SIH when the other scheme's run lies beside."""

    def test_from_the_sibling_summary(self):
        dsh = with_split(fx.asic_result(scheme="dsh", area=1200.0), 840.0)
        sih = with_split(fx.asic_result(scheme="sih", area=1000.0), 800.0)
        with tempfile.TemporaryDirectory() as d:
            out = Path(d) / "dsh_4x4"
            lines = cli.counterpart_lines(dsh, out)
            self.assertEqual(lines, ["  DSH/SIH: run the same command with --scheme sih for the "
                                     "ratios of each row"])
            (Path(d) / "sih_4x4").mkdir()
            sih.write(Path(d) / "sih_4x4" / "summary.json")
            lines = cli.counterpart_lines(dsh, out)
            self.assertEqual(len(lines), 1)
            self.assertIn("statistics (difference) 1.800", lines[0])
            sih.asic.period_ns = 5.0
            sih.write(Path(d) / "sih_4x4" / "summary.json")
            self.assertIn("is of another RTL, flow or target", cli.counterpart_lines(dsh, out)[0])
            # --out named otherwise: no sibling to find
            self.assertIn("--out", cli.counterpart_lines(dsh, Path(d) / "mine")[0])
        self.assertEqual(cli.counterpart_lines(fx.asic_result(), Path("/x/dsh_4x4")), [])


class CompanionRun(unittest.TestCase):
    """Run.execute adds the Stats = 0 run in out/nostats and the split
    (the generic step stood in for by figures, no Yosys)."""

    def run_generic(self, fail_companion=False):
        def fake(run):
            if run.cfg.stats == 0 and fail_companion:
                from synth.common import ToolError
                raise ToolError("yosys failed (exit 1)")
            run.res.generic = fx.generic(transistors=700 if run.cfg.stats == 0 else 1000,
                                         flops=60 if run.cfg.stats == 0 else 100)
        orig = Run.do_generic
        Run.do_generic = fake
        try:
            d = tempfile.mkdtemp()
            self.addCleanup(shutil.rmtree, d)
            res = Run(Config(4, 4, "dsh"), "generic", Path(d) / "dsh_4x4", FlowOptions(),
                      quiet=True).execute()
        finally:
            Run.do_generic = orig
        return res, Path(d) / "dsh_4x4"

    def test_companion_beside_and_split_recorded(self):
        res, out = self.run_generic()
        self.assertTrue(res.ok, res.errors)
        comp = RunResult.from_dict(json.loads((out / "nostats" / "summary.json").read_text()))
        self.assertEqual(comp.config.name, "dsh_4x4_nostats")
        self.assertIsNone(comp.split)
        self.assertEqual((res.split.pipeline_transistors, res.split.stats_transistors), (700, 300))
        saved = RunResult.from_dict(json.loads((out / "summary.json").read_text()))
        self.assertEqual(saved.split, res.split)

    def test_a_failed_companion_fails_the_run(self):
        res, out = self.run_generic(fail_companion=True)
        self.assertFalse(res.ok)
        self.assertIsNone(res.split)
        self.assertIn("threshold pipeline (dsh_4x4_nostats", res.errors[0])
        self.assertIn("yosys failed", res.errors[0])


if __name__ == "__main__":
    sys.exit(unittest.main())
