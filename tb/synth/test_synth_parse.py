# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the flow's OpenSTA readers (synth.sta) and the check
verdicts (synth.checks). Hand-written inputs in OpenSTA's format and
hand-made result records; no tool runs. Standard library only (run by
CTest as synth/parse)."""
import sys
import unittest

import synth_fixtures as fx  # noqa: F401  (puts scripts/ on the path)
from synth import checks, sta
from synth.common import ToolError

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
        r = sta.parse_path(WRAPPED, 1.0)
        self.assertEqual(r.startpoint, "e_dw_q[7]$_DFF_PN0_")
        self.assertEqual(r.endpoint, "d_rec_q[59]$_DFF_P_")

    def test_slack_and_driver_stages(self):
        r = sta.parse_path(WRAPPED, 1.0)
        self.assertEqual(r.slack_ns, -0.25)
        # two driver lines (with a capacitance column): the flop's Q and the inverter
        self.assertEqual(r.stages, 2)
        self.assertEqual([c.cell for c in r.cells],
                         ["sky130_fd_sc_hd__dfrtp_1", "sky130_fd_sc_hd__inv_1"])
        self.assertEqual(r.cells[1].delay_ns, 0.07)

    def test_time_unit_scales(self):
        ps = WRAPPED.replace("-0.250   slack", "-250.000   slack")  # a library in ps
        self.assertEqual(sta.parse_path(ps, 1e-3).slack_ns, -0.25)

    def test_port_note_is_kept(self):
        r = sta.parse_path(PORT, 1.0)
        self.assertEqual(r.startpoint, "enq_valid_i (input port clocked by clk_i)")
        self.assertEqual(r.endpoint, "r_enq_v_q$_DFF_PN0_")
        self.assertEqual(r.slack_ns, 0.3)
        self.assertEqual(r.arrival_ns, 1.2)


# sta.log as the flow's sta.tcl makes OpenSTA print it (markers around figures).
STA_LOG = ("DSHSTA_BEGIN worst\n" + WRAPPED + "DSHSTA_END worst\n"
           "DSHSTA_BEGIN reg2reg\n" + WRAPPED + "DSHSTA_END reg2reg\n"
           "DSHSTA worst_slack -0.25\nDSHSTA tns -3.5\nDSHSTA hold_slack 0.12\n"
           "Warning: There are 3 unconstrained endpoints.\n")


class ParseStaLog(unittest.TestCase):
    def test_figures(self):
        r = sta.parse_sta_log(STA_LOG, 1.0, 4.0)
        self.assertEqual((r.worst_slack_ns, r.tns_ns, r.hold_slack_ns), (-0.25, -3.5, 0.12))
        self.assertFalse(r.timing_met)
        self.assertEqual(r.fmax_mhz, 235.3)          # 1000 / (4.0 + 0.25)
        self.assertEqual(r.reg2reg_fmax_mhz, 235.3)
        self.assertEqual(r.critical_path.endpoint, "d_rec_q[59]$_DFF_P_")
        self.assertEqual(r.unconstrained_endpoints, 3)

    def test_missing_slack_is_a_tool_failure(self):
        with self.assertRaises(ToolError):
            sta.parse_sta_log(STA_LOG.replace("DSHSTA worst_slack -0.25\n", ""), 1.0, 4.0,
                              "/nonexistent/sta.log")

    def test_script_sets_the_sdc_variables(self):
        tcl = "\n".join(sta.sta_script("/l.lib", "/o/netlist.v", 4000.0, 0.2, 0.3, 0.0,
                                       "buf_2", 0.0069, False))
        self.assertIn("set dsh_clock_period 4000\n", tcl)
        self.assertIn("set dsh_output_delay_frac 0.3\n", tcl)
        self.assertIn("set dsh_cfg_false_path 1\n", tcl)
        self.assertIn("link_design dsh_mmu", tcl)


LIMITS = {"configs": {"dsh_4x4": {"asic": {"library": "lib_a", "area_um2": 90.0,
                                            "area_limit_um2": 99.0}}}}


class Checks(unittest.TestCase):
    def verdict(self, res, check, limits=LIMITS):
        return checks.evaluate_checks(res, [check], limits)[check].status

    def test_timing(self):
        self.assertEqual(self.verdict(fx.asic_result(slack=0.0), "timing"), "pass")
        self.assertEqual(self.verdict(fx.asic_result(slack=-0.001), "timing"), "fail")

    def test_area_against_recorded_limit(self):
        self.assertEqual(self.verdict(fx.asic_result(area=99.0), "area"), "pass")
        self.assertEqual(self.verdict(fx.asic_result(area=99.5), "area"), "fail")

    def test_area_of_another_library_is_skipped(self):
        self.assertEqual(self.verdict(fx.asic_result(library="lib_b"), "area"), "skip")

    def test_latch_fails(self):
        res = fx.asic_result()
        res.generic.latch_cells, res.generic.latch_signals = 1, ["x_q"]
        self.assertEqual(self.verdict(res, "latch"), "fail")

    def test_yosys_check_fails(self):
        res = fx.asic_result()
        self.assertEqual(self.verdict(res, "yosys-check"), "pass")
        res.generic.check_problems = 2
        self.assertEqual(self.verdict(res, "yosys-check"), "fail")

    def test_failed_flow_fails_every_check(self):
        res = fx.asic_result()
        res.status, res.errors = "error", ["yosys: timed out"]
        for c in ("latch", "yosys-check", "timing", "area"):
            self.assertEqual(self.verdict(res, c), "fail")

    def test_exit_status(self):
        v = checks.evaluate_checks(fx.asic_result(library="lib_b"), ["timing", "area"], LIMITS)
        self.assertEqual(checks.exit_status(v), 77)           # area skipped
        v = checks.evaluate_checks(fx.asic_result(slack=-1, library="lib_b"),
                                   ["timing", "area"], LIMITS)
        self.assertEqual(checks.exit_status(v), 1)            # a failure wins over a skip

    def test_record_limits(self):
        import contextlib, io, json, tempfile
        from pathlib import Path
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / "limits.json"
            f.write_text(json.dumps(LIMITS))
            with contextlib.redirect_stdout(io.StringIO()):
                checks.record_limits(fx.asic_result(area=200.0, slack=-0.1), f, 0.1)
            rec = json.loads(f.read_text())["configs"]["dsh_4x4"]
        self.assertEqual(rec["asic"]["area_limit_um2"], 220.0)
        self.assertEqual(rec["asic"]["worst_slack_ns"], -0.1)
        self.assertEqual(rec["asic"]["period_ns"], 4.0)
        self.assertEqual(rec["generic"]["transistors_limit"], 1100)

    def test_parse_checks(self):
        self.assertIsNone(checks.parse_checks(None))
        self.assertEqual(checks.parse_checks("none"), [])
        self.assertEqual(checks.parse_checks("all"),
                         ["latch", "yosys-check", "timing", "constraints", "area"])
        # a bare --check (argparse's const 'ci'): what CI needs, not the area limit
        self.assertEqual(checks.parse_checks("ci"),
                         ["latch", "yosys-check", "timing", "constraints"])

    def test_constraints_verdict(self):
        res = fx.asic_result()
        v = checks.evaluate_checks(res, ["constraints"], {})["constraints"]
        self.assertEqual(v.status, "pass")
        res.asic.sta.constant_outputs = ["stat_pevt_pause_o[0]=0"]
        v = checks.evaluate_checks(res, ["constraints"], {})["constraints"]
        self.assertEqual((v.status, v.detail), ("pass", "check_setup clean (1 constant output(s): "
                                                        "stat_pevt_pause_o[0]=0)"))
        res.asic.sta.check_setup = ["1 unconstrained endpoint: stat_pevt_pause_o[1]"]
        v = checks.evaluate_checks(res, ["constraints"], {})["constraints"]
        self.assertEqual(v.status, "fail")
        self.assertIn("stat_pevt_pause_o[1]", v.detail)
        self.assertEqual(checks.exit_status({"constraints": v}), 1)
        res.asic = None
        self.assertEqual(checks.evaluate_checks(res, ["constraints"], {})["constraints"].status,
                         "skip")

    def test_violated_timing_fails_the_check(self):
        res = fx.asic_result(slack=-0.01)
        v = checks.evaluate_checks(res, checks.parse_checks("ci"), {})
        self.assertEqual(v["timing"].status, "fail")
        self.assertEqual(checks.exit_status(v), 1)


# check_setup -verbose as this OpenSTA (2.0.17) prints it on the 4x4 netlist
# under an SDC that leaves an input and the constant outputs unconstrained.
CHECK_SETUP = """DSHSTA constant_outputs stat_pevt_pause_o[0]=0,x_o[3]=1
DSHSTA_BEGIN check_setup
Warning: There is 1 input port missing set_input_delay.
  rst_ni
