# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the Yosys scripts the flow writes and of its readers of
Yosys reports (synth.yosys), on hand-written reports. No tool runs
(synth/unit-yosys)."""
import sys
import tempfile
import unittest
from pathlib import Path

import synth_fixtures  # noqa: F401  (puts scripts/ on the path)
from synth import yosys
from synth.config import Config

FILES = [Path("/r/rtl/a.sv"), Path("/r/rtl/dsh_mmu.sv")]
OUT = Path("/o/dsh_4x4")


def index(lines, prefix):
    """Position of the first line starting with prefix (fails the test if none)."""
    for i, ln in enumerate(lines):
        if ln.startswith(prefix):
            return i
    raise AssertionError(f"no line starting with {prefix!r} in {lines}")


class Scripts(unittest.TestCase):
    def test_front_elaborates_with_every_parameter(self):
        lines = yosys.front(FILES, Config(4, 4, "dsh"))
        self.assertEqual(lines[0], "read_verilog -defer -sv -I/r/rtl /r/rtl/a.sv /r/rtl/dsh_mmu.sv")
        self.assertEqual(lines[1], "hierarchy -check -top dsh_mmu -chparam NumPorts 4 "
                         "-chparam NumQueues 4 -chparam CellW 20 -chparam SizeW 8 "
                         "-chparam CntW 32 -chparam Dsh 1 -chparam ThreshLatency 2")

    def test_sih_and_non_default_widths(self):
        h = yosys.front(FILES, Config(32, 7, "sih", cell_w=16, latency=3))[1]
        for p in ("NumPorts 32", "NumQueues 7", "CellW 16", "Dsh 0", "ThreshLatency 3"):
            self.assertIn(f"-chparam {p}", h)

    def test_generic_steps_in_order(self):
        lines = yosys.generic_script(FILES, Config(4, 4, "dsh"), OUT)
        order = [index(lines, s) for s in (
            "hierarchy ", "synth -flatten -top dsh_mmu -run begin:fine",
            "synth -flatten -top dsh_mmu -run fine:check", "rename -wire",
            "tee -q -o /o/dsh_4x4/stat_generic.txt stat",
            "tee -q -o /o/dsh_4x4/stat_cmos.txt stat -tech cmos",
            "tee -q -o /o/dsh_4x4/check.txt check", "tee -q -o /o/dsh_4x4/ltp.txt ltp -noff")]
        self.assertEqual(order, sorted(order))
        stamps = [ln.split()[1] for ln in lines if ln.startswith("!echo")]
        self.assertEqual(stamps, ["elaborate", "synth_coarse", "synth_fine", "generic_reports"])

    def test_asic_tail(self):
        tail = yosys.asic_tail(OUT, "/c/lib.lib", 4.0, ("buf_1", "A", "X"),
                               ("conb_1", "HI"), ("conb_1", "LO"), OUT / "abc.script")
        text = "\n".join(tail)
        self.assertLess(index(tail, "dfflibmap -liberty /c/lib.lib"), index(tail, "abc "))
        self.assertIn("abc -D 4000 -liberty /c/lib.lib -constr /o/dsh_4x4/abc.constr "
                      "-script /o/dsh_4x4/abc.script", text)
        self.assertIn("hilomap -singleton -hicell conb_1 HI -locell conb_1 LO", text)
        self.assertIn("insbuf -buf buf_1 A X", text)
        self.assertIn("tee -q -o /o/dsh_4x4/stat_liberty.txt stat -liberty /c/lib.lib", text)
        self.assertRegex(text, r"write_verilog .* /o/dsh_4x4/netlist\.v")
        # Yosys's own ABC script, no tie cells
        tail = yosys.asic_tail(OUT, "/c/lib.lib", 4.6, ("buf_1", "A", "X"))
        self.assertFalse(any("-script" in ln or ln.startswith("hilomap") for ln in tail))
        self.assertIn("abc -D 4600 ", "\n".join(tail))

    def test_seeds_permute_the_network_first(self):
        self.assertEqual(yosys.abc_script_text("delay"), yosys.ABC_SCRIPTS["delay"])
        self.assertEqual(yosys.abc_script_text("delay", 0), yosys.ABC_SCRIPTS["delay"])
        s3 = yosys.abc_script_text("delay", 3)
        self.assertTrue(s3.startswith("strash; permute -S 3; &get -n;"), s3)
        self.assertEqual(s3.replace(" permute -S 3;", ""), yosys.ABC_SCRIPTS["delay"])
        self.assertIsNone(yosys.abc_script_text("yosys", 2))

    def test_asic_tail_with_seeds(self):
        tail = yosys.asic_tail(OUT, "/c/lib.lib", 4.0, ("buf_1", "A", "X"),
                               ("conb_1", "HI"), ("conb_1", "LO"), OUT / "abc.script", seeds=3)
        # saved once after the flops are mapped, loaded before each other seed
        self.assertLess(index(tail, "dfflibmap"), index(tail, "design -save dsh_before_abc"))
        self.assertLess(index(tail, "design -save"), index(tail, "abc "))
        self.assertEqual(sum(ln == "design -load dsh_before_abc" for ln in tail), 2)
        text = "\n".join(tail)
        for k in (1, 2):
            self.assertIn(f"-script /o/dsh_4x4/abc_s{k}.script", text)
            self.assertIn(f"tee -q -o /o/dsh_4x4/stat_liberty_s{k}.txt stat -liberty", text)
            self.assertRegex(text, rf"write_verilog .* /o/dsh_4x4/netlist_s{k}\.v")
        # seed 0 is mapped first, into the files a run of one seed writes
        self.assertLess(index(tail, "write_verilog -noattr -noexpr -nohex -nodec /o/dsh_4x4/netlist.v"),
                        index(tail, "design -load"))
        stamps = [ln.split()[1] for ln in tail if ln.startswith("!echo")]
        self.assertEqual(stamps, ["dfflibmap", "abc", "write_netlist", "abc_s1", "write_netlist_s1",
                                  "abc_s2", "write_netlist_s2"])
        # one seed: nothing saved
        one = yosys.asic_tail(OUT, "/c/lib.lib", 4.0, ("buf_1", "A", "X"))
        self.assertFalse(any(ln.startswith("design ") for ln in one))

    def test_stats_zero_is_a_chparam_and_a_name(self):
        cfg = Config(4, 4, "dsh", stats=0)
        self.assertEqual(cfg.name, "dsh_4x4_nostats")
        self.assertTrue(yosys.front(FILES, cfg)[1].endswith(" -chparam Stats 0"))
        # the default (1) is left to the RTL, as the other defaults
        self.assertNotIn("Stats", yosys.front(FILES, Config(4, 4, "dsh"))[1])

    def test_kept_blocks_selected_by_their_cell_names(self):
        # a cell of a generate block is named after it in its module
        self.assertEqual(yosys.cell_name("u_stage_exec.u_thresh_pipe*"), "u_thresh_pipe*")
        self.assertEqual(yosys.cell_name("gen_stats.u_stats*"), "gen_stats.u_stats*")
        self.assertEqual(yosys.cell_name("u_a.gen_b.gen_c.u_d"), "gen_b.gen_c.u_d")
        self.assertEqual(yosys.cell_name("u_store*"), "u_store*")
        lines = yosys.generic_script(FILES, Config(4, 4, "dsh"), OUT,
                                     keep=("u_stage_exec.u_thresh_pipe*", "gen_stats.u_stats*"))
        self.assertIn("setattr -set keep_hierarchy 1 */u_thresh_pipe*", lines)
        self.assertIn("setattr -set keep_hierarchy 1 */gen_stats.u_stats*", lines)

    def test_paths_with_blanks_are_refused(self):
        from synth.common import UsageError
        with self.assertRaises(UsageError):
            yosys.generic_script(FILES, Config(4, 4, "dsh"), Path("/o/my dir"))


STAT = """\
=== sub ===
   Number of cells:                 3
     $_AND_                          3

