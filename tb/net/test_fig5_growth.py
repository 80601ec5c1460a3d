#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""fig5_growth.py (systemc/network/fig5_growth.py) on a hand-made study of
4 hosts at 100 Gb/s, windows 1 and 2 ms with a 1 ms drain, buffers 14 and
30 MiB, seeds 1 and 2, and three or four flows a run; every expected
figure is worked by hand below.

usage: test_fig5_growth.py FIG5_GROWTH_PY WORK_DIR   (needs numpy)"""

import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
import unittest

SCRIPT, WORK = sys.argv[1], sys.argv[2]
del sys.argv[1:]
T975_1 = 12.706  # Student's t, 97.5 %, 1 degree of freedom (2 seeds)

# (id, src, dst, size, start_us, {(buffer, seed): fct_us or None if unfinished}, delivered if unfinished)
A = (1, 0, 1, 50_000, 0.0, {(14, 1): 100, (14, 2): 300, (30, 1): 100, (30, 2): 300}, None)
B = (2, 0, 2, 2_000_000, 500.0, {(14, 1): None, (14, 2): None, (30, 1): 1000, (30, 2): 1000}, 1_000_000)
C = (3, 3, 2, 15_000_000, 0.0, {k: None for k in A[5]}, 12_400_000)
D = (4, 1, 0, 50_000, 1500.0, {k: 50 for k in A[5]}, None)
FLOWS = {1: [A, B, C], 2: [A, B, C, D]}


def interval(xs):
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    h = T975_1 * sd / math.sqrt(len(xs))
    return m, m - h, m + h


def write_study(root):
    shutil.rmtree(root, ignore_errors=True)
    for w, flows in FLOWS.items():
        d = os.path.join(root, f"w{w}")
        os.makedirs(os.path.join(d, "points"))
        with open(os.path.join(d, "summary.json"), "w") as f:
            json.dump({"duration_ms": w, "drain_ms": 1, "topology": {"hosts": 4}}, f)
        with open(os.path.join(d, "flows.csv"), "w", newline="") as f:
            out = csv.writer(f)
            out.writerow("scheme,cc,workload,buffer_mb,load,seed,id,src,dst,class,kind,size,start_us,"
                         "fct_us,ideal_fct_us,slowdown,finished,delivered".split(","))
            for (b, s) in sorted(A[5]):
                for fid, src, dst, size, start, fcts, part in flows:
                    fct = fcts[(b, s)]
                    out.writerow(["sih", "powertcp", "websearch", b, 0.9, s, fid, src, dst, 1, "background", size,
                                  start, "" if fct is None else fct, "", "", 0 if fct is None else 1,
                                  part if fct is None else size])
                with open(os.path.join(d, "points", f"b{b}s{s}.json"), "w") as p:
                    json.dump({"params": {"link.rate_gbps": "100", "bench.size_buckets": "100000,1000000,10000000"},
                               "metrics": {"buffer_mb": b, "pause_frames": 10 if b == 14 else 0, "cpu_s": 1.5}}, p)


class Fig5Growth(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        root = os.path.join(WORK, "study")
        write_study(root)
        p = subprocess.run([sys.executable, SCRIPT, root], capture_output=True, text=True, timeout=60)
        cls.rc, cls.out, cls.err = p.returncode, p.stdout, p.stderr

    def line(self, pattern):
        m = re.search(pattern, self.out, re.M)
        self.assertIsNotNone(m, f"no line matching {pattern!r} in:\n{self.out}\n{self.err}")
        return m

    def nums(self, text):
        return [float(x) for x in re.findall(r"-?\d+\.?\d*", text)]

    def test_runs(self):
        self.assertEqual(self.rc, 0, self.err)

    def test_window_table(self):
        # 1 ms, 14 MiB: A 100 / 300 us, B unfinished at 2000 - 500 = 1500 us, C at 2000 us:
        # averages 1200 and 1266.67; offered 17.05 MB x 8 / (4 x 100 Gb/s x 1 ms) = 0.341;
        # 2 unfinished; undelivered 1 + 2.6 MB = 0.004 GB (to 3 decimals)
        n = self.nums(self.line(r"^\s+1 ms\s+14 MiB.*$").group(0))
        m, lo, hi = interval([1200, 3800 / 3])
        self.assertEqual(n[2:6], [3, 0.341, 2.0, 0.004])
        for got, want in zip(n[6:9], (m, lo, hi)):
            self.assertAlmostEqual(got, want, delta=0.051)
        # 30 MiB: B finishes (1000 us), 1 unfinished, 2.6 MB undelivered
        n = self.nums(self.line(r"^\s+1 ms\s+30 MiB.*$").group(0))
        self.assertEqual(n[4:6], [1.0, 0.003])
        self.assertAlmostEqual(n[6], (3100 / 3 + 1100) / 2, delta=0.051)

    def test_buckets(self):
        # 1 ms, 14 MiB: <100KB is A alone (100, 300 us), 1MB-10MB B (1500), >=10MB C (2000);
        # A's share of seed 1's sum 100/3600, seed 2's 300/3800
        text = self.line(r"^\s+1 ms\s+<100KB.*$").group(0)
        self.assertIn("<100KB:", text)
        self.assertIn("1MB-10MB:", text)
        self.assertIn(">=10MB:", text)
        small = self.nums(text.split("100KB-1MB")[0].split("<100KB:")[1])
        self.assertAlmostEqual(small[0], 200.0, delta=0.051)
        self.assertAlmostEqual(small[3], 100 * (100 / 3600 + 300 / 3800) / 2, delta=0.051)
        self.assertAlmostEqual(self.nums(text.split(">=10MB:")[1])[0], 2000.0, delta=0.051)

    def test_same_flows_and_in_flight(self):
        # 2 ms run, seed 1, 14 MiB: the flows starting in the first 1 ms are A, B, C, as in the 1 ms run;
        # B unfinished at 3000 - 500 = 2500 us, C at 3000 us: (100 + 2500 + 3000) / 3
        n = self.nums(self.line(r"^\s+2 ms: 3 flows \(the same as in 1 ms: True\).*$").group(0))
        self.assertAlmostEqual(n[-2], 5600 / 3, delta=0.051)
        self.assertEqual(n[-1], 2)
        # in flight at 1 ms: B and C (A done at 100 us); at 2 ms: B and C (D ran 1500-1550 us)
        self.assertEqual(self.nums(self.line(r"^seed\s+1 .*$").group(0)), [1, 2, 2])

    def test_host_overload(self):
        # 1 ms: a host's link carries 12.5 MB; sender 3 is offered 15 MB (1.2), receiver 2 17 MB (1.36):
        # 1 host of 4 each way
        n = self.nums(self.line(r"^\s+1 ms: senders.*$").group(0))
        self.assertEqual(n[1], 25.0)
        self.assertAlmostEqual(n[3], 1.2, delta=0.005)
        self.assertEqual(n[4], 25.0)
        self.assertAlmostEqual(n[6], 1.36, delta=0.005)

    def test_buffer_ratio(self):
        # 1 ms: seed 1 1200 / (3100/3) - 1, seed 2 (3800/3) / 1100 - 1, in %; 2 points a buffer, 1.5 CPU s each
        r1, r2 = 100 * (1200 / (3100 / 3) - 1), 100 * ((3800 / 3) / 1100 - 1)
        n = self.nums(self.line(r"^\s+1 ms: .*PAUSE.*$").group(0))
        for got, want in zip(n[1:4], interval([r1, r2])):
            self.assertAlmostEqual(got, want, delta=0.0051)
        self.assertEqual(n[4:], [10, 0, 4, 6.0])


if __name__ == "__main__":
    os.makedirs(WORK, exist_ok=True)
    unittest.main(verbosity=2)
