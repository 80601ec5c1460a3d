"""Unit tests of scripts/synth.py's readers: OpenSTA path reports and the
check verdicts. Hand-written inputs in OpenSTA's and the summary's formats;
no tool runs. Standard library only (run by CTest as synth/parse)."""
import importlib.util
import sys
import unittest
from pathlib import Path

SYNTH_PY = Path(__file__).resolve().parents[2] / "scripts" / "synth.py"
spec = importlib.util.spec_from_file_location("synth", SYNTH_PY)
synth = importlib.util.module_from_spec(spec)
spec.loader.exec_module(synth)

# A path whose long endpoint name pushes OpenSTA's note onto the next line.
WRAPPED = """\
Startpoint: e_dw_q[7]$_DFF_PN0_ (rising edge-triggered flip-flop clocked by clk_i)
Endpoint: d_rec_q[59]$_DFF_P_
          (rising edge-triggered flip-flop clocked by clk_i)
Path Group: clk_i
Path Type: max

     Cap     Slew    Delay     Time   Description
---------------------------------------------------------------------------
            0.000    0.000    0.000   clock clk_i (rise edge)
            0.000    0.000    0.000 ^ e_dw_q[7]$_DFF_PN0_/CLK (sky130_fd_sc_hd__dfrtp_1)
   0.003    0.042    0.350    0.350 ^ e_dw_q[7]$_DFF_PN0_/Q (sky130_fd_sc_hd__dfrtp_1)
            0.043    0.004    0.354 ^ _101_/A (sky130_fd_sc_hd__inv_1)
   0.004    0.060    0.070    0.424 v _101_/Y (sky130_fd_sc_hd__inv_1)
            0.060    0.002    0.426 v d_rec_q[59]$_DFF_P_/D (sky130_fd_sc_hd__dfxtp_1)
                              0.426   data arrival time

                              3.870   data required time
                             -4.120   data arrival time
---------------------------------------------------------------------------
                             -0.250   slack (VIOLATED)
"""

# An input-port path: the note says what the start is, and is kept.
PORT = """\
Startpoint: enq_valid_i (input port clocked by clk_i)
Endpoint: r_enq_v_q$_DFF_PN0_ (rising edge-triggered flip-flop clocked by clk_i)
Path Group: clk_i
Path Type: max
                              1.200   data arrival time
                              0.300   slack (MET)
"""


class ParsePath(unittest.TestCase):
    def test_wrapped_note_is_dropped_for_flops(self):
        r = synth.parse_path(WRAPPED, 1.0)
        self.assertEqual(r["startpoint"], "e_dw_q[7]$_DFF_PN0_")
        self.assertEqual(r["endpoint"], "d_rec_q[59]$_DFF_P_")

    def test_slack_and_driver_stages(self):
        r = synth.parse_path(WRAPPED, 1.0)
        self.assertEqual(r["slack_ns"], -0.25)
        # two driver lines (with a capacitance column): the flop's Q and the inverter
        self.assertEqual(r["stages"], 2)
        self.assertEqual([c["cell"] for c in r["cells"]],
                         ["sky130_fd_sc_hd__dfrtp_1", "sky130_fd_sc_hd__inv_1"])
        self.assertEqual(r["cells"][1]["delay_ns"], 0.07)

    def test_time_unit_scales(self):
        ps = WRAPPED.replace("-0.250   slack", "-250.000   slack")  # a library in ps
        self.assertEqual(synth.parse_path(ps, 1e-3)["slack_ns"], -0.25)

    def test_port_note_is_kept(self):
        r = synth.parse_path(PORT, 1.0)
        self.assertEqual(r["startpoint"], "enq_valid_i (input port clocked by clk_i)")
        self.assertEqual(r["endpoint"], "r_enq_v_q$_DFF_PN0_")
        self.assertEqual(r["slack_ns"], 0.3)
        self.assertEqual(r["arrival_ns"], 1.2)


def result(slack=0.1, area=100.0, library="lib_a"):
    return {"status": "ok", "errors": [], "config": {"name": "dsh_4x4"},
            "generic": {"latch_cells": 0, "latch_signals": [], "check_problems": 0,
                        "check_messages": [], "transistors": 1000},
            "asic": {"worst_slack_ns": slack, "period_ns": 4.0, "target_mhz": 250.0,
                     "fmax_mhz": 240.0, "area_um2": area, "library": library}}


LIMITS = {"configs": {"dsh_4x4": {"asic": {"library": "lib_a", "area_um2": 90.0,
                                            "area_limit_um2": 99.0}}}}


class Checks(unittest.TestCase):
    def verdict(self, res, check, limits=LIMITS):
        return synth.evaluate_checks(res, [check], limits)[check][0]

    def test_timing(self):
        self.assertEqual(self.verdict(result(slack=0.0), "timing"), "pass")
        self.assertEqual(self.verdict(result(slack=-0.001), "timing"), "fail")

    def test_area_against_recorded_limit(self):
        self.assertEqual(self.verdict(result(area=99.0), "area"), "pass")
        self.assertEqual(self.verdict(result(area=99.5), "area"), "fail")

    def test_area_of_another_library_is_skipped(self):
        self.assertEqual(self.verdict(result(library="lib_b"), "area"), "skip")

    def test_latch_fails(self):
        res = result()
        res["generic"].update(latch_cells=1, latch_signals=["x_q"])
        self.assertEqual(self.verdict(res, "latch"), "fail")

    def test_failed_flow_fails_every_check(self):
        res = result()
        res.update(status="error", errors=["yosys: timed out"])
        for c in ("latch", "yosys-check", "timing", "area"):
            self.assertEqual(self.verdict(res, c), "fail")


if __name__ == "__main__":
    sys.exit(unittest.main())
