# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the flow's output paths and writes (synth.files), of the
limits file's reader and writer (synth.checks), of the failing tool's
message (synth.yosys) and of the interrupt message (synth.tools), on
hand-written inputs. No tool runs (synth/unit-files)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import synth_fixtures
from synth import checks, files, report, tools, yosys
from synth.common import ToolError, UsageError
from synth.record import RunResult


def temporaries(d):
    """Files in d that look like write_atomically's temporaries."""
    return sorted(p.name for p in Path(d).iterdir() if p.name.startswith(".") and ".tmp" in p.name)


class Dirs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_out_dir_is_created(self):
        files.check_out_dir("--out", self.d / "a" / "b")
        self.assertTrue((self.d / "a" / "b").is_dir())
        files.check_out_dir("--out", self.d / "a" / "b")  # an existing one is fine

    def test_out_dir_that_is_a_file(self):
        f = self.d / "f.toml"
        f.write_text("x\n")
        with self.assertRaises(UsageError) as e:
            files.check_out_dir("--out", f)
        self.assertEqual(str(e.exception), f"--out {f}: {f} exists and is not a directory")
        self.assertEqual(f.read_text(), "x\n")

    def test_out_dir_under_a_file(self):
        f = self.d / "f.toml"
        f.write_text("x\n")
        with self.assertRaises(UsageError) as e:
            files.check_out_dir("--out", f / "x")
        self.assertEqual(str(e.exception), f"--out {f / 'x'}: {f} exists and is not a directory")

    def test_out_dir_empty(self):
        with self.assertRaises(UsageError) as e:
            files.check_out_dir("--out", "")
        self.assertEqual(str(e.exception), "--out '': expected a directory name")

    def test_out_file(self):
        files.check_out_file("--limits", self.d / "new.json")  # need not exist yet
        with self.assertRaises(UsageError) as e:
            files.check_out_file("--limits", self.d)
        self.assertEqual(str(e.exception), f"--limits {self.d}: is a directory, expected a file")
        missing = self.d / "nodir" / "l.json"
        with self.assertRaises(UsageError) as e:
            files.check_out_file("--limits", missing)
        self.assertEqual(str(e.exception),
                         f"--limits {missing}: directory {self.d / 'nodir'} does not exist")


