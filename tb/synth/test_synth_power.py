# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the power flow's parts (synth.activity, synth.power): the
toggle counter on a small hand-made VCD whose counts are worked out by hand
below, the report_power readers on OpenSTA's table layout, the block of a
cell, the RTL net of a flop. No tool runs (synth/unit-power)."""
import sys
import unittest

import synth_fixtures  # noqa: F401  (puts scripts/ on the path)
from synth import activity, power

# clk_i: rising edges at 5, 15, 25, 35, 45 (period 10). With skip_cycles=1
# and max_cycles=3 the window is [15, 45): 3 cycles, 30 time units.
VCD = """\
$timescale 1ps $end
$scope module tb $end
$var wire 1 ! clk_i $end
$var wire 1 % tb_only $end
$scope module dsh_mmu $end
$var wire 1 ! clk_i $end
$var wire 1 " en_i $end
$var wire 4 # cnt_q [3:0] $end
$scope module u_stats $end
$var logic 2 $ mem_q[1] [1:0] $end
$upscope $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
0"
0%
b0000 #
b00 $
$end
#5
1!
#6
1"
b0001 #
1%
#10
0!
#15
1!
#16
b0010 #
b01 $
0%
#20
0!
#25
1!
#26
b0011 #
0"
#30
0!
#35
1!
#36
bx1x0 #
#40
0!
#45
1!
#46
b1111 #
#50
0!
#55
1!
"""


class Toggles(unittest.TestCase):
    def setUp(self):
        self.a = activity.read_vcd(VCD.splitlines(), skip_cycles=1, max_cycles=3)

    def test_window(self):
        self.assertEqual(self.a.cycles, 3)
        self.assertEqual(self.a.window, (15, 45))

    def test_counter_bits(self):
        # cnt_q[0]: 1 at 15; 1->0 at 16, 0->1 at 26, 1->0 at 36 (x1x0): 3 toggles,
        # high [15,16) + [26,36) = 11 of 30.
        b = self.a.bits
        self.assertEqual((b["cnt_q[0]"].toggles, b["cnt_q[0]"].high_ps), (3, 11))
        # cnt_q[1]: 0->1 at 16, x (as 0) at 36: 2 toggles, high [16,36) = 20
        self.assertEqual((b["cnt_q[1]"].toggles, b["cnt_q[1]"].high_ps), (2, 20))
        # cnt_q[2]: 0->1 at 36: high [36,45) = 9; the change at 46 is after the window
        self.assertEqual((b["cnt_q[2]"].toggles, b["cnt_q[2]"].high_ps), (1, 9))
        self.assertEqual((b["cnt_q[3]"].toggles, b["cnt_q[3]"].high_ps), (0, 0))
        self.assertAlmostEqual(self.a.activity("cnt_q[0]"), 1.0)
        self.assertAlmostEqual(self.a.duty("cnt_q[1]"), 20 / 30)

    def test_one_bit_and_memory_word(self):
        b = self.a.bits
        # en_i: 1 from 6, 1->0 at 26: high [15,26) = 11
        self.assertEqual((b["en_i"].toggles, b["en_i"].high_ps), (1, 11))
        # u_stats.mem_q[1]: bit 0 0->1 at 16, high to the end of the window
        self.assertEqual((b["u_stats.mem_q[1][0]"].toggles, b["u_stats.mem_q[1][0]"].high_ps),
                         (1, 29))
        self.assertEqual(b["u_stats.mem_q[1][1]"].toggles, 0)

    def test_clock_two_edges_a_cycle(self):
        self.assertAlmostEqual(self.a.activity("clk_i"), 2.0)
        self.assertAlmostEqual(self.a.duty("clk_i"), 0.5)

    def test_signals_above_the_top_are_left_out(self):
        self.assertNotIn("tb_only", self.a.bits)

    def test_to_the_end_of_the_trace(self):
        a = activity.read_vcd(VCD.splitlines(), skip_cycles=1)
        self.assertEqual(a.cycles, 4)        # [15, 55): the trace's last time is 55
        self.assertEqual(a.bits["cnt_q[3]"].toggles, 1)  # the change at 46 counts now

    def test_too_few_edges(self):
        with self.assertRaises(ValueError):
            activity.read_vcd(VCD.splitlines(), skip_cycles=10)

    def test_bit_names(self):
        self.assertEqual(activity._bit_names("x_q [2:0]", 3),
                         [(2, "x_q[2]"), (1, "x_q[1]"), (0, "x_q[0]")])
        self.assertEqual(activity._bit_names("v [0:0]", 1), [(0, "v")])
        self.assertEqual(activity._bit_names("m(2) [1:0]", 2), [(1, "m[2][1]"), (0, "m[2][0]")])
        self.assertEqual(activity._bit_names("y [4:3]", 2), [(1, "y[4]"), (0, "y[3]")])


# report_power as OpenSTA 2.0.17 lays it out (numbers made up).
GROUPS = """\
Group                  Internal  Switching    Leakage      Total
                          Power      Power      Power      Power
