# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the FPGA family tables (synth.families): cells counted by
kind from hand-made Yosys stat counts, and the smallest listed part that
holds a count, against the data-sheet figures written out here by hand
(synth/unit-families). No tool runs."""
import sys
import unittest

import synth_fixtures  # noqa: F401  (puts scripts/ on the path)
from synth import families, report
from synth.record import FpgaResult


class Counts(unittest.TestCase):
    def test_xilinx_kinds(self):
        types = {"LUT6": 100, "LUT2": 20, "INV": 5, "FDRE": 300, "FDCE": 10, "CARRY4": 7,
                 "RAMB18E1": 2, "RAM32M": 3, "SRL16E": 4, "DSP48E1": 1, "MUXF7": 9,
                 "BUFG": 1}
        c = families.count_cells("xilinx", types)
        self.assertEqual(c, {"lut": 125, "ff": 310, "bram": 2, "lutram": 7, "carry": 7,
                             "dsp": 1, "other": 10})
        # RAM32M takes a SLICEM's 4 LUTs, SRL16E one
        self.assertEqual(families.lutram_luts(types), 3 * 4 + 4)

    def test_intel(self):
        c = families.count_cells("intel", {"cycloneive_lcell_comb": 70, "dffeas": 30,
                                           "altsyncram": 6, "$mux": 5})
        self.assertEqual((c["lut"], c["ff"], c["bram"], c["other"]), (70, 30, 6, 5))

    def test_ice40_and_ecp5_and_gowin(self):
        self.assertEqual(families.count_cells("ice40", {"SB_LUT4": 9, "SB_DFFER": 3,
                                                        "SB_DFF": 2, "SB_CARRY": 4,
                                                        "SB_RAM40_4K": 1})["ff"], 5)
        c = families.count_cells("ecp5", {"LUT4": 50, "TRELLIS_FF": 40, "CCU2C": 6,
                                          "DP16KD": 2, "TRELLIS_DPR16X4": 3, "PFUMX": 8})
        self.assertEqual((c["lut"], c["ff"], c["carry"], c["bram"], c["lutram"], c["other"]),
                         (50, 40, 6, 2, 3, 8))
        # CCU2C: two LUT4s each; TRELLIS_DPR16X4: 4
        self.assertEqual(families.lutram_luts({"LUT4": 50, "CCU2C": 6, "TRELLIS_DPR16X4": 3}),
                         6 * 2 + 3 * 4)
        c = families.count_cells("gowin", {"LUT4": 10, "LUT1": 2, "DFFRE": 7, "ALU": 3,
                                           "SDPB": 1, "RAM16SDP4": 2, "MUX2_LUT5": 4})
        self.assertEqual((c["lut"], c["ff"], c["carry"], c["bram"], c["lutram"], c["other"]),
                         (12, 7, 3, 1, 2, 4))


class Parts(unittest.TestCase):
    def test_smallest_part(self):
        # XC7A35T: 20,800 LUTs, 41,600 FFs, 100 RAMB18, 90 DSP (DS180)
        self.assertEqual(families.smallest_part("xilinx", 20800, 41600, 100, 90)[0], "XC7A35T")
        self.assertEqual(families.smallest_part("xilinx", 20801, 10, 0, 0)[0], "XC7A50T")
        # Cyclone IV E: EP4CE6 has 30 M9K, EP4CE10 46
        self.assertEqual(families.smallest_part("intel", 100, 100, 31, 0)[0], "EP4CE10")
        # iCE40: 7,680 logic cells in the HX8K, the largest listed
        name, why = families.smallest_part("ice40", 7681, 10, 0, 0)
        self.assertIsNone(name)
        self.assertIn("larger than iCE40HX8K", why)

    def test_parts_listed_smallest_first(self):
        for fam, (src, parts) in families.PARTS.items():
            self.assertTrue(src)
            luts = [p.luts for p in parts]
            self.assertEqual(luts, sorted(luts), fam)

    def test_every_family_has_a_script_and_parts(self):
        self.assertEqual(set(families.FAMILIES), set(families.PARTS))
        self.assertEqual(families.FAMILIES["intel"][0], "synth_intel -family cycloneive")


class Summary(unittest.TestCase):
    def test_family_line(self):
        res = synth_fixtures.asic_result()
        res.asic, res.mode = None, "fpga"
        res.fpga = FpgaResult(device="xilinx", package="-", pins=0, lcs_available=0,
                              io_mode="out of context (no I/O buffers)", core_ios=0,
                              target_mhz=50.0, family="xilinx", luts=10, flops=5, brams=0,
                              lutrams=1, carries=2, dsps=0, other_cells=3, part="XC7A35T",
                              part_note="DS180")
        lines = report.summary_lines(res)
        self.assertIn("  fpga xilinx (out of context (no I/O buffers)): 10 LUTs, 5 flops, "
                      "0 block RAMs, 1 LUT RAMs, 2 carry, 0 DSP, 3 other cells; smallest part: "
                      "XC7A35T (DS180)", lines)
        self.assertEqual(report.family_row(res)["part"], "XC7A35T")


if __name__ == "__main__":
    sys.exit(unittest.main())
