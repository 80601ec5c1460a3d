# SPDX-License-Identifier: Apache-2.0
"""Unit tests of scripts/synth.py's command line (synth.cli): bad values
are refused with exit status 2 and a message naming the option, before any
tool is looked for. PATH is emptied for each call, so no tool can run: a
value wrongly accepted ends in exit 3 ('yosys' not found) and fails the
test (synth/unit-cli)."""
import contextlib
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import synth_fixtures  # noqa: F401  (puts scripts/ on the path)
from synth import cli


class Cli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.env = mock.patch.dict(os.environ, {"PATH": self.tmp.name, "DSH_SYNTH_CACHE":
                                                str(Path(self.tmp.name) / "cache")})
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def call(self, *argv, out=True):
        """(exit status, stderr) of scripts/synth.py argv (with --out a fresh
        directory unless out is False)."""
        err = io.StringIO()
        extra = ["--out", str(Path(self.tmp.name) / "out")] if out else []
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                rc = cli.run(list(argv) + extra)
            except SystemExit as e:  # argparse's own errors
                rc = e.code
        return rc, err.getvalue()

    def refused(self, option, *argv, out=True):
        rc, err = self.call(*argv, out=out)
        self.assertEqual(rc, 2, f"{argv}: exit {rc}, stderr {err!r}")
        self.assertIn(option, err, f"{argv}: the message does not name {option}")
        return err

    def test_parameters_outside_the_rtl_limits(self):
        err = self.refused("--ports", "generic", "--ports", "2000")
        self.assertIn("NumPorts must be in 1..1024", err)
        self.refused("--queues", "generic", "--queues", "0")
        self.refused("--cell-w", "asic", "--cell-w", "41")
        self.refused("--size-w", "generic", "--size-w", "21")   # > CellW 20
        self.refused("--cnt-w", "generic", "--cnt-w", "65")
        self.refused("--latency", "fpga", "--latency", "4")
        self.refused("--ports", "report", "--configs", "4x4,0x4")

    def test_lanes_outside_the_rtl_limits(self):
        err = self.refused("--lanes", "generic", "--ports", "4", "--lanes", "8")
        self.assertIn("NumLanes must be a power of two in 1..4", err)
        self.refused("--lanes", "generic", "--ports", "32", "--lanes", "3")
        self.refused("--lanes", "generic", "--ports", "128", "--lanes", "128")  # at most 64
        self.refused("--deq", "asic", "--deq", "65")
        self.refused("--lanes", "report", "--configs", "4x4", "--lane-counts", "1,8")
        self.refused("--lane-counts", "report", "--lane-counts", "1,two")
        self.refused("--lane-counts", "generic", "--lane-counts", "1,2")
        self.refused("--lanes", "wire", "--lanes", "2")

    def test_bad_option_values(self):
        self.refused("--period", "asic", "--period", "-1")
        self.refused("--period", "asic", "--period", "fast")
        self.refused("--period", "report", "--period", "recorded")
        self.refused("--input-delay", "asic", "--input-delay", "1.5")
        self.refused("--output-delay", "asic", "--output-delay", "x")
        self.refused("--output-load", "asic", "--output-load", "0")
        self.refused("--uncertainty", "asic", "--uncertainty", "-0.1")
        self.refused("--fpga-freq", "fpga", "--fpga-freq", "-5")
        self.refused("--timeout", "generic", "--timeout", "0")
        self.refused("--margin", "generic", "--margin", "2")
        self.refused("--check", "generic", "--check", "latch,speed")
        self.refused("--jobs", "report", "--jobs", "0")
        self.refused("--configs", "report", "--configs", "4by4")
        self.refused("--scheme", "generic", "--scheme", "both")
        self.refused("--device", "fpga", "--device", "ecp5")

    def test_values_no_tool_can_use(self):
        """Infinite or not-a-number values are refused with the option, the
        value and the accepted range (an infinite period hangs OpenSTA)."""
        for opt, mode, bad, rng in (
                ("--period", "asic", "inf", "(0.01, 1000] ns"),
                ("--period", "asic", "nan", "(0.01, 1000] ns"),
                ("--period", "asic", "0", "(0.01, 1000] ns"),
                ("--uncertainty", "asic", "inf", "[0, 1000] ns"),
                ("--uncertainty", "asic", "nan", "[0, 1000] ns"),
                ("--uncertainty", "asic", "-0.1", "[0, 1000] ns"),
                ("--output-load", "asic", "inf", "(0, 1000]"),
                ("--output-load", "asic", "nan", "(0, 1000]"),
                ("--fpga-freq", "fpga", "inf", "(0.1, 1000] MHz"),
                ("--fpga-freq", "fpga", "nan", "(0.1, 1000] MHz"),
                ("--input-delay", "asic", "nan", "[0, 1)"),
                ("--output-delay", "asic", "1", "[0, 1)"),
                ("--timeout", "asic", "inf", "(0.1, 10080] min"),
                ("--timeout", "asic", "0", "(0.1, 10080] min")):
            err = self.refused(opt, mode, opt, bad)
            self.assertIn(bad, err)
            self.assertIn(rng, err, f"{opt} {bad}: no range in {err!r}")

    def test_uncertainty_at_least_the_period(self):
        err = self.refused("--uncertainty", "asic", "--period", "2", "--uncertainty", "2")
        self.assertIn("[0, 2) ns", err)

    def test_recorded_period_that_is_not_finite(self):
        import json
        lim = Path(self.tmp.name) / "limits.json"
        lim.write_text(json.dumps({"configs": {"dsh_4x4": {"asic": {"period_ns": float("inf")}}}}))
        err = self.refused("--period", "asic", "--period", "recorded", "--limits", str(lim))
        self.assertIn("recorded for dsh_4x4", err)

    def test_cell_width_too_narrow_for_the_slices(self):
        """ReadSlices copies must fit CellW: refused at once, not after
        Yosys has read the sources. The RTL's default (dsh_pkg::read_slices:
        one slice a bit, at most 20) fits any CellW; an RTL whose default is
        a constant (an older snapshot, --manifest) is held to it."""
        self.refused("--read-slices", "asic", "--cell-w", "8", "--read-slices", "9")
        # with slices that fit it is accepted (and gets as far as the tools)
        rc, err = self.call("asic", "--cell-w", "8", "--size-w", "4", "--read-slices", "8")
        self.assertEqual(rc, 3, err)
        rc, err = self.call("asic", "--cell-w", "8", "--size-w", "4")
        self.assertEqual(rc, 3, err)
        old = Path(self.tmp.name) / "old"
        old.mkdir()
        (old / "dsh_pkg.sv").write_text("package dsh_pkg;\n  localparam int unsigned ReadSlices  = 10;\n"
                                        "endpackage\n")
        (old / "dsh_mmu.f").write_text("dsh_pkg.sv\n")
        err = self.refused("--cell-w", "asic", "--cell-w", "8", "--manifest", str(old / "dsh_mmu.f"))
        self.assertIn("ReadSlices 10", err)

    def test_seeds(self):
        self.refused("--seeds", "asic", "--seeds", "0")
        self.refused("--seeds", "report", "--seeds", "17")
        self.refused("--seeds", "generic", "--seeds", "3")
        self.refused("--seeds", "fpga", "--seeds", "2")
        err = self.refused("--seeds", "asic", "--seeds", "3", "--abc-script", "yosys")
        self.assertIn("--abc-script delay", err)

    def test_power_and_family_options(self):
        self.refused("--power", "fpga", "--power")
        self.refused("--power-cycles", "asic", "--power", "--power-cycles", "50")
        err = self.refused("--power-window", "asic", "--power", "--power-cycles", "1000",
                           "--power-window", "2000")
        self.assertIn("10..1000", err)
        self.refused("--power-seed", "asic", "--power", "--power-seed", "-1")
        self.refused("--power-sim", "asic", "--power", "--power-sim", "/nonexistent/dsh-run")
        self.refused("--family", "asic", "--family", "xilinx")
        self.refused("--families", "asic", "--families", "xilinx")
        self.refused("--families", "report", "--families", "altera")
        self.refused("--family", "fpga", "--family", "altera")

    def test_missing_files(self):
        missing = str(Path(self.tmp.name) / "none")
        self.refused("--manifest", "generic", "--manifest", missing)
        self.refused("--liberty", "asic", "--liberty", missing)
        bad = Path(self.tmp.name) / "bad.json"
        bad.write_text("{not json")
        self.refused("--limits", "generic", "--limits", str(bad))

    def test_period_recorded_without_a_record(self):
        empty = Path(self.tmp.name) / "limits.json"
        empty.write_text("{}")
        self.refused("--period", "asic", "--period", "recorded", "--limits", str(empty))

    def test_good_values_get_as_far_as_the_tools(self):
        # the control: valid arguments pass validation and stop at the missing yosys
        for argv in (["generic"], ["asic", "--ports", "1024", "--queues", "64", "--size-w", "20"],
                     ["fpga", "--latency", "1"], ["report", "--configs", "2x2"]):
            rc, err = self.call(*argv)
            self.assertEqual(rc, 3, f"{argv}: exit {rc}, stderr {err!r}")
            self.assertIn("'yosys' not found on PATH", err)

    def test_empty_configs_is_not_the_full_sweep(self):
        for empty in ("", "  "):
            err = self.refused("--configs", "report", "--configs", empty)
            self.assertEqual(err, "synth.py: error: --configs '': expected a list PxQ[,PxQ...], "
                             "e.g. 32x7,8x8 (without --configs: the full sweep)\n")

    def test_configs_only_in_the_report_mode(self):
        err = self.refused("--configs", "generic", "--configs", "2x2")
        self.assertEqual(err, "synth.py: error: --configs is for the report mode, not generic\n")

    def test_jobs_out_of_range(self):
        for n in ("300", "18446744073709551616"):
            err = self.refused("--jobs", "report", "--jobs", n)
            self.assertEqual(err, f"synth.py: error: --jobs {n} is out of range 1..256\n")
        rc, err = self.call("report", "--configs", "2x2", "--jobs", "256")
        self.assertEqual(rc, 3, err)  # the limit itself is accepted

    def test_out_that_is_a_file(self):
        f = Path(self.tmp.name) / "cfg.toml"
        f.write_text("n_ports = 2\n")
        for mode in ("generic", "report"):
            err = self.refused("--out", mode, "--out", str(f), out=False)
            self.assertEqual(err, f"synth.py: error: --out {f}: {f} exists and is not a directory\n")
        err = self.refused("--out", "generic", "--out", str(f / "x"), out=False)
        self.assertEqual(err, f"synth.py: error: --out {f / 'x'}: {f} exists and is not a directory\n")
        self.assertEqual(f.read_text(), "n_ports = 2\n")
        # checked first, as in the other tools: before the configuration's own values
        err = self.refused("--out", "generic", "--ports", "0", "--out", str(f), out=False)
        self.assertNotIn("--ports", err)

    def test_default_out_is_checked_too(self):
        root = Path(self.tmp.name) / "root"
        root.mkdir()
        (root / "out").write_text("")
        want = root / "out" / "synth" / "generic" / "sih_2x2"
        with mock.patch.object(cli, "ROOT", root), \
                mock.patch.object(cli, "DEFAULT_LIBERTY", root / "pdk" / "none.lib"):
            err = self.refused("--out", "generic", "--ports", "2", "--queues", "2", "--scheme", "sih",
                               out=False)
        self.assertEqual(err, f"synth.py: error: --out {want}: {root / 'out'} exists and is not a "
                         "directory\n")

    def test_limits_that_does_not_exist(self):
        missing = Path(self.tmp.name) / "nope.json"
        err = self.refused("--limits", "generic", "--limits", str(missing))
        self.assertTrue(err.startswith(f"synth.py: error: --limits {missing}: no such file (without "
                                       "--limits: "), err)
        # --record-limits creates it: the arguments are good (as far as the tools)
        rc, err = self.call("generic", "--limits", str(missing), "--record-limits")
        self.assertEqual(rc, 3, err)
        self.assertFalse(missing.exists())
        # ... but not in a directory that does not exist
        nodir = Path(self.tmp.name) / "nodir" / "l.json"
        err = self.refused("--limits", "generic", "--limits", str(nodir), "--record-limits")
        self.assertEqual(err, f"synth.py: error: --limits {nodir}: directory {nodir.parent} "
                         "does not exist\n")

    def test_limits_that_is_a_directory(self):
        err = self.refused("--limits", "generic", "--limits", self.tmp.name)
        self.assertEqual(err, f"synth.py: error: --limits {self.tmp.name}: is a directory, "
                         "expected a JSON file\n")

    def test_an_explicit_liberty_is_checked_in_every_mode_that_uses_it(self):
        missing = str(Path(self.tmp.name) / "nope.lib")
        for mode in ("asic", "report"):
            err = self.refused("--liberty", mode, "--liberty", missing)
            self.assertEqual(err, f"synth.py: error: --liberty {missing}: no such file\n")

    def test_liberty_refused_where_the_flow_uses_none(self):
        lib = Path(self.tmp.name) / "cells.lib"
        lib.write_text("library (cells) { }\n")
        for mode in ("generic", "fpga"):
            for path in (str(lib), str(Path(self.tmp.name) / "nope.lib")):
                err = self.refused("--liberty", mode, "--liberty", path)
                self.assertEqual(err, f"synth.py: error: --liberty is for the asic and report modes, "
                                 f"not {mode} (its flow maps to no cell library)\n")

    def test_an_unforeseen_os_error_is_one_line_and_exit_3(self):
        for exc, line in ((PermissionError(13, "Permission denied", "/o/summary.json"),
                           "synth.py: error: /o/summary.json: Permission denied\n"),
                          (OSError(28, "No space left on device"),
                           "synth.py: error: No space left on device\n"),
                          (OSError("bare"), "synth.py: error: bare\n")):
            with mock.patch.object(cli, "run_main", side_effect=exc):
                rc, err = self.call("generic")
            self.assertEqual((rc, err), (3, line))


if __name__ == "__main__":
    sys.exit(unittest.main())