----------------------------------------------------------------
Sequential             8.00e-02   2.00e-03   4.00e-08   8.20e-02  70.0%
Combinational          3.00e-02   5.00e-03   5.00e-08   3.50e-02  30.0%
Macro                  0.00e+00   0.00e+00   0.00e+00   0.00e+00   0.0%
Pad                    0.00e+00   0.00e+00   0.00e+00   0.00e+00   0.0%
----------------------------------------------------------------
Total                  1.10e-01   7.00e-03   9.00e-08   1.17e-01 100.0%
                          94.0%       6.0%       0.0%
"""
INSTANCES = """\
   Internal  Switching    Leakage      Total
      Power      Power      Power      Power
----------------------------------------------------------------
   1.00e-05   2.00e-06   1.00e-11   1.20e-05 gen_stats.u_stats/u_ppause.rd_q[26]$_DFF_P_
   3.00e-05   1.00e-06   2.00e-11   3.10e-05 gen_stats.u_stats/_123_
   5.00e-06   5.00e-07   1.00e-11   5.50e-06 u_store/_7_
   1.00e-06   0.00e+00   1.00e-11   1.00e-06 _99_
   2.00e-06   1.00e-06   1.00e-11   3.00e-06 u_stage_exec.u_thresh_pipe/_1_
"""


class ReportPower(unittest.TestCase):
    def test_groups(self):
        g = power.parse_power_groups(GROUPS)
        self.assertEqual(set(g), {"Sequential", "Combinational", "Macro", "Pad", "Total"})
        self.assertAlmostEqual(g["Total"].internal_w, 0.11)
        self.assertAlmostEqual(g["Total"].switching_w, 0.007)
        self.assertAlmostEqual(g["Total"].leakage_w, 9e-8)
        self.assertAlmostEqual(g["Sequential"].total_w, 0.08200004)

    def test_instances_summed_by_block(self):
        inst = power.parse_power_instances(INSTANCES)
        self.assertEqual(len(inst), 5)
        self.assertEqual(inst[0][0], "gen_stats.u_stats/u_ppause.rd_q[26]$_DFF_P_")
        b = power.sum_by_block(inst)
        self.assertAlmostEqual(b["statistics"].internal_w, 4e-5)
        self.assertAlmostEqual(b["statistics"].switching_w, 3e-6)
        self.assertAlmostEqual(b["records"].total_w, 5e-6 + 5e-7 + 1e-11, places=12)
        self.assertAlmostEqual(b["threshold pipeline"].internal_w, 2e-6)
        self.assertAlmostEqual(b[power.REST].internal_w, 1e-6)

    def test_block_of(self):
        # dsh_stats sits in dsh_mmu's generate block gen_stats (Stats = 1)
        self.assertEqual(power.block_of("gen_stats.u_stats.u_ppause.mem_q[3][0]"), "statistics")
        self.assertEqual(power.block_of("gen_stats.u_stats/_5_"), "statistics")
        self.assertEqual(power.block_of("u_rd_port.rp_q[1]"), power.REST)
        self.assertEqual(power.block_of("u_errors.err_cnt_q[0]"), power.REST)
        self.assertEqual(power.block_of("u_store/_5_"), "records")
        self.assertEqual(power.block_of("u_fwd.r_deq_q[1]"), power.REST)
        self.assertEqual(power.block_of("enq_valid_i"), power.REST)
        self.assertEqual(power.block_of("u_stage_exec.u_thresh_pipe/_7_"), "threshold pipeline")
        self.assertEqual(power.block_of("u_stage_exec.u_thresh_pipe.lim_q[3]"), "threshold pipeline")
        self.assertEqual(power.block_of("u_stage_exec.e_region_q[1]"), power.REST)

    def test_flop_net(self):
        self.assertEqual(power.flop_net("gen_stats.u_stats.u_ppause.rd_q[26]$_DFF_P_"),
                         "gen_stats.u_stats.u_ppause.rd_q[26]")
        self.assertEqual(power.flop_net("gen_stats.u_stats/g_q.u_q.w_q[31]$_DFF_PN0_"),
                         "gen_stats.u_stats.g_q.u_q.w_q[31]")
        self.assertEqual(power.flop_net("\\gen_stats.u_stats.u_ppause.mem_q[1] [0]$_DFFE_PP_"),
                         "gen_stats.u_stats.u_ppause.mem_q[1][0]")
        self.assertIsNone(power.flop_net("$auto$dff.cc:1$5$_DFF_P_"))
        self.assertIsNone(power.flop_net("_123_"))


class S1Workload(unittest.TestCase):
    def test_busiest_window(self):
        # ops per cycle: 10: 1, 11: 2, 12: 1; 100..104: 1 each; 500: 2.
        # Of equally busy windows the first wins (4 cycles: 10..13 and
        # 100..103 hold 4 each); 5 cycles: 100..104 hold 5, 10..14 only 4.
        import tempfile
        rows = ["# dsh-vectors 2 stimulus", "cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells",
                "10,,,,0,1,6", "11,0,1,6,1,1,6", "12,1,1,6,,,",
                "100,,,,0,1,6", "101,,,,0,1,6", "102,,,,0,1,6", "103,,,,0,1,6", "104,,,,0,1,6",
                "500,2,0,1,3,0,1"]
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
            f.write("\n".join(rows) + "\n")
        self.assertEqual(power.busiest_window(f.name, 4), (10, 4))
        self.assertEqual(power.busiest_window(f.name, 5), (100, 5))
        self.assertEqual(power.busiest_window(f.name, 3), (10, 4))
        self.assertEqual(power.busiest_window(f.name, 1), (11, 2))
        self.assertEqual(power.busiest_window(f.name, 1000), (10, 11))

    def test_workload_of(self):
        from synth.config import Config
        self.assertEqual(power.workload_of(Config(32, 7, "dsh"), "auto"), "s1")
        self.assertEqual(power.workload_of(Config(32, 7, "sih"), "auto"), "s1")
        self.assertEqual(power.workload_of(Config(4, 4, "dsh"), "auto"), "random")
        self.assertEqual(power.workload_of(Config(32, 7, "dsh", stats=0), "auto"), "random")
        self.assertEqual(power.workload_of(Config(32, 7, "dsh"), "random"), "random")
        with self.assertRaisesRegex(Exception, "S1's chip is ports 32, queues 7.*dsh_4x4"):
            power.workload_of(Config(4, 4, "dsh"), "s1")


NETLIST = """module \\$paramod$1\\dsh_rec_store (clk_i, a_i, q_o);
  input clk_i;
  input a_i;
  output q_o;
  wire _1_;
  sky130_fd_sc_hd__inv_1 _2_ (
    .A(a_i),
    .Y(_1_)
  );
  sky130_fd_sc_hd__dfxtp_1 \\q_q$_DFF_P_  (
    .CLK(clk_i),
    .D(_1_),
    .Q(q_o)
  );
