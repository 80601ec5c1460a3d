#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""plot_net.py's S2 plot (systemc/network/plot_net.py): the y-axis ends at
1.05 x the link rate it is given (100 Gb/s when none), so that F0's curve at
any link rate stays on the chart; a rate that is not positive is refused.

usage: test_plot_net.py PLOT_NET_PY WORK_DIR   (needs matplotlib)"""

import importlib.util
import os
import subprocess
import sys
import unittest

PLOT, WORK = sys.argv[1], sys.argv[2]
del sys.argv[1:]


def load_plot():
    spec = importlib.util.spec_from_file_location("plot_net", PLOT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class S2Plot(unittest.TestCase):
    def setUp(self):
        os.makedirs(WORK, exist_ok=True)
        self.csv = os.path.join(WORK, "throughput.csv")
        # F0 at 380 Gb/s before the fan-in, 200 during: a 400 Gb/s link's curve.
        with open(self.csv, "w") as f:
            f.write("scheme,cc,t_us,f0_gbps,f1_gbps,fanin_gbps\n")
            for scheme in ("dsh", "sih"):
                for t, g in ((-20, 380.0), (-10, 380.0), (0, 200.0), (10, 200.0)):
                    f.write("%s,none,%.1f,%.3f,0,0\n" % (scheme, t, g))
        self.plot = load_plot()

    def top(self, *rate):
        png = os.path.join(WORK, "collateral.png")
        fig = self.plot.main(self.csv, png, *rate)
        self.assertGreater(os.path.getsize(png), 1000)
        return [ax.get_ylim()[1] for ax in fig.axes]

    def test_axis_ends_above_the_link_rate(self):
        self.assertEqual(self.top("400"), [420.0])   # 1.05 x 400
        self.assertEqual(self.top("25"), [26.25])    # 1.05 x 25
        self.assertEqual(self.top(), [105.0])        # 100 Gb/s without a rate

    def test_command_line(self):
        png = os.path.join(WORK, "cli.png")
        r = subprocess.run([sys.executable, PLOT, self.csv, png, "400"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(os.path.getsize(png), 1000)
        r = subprocess.run([sys.executable, PLOT, self.csv, png, "0"], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("link rate '0'", r.stderr)


if __name__ == "__main__":
    unittest.main()
