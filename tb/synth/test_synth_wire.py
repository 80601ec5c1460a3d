# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the wire mode (synth.wire): its configuration and limits,
the Yosys script of one top, the OpenSTA script's top, the N-port sum. No
tool runs (synth/unit-wire)."""
import contextlib
import io
import unittest
from pathlib import Path

import synth_fixtures  # noqa: F401  (puts scripts/ on the path)
from synth import cli, wire
from synth.common import UsageError

FILES = [Path("/r/rtl/dsh_pfc_tx.sv"), Path("/r/rtl/dsh_wire_port.sv")]
OUT = Path("/o/wire")


class Config(unittest.TestCase):
    def test_name_and_params(self):
        c = wire.WireConfig(32, 7)
        self.assertEqual(c.name, "wire_32x7")
        self.assertEqual(wire.WireConfig(2, 2, 8).name, "wire_2x2_sw8")
        self.assertEqual(c.params("dsh_wire_port"), {"NumQueues": 7, "StatW": 32})
        self.assertEqual(c.params("dsh_quanta_tick"), {})

    def test_limits_name_the_option(self):
        for cfg, opt in ((wire.WireConfig(4, 9), "--queues 9"), (wire.WireConfig(4, 0), "--queues 0"),
                         (wire.WireConfig(4, 7, 65), "--stat-w 65"),
                         (wire.WireConfig(0, 7), "--ports 0")):
            with self.assertRaisesRegex(UsageError, opt):
                wire.validate(cfg)
        wire.validate(wire.WireConfig(1, 8, 64))  # the largest accepted


class CommandLine(unittest.TestCase):
    def run_cli(self, *argv):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = cli.run(list(argv))
        return rc, err.getvalue()

    def test_bad_arguments_exit_2_before_any_tool(self):
        for argv, msg in ((["wire", "--queues", "9"], "--queues 9"),
                          (["wire", "--stat-w", "0"], "--stat-w 0"),
                          (["wire", "--check", "area"], "--check area"),
                          (["wire", "--period", "recorded"], "--period recorded"),
                          (["generic", "--stat-w", "16"], "--stat-w is for the wire mode")):
            rc, err = self.run_cli(*argv)
            self.assertEqual(rc, 2, argv)
            self.assertIn(msg, err)


class Scripts(unittest.TestCase):
    def test_yosys_script_elaborates_the_top_then_maps(self):
        lines = wire.yosys_script(FILES, wire.WireConfig(4, 3, 16), "dsh_wire_port", OUT,
                                  "/c/lib.lib", 4.0, ("buf_1", "A", "X"), None, None, None)
        self.assertEqual(lines[1], "hierarchy -check -top dsh_wire_port -chparam NumQueues 3 "
                         "-chparam StatW 16")
        self.assertIn("synth -flatten -top dsh_wire_port", lines)
        order = [next(i for i, ln in enumerate(lines) if ln.startswith(p)) for p in (
            "read_verilog", "hierarchy", "synth -flatten", "tee -q -o /o/wire/stat_generic.txt",
            "dfflibmap -liberty /c/lib.lib", "abc -D 4000", "write_verilog")]
        self.assertEqual(order, sorted(order))
        tick = wire.yosys_script(FILES, wire.WireConfig(4, 3), "dsh_quanta_tick", OUT,
                                 "/c/lib.lib", 4.0, ("buf_1", "A", "X"), None, None, None)
        self.assertEqual(tick[1], "hierarchy -check -top dsh_quanta_tick")

    def test_sta_links_the_top(self):
        lines = wire.sta_lines("dsh_wire_port", "/c/lib.lib", OUT / "netlist.v", 4.0, 0.2, 0.2,
                               0.0, "buf_2", 0.01, False)
        self.assertIn("link_design dsh_wire_port", lines)
        self.assertFalse([ln for ln in lines if ln == "link_design dsh_mmu"])


class Totals(unittest.TestCase):
    def test_ports_times_port_plus_one_tick(self):
        port = {"area_um2": 100.0, "flops": 40, "cells": 300, "fmax_mhz": 250.0}
        tick = {"area_um2": 10.5, "flops": 16, "cells": 20, "fmax_mhz": 400.0}
        t = wire.totals(wire.WireConfig(32, 7), port, tick)
        self.assertEqual(t["area_um2"], 3210.5)   # 32 x 100 + 10.5
        self.assertEqual(t["flops"], 1296)        # 32 x 40 + 16
        self.assertEqual(t["cells"], 9620)        # 32 x 300 + 20
        self.assertEqual(t["fmax_mhz"], 250.0)    # the slower top
        tick["fmax_mhz"] = 200.0
        self.assertEqual(wire.totals(wire.WireConfig(1, 1), port, tick)["fmax_mhz"], 200.0)


if __name__ == "__main__":
    unittest.main()