endmodule
module dsh_mmu(clk_i, x_i, y_o);
  input clk_i;
  input x_i;
  output y_o;
  wire _5_;
  sky130_fd_sc_hd__buf_1 _6_ (
    .A(x_i),
    .X(_5_)
  );
  \\$paramod$1\\dsh_rec_store  u_store (
    .clk_i(clk_i),
    .a_i(_5_),
    .q_o(y_o)
  );
  assign _7_ = _5_;
endmodule
"""


class SplitRuns(unittest.TestCase):
    CELLS = {"sky130_fd_sc_hd__inv_1", "sky130_fd_sc_hd__dfxtp_1", "sky130_fd_sc_hd__buf_1"}

    def test_module_of(self):
        self.assertEqual(power.module_of(NETLIST, "u_store"), "\\$paramod$1\\dsh_rec_store")
        self.assertIsNone(power.module_of(NETLIST, "u_other"))

    def test_emptied_module_keeps_ports(self):
        t = power.emptied_module(NETLIST, power.module_of(NETLIST, "u_store"))
        rec = t[:t.index("endmodule")]
        self.assertIn("input a_i;", rec)
        self.assertIn("output q_o;", rec)
        self.assertNotIn("sky130", rec)
        self.assertIn("sky130_fd_sc_hd__buf_1 _6_", t)  # the top untouched

    def test_kept_blocks(self):
        # the records' instance is found as a block (its activity is applied
        # to its cells); the top's own cells are not blocks
        self.assertEqual(power.kept_blocks(NETLIST, self.CELLS), {"records": "u_store"})
        self.assertEqual(power.block_of("u_store"), "records")
        self.assertEqual(power.block_of("gen_stats.u_stats"), "statistics")

    def test_without_top_cells(self):
        t = power.without_top_cells(NETLIST, self.CELLS)
        top = t[t.index("module dsh_mmu("):]
        self.assertNotIn("sky130_fd_sc_hd__buf_1", top)
        self.assertNotIn("assign", top)
        self.assertIn("u_store (", top)
        self.assertIn("sky130_fd_sc_hd__dfxtp_1", t)  # the block untouched


if __name__ == "__main__":
    sys.exit(unittest.main())
