# SPDX-License-Identifier: Apache-2.0
"""Unit tests of the Liberty reader and the filtered copy (synth.liberty),
on a small hand-written library. No tool runs (synth/unit-liberty)."""
import gzip
import json
import sys
import tempfile
import unittest
from pathlib import Path

import synth_fixtures  # noqa: F401  (puts scripts/ on the path)
from synth import liberty
from synth.common import ToolError

LIB = """\
/* a hand-written library: cell (fake_in_comment) { area : 99; } */
library ("tiny_lib") {
  time_unit : "1ps" ;
  capacitive_load_unit (1, pf) ;
  cell ("buf_1") {
    area : 3.0 ;
    pin ("A") { direction : input ; capacitance : 0.0015 ; }
    pin ("X") { direction : output ; function : "(A)" ;
      timing () { related_pin : "A" ; cell_rise (t) { values ("1, 2") ; } }
    }
  }
  cell (buf_2) {
    area : 5.0 ;
    pin (A) { direction : input ; capacitance : 0.0024 ; }
    pin (X) { direction : output ; function : "A" ; }
  }
  cell ("clkbuf_1") {
    area : 2.0 ;
    pin ("A") { direction : input ; capacitance : 0.002 ; }
    pin ("X") { direction : output ; function : "A" ; }
  }
  cell ("inv_1") {
    area : 2.5 ;
    pin ("A") { direction : input ; capacitance : 0.002 ; }
    pin ("Y") { direction : output ; function : "(!A)" ; }
  }
  cell ("and2_1") {
    area : 6.0 ;
    pin ("A") { direction : input ; }
    pin ("B") { direction : input ; }
    pin ("X") { direction : output ; function : "(A&B)" ; }
  }
  cell ("dfxtp_1") {
    area : 20.0 ;
    ff ("IQ", "IQN") { clocked_on : "CLK" ; next_state : "D" ; }
    pin ("CLK") { direction : input ; clock : true ; }
    pin ("D") { direction : input ; }
    pin ("Q") { direction : output ; function : "IQ" ; }
  }
  cell ("conb_1") {
    area : 3.5 ;
    pin ("HI") { direction : output ; function : "1" ; }
    pin ("LO") { direction : output ; function : "0" ; }
  }
  cell ("lpflow_isobuf_1") {
    area : 1.0 ;
    pin ("A") { direction : input ; }
    pin ("X") { direction : output ; function : "A" ; }
  }
}
"""


class Reader(unittest.TestCase):
    def setUp(self):
        self.lib = liberty.Liberty.from_text(LIB)

    def test_name_and_units(self):
        self.assertEqual(self.lib.name, "tiny_lib")
        self.assertAlmostEqual(self.lib.time_unit_ns, 1e-3)
        self.assertAlmostEqual(self.lib.cap_unit_ff, 1000.0)

    def test_cells_areas_pins(self):
        self.assertNotIn("fake_in_comment", self.lib.cells)
        self.assertEqual(len(self.lib.cells), 8)
        self.assertEqual(self.lib.cells["buf_2"].area, 5.0)
        self.assertTrue(self.lib.cells["dfxtp_1"].seq)
        self.assertFalse(self.lib.cells["buf_1"].seq)
        x = self.lib.cells["buf_1"].pins["X"]
        self.assertEqual((x.dir, x.func), ("output", "A"))  # outer parentheses gone
        self.assertEqual(self.lib.cells["buf_1"].pins["A"].cap, 0.0015)
        self.assertEqual(self.lib.cells["and2_1"].pins["X"].func, "A&B")

    def test_buffers_smallest_first_clock_buffers_last(self):
        names = [b.cell for b in self.lib.buffers()]
        self.assertEqual(names, ["lpflow_isobuf_1", "buf_1", "buf_2", "clkbuf_1"])
        b = self.lib.buffers()[1]
        self.assertEqual((b.inp, b.out, b.area), ("A", "X", 3.0))

    def test_tie_cells(self):
        self.assertEqual(self.lib.tie_cells(), (("conb_1", "HI"), ("conb_1", "LO")))


class Prepare(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_gzipped_source_without_dont_use_cells(self):
        src = self.dir / "tiny.lib.gz"
        with gzip.open(src, "wt") as f:
            f.write(LIB)
        path, removed = liberty.prepare(src, self.dir / "cache", ["*lpflow*"])
        self.assertEqual(removed, ["lpflow_isobuf_1"])
        self.assertTrue(path.name.startswith("tiny.") and path.name.endswith(".lib"))
        lib = liberty.Liberty(path)
        self.assertNotIn("lpflow_isobuf_1", lib.cells)
        self.assertEqual(len(lib.cells), 7)
        self.assertEqual(lib.buffers()[0].cell, "buf_1")
        # exactly the cell's group is cut out; the rest, comments too, is kept as it was
        start = LIB.index('cell ("lpflow_isobuf_1")')
        end = LIB.index("\n  }\n", start) + len("\n  }")
        self.assertEqual(path.read_text(), LIB[:start] + LIB[end:])
        # cached: the second call reads the copy and its list of removed cells
        self.assertEqual(json.loads(path.with_suffix(".removed.json").read_text()), removed)
        self.assertEqual(liberty.prepare(src, self.dir / "cache", ["*lpflow*"]),
                         (path, removed))

    def test_not_a_liberty_file(self):
        src = self.dir / "x.lib"
        src.write_text("module m; endmodule\n")
        with self.assertRaises(ToolError):
            liberty.prepare(src, self.dir / "cache", [])


if __name__ == "__main__":
    sys.exit(unittest.main())