=== dsh_mmu ===

   Number of wires:              19109
   Number of cells:                 12
     $_ANDNOT_                       4
     $_DFFE_PN0P_                    2
     $_DFF_P_                        3
     $_DLATCH_P_                     1
     $_MUX_                          2

   Estimated number of transistors:        184+
"""


class Readers(unittest.TestCase):
    def test_parse_stat_takes_the_last_module(self):
        st = yosys.parse_stat_text(STAT)
        self.assertEqual(st.cells, 12)
        self.assertEqual(st.types["$_DFF_P_"], 3)
        self.assertNotIn("$_AND_", st.types)
        self.assertEqual((st.transistors, st.transistors_partial), (184, True))
        lib = yosys.parse_stat_text("   Number of cells: 2\n     x_1  2\n\n"
                                    "   Chip area for module '\\dsh_mmu': 212809.100800\n")
        self.assertEqual(lib.area, 212809.1008)

    def test_collect_generic(self):
        with tempfile.TemporaryDirectory() as d:
            o = Path(d)
            (o / "stat_generic.txt").write_text(STAT)
            (o / "stat_cmos.txt").write_text(STAT)
            (o / "yosys.log").write_text("Latch inferred for signal `\\dsh_mmu.\\x_q' from process\n")
            (o / "check.txt").write_text("Warning: wire x is used but has no driver.\n"
                                         "Found and reported 1 problems.\n")
            (o / "ltp.txt").write_text("Longest topological path in dsh_mmu (length=32):\n")
            g = yosys.collect_generic(o)
        self.assertEqual((g.cells, g.flops, g.latch_cells, g.comb_cells), (12, 5, 1, 6))
        # flops: 24 transistors, +12 for an enable, +4 for a reset
        self.assertEqual(g.transistors_flops, 2 * (24 + 12 + 4) + 3 * 24)
        self.assertEqual(g.transistors, 184 + g.transistors_flops)
        self.assertEqual(g.logic_depth, 32)
        self.assertEqual(g.latch_signals, ["\\dsh_mmu.\\x_q"])
        self.assertEqual(g.check_problems, 1)
        self.assertEqual(len(g.check_messages), 1)

    def test_read_stamps(self):
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / "stamps.txt"
            f.write_text("elaborate 100.5\nsynth_coarse 103.0\n")
            self.assertEqual(yosys.read_stamps(f, 100.0),
                             {"yosys.elaborate": 0.5, "yosys.synth_coarse": 2.5})

    def test_parse_portlist(self):
        ins, outs = yosys.parse_portlist("module dsh_mmu\n  input clk_i\n  input rst_ni\n"
                                         "  input [19:0] cfg_x_i\n  input v_i\n"
                                         "  output [0:3] q_o\n")
        self.assertEqual(ins, [("cfg_x_i", 20), ("v_i", 1)])
        self.assertEqual(outs, [("q_o", 4)])


if __name__ == "__main__":
    sys.exit(unittest.main())
