# SPDX-License-Identifier: Apache-2.0
"""Just enough of a Liberty file: cells, areas, pins and their functions,
units; and the plain-text copy without the cells a mapper must not use."""

import fnmatch
import gzip
import json
import os
import re
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple, Optional

from .common import ToolError, UsageError, sha1_of

# Cells a synthesis mapper must not pick in a Liberty library: power-gating
# and isolation cells, probes, delay lines, physical-only cells. Glob patterns
# on cell names; harmless for a library that has none of them.
DEFAULT_DONT_USE = [
    "*lpflow*", "*probe*", "*clkdlybuf*", "*dlygate*", "*dlymetal*",
    "*sparecell*", "*decap*", "*diode*", "*fill*", "*tapvpwr*",
]


@dataclass
class LibPin:
    dir: str                # input, output, inout or ""
    func: Optional[str]     # the function, blanks and outer parentheses removed
    cap: float = 0.0        # input capacitance, library units


@dataclass
class LibCell:
    area: float
    seq: bool               # has an ff, latch or statetable group
    pins: dict = field(default_factory=dict)  # name -> LibPin


class Buffer(NamedTuple):
    cell: str
    inp: str
    out: str
    area: float


class Liberty:
    """A Liberty file read for the flow: name, time and capacitance units,
    cells (LibCell by name)."""

    def __init__(self, path):
        self.path = Path(path)
        self._parse(self.path.read_text(errors="replace"))

    @classmethod
    def from_text(cls, text, path="<text>"):
        lib = cls.__new__(cls)
        lib.path = Path(path)
        lib._parse(text)
        return lib

    def _parse(self, text):
        m = re.search(r'library\s*\(\s*"?([^")\s]+)"?\s*\)', text)
        self.name = m.group(1) if m else self.path.stem
        m = re.search(r'time_unit\s*:\s*"?\s*([\d.]+)\s*(ps|ns|us)', text)
        self.time_unit_ns = (float(m.group(1)) * {"ps": 1e-3, "ns": 1.0, "us": 1e3}[m.group(2)]
                             if m else 1.0)
        m = re.search(r'capacitive_load_unit\s*\(\s*([\d.]+)\s*,\s*"?(ff|pf)"?', text, re.I)
        self.cap_unit_ff = (float(m.group(1)) * (1.0 if m.group(2).lower() == "ff" else 1000.0)
                            if m else 1.0)
        self.cells = {}
        for name, body in _cells(text):
            self.cells[name] = _cell(body)

    def _ins_outs(self, cell):
        pins = self.cells[cell].pins
        ins = [p for p, v in pins.items() if v.dir == "input"]
        outs = [p for p, v in pins.items() if v.dir == "output"]
        return ins, outs

    def buffers(self):
        """Buffer(cell, in pin, out pin, area), smallest first; clock buffers last."""
        res = []
        for name, c in self.cells.items():
            if c.seq:
                continue
            ins, outs = self._ins_outs(name)
            if len(ins) == 1 and len(outs) == 1 and c.pins[outs[0]].func == ins[0]:
                res.append(Buffer(name, ins[0], outs[0], c.area))
        res.sort(key=lambda b: ("clk" in b.cell.lower(), b.area, b.cell))
        return res

    def drive(self, driving_cell, output_load):
        """(buffer for insbuf, driving cell, output load in the library's unit)
        of a run: the cell that drives the inputs is --driving-cell or the
        next buffer above the smallest; the load on the outputs --output-load
        or four inputs of that cell."""
        bufs = self.buffers()
        if not bufs:
            raise ToolError(f"{self.path}: no buffer cell found (needed for insbuf/driving cell)")
        drv = driving_cell or next((b.cell for b in bufs if b.area > bufs[0].area), bufs[0].cell)
        if drv not in self.cells:
            raise UsageError(f"--driving-cell {drv}: no such cell in {self.path}")
        drv_buf = next((b for b in bufs if b.cell == drv), None)
        in_cap = self.cells[drv].pins[drv_buf.inp].cap if drv_buf else 0.0
        load = output_load if output_load is not None else round(4 * in_cap, 6) or 0.005
        return bufs[0], drv, load

    def tie_cells(self):
        """((cell, pin) for constant 1, (cell, pin) for constant 0), the smallest."""
        hi = lo = None
        for name, c in sorted(self.cells.items(), key=lambda kv: kv[1].area):
            ins, outs = self._ins_outs(name)
            if ins:
                continue
            for o in outs:
                f = c.pins[o].func
                if f == "1" and hi is None:
                    hi = (name, o)
                if f == "0" and lo is None:
                    lo = (name, o)
        return hi, lo


