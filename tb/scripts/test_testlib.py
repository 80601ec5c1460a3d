#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""testlib.compare_dirs, the comparison the kernel test and
compare_outputs.py rely on: timing fields aside, every other difference is
reported (a changed value, a file on one side only, a binary file), and a
comparison can fail.

  test_testlib.py
"""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testlib  # noqa: E402


def write(root, files):
    for rel, data in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())


OUT = {
    "summary.json": json.dumps({"results": {"dsh": 37.5}, "wall_s": 1.2, "runs": [{"cpu_s": 3, "n": 1}]}),
    "sweep.csv": "scheme,wall_s,pct\ndsh,1.5,37.5\n",
    "summary.txt": "DSH 37.5 %\nwall 1.2 s, CPU 1.1 s\n",
    "points/a.json": json.dumps({"n": 1}),
    "plot.png": b"\x89PNG\x00\x01",
}


class CompareDirs(unittest.TestCase):
    def compare(self, change, skip_png=False):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            write(a, OUT)
            other = dict(OUT, **change)
            write(b, {k: v for k, v in other.items() if v is not None})
            return testlib.compare_dirs(a, b, skip_png=skip_png)

    def test_timing_fields_aside_the_same(self):
        self.assertEqual(self.compare({
            "summary.json": json.dumps({"results": {"dsh": 37.5}, "wall_s": 9.9, "runs": [{"cpu_s": 7, "n": 1}]}),
            "sweep.csv": "scheme,wall_s,pct\ndsh,8.0,37.5\n",
            "summary.txt": "DSH 37.5 %\nwall 8.0 s, CPU 7.9 s\n"}), [])

    def test_each_difference_reported(self):
        cases = {
            "a value in nested JSON": ({"points/a.json": json.dumps({"n": 2})}, "differs: points/a.json"),
            "a CSV cell": ({"sweep.csv": "scheme,wall_s,pct\ndsh,1.5,37.6\n"}, "differs: sweep.csv"),
            "a text line": ({"summary.txt": "DSH 37.6 %\nwall 1.2 s, CPU 1.1 s\n"}, "differs: summary.txt"),
            "a binary file": ({"plot.png": b"\x89PNG\x00\x02"}, "differs: plot.png (binary)"),
            "a file on one side": ({"points/a.json": None}, "only in"),
        }
        for what, (change, expect) in cases.items():
            diffs = self.compare(change)
            self.assertEqual(len(diffs), 1, f"{what}: {diffs}")
            self.assertIn(expect, diffs[0], what)

    def test_skip_png(self):
        self.assertEqual(self.compare({"plot.png": b"other"}, skip_png=True), [])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