Warning: There are 11 unconstrained endpoints.
  a_o[0]
  a_o[1]
  a_o[2]
  a_o[3]
  a_o[4]
  a_o[5]
  a_o[6]
  a_o[7]
  a_o[8]
  a_o[9]
  a_o[10]
DSHSTA_END check_setup
"""


class CheckSetup(unittest.TestCase):
    def test_findings_one_line_each(self):
        self.assertEqual(sta.parse_check_setup(CHECK_SETUP), [
            "1 input port missing set_input_delay: rst_ni",
            "11 unconstrained endpoints: a_o[0], a_o[1], a_o[2], a_o[3], a_o[4], a_o[5], "
            "a_o[6], a_o[7] (+3 more)"])

    def test_clean(self):
        self.assertEqual(sta.parse_check_setup("DSHSTA_BEGIN check_setup\nDSHSTA_END check_setup\n"),
                         [])

    def test_in_a_whole_log(self):
        log = ("DSHSTA worst_slack 0.5\nDSHSTA tns 0\nDSHSTA hold_slack 0.1\n" + CHECK_SETUP)
        r = sta.parse_sta_log(log, 1.0, 4.0)
        self.assertEqual(r.constant_outputs, ["stat_pevt_pause_o[0]=0", "x_o[3]=1"])
        self.assertEqual(len(r.check_setup), 2)
        self.assertEqual(r.unconstrained_endpoints, 11)


class Seeds(unittest.TestCase):
    """Run.do_seeds times each extra seed's netlist and lists every seed,
    seed 0 (the run's own figures) first (OpenSTA stood in for by logs)."""

    def test_each_seed_timed_and_listed(self):
        import tempfile
        from pathlib import Path
        from types import SimpleNamespace
        from synth.config import Config, FlowOptions
        from synth.flow import Run
        calls = []

        def fake_sta(tcl, out, res, timeout_s=None, name="sta"):
            calls.append((name, [ln for ln in tcl if ln.startswith("read_verilog")][0]))
            slack = {"sta_s1": "-0.5", "sta_s2": "0.1"}[name]
            return STA_LOG.replace("DSHSTA worst_slack -0.25", f"DSHSTA worst_slack {slack}")

        with tempfile.TemporaryDirectory() as d:
            o = Path(d)
            for k, area in ((1, 101.5), (2, 99.5)):
                (o / f"stat_liberty_s{k}.txt").write_text(
                    f"   Number of cells:                805\n"
                    f"   Chip area for module '\\dsh_mmu': {area}\n")
            run = Run(Config(4, 4, "dsh"), "asic", o, FlowOptions(seeds=3),
                      lib=SimpleNamespace(path="/l.lib", time_unit_ns=1.0), quiet=True)
            run.res = fx.asic_result(fmax=240.0)
            orig, sta.run_sta = sta.run_sta, fake_sta
            try:
                run.do_seeds(4.0, "buf_2", 0.007)
            finally:
                sta.run_sta = orig
            worst = (o / "critical_path_worst_s2.txt").is_file()
        seeds = run.res.asic.seeds
        self.assertEqual([x.seed for x in seeds], [0, 1, 2])
        self.assertEqual([x.fmax_mhz for x in seeds], [240.0, 222.2, 256.4])
        self.assertEqual([x.area_um2 for x in seeds], [100.0, 101.5, 99.5])
        self.assertEqual(seeds[1].endpoint, "d_rec_q[59]$_DFF_P_")
        self.assertEqual([c[0] for c in calls], ["sta_s1", "sta_s2"])
        self.assertTrue(calls[1][1].endswith("netlist_s2.v}"), calls[1][1])
        self.assertTrue(worst)
        self.assertEqual(run.res.asic.fmax_spread(), (222.2, 240.0, 256.4))


if __name__ == "__main__":
    sys.exit(unittest.main())