def _cells(text):
    """(name, body) of each cell group at library level; comments dropped."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    tok = re.compile(r'[{}]|\bcell\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{')
    depth, start, name = 0, None, None
    for m in tok.finditer(text):
        s = m.group(0)
        if s == "{":
            depth += 1
        elif s == "}":
            depth -= 1
            if name is not None and depth == 1:
                yield name, text[start:m.end()]
                name = None
        else:  # a cell header, which ends with its own '{'
            if depth == 1 and name is None:
                name, start = m.group(1), m.start()
            depth += 1


def _cell(body):
    area = re.search(r"\barea\s*:\s*([\d.eE+-]+)", body)
    seq = bool(re.search(r"\b(ff|latch|ff_bank|latch_bank|statetable)\s*\(", body))
    pins = {}
    for pm in re.finditer(r'\bpin\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{', body):
        # the pin group up to its matching brace
        depth, i = 1, pm.end()
        while depth and i < len(body):
            c = body[i]
            depth += (c == "{") - (c == "}")
            i += 1
        grp = body[pm.end():i]
        top = re.sub(r"\{[^{}]*\}", "", grp)  # drop nested groups (timing etc.)
        while re.search(r"\{[^{}]*\}", top):
            top = re.sub(r"\{[^{}]*\}", "", top)
        d = re.search(r"\bdirection\s*:\s*\"?(\w+)", top)
        f = re.search(r'\bfunction\s*:\s*"([^"]*)"', top)
        c = re.search(r"\bcapacitance\s*:\s*([\d.eE+-]+)", top)
        func = f.group(1).replace(" ", "") if f else None
        while func and func.startswith("(") and func.endswith(")") and \
                func.count("(") == 1:
            func = func[1:-1]
        pins[pm.group(1)] = LibPin(d.group(1) if d else "", func,
                                   float(c.group(1)) if c else 0.0)
    return LibCell(float(area.group(1)) if area else 0.0, seq, pins)


def _cells_spans(text):
    """Like _cells, on the raw text (comments kept): (name, (start, end))."""
    tok = re.compile(r'/\*.*?\*/|[{}]|\bcell\s*\(\s*"?([^")\s]+)"?\s*\)\s*\{', re.S)
    depth, start, name = 0, None, None
    for m in tok.finditer(text):
        s = m.group(0)
        if s.startswith("/*"):
            continue
        if s == "{":
            depth += 1
        elif s == "}":
            depth -= 1
            if name is not None and depth == 1:
                yield name, (start, m.end())
                name = None
        else:
            if depth == 1 and name is None:
                name, start = m.group(1), m.start()
            depth += 1


def prepare(src, dest_dir, dont_use):
    """Plain-text copy of src (gunzipped if needed) without dont-use cells,
    cached in dest_dir. Returns (path, removed cell names)."""
    src, dest_dir = Path(src), Path(dest_dir)
    st = src.stat()
    key = sha1_of([str(src.resolve()), st.st_size, st.st_mtime_ns] + sorted(dont_use))[:12]
    dest_dir.mkdir(parents=True, exist_ok=True)
    stem = src.name[:-3] if src.name.endswith(".gz") else src.name
    stem = stem[:-4] if stem.endswith(".lib") else stem
    dest = dest_dir / f"{stem}.{key}.lib"
    info = dest.with_suffix(".removed.json")
    if dest.is_file() and info.is_file():
        return dest, json.loads(info.read_text())
    opener = gzip.open if src.name.endswith(".gz") else open
    try:
        with opener(src, "rt", errors="replace") as f:
            text = f.read()
    except (OSError, EOFError) as e:
        raise ToolError(f"cannot read Liberty file {src}: {e}")
    if not re.search(r"\blibrary\s*\(", text):
        raise ToolError(f"{src} does not look like a Liberty file (no library group)")
    removed, out, pos = [], [], 0
    for name, (start, end) in _cells_spans(text):
        if any(fnmatch.fnmatchcase(name, pat) for pat in dont_use):
            out.append(text[pos:start])
            pos = end
            removed.append(name)
    out.append(text[pos:])
    # write-then-rename: parallel runs may prepare the same copy at once
    tmp = dest.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
    tmp.write_text("".join(out))
    tmp.replace(dest)
    tmp.write_text(json.dumps(removed))
    tmp.replace(info)
    return dest, removed


def prepare_liberty(src, cache_dir, patterns):
    """The filtered copy of src, read: (Liberty, removed cells, seconds)."""
    t0 = time.monotonic()
    path, removed = prepare(src, cache_dir, patterns)
    return Liberty(path), removed, time.monotonic() - t0
