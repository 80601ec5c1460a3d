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

    def call(self, *argv):
        """(exit status, stderr) of scripts/synth.py argv."""
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                rc = cli.run(list(argv) + ["--out", str(Path(self.tmp.name) / "out")])
            except SystemExit as e:  # argparse's own errors
                rc = e.code
        return rc, err.getvalue()

    def refused(self, option, *argv):
        rc, err = self.call(*argv)
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


if __name__ == "__main__":
    sys.exit(unittest.main())