class Atomic(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_writes_and_leaves_no_temporary(self):
        f = self.d / "summary.json"
        files.write_atomically(f, "one\n")
        self.assertEqual(f.read_text(), "one\n")
        self.assertEqual(temporaries(self.d), [])

    def test_replaces_by_renaming(self):
        # a reader that opened the old file keeps reading the old file whole:
        # the new text went to another file that was renamed over it
        f = self.d / "report.md"
        f.write_text("old text\n")
        ino = f.stat().st_ino
        with open(f) as reader:
            files.write_atomically(f, "new text\n")
            self.assertEqual(reader.read(), "old text\n")
        self.assertEqual(f.read_text(), "new text\n")
        self.assertNotEqual(f.stat().st_ino, ino)
        self.assertEqual(temporaries(self.d), [])

    def test_a_failed_write_keeps_the_old_file_and_no_temporary(self):
        f = self.d / "report.csv"
        f.write_text("old\n")
        with mock.patch.object(files.os, "replace", side_effect=OSError(28, "No space left on device")):
            with self.assertRaises(OSError):
                files.write_atomically(f, "new\n")
        self.assertEqual(f.read_text(), "old\n")
        self.assertEqual(temporaries(self.d), [])

    def test_summary_json_is_written_atomically(self):
        res = synth_fixtures.asic_result()
        f = self.d / "summary.json"
        with mock.patch.object(files.os, "replace", wraps=os.replace) as rep:
            res.write(f)
        rep.assert_called_once()
        self.assertEqual(RunResult.from_dict(json.loads(f.read_text())).to_dict(), res.to_dict())
        self.assertEqual(temporaries(self.d), [])

    def test_report_md_and_csv_are_written_atomically(self):
        (self.d / "report.md").write_text("old\n")
        results = [synth_fixtures.asic_result(4, 4, s) for s in ("sih", "dsh")]
        ctx = report.ReportContext(cell_w=20, size_w=8, cnt_w=32, latency=2, period=4.0,
                                   input_delay=0.2, output_delay=0.2, yosys_version="Yosys 0.23",
                                   sta_version="2.0.17", rtl=results[0].rtl, date="2026-01-01")
        with mock.patch.object(files.os, "replace", wraps=os.replace) as rep:
            report.write_report(results, self.d, ctx, "asic")
        self.assertEqual(sorted(Path(c.args[1]).name for c in rep.call_args_list),
                         ["report.csv", "report.md"])
        self.assertTrue((self.d / "report.md").read_text().startswith("# dsh_mmu synthesis sweep"))
        # the CSV keeps csv's own line ends (\r\n), as when written to a file opened with newline=""
        self.assertTrue((self.d / "report.csv").read_bytes().startswith(b"config,scheme,"))
        self.assertIn(b"\r\n", (self.d / "report.csv").read_bytes())
        self.assertEqual(temporaries(self.d), [])


class Limits(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_missing_file_is_empty(self):
        self.assertEqual(checks.load_limits(self.d / "none.json"), {})

    def test_directory_is_refused(self):
        with self.assertRaises(UsageError) as e:
            checks.load_limits(self.d)
        self.assertEqual(str(e.exception), f"--limits {self.d}: is a directory, expected a JSON file")

    def test_unreadable_is_refused(self):
        f = self.d / "l.json"
        f.write_text("{}")
        with mock.patch.object(checks.Path, "read_text", side_effect=PermissionError(13, "Permission denied")):
            with self.assertRaises(UsageError) as e:
                checks.load_limits(f)
        self.assertEqual(str(e.exception), f"--limits {f}: cannot read it: Permission denied")

    def test_record_limits_writes_atomically(self):
        f = self.d / "limits.json"
        f.write_text('{"configs": {"sih_2x2": {}}}\n')
        with mock.patch.object(files.os, "replace", wraps=os.replace) as rep, \
                mock.patch.object(checks, "say"):
            checks.record_limits(synth_fixtures.asic_result(), f, 0.1)
        rep.assert_called_once()
        data = json.loads(f.read_text())
        self.assertEqual(sorted(data["configs"]), ["dsh_4x4", "sih_2x2"])
        self.assertEqual(temporaries(self.d), [])


class FailingTool(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.d = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def run_failing_yosys(self, log_text):
        (self.d / "yosys.log").write_text(log_text)
        res = synth_fixtures.asic_result()
        with mock.patch.object(yosys, "need_tool"), \
                mock.patch.object(yosys, "tool_version", return_value="Yosys 0.0"), \
                mock.patch.object(yosys, "run_tool", return_value=(1, 2.0)):
            with self.assertRaises(ToolError) as e:
                yosys.run_yosys(["stat"], self.d, res)
        return str(e.exception)

    def test_the_log_is_named_with_the_errors(self):
        msg = self.run_failing_yosys("-- Running command `stat' --\nERROR: no such pass\n")
        self.assertEqual(msg, f"yosys failed (exit 1) after 2s: ERROR: no such pass "
                         f"(log {self.d / 'yosys.log'})")

    def test_the_log_is_named_without_errors(self):
        msg = self.run_failing_yosys("killed\n")
        self.assertEqual(msg, f"yosys failed (exit 1) after 2s: see {self.d / 'yosys.log'}")


class Timeout(unittest.TestCase):
    """Every tool runs under a limit; a timeout names the tool and the limit."""

    def test_a_tool_over_its_limit_is_stopped_and_named(self):
        with tempfile.TemporaryDirectory() as d:
            t0 = __import__("time").monotonic()
            with self.assertRaises(ToolError) as e:
                tools.run_tool(["sleep", "30"], Path(d) / "sleep.log", d, timeout=0.3)
            self.assertLess(__import__("time").monotonic() - t0, 10)
            self.assertIn("killed after 0.3 s", (Path(d) / "sleep.log").read_text())
        self.assertTrue(str(e.exception).startswith(
            "sleep timed out: stopped after the limit of 0.005 min (--timeout)"), str(e.exception))

    def test_a_tool_within_its_limit_runs(self):
        with tempfile.TemporaryDirectory() as d:
            rc, _ = tools.run_tool(["true"], Path(d) / "true.log", d, timeout=30)
        self.assertEqual(rc, 0)


class Interrupt(unittest.TestCase):
    def test_sigterm_says_what_was_stopped(self):
        prog = ("import os, signal, sys; sys.path.insert(0, sys.argv[1]); from synth import tools; "
                "signal.signal(signal.SIGTERM, tools.on_signal); os.kill(os.getpid(), signal.SIGTERM); "
                "print('not reached')")
        p = subprocess.run([sys.executable, "-c", prog, str(synth_fixtures.SCRIPTS)],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 128 + 15, p.stderr)
        self.assertEqual(p.stdout, "")
        self.assertEqual(p.stderr, "\nsynth.py: interrupted; the running tools were stopped; configurations "
                         "that finished keep their summary.json, no report.md/report.csv was written\n")


if __name__ == "__main__":
    sys.exit(unittest.main())
