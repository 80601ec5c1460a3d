#!/usr/bin/env python3
"""Area and timing flow of dsh_mmu: Yosys, OpenSTA, nextpnr-ice40.

Modes
  generic  technology-free: Yosys `synth -flatten`, cell and flop counts,
           `stat -tech cmos` transistor estimate, logic depth (`ltp -noff`),
           inferred latches and `check` problems.
  asic     generic, then dfflibmap + timing-driven abc on a Liberty library,
           area (`stat -liberty`), gate-level netlist, OpenSTA with
           constraints/dsh_mmu.sdc: worst slack, TNS, critical path, max clock.
  fpga     synth_ice40 + nextpnr-ice40: LUTs, flops, max frequency; the I/O is
           serialised by a generated wrapper (or reported as not fitting).
  report   sweep over configurations (asic when a Liberty file is there, else
           generic), in parallel; writes report.md and report.csv.

Every run writes summary.json (machine-readable) beside its logs and prints a
short summary. Exit status: 0 ok, 1 a check failed, 2 bad arguments, 3 a tool
is missing or a tool failed, 77 a requested check was skipped (no Liberty
file, no recorded limit), for CTest's SKIP_RETURN_CODE.

Only the Python 3 standard library is used.
"""

import argparse
import concurrent.futures
import csv
import datetime
import fnmatch
import gzip
import hashlib
import io
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "rtl" / "dsh_mmu.f"
SDC = ROOT / "constraints" / "dsh_mmu.sdc"
LIMITS = ROOT / "constraints" / "synth_limits.json"
# SkyWater sky130 HD, typical corner: committed under pdk/ (Apache-2.0, see its README).
DEFAULT_LIBERTY = ROOT / "pdk" / "sky130_fd_sc_hd" / "sky130_fd_sc_hd__tt_025C_1v80.lib.gz"
TOP = "dsh_mmu"
# Bump when a change of this script changes what a run reports: --reuse
# then ignores results of the older flow.
FLOW_VERSION = 4

# ABC scripts for the timing-driven mapping onto a Liberty library. "delay"
# (the default) first rebalances the logic for depth (&if -g, SOP
# balancing), then maps with structural choices for the best delay and
# sizes the gates (buffer/upsize/dnsize: dnsize shrinks gates only while
# the critical delay holds). It gives ABC no delay target on purpose: ABC's
# timing leaves out the flops' clock-to-Q and setup and is about 0.5 ns
# optimistic against OpenSTA here, so with the period as its target it
# relaxes paths up to a delay that then misses (4x4 DSH: -0.58 ns against
# -0.39 ns without). "yosys" is Yosys's own -D script.
ABC_SCRIPTS = {
    "delay": "strash; &get -n; &st; &if -g; &st; &dch -f; &nf; &put; buffer; upsize; dnsize",
    "yosys": None,
}

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_TOOL, EXIT_SKIP = 0, 1, 2, 3, 77

# Debian package that provides each tool.
PACKAGES = {
    "yosys": "yosys",
    "sta": "opensta",
    "nextpnr-ice40": "nextpnr-ice40 (and fpga-icestorm-chipdb)",
}

# Parameter limits, as checked by the RTL at elaboration (dsh_mmu.sv).
# (option, attribute, RTL parameter, low, high); high None: see SizeW.
PARAM_LIMITS = [
    ("--ports", "ports", "NumPorts", 1, 1024),
    ("--queues", "queues", "NumQueues", 1, 64),
    ("--cell-w", "cell_w", "CellW", 4, 40),
    ("--size-w", "size_w", "SizeW", 1, None),
    ("--cnt-w", "cnt_w", "CntW", 1, 64),
    ("--latency", "latency", "ThreshLatency", 1, 3),
]
DEFAULTS = {"cell_w": 20, "size_w": 8, "cnt_w": 32, "latency": 2}

# Cells a synthesis mapper must not pick in a Liberty library: power-gating
# and isolation cells, probes, delay lines, physical-only cells. Glob patterns
# on cell names; harmless for a library that has none of them.
DEFAULT_DONT_USE = [
    "*lpflow*", "*probe*", "*clkdlybuf*", "*dlygate*", "*dlymetal*",
    "*sparecell*", "*decap*", "*diode*", "*fill*", "*tapvpwr*",
]

# iCE40 devices: logic cells and user I/O pins per package (Lattice datasheets).
ICE40 = {
    "hx1k": {"lcs": 1280, "packages": {"tq144": 96, "vq100": 72, "cb132": 95}},
    "hx8k": {"lcs": 7680, "packages": {"ct256": 206, "cb132": 95, "tq144": 107}},
    "up5k": {"lcs": 5280, "packages": {"sg48": 39}},
}

SWEEP = [(4, 4), (8, 8), (32, 7), (64, 8)]

_print_lock = threading.Lock()


def say(msg, prefix=""):
    with _print_lock:
        print(f"{prefix}{msg}", flush=True)


class UsageError(Exception):
    """Bad argument: message names the option, the value and the limit."""


class ToolError(Exception):
    """A tool is missing or failed."""


def check_out_dir(opt, path):
    """An output directory: created when missing, must be a writable directory.
    Raises UsageError naming the option and the path (exit 2, before any run)."""
    p = Path(path)
    if str(path) == "":
        raise UsageError(f"{opt} '': expected a directory name")
    for part in [*reversed(p.parents), p]:
        if part.exists() and not part.is_dir():
            raise UsageError(f"{opt} {path}: {part} exists and is not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"{opt} {path}: cannot create it: {e.strerror}")
    if not os.access(p, os.W_OK | os.X_OK):
        raise UsageError(f"{opt} {path}: cannot write in it: permission denied")


def check_out_file(opt, path):
    """A file that will be written: not a directory, its directory writable."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{opt} {path}: is a directory, expected a file")
    if p.exists() and not os.access(p, os.W_OK):
        raise UsageError(f"{opt} {path}: cannot write it: permission denied")
    d = p.parent if str(p.parent) else Path(".")
    if not d.is_dir():
        raise UsageError(f"{opt} {path}: directory {d} does not exist")
    if not os.access(d, os.W_OK | os.X_OK):
        raise UsageError(f"{opt} {path}: cannot write in {d}: permission denied")


def write_atomically(path, text):
    """Writes under a temporary name and renames: never a half-written file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


# --------------------------------------------------------------- configuration
class Config:
    def __init__(self, ports, queues, scheme, cell_w=20, size_w=8, cnt_w=32, latency=2):
        self.ports, self.queues, self.scheme = ports, queues, scheme
        self.cell_w, self.size_w, self.cnt_w, self.latency = cell_w, size_w, cnt_w, latency

    @property
    def dsh(self):
        return self.scheme == "dsh"

    @property
    def name(self):
        n = f"{self.scheme}_{self.ports}x{self.queues}"
        for attr, tag in (("cell_w", "cw"), ("size_w", "sw"), ("cnt_w", "nw"), ("latency", "l")):
            if getattr(self, attr) != DEFAULTS[attr]:
                n += f"_{tag}{getattr(self, attr)}"
        return n

    def params(self):
        return {"NumPorts": self.ports, "NumQueues": self.queues, "CellW": self.cell_w,
                "SizeW": self.size_w, "CntW": self.cnt_w, "Dsh": int(self.dsh),
                "ThreshLatency": self.latency}

    def as_dict(self):
        d = {"name": self.name, "scheme": self.scheme}
        d.update(self.params())
        return d


def validate_config(cfg):
    for opt, attr, rtl, lo, hi in PARAM_LIMITS:
        v = getattr(cfg, attr)
        if hi is None:
            hi, why = cfg.cell_w, f"1..CellW (--cell-w {cfg.cell_w})"
        else:
            why = f"{lo}..{hi}"
        if not lo <= v <= hi:
            raise UsageError(f"{opt} {v} is out of range: {rtl} must be in {why}")


# ------------------------------------------------------------------ utilities
def need_tool(name):
    path = shutil.which(name)
    if not path:
        raise ToolError(f"'{name}' not found on PATH; install the Debian package "
                        f"{PACKAGES.get(name, name)} (apt-get install -y "
                        f"{PACKAGES.get(name, name).split()[0]})")
    return path


_version_cache = {}


def tool_version(name):
    if name not in _version_cache:
        cmd = {"yosys": ["yosys", "-V"], "sta": ["sta", "-version"],
               "nextpnr-ice40": ["nextpnr-ice40", "--version"]}[name]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
            _version_cache[name] = (out.stdout + out.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.SubprocessError):
            _version_cache[name] = "unknown"
    return _version_cache[name]


def set_manifest(path):
    global MANIFEST
    MANIFEST = Path(path).resolve()


def rtl_identity():
    """What RTL a result is of: hash of the manifest and its files, and the
    git commit (with -dirty) when the manifest is inside a work tree."""
    files = rtl_files()
    ident = {"manifest": str(MANIFEST), "sha1": sha1_of([MANIFEST] + files)[:16]}
    try:
        out = subprocess.run(["git", "-C", str(MANIFEST.parent), "describe", "--always",
                              "--dirty", "--abbrev=10"], capture_output=True, text=True,
                             timeout=20)
        if out.returncode == 0:
            ident["git"] = out.stdout.strip()
            st = subprocess.run(["git", "-C", str(MANIFEST.parent), "status", "--porcelain",
                                 "--", "."], capture_output=True, text=True, timeout=20)
            ident["rtl_modified"] = bool(st.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return ident


def rtl_files():
    if not MANIFEST.is_file():
        raise ToolError(f"source manifest {MANIFEST} not found")
    files = []
    for raw in MANIFEST.read_text().splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line or line.startswith(("+", "-")):
            continue
        f = (MANIFEST.parent / line).resolve()
        if not f.is_file():
            raise ToolError(f"{MANIFEST}: listed file {line} not found")
        files.append(f)
    return files


def ys_quote(p):
    """A path in a Yosys script. Some passes (tee -o, -liberty) take the text
    literally, quotes included, so paths go unquoted and must have no blanks."""
    if re.search(r"\s", str(p)):
        raise UsageError(f"path {p!r} contains white space, which Yosys scripts cannot take")
    return str(p)


def sha1_of(items):
    h = hashlib.sha1()
    for it in items:
        if isinstance(it, Path):
            h.update(it.read_bytes())
        else:
            h.update(str(it).encode())
        h.update(b"\0")
    return h.hexdigest()


def fmt_s(sec):
    if sec is None:
        return "-"
    return f"{sec:.0f}s" if sec < 120 else f"{sec / 60:.1f}min"


def run_tool(cmd, log_path, cwd, timeout=None):
    """Run a tool with its output to log_path. Returns (rc, seconds); rc -1 on
    timeout, after killing the tool's whole process group (yosys-abc too)."""
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
        with _procs_lock:
            _procs.add(p)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            rc = -1
            log.write(f"\n*** synth.py: killed after {timeout} s\n")
        except KeyboardInterrupt:
            os.killpg(p.pid, 9)
            raise
        finally:
            with _procs_lock:
                _procs.discard(p)
    return rc, time.monotonic() - t0


# Tools run in their own process groups (so that a timeout also ends
# yosys-abc); on SIGINT/SIGTERM every one still running is ended with us.
_procs, _procs_lock = set(), threading.Lock()


def _on_signal(signum, _frame):
    with _procs_lock:
        for p in list(_procs):
            try:
                os.killpg(p.pid, 9)
            except OSError:
                pass
    try:
        sys.stderr.write("\nsynth.py: interrupted; the running tools were stopped; configurations that "
                         "finished keep their summary.json, no report.md/report.csv was written\n")
        sys.stderr.flush()
    except Exception:
        pass
    os._exit(128 + signum)


def tool_errors(log_path, pattern=r"^(ERROR|Error)\b.*"):
    try:
        text = Path(log_path).read_text(errors="replace")
    except OSError:
        return []
    return [m.group(0).strip() for m in re.finditer(pattern, text, re.M)][:5]


# ------------------------------------------------------------------- liberty
class Liberty:
    """Just enough of a Liberty file: cells, areas, pins, units."""

    def __init__(self, path):
        self.path = Path(path)
        text = self.path.read_text(errors="replace")
        m = re.search(r'library\s*\(\s*"?([^")\s]+)"?\s*\)', text)
        self.name = m.group(1) if m else self.path.stem
        m = re.search(r'time_unit\s*:\s*"?\s*([\d.]+)\s*(ps|ns|us)', text)
        self.time_unit_ns = (float(m.group(1)) * {"ps": 1e-3, "ns": 1.0, "us": 1e3}[m.group(2)]
                             if m else 1.0)
        m = re.search(r'capacitive_load_unit\s*\(\s*([\d.]+)\s*,\s*"?(ff|pf)"?', text, re.I)
        self.cap_unit_ff = (float(m.group(1)) * (1.0 if m.group(2).lower() == "ff" else 1000.0)
                            if m else 1.0)
        self.cells = {}
        for name, body in self._cells(text):
            self.cells[name] = self._cell(body)

    @staticmethod
    def _cells(text):
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

    @staticmethod
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
            pins[pm.group(1)] = {"dir": d.group(1) if d else "", "func": func,
                                 "cap": float(c.group(1)) if c else 0.0}
        return {"area": float(area.group(1)) if area else 0.0, "seq": seq, "pins": pins}

    def _ins_outs(self, cell):
        pins = self.cells[cell]["pins"]
        ins = [p for p, v in pins.items() if v["dir"] == "input"]
        outs = [p for p, v in pins.items() if v["dir"] == "output"]
        return ins, outs

    def buffers(self):
        """(cell, in pin, out pin, area), smallest first; clock buffers last."""
        res = []
        for name, c in self.cells.items():
            if c["seq"]:
                continue
            ins, outs = self._ins_outs(name)
            if len(ins) == 1 and len(outs) == 1 and c["pins"][outs[0]]["func"] == ins[0]:
                res.append((name, ins[0], outs[0], c["area"]))
        res.sort(key=lambda b: ("clk" in b[0].lower(), b[3], b[0]))
        return res

    def tie_cells(self):
        """((cell, pin) for constant 1, (cell, pin) for constant 0)."""
        hi = lo = None
        for name, c in sorted(self.cells.items(), key=lambda kv: kv[1]["area"]):
            ins, outs = self._ins_outs(name)
            if ins:
                continue
            for o in outs:
                f = c["pins"][o]["func"]
                if f == "1" and hi is None:
                    hi = (name, o)
                if f == "0" and lo is None:
                    lo = (name, o)
        return hi, lo

    @staticmethod
    def prepare(src, dest_dir, dont_use):
        """Plain-text copy of src (gunzipped if needed) without dont-use cells,
        cached in dest_dir. Returns (path, removed cell names)."""
        src = Path(src)
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
        for name, body in Liberty._cells_spans(text):
            if any(fnmatch.fnmatchcase(name[0], pat) for pat in dont_use):
                out.append(text[pos:body[0]])
                pos = body[1]
                removed.append(name[0])
        out.append(text[pos:])
        # write-then-rename: parallel runs may prepare the same copy at once
        tmp = dest.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_text("".join(out))
        tmp.replace(dest)
        tmp.write_text(json.dumps(removed))
        tmp.replace(info)
        return dest, removed

    @staticmethod
    def _cells_spans(text):
        # Like _cells, on the raw text (comments kept), yielding spans.
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
                    yield (name,), (start, m.end())
                    name = None
            else:
                if depth == 1 and name is None:
                    name, start = m.group(1), m.start()
                depth += 1


# ------------------------------------------------------------------ the flow
FF_TYPES = re.compile(r"^\$(_?(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|ALDFFE|DFFSR|DFFSRE|DFF)\w*|"
                      r"dff|dffe|adff|adffe|sdff|sdffe|sdffce|aldff|aldffe|dffsr|dffsre)$")
LATCH_TYPES = re.compile(r"^\$(_?DLATCH\w*|dlatch|adlatch|dlatchsr)$", re.I)
FF_SELECT = "t:$_DFF* t:$_DFFE* t:$_SDFF* t:$_SDFFE* t:$_SDFFCE* t:$_ALDFF* t:$_DFFSR* %u"


def parse_stat(path):
    """Cell counts (total, per type) and chip area from a Yosys stat report."""
    text = Path(path).read_text(errors="replace")
    # the last module block is the top after flattening
    total = re.findall(r"Number of cells:\s+(\d+)", text)
    types = {}
    block = text.split("Number of cells:")[-1] if total else ""
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", block, re.M):
        types[m.group(1)] = int(m.group(2))
    area = re.findall(r"Chip area for (?:top )?module '?\\?\S+'?:\s+([\d.]+)", text)
    tr = re.search(r"Estimated number of transistors:\s+(\d+)(\+?)", text)
    return {"cells": int(total[-1]) if total else None, "types": types,
            "area": float(area[-1]) if area else None,
            "transistors": int(tr.group(1)) if tr else None,
            "transistors_partial": bool(tr and tr.group(2))}


class Run:
    """One configuration through one mode."""

    def __init__(self, cfg, mode, out_dir, args, lib=None, quiet=False):
        self.cfg, self.mode, self.out, self.args, self.lib = cfg, mode, Path(out_dir), args, lib
        self.quiet = quiet
        self.removed = []
        self.tag = f"[{cfg.name}] "
        self.res = {"schema": 1, "config": cfg.as_dict(), "mode": mode, "status": "ok",
                    "errors": [], "steps_s": {}, "tools": {},
                    "date": datetime.date.today().isoformat()}

    def timeout(self):
        return self.args.timeout * 60 if self.args.timeout else None

    def log(self, msg):
        if not self.quiet:
            say(msg, self.tag)

    # -- cache: the same inputs give the same result
    def cache_key(self, extra):
        inputs = rtl_files() + [MANIFEST, SDC]
        return sha1_of(inputs + [FLOW_VERSION, json.dumps(self.cfg.as_dict(), sort_keys=True),
                                 self.mode]
                       + extra)

    def load_cached(self, key):
        f = self.out / "summary.json"
        if self.args.reuse and f.is_file():
            try:
                old = json.loads(f.read_text())
            except ValueError:
                return None
            if old.get("cache_key") == key and old.get("status") == "ok":
                return old
        return None

    # -- Yosys script pieces
    def front(self):
        files = " ".join(ys_quote(f) for f in rtl_files())
        ch = " ".join(f"-chparam {k} {v}" for k, v in self.cfg.params().items())
        return [f"read_verilog -defer -sv {files}", f"hierarchy -check -top {TOP} {ch}"]

    def stamp(self, label):
        return f"!echo {label} $(date +%s.%N) >> {shlex.quote(str(self.out / 'stamps.txt'))}"

    def generic_script(self):
        o = self.out
        return (self.front() + [self.stamp("elaborate")] + [
            f"synth -flatten -top {TOP} -run begin:fine",
            self.stamp("synth_coarse"),
            f"synth -flatten -top {TOP} -run fine:check",
            self.stamp("synth_fine"),
            f"rename -wire {FF_SELECT}",
            f"tee -q -o {ys_quote(o / 'stat_generic.txt')} stat",
            f"tee -q -o {ys_quote(o / 'stat_cmos.txt')} stat -tech cmos",
            f"tee -q -o {ys_quote(o / 'check.txt')} check",
            f"tee -q -o {ys_quote(o / 'ltp.txt')} ltp -noff",
            self.stamp("generic_reports"),
        ])

    def read_stamps(self, t_start):
        steps, prev = {}, t_start
        f = self.out / "stamps.txt"
        if f.is_file():
            for line in f.read_text().split("\n"):
                parts = line.split()
                if len(parts) == 2:
                    t = float(parts[1])
                    steps[f"yosys.{parts[0]}"] = round(t - prev, 2)
                    prev = t
        return steps

    def run_yosys(self, script_lines, name="yosys"):
        need_tool("yosys")
        self.res["tools"]["yosys"] = tool_version("yosys")
        ys = self.out / f"{name}.ys"
        ys.write_text("\n".join(script_lines) + "\n")
        (self.out / "stamps.txt").unlink(missing_ok=True)
        self.log(f"{name}: running ({ys.name}, log {name}.log)")
        t0 = time.time()
        rc, sec = run_tool(["yosys", "-q", "-l", str(self.out / f"{name}.log"), "-s", str(ys)],
                           self.out / f"{name}.stdout", self.out, timeout=self.timeout())
        self.res["steps_s"].update(self.read_stamps(t0))
        self.res["steps_s"][f"{name}.total"] = round(sec, 2)
        if rc == -1:
            raise ToolError(f"{name} timed out after {fmt_s(sec)} (--timeout {self.args.timeout} min)")
        if rc != 0:
            errs = tool_errors(self.out / f"{name}.log") or tool_errors(self.out / f"{name}.stdout")
            log = self.out / (name + ".log")
            raise ToolError(f"{name} failed (exit {rc}) after {fmt_s(sec)}: "
                            + ("; ".join(errs) + f" (log {log})" if errs else f"see {log}"))
        self.log(f"{name}: done in {fmt_s(sec)}")

    def collect_generic(self):
        o = self.out
        st = parse_stat(o / "stat_generic.txt")
        cmos = parse_stat(o / "stat_cmos.txt")
        log = (o / "yosys.log").read_text(errors="replace")
        latch_cells = {t: n for t, n in st["types"].items() if LATCH_TYPES.match(t)}
        latch_sigs = sorted(set(re.findall(r"^Latch inferred for signal `?([^']+)'? ", log, re.M)))
        chk = (o / "check.txt").read_text(errors="replace")
        m = re.search(r"Found and reported (\d+) problems", chk)
        problems = int(m.group(1)) if m else 0
        msgs = [ln.strip() for ln in chk.splitlines() if ln.strip().startswith("Warning")][:20]
        ltp = (o / "ltp.txt").read_text(errors="replace")
        m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", ltp)
        flops = sum(n for t, n in st["types"].items() if FF_TYPES.match(t))
        # `stat -tech cmos` leaves flip-flops out (its "+"): add a static
        # master-slave flop of 24 transistors, +12 for an enable mux, +4 for a
        # reset or set, so that the estimate covers the whole design.
        ff_tr = sum(n * (24 + (12 if re.search(r"DFFE|SDFFCE|SDFFE|_DFFE", t) else 0)
                         + (4 if re.search(r"_(S?DFFC?E?_P[NP][01]|DFF_[NP][NP][01])", t) else 0))
                    for t, n in st["types"].items() if FF_TYPES.match(t))
        g = {"cells": st["cells"], "flops": flops,
             "comb_cells": (st["cells"] or 0) - flops - sum(latch_cells.values()),
             "cell_types": st["types"],
             "transistors": (cmos["transistors"] or 0) + ff_tr,
             "transistors_logic": cmos["transistors"], "transistors_flops": ff_tr,
             "logic_depth": int(m.group(1)) if m else None,
             "latch_cells": sum(latch_cells.values()), "latch_types": latch_cells,
             "latch_signals": latch_sigs, "check_problems": problems, "check_messages": msgs}
        self.res["generic"] = g
        return g

    # -- modes
    def do_generic(self):
        self.run_yosys(self.generic_script())
        self.collect_generic()

    def do_asic(self):
        lib, a = self.lib, self.args
        o = self.out
        period_ns = a.period
        period_lib = period_ns / lib.time_unit_ns
        bufs = lib.buffers()
        if not bufs:
            raise ToolError(f"{lib.path}: no buffer cell found (needed for insbuf/driving cell)")
        buf = bufs[0]
        drv = a.driving_cell or next((b[0] for b in bufs if b[3] > bufs[0][3]), bufs[0][0])
        if drv not in lib.cells:
            raise UsageError(f"--driving-cell {drv}: no such cell in {lib.path}")
        drv_buf = next((b for b in bufs if b[0] == drv), None)
        in_cap = lib.cells[drv]["pins"][drv_buf[1]]["cap"] if drv_buf else 0.0
        load_lib = a.output_load if a.output_load is not None else round(4 * in_cap, 6) or 0.005
        load_ff = load_lib * lib.cap_unit_ff
        hi, lo = lib.tie_cells()
        (o / "abc.constr").write_text(f"set_driving_cell {drv}\nset_load {load_ff:.3f}\n")
        script = ABC_SCRIPTS[a.abc_script]
        if script:
            (o / "abc.script").write_text(script + "\n")
        self.res["abc_script"] = a.abc_script
        L = ys_quote(lib.path)
        tail = [
            f"dfflibmap -liberty {L}",
            self.stamp("dfflibmap"),
            f"abc -D {period_ns * 1000:.0f} -liberty {L} -constr {ys_quote(o / 'abc.constr')}"
            + (f" -script {ys_quote(o / 'abc.script')}" if script else ""),
            self.stamp("abc"),
            "opt_clean -purge",
            "setundef -zero",
        ]
        if hi and lo:
            tail.append(f"hilomap -singleton -hicell {hi[0]} {hi[1]} -locell {lo[0]} {lo[1]}")
        tail += [f"insbuf -buf {buf[0]} {buf[1]} {buf[2]}", "opt_clean",
                 f"tee -q -o {ys_quote(o / 'stat_liberty.txt')} stat -liberty {L}",
                 f"write_verilog -noattr -noexpr -nohex -nodec {ys_quote(o / 'netlist.v')}",
                 self.stamp("write_netlist")]
        for f in ("stat_generic.txt", "stat_cmos.txt", "check.txt", "ltp.txt", "stat_liberty.txt"):
            (o / f).unlink(missing_ok=True)
        try:
            self.run_yosys(self.generic_script() + tail)
        except ToolError:
            # keep what the generic part measured before the failure
            if all((o / f).is_file() for f in ("stat_generic.txt", "stat_cmos.txt",
                                               "check.txt", "ltp.txt")):
                self.collect_generic()
            raise
        self.collect_generic()
        st = parse_stat(o / "stat_liberty.txt")
        seq_cells = {t: n for t, n in st["types"].items() if t in lib.cells and lib.cells[t]["seq"]}
        area_by = sorted(((t, n, n * lib.cells[t]["area"]) for t, n in st["types"].items()
                          if t in lib.cells), key=lambda x: -x[2])
        seq_area = sum(x[2] for x in area_by if x[0] in seq_cells)
        asic = {"liberty": str(a.liberty), "library": lib.name, "period_ns": period_ns,
                "target_mhz": round(1000.0 / period_ns, 2), "driving_cell": drv,
                "output_load": load_lib, "dont_use_removed": len(self.removed),
                "area_um2": st["area"], "cells": st["cells"],
                "flops": sum(seq_cells.values()), "seq_area_um2": round(seq_area, 1),
                "comb_area_um2": round((st["area"] or 0) - seq_area, 1),
                "top_cells_by_area": [{"cell": t, "count": n, "area_um2": round(ar, 1)}
                                      for t, n, ar in area_by[:12]]}
        self.res["asic"] = asic
        self.log(f"area {asic['area_um2']:.0f} um2, {asic['cells']} cells; running OpenSTA")
        self.do_sta(period_lib, drv, load_lib)

    def do_sta(self, period_lib, drv, load_lib):
        need_tool("sta")
        self.res["tools"]["sta"] = tool_version("sta")
        o, lib, a = self.out, self.lib, self.args
        tcl = [
            f"read_liberty {{{lib.path}}}",
            f"read_verilog {{{o / 'netlist.v'}}}",
            f"link_design {TOP}",
            f"set dsh_clock_period {period_lib:.6g}",
            f"set dsh_input_delay_frac {a.input_delay}",
            f"set dsh_output_delay_frac {a.output_delay}",
            f"set dsh_clock_uncertainty {a.uncertainty / lib.time_unit_ns:.6g}",
            f"set dsh_driving_cell {drv}",
            f"set dsh_output_load {load_lib:.6g}",
            f"set dsh_cfg_false_path {0 if a.time_cfg else 1}",
            f"source {{{SDC}}}",
            'puts "DSHSTA_BEGIN worst"',
            "report_checks -path_delay max -fields {capacitance slew input_pin} -digits 3",
            'puts "DSHSTA_END worst"',
            'puts "DSHSTA_BEGIN reg2reg"',
            "report_checks -path_delay max -from [all_registers -clock_pins]"
            " -to [all_registers -data_pins] -fields {capacitance slew input_pin} -digits 3",
            'puts "DSHSTA_END reg2reg"',
            'puts "DSHSTA worst_slack [worst_slack -max]"',
            'puts "DSHSTA tns [total_negative_slack -max]"',
            'puts "DSHSTA hold_slack [worst_slack -min]"',
            "check_setup -verbose",
        ]
        (o / "sta.tcl").write_text("\n".join(tcl) + "\n")
        rc, sec = run_tool(["sta", "-no_init", "-no_splash", "-exit", str(o / "sta.tcl")],
                           o / "sta.log", o, timeout=self.timeout())
        self.res["steps_s"]["sta"] = round(sec, 2)
        text = (o / "sta.log").read_text(errors="replace")
        vals = dict(re.findall(r"^DSHSTA (\w+) (\S+)", text, re.M))
        try:
            ws, tns, hs = (float(vals[k]) for k in ("worst_slack", "tns", "hold_slack"))
        except (KeyError, ValueError):
            errs = tool_errors(o / "sta.log", r"^(Error|ERROR).*")
            raise ToolError("OpenSTA printed no slack (exit status is always 0): "
                            + ("; ".join(errs) if errs else f"see {o / 'sta.log'}"))
        tu = lib.time_unit_ns
        period_ns = period_lib * tu
        asic = self.res["asic"]
        asic["worst_slack_ns"] = round(ws * tu, 4)
        asic["tns_ns"] = round(tns * tu, 3)
        asic["hold_slack_ns"] = round(hs * tu, 4)
        asic["timing_met"] = ws >= 0
        asic["fmax_mhz"] = round(1000.0 / (period_ns - ws * tu), 1) if period_ns - ws * tu > 0 else None
        for grp in ("worst", "reg2reg"):
            m = re.search(rf"DSHSTA_BEGIN {grp}\n(.*?)DSHSTA_END {grp}", text, re.S)
            path = parse_path(m.group(1) if m else "", tu)
            (o / f"critical_path_{grp}.txt").write_text(m.group(1) if m else "")
            asic["critical_path" if grp == "worst" else "reg2reg_path"] = path
        rp = asic["reg2reg_path"]
        if rp.get("slack_ns") is not None:
            d = period_ns - rp["slack_ns"]
            asic["reg2reg_fmax_mhz"] = round(1000.0 / d, 1) if d > 0 else None
        m = re.search(r"There (?:is|are) (\d+) unconstrained endpoint", text)
        asic["unconstrained_endpoints"] = int(m.group(1)) if m else 0

    def read_ports(self):
        """dsh_mmu's data ports and widths for this configuration, from the RTL
        (`portlist` after elaboration): ([(name, width)] inputs, outputs)."""
        self.run_yosys(self.front() + [f"tee -q -o ports.txt portlist"], name="yosys_ports")
        ins, outs = [], []
        for ln in (self.out / "ports.txt").read_text().splitlines():
            m = re.match(r"^(input|output|inout)\s+(?:\[(\d+):(\d+)\]\s+)?(\S+)$", ln.strip())
            if not m or m.group(4) in ("clk_i", "rst_ni"):
                continue
            w = abs(int(m.group(2)) - int(m.group(3))) + 1 if m.group(2) else 1
            (ins if m.group(1) == "input" else outs).append((m.group(4), w))
        if not ins or not outs:
            raise ToolError(f"no ports found in {self.out / 'ports.txt'}")
        return ins, outs

    def do_fpga(self):
        a, o, cfg = self.args, self.out, self.cfg
        dev = ICE40[a.device]
        pins = dev["packages"].get(a.package)
        if pins is None:
            raise UsageError(f"--package {a.package} is not a package of --device {a.device} "
                             f"(known: {', '.join(dev['packages'])})")
        ins, outs = self.read_ports()
        in_bits, out_bits = sum(w for _, w in ins), sum(w for _, w in outs)
        direct_ios = in_bits + out_bits + 2  # + clk_i, rst_ni
        f = {"device": a.device, "package": a.package, "pins": pins, "lcs_available": dev["lcs"],
             "io_mode": a.fpga_io, "core_ios": direct_ios, "target_mhz": a.fpga_freq}
        self.res["fpga"] = f
        if a.fpga_io == "direct":
            top, extra = TOP, []
            ch = " ".join(f"-chparam {k} {v}" for k, v in cfg.params().items())
            front = [f"read_verilog -defer -sv {' '.join(ys_quote(x) for x in rtl_files())}",
                     f"hierarchy -check -top {TOP} {ch}"]
            f["ios"] = direct_ios
            if direct_ios > pins:
                f["fits"] = False
                f["reason"] = f"does not fit: {direct_ios} IOs > {pins} pins of {a.device}/{a.package}"
                self.log(f["reason"] + " (use --fpga-io wrap to serialise the I/O)")
                return
        else:
            top = "dsh_fpga_wrap"
            wrap = o / "dsh_fpga_wrap.v"
            wrap.write_text(fpga_wrapper(cfg, ins, outs))
            front = [f"read_verilog -defer -sv {' '.join(ys_quote(x) for x in rtl_files())}",
                     f"read_verilog {ys_quote(wrap)}", f"hierarchy -check -top {top}"]
            f["ios"] = 5
            f["wrapper_flops"] = in_bits + out_bits
        script = front + [self.stamp("elaborate"),
                          f"synth_ice40 -top {top} -json {ys_quote(o / 'fpga.json')}",
                          self.stamp("synth_ice40"),
                          f"tee -q -o {ys_quote(o / 'stat_ice40.txt')} stat"]
        self.run_yosys(script, name="yosys_ice40")
        st = parse_stat(o / "stat_ice40.txt")
        t = st["types"]
        f["luts"] = t.get("SB_LUT4", 0)
        f["flops"] = sum(n for k, n in t.items() if k.startswith("SB_DFF"))
        f["carries"] = t.get("SB_CARRY", 0)
        f["brams"] = t.get("SB_RAM40_4K", 0)
        need = max(f["luts"], f["flops"])
        if need > dev["lcs"]:
            f["fits"] = False
            what = "LUT4" if f["luts"] >= f["flops"] else "flip-flops"
            f["reason"] = (f"does not fit: {need} {what} > {dev['lcs']} logic cells of "
                           f"{a.device} (each logic cell has one LUT4 and one flip-flop)")
            self.log(f["reason"])
            return
        need_tool("nextpnr-ice40")
        self.res["tools"]["nextpnr-ice40"] = tool_version("nextpnr-ice40")
        cmd = ["nextpnr-ice40", f"--{a.device}", "--package", a.package,
               "--json", str(o / "fpga.json"), "--freq", str(a.fpga_freq),
               "--timing-allow-fail", "--pcf-allow-unconstrained", "--seed", "1",
               "--report", str(o / "nextpnr_report.json")]
        self.log("nextpnr-ice40: placing and routing")
        rc, sec = run_tool(cmd, o / "nextpnr.log", o, timeout=self.timeout())
        self.res["steps_s"]["nextpnr"] = round(sec, 2)
        text = (o / "nextpnr.log").read_text(errors="replace")
        if rc != 0:
            errs = tool_errors(o / "nextpnr.log", r"^ERROR:.*")
            f["fits"] = False
            f["reason"] = "nextpnr failed: " + ("; ".join(errs) if errs else f"exit {rc}")
            self.log(f["reason"])
            return
        f["fits"] = True
        fm = re.findall(r"Max frequency for clock\s+'([^']+)':\s+([\d.]+) MHz", text)
        f["fmax_mhz"] = float(fm[-1][1]) if fm else None
        m = re.findall(r"ICESTORM_LC:\s+(\d+)/\s*(\d+)", text)
        if m:
            f["lcs_used"] = int(m[-1][0])

    # -- entry
    def execute(self):
        self.out.mkdir(parents=True, exist_ok=True)
        extra = []
        if self.mode == "asic":
            a = self.args
            extra = [self.lib.path, a.period, a.input_delay, a.output_delay, a.uncertainty,
                     a.driving_cell, a.output_load, a.time_cfg, a.abc_script]
        elif self.mode == "fpga":
            a = self.args
            extra = [a.device, a.package, a.fpga_freq, a.fpga_io]
        key = self.cache_key([str(x) for x in extra])
        old = self.load_cached(key)
        if old:
            self.log(f"reusing {self.out / 'summary.json'} (same inputs)")
            self.res = old
            return self.res
        t0 = time.monotonic()
        self.res["rtl"] = rtl_identity()
        try:
            getattr(self, f"do_{self.mode}")()
        except ToolError as e:
            self.res["status"] = "error"
            self.res["errors"].append(str(e))
        self.res["steps_s"]["total"] = round(time.monotonic() - t0, 2)
        self.res["cache_key"] = key
        write_atomically(self.out / "summary.json", json.dumps(self.res, indent=2) + "\n")
        return self.res


def parse_path(text, tu):
    """Start, end, stages and slack of one OpenSTA report_checks path."""
    res = {"startpoint": None, "endpoint": None, "slack_ns": None, "arrival_ns": None,
           "stages": 0, "cells": []}
    # OpenSTA wraps the "(... clocked by ...)" note onto the next line when
    # the name is long; keep it only for ports, where it says what they are.
    for key, label in (("startpoint", "Startpoint"), ("endpoint", "Endpoint")):
        m = re.search(label + r": (\S+)\s*(?:\(([^)\n]*)\))?", text)
        if m:
            note = m.group(2)
            res[key] = m.group(1) + (f" ({note})" if note and "flip-flop" not in note else "")
    m = re.search(r"(-?[\d.]+)\s+slack \((MET|VIOLATED)\)", text)
    if m:
        res["slack_ns"] = round(float(m.group(1)) * tu, 4)
    m = re.search(r"(-?[\d.]+)\s+data arrival time", text)
    if m:
        res["arrival_ns"] = round(float(m.group(1)) * tu, 4)
    # driver (output pin) lines carry a capacitance column: 4 numbers before the edge
    seen = []
    for ln in text.splitlines():
        mm = re.match(r"^\s*([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+[\^v]\s+(\S+)/(\S+)\s+\((\S+)\)", ln)
        if mm:
            seen.append({"inst": mm.group(5), "pin": mm.group(6), "cell": mm.group(7),
                         "delay_ns": round(float(mm.group(3)) * tu, 4),
                         "at_ns": round(float(mm.group(4)) * tu, 4)})
    res["stages"] = len(seen)
    res["cells"] = seen
    return res


def fpga_wrapper(cfg, ins, outs):
    """A wrapper whose only pins are clk, reset, a serial input, a capture
    strobe and a serial output: every core input comes from a shift register
    and every core output is captured into one, so the core is timed
    register to register and its I/O count does not matter."""
    in_bits, out_bits = sum(w for _, w in ins), sum(w for _, w in outs)
    p = ", ".join(f".{k}({v})" for k, v in cfg.params().items())
    conns, pos = [], 0
    for n, w in ins:
        conns.append(f"    .{n}(in_q[{pos + w - 1}:{pos}])")
        pos += w
    pos = 0
    for n, w in outs:
        conns.append(f"    .{n}(out_w[{pos + w - 1}:{pos}])")
        pos += w
    return f"""// Generated by scripts/synth.py: serialised I/O around dsh_mmu for the FPGA fit.
`default_nettype none
module dsh_fpga_wrap (
  input  wire clk_i,
  input  wire rst_ni,
  input  wire sin_i,   // serial input, shifted in every cycle
  input  wire cap_i,   // 1: capture the core outputs, 0: shift them out
  output wire sout_o
);
  localparam integer InW = {max(in_bits, 2)};
  localparam integer OutW = {max(out_bits, 2)};
  reg  [InW-1:0]  in_q;
  reg  [OutW-1:0] out_q;
  wire [OutW-1:0] out_w;
  always @(posedge clk_i) in_q <= {{in_q[InW-2:0], sin_i}};
  always @(posedge clk_i) out_q <= cap_i ? out_w : {{out_q[OutW-2:0], 1'b0}};
  assign sout_o = out_q[OutW-1];
  dsh_mmu #({p}) u_mmu (
    .clk_i(clk_i), .rst_ni(rst_ni),
{(","+chr(10)).join(conns)}
  );
endmodule
`default_nettype wire
"""


# -------------------------------------------------------------------- checks
def load_limits(path):
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise UsageError(f"--limits {path}: is a directory, expected a JSON file")
    except OSError as e:
        raise UsageError(f"--limits {path}: cannot read it: {e.strerror}")
    except ValueError as e:
        raise UsageError(f"--limits {path}: not valid JSON ({e})")


def evaluate_checks(res, checks, limits):
    """Returns {check: (status, detail)}, status pass|fail|skip."""
    out = {}
    g = res.get("generic") or {}
    asic = res.get("asic")
    rec = (limits.get("configs") or {}).get(res["config"]["name"], {})
    for c in checks:
        if res["status"] != "ok":
            out[c] = ("fail", "flow failed: " + "; ".join(res["errors"]))
        elif c == "latch":
            n = g.get("latch_cells", 0) + len(g.get("latch_signals", []))
            out[c] = (("fail", f"{g['latch_cells']} latch cells, inferred for: "
                       + ", ".join(g["latch_signals"][:10]))
                      if n else ("pass", "no latch inferred"))
        elif c == "yosys-check":
            n = g.get("check_problems", 0)
            out[c] = (("fail", f"{n} problems: " + " | ".join(g["check_messages"][:5]))
                      if n else ("pass", "Yosys check: 0 problems"))
        elif c == "timing":
            if not asic:
                out[c] = ("skip", res.get("asic_skipped", "no ASIC result (asic mode only)"))
            elif asic["worst_slack_ns"] < 0:
                out[c] = ("fail", f"worst slack {asic['worst_slack_ns']:.3f} ns at "
                          f"{asic['period_ns']} ns ({asic['target_mhz']} MHz); max clock "
                          f"{asic['fmax_mhz']} MHz")
            else:
                out[c] = ("pass", f"worst slack {asic['worst_slack_ns']:.3f} ns at "
                          f"{asic['period_ns']} ns")
        elif c == "area":
            if asic:
                lim = (rec.get("asic") or {})
                if lim.get("library") != asic["library"] or "area_limit_um2" not in lim:
                    out[c] = ("skip", f"no recorded area limit for {res['config']['name']} "
                              f"with library {asic['library']}")
                elif asic["area_um2"] > lim["area_limit_um2"]:
                    out[c] = ("fail", f"area {asic['area_um2']:.0f} um2 > limit "
                              f"{lim['area_limit_um2']:.0f} um2 (recorded {lim.get('area_um2')})")
                else:
                    out[c] = ("pass", f"area {asic['area_um2']:.0f} um2 <= limit "
                              f"{lim['area_limit_um2']:.0f} um2")
            else:
                lim = rec.get("generic") or {}
                if "transistors_limit" not in lim:
                    out[c] = ("skip", f"no recorded generic limit for {res['config']['name']}")
                elif (g.get("transistors") or 0) > lim["transistors_limit"]:
                    out[c] = ("fail", f"{g['transistors']} transistors > limit "
                              f"{lim['transistors_limit']}")
                else:
                    out[c] = ("pass", f"{g['transistors']} transistors <= limit "
                              f"{lim['transistors_limit']}")
    return out


def record_limits(res, path, margin):
    data = load_limits(path) or {}
    data.setdefault("about", "Recorded synthesis figures and limits of dsh_mmu, checked by the "
                    "synth/* CTest tests (scripts/synth.py --check area,timing). Limits are the "
                    "measured value plus a margin; update with scripts/synth.py ... "
                    "--record-limits after an intended change.")
    cfg = res["config"]["name"]
    entry = data.setdefault("configs", {}).setdefault(cfg, {})
    tools = res.get("tools", {})
    g = res.get("generic")
    if g:
        entry["generic"] = {"transistors": g["transistors"],
                            "transistors_limit": int(g["transistors"] * (1 + margin)),
                            "cells": g["cells"], "flops": g["flops"],
                            "logic_depth": g["logic_depth"], "date": res["date"],
                            "yosys": tools.get("yosys")}
    a = res.get("asic")
    if a:
        entry["asic"] = {"library": a["library"], "period_ns": a["period_ns"],
                         "area_um2": round(a["area_um2"], 1),
                         "area_limit_um2": round(a["area_um2"] * (1 + margin), 1),
                         "worst_slack_ns": a["worst_slack_ns"], "fmax_mhz": a["fmax_mhz"],
                         "cells": a["cells"], "flops": a["flops"], "date": res["date"],
                         "yosys": tools.get("yosys"), "sta": tools.get("sta")}
    data["configs"] = dict(sorted(data["configs"].items()))
    write_atomically(path, json.dumps(data, indent=2) + "\n")
    say(f"recorded {cfg} in {path} (margin {margin:.0%})")


# ------------------------------------------------------------------ printing
def summary_lines(res):
    c = res["config"]
    lines = [f"dsh_mmu {c['name']}: NumPorts={c['NumPorts']} NumQueues={c['NumQueues']} "
             f"CellW={c['CellW']} SizeW={c['SizeW']} CntW={c['CntW']} "
             f"{'DSH' if c['Dsh'] else 'SIH'} ThreshLatency={c['ThreshLatency']}  [{res['mode']}]"]
    if res["status"] != "ok":
        lines += [f"  ERROR: {e}" for e in res["errors"]]
    g = res.get("generic")
    if g:
        lines.append(f"  generic: {g['cells']} cells, {g['flops']} flops, "
                     f"{g['transistors']} transistors (cmos est., {g['transistors_flops']} in flops), "
                     f"logic depth {g['logic_depth']}, latches {g['latch_cells']}, "
                     f"check problems {g['check_problems']}")
    a = res.get("asic")
    if a:
        lines.append(f"  asic ({a['library']}): area {a['area_um2']:.0f} um2 "
                     f"(flops {a['seq_area_um2']:.0f}, logic {a['comb_area_um2']:.0f}), "
                     f"{a['cells']} cells, {a['flops']} flops")
        if "worst_slack_ns" in a:
            cp = a["critical_path"]
            lines.append(f"  timing @ {a['period_ns']} ns ({a['target_mhz']} MHz): worst slack "
                         f"{a['worst_slack_ns']:.3f} ns, TNS {a['tns_ns']:.1f} ns, hold slack "
                         f"{a['hold_slack_ns']:.3f} ns -> max clock {a['fmax_mhz']} MHz "
                         f"({'met' if a['timing_met'] else 'VIOLATED'})")
            lines.append(f"  critical path: {cp['startpoint']} -> {cp['endpoint']}, "
                         f"{cp['stages']} cells, arrival {cp['arrival_ns']} ns")
            rp = a.get("reg2reg_path") or {}
            if rp.get("slack_ns") is not None:
                lines.append(f"  reg-to-reg: slack {rp['slack_ns']:.3f} ns, max clock "
                             f"{a.get('reg2reg_fmax_mhz')} MHz, {rp['stages']} cells")
    elif res.get("asic_skipped"):
        lines.append(f"  asic: skipped ({res['asic_skipped']})")
    f = res.get("fpga")
    if f:
        if f.get("fits"):
            lines.append(f"  fpga ({f['device']}/{f['package']}, io {f['io_mode']}): "
                         f"{f['luts']} LUT4, {f['flops']} flops, {f.get('lcs_used')} / "
                         f"{f['lcs_available']} LCs, max {f['fmax_mhz']} MHz "
                         f"(target {f['target_mhz']})")
        else:
            extra = f" ({f['luts']} LUT4, {f['flops']} flops)" if "luts" in f else ""
            lines.append(f"  fpga ({f['device']}/{f['package']}): {f.get('reason')}{extra}")
    st = res.get("steps_s", {})
    if st:
        lines.append("  time: " + ", ".join(f"{k} {fmt_s(v)}" for k, v in st.items()))
    return lines


# ------------------------------------------------------------------- report
def row_of(res):
    c, g, a = res["config"], res.get("generic") or {}, res.get("asic") or {}
    return {
        "config": c["name"], "scheme": c["scheme"], "ports": c["NumPorts"],
        "queues": c["NumQueues"], "pq": c["NumPorts"] * c["NumQueues"],
        "status": res["status"],
        "area_um2": a.get("area_um2"), "seq_area_um2": a.get("seq_area_um2"),
        "cells": a.get("cells", g.get("cells")), "flops": a.get("flops", g.get("flops")),
        "generic_cells": g.get("cells"), "transistors": g.get("transistors"),
        "logic_depth": g.get("logic_depth"), "period_ns": a.get("period_ns"),
        "worst_slack_ns": a.get("worst_slack_ns"), "tns_ns": a.get("tns_ns"),
        "fmax_mhz": a.get("fmax_mhz"), "reg2reg_fmax_mhz": a.get("reg2reg_fmax_mhz"),
        "crit_stages": (a.get("critical_path") or {}).get("stages"),
        "crit_start": (a.get("critical_path") or {}).get("startpoint"),
        "crit_end": (a.get("critical_path") or {}).get("endpoint"),
        "latches": g.get("latch_cells"), "check_problems": g.get("check_problems"),
        "runtime_s": res.get("steps_s", {}).get("total"),
    }


def write_report(results, out, args, mode):
    rows = [row_of(r) for r in results]
    rows.sort(key=lambda r: (r["pq"], r["ports"], r["scheme"]))
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=list(rows[0].keys()))
    w.writeheader()
    w.writerows(rows)
    write_atomically(out / "report.csv", buf.getvalue())
    size_key = "area_um2" if mode == "asic" else "transistors"
    unit = "um2" if mode == "asic" else "transistors"
    md = [f"# dsh_mmu synthesis sweep ({mode})", "",
          f"Generated by `scripts/synth.py report` on {datetime.date.today().isoformat()}; "
          f"CellW={args.cell_w}, SizeW={args.size_w}, CntW={args.cnt_w}, "
          f"ThreshLatency={args.latency}."]
    if mode == "asic":
        lib = results[0].get("asic", {}).get("library") if results else "?"
        md.append(f"Library {lib}, target clock {args.period} ns "
                  f"({1000 / args.period:.0f} MHz), input/output delay "
                  f"{args.input_delay}/{args.output_delay} of the period.")
    md.append(f"Tools: {tool_version('yosys')}" + (f"; OpenSTA {tool_version('sta')}"
                                                    if mode == "asic" else "") + ".")
    rtl = rtl_identity()
    md.append(f"RTL: {rtl['manifest']} (sha1 {rtl['sha1']}"
              + (f", git {rtl['git']}" if "git" in rtl else "")
              + (", with uncommitted RTL changes" if rtl.get("rtl_modified") else "") + ").")
    md += ["", "| config | P×Q | area µm² | flop area µm² | cells | flops | transistors (cmos est.) "
           "| depth | worst slack ns | TNS ns | max clock MHz | reg2reg MHz | runtime |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    f = lambda v, d=0: "-" if v is None else (f"{v:,.{d}f}" if isinstance(v, float) else f"{v:,}")
    for r in rows:
        md.append(f"| {r['config']}{'' if r['status'] == 'ok' else ' (' + r['status'] + ')'} "
                  f"| {r['pq']} | {f(r['area_um2'])} | {f(r['seq_area_um2'])} | {f(r['cells'])} "
                  f"| {f(r['flops'])} | {f(r['transistors'])} | {f(r['logic_depth'])} "
                  f"| {f(r['worst_slack_ns'], 3)} | {f(r['tns_ns'], 0)} | {f(r['fmax_mhz'], 1)} "
                  f"| {f(r['reg2reg_fmax_mhz'], 1)} | {fmt_s(r['runtime_s'])} |")
    # DSH over SIH
    md += ["", f"## DSH over SIH ({unit})", "",
           "| P×Q | SIH | DSH | DSH extra | depth SIH → DSH | max clock SIH → DSH MHz |",
           "|---|---:|---:|---:|---|---|"]
    by = {(r["ports"], r["queues"], r["scheme"]): r for r in rows}
    for p, q in sorted({(r["ports"], r["queues"]) for r in rows}, key=lambda x: x[0] * x[1]):
        s, d = by.get((p, q, "sih")), by.get((p, q, "dsh"))
        if not (s and d and s.get(size_key) and d.get(size_key)):
            continue
        extra = 100.0 * (d[size_key] / s[size_key] - 1.0)
        md.append(f"| {p}×{q} | {f(s[size_key])} | {f(d[size_key])} | {extra:+.1f} % "
                  f"| {f(s['logic_depth'])} → {f(d['logic_depth'])} "
                  f"| {f(s['fmax_mhz'], 1)} → {f(d['fmax_mhz'], 1)} |")
    # growth with P×Q
    md += ["", "## Growth with ports × queues", ""]
    for scheme in ("sih", "dsh"):
        pts = [(r["pq"], r[size_key], r["logic_depth"]) for r in rows
               if r["scheme"] == scheme and r[size_key]]
        if len(pts) < 2:
            continue
        n = len(pts)
        mx, my = sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n
        sxx = sum((p[0] - mx) ** 2 for p in pts)
        slope = sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx else 0.0
        icpt = my - slope * mx
        per = ", ".join(f"{p[0]}: {p[1] / p[0]:,.0f}" for p in sorted(pts))
        md.append(f"- {scheme.upper()}: {unit} ≈ {slope:,.0f} × P·Q + {icpt:,.0f} "
                  f"(least squares); per queue {per}.")
        dpts = [(p[0], p[2]) for p in sorted(pts) if p[2]]
        if len(dpts) >= 2:
            md.append(f"  Logic depth: " + ", ".join(f"P·Q={a}: {b}" for a, b in dpts)
                      + f" (log2 P·Q from {math.log2(dpts[0][0]):.1f} to "
                      f"{math.log2(dpts[-1][0]):.1f}).")
    crit = [r for r in rows if r["crit_start"]]
    if crit:
        md += ["", "## Critical paths", ""]
        for r in crit:
            md.append(f"- {r['config']}: {r['crit_start']} → {r['crit_end']}, "
                      f"{r['crit_stages']} cells")
    md += ["", "Figures: see docs/synthesis.md. Per-configuration logs and summary.json are in "
           "the sub-directories of this folder."]
    write_atomically(out / "report.md", "\n".join(md) + "\n")


# ---------------------------------------------------------------------- CLI
def positive_float(opt):
    def conv(s):
        try:
            v = float(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{opt} {s!r} is not a number")
        if not v > 0:
            raise argparse.ArgumentTypeError(f"{opt} {s} must be > 0")
        return v
    return conv


def fraction(opt):
    def conv(s):
        try:
            v = float(s)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{opt} {s!r} is not a number")
        if not 0 <= v < 1:
            raise argparse.ArgumentTypeError(f"{opt} {s} must be in [0, 1)")
        return v
    return conv


def build_parser():
    p = argparse.ArgumentParser(
        prog="synth.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__,
        epilog="Examples:\n"
               "  scripts/synth.py generic --ports 4 --queues 4 --scheme dsh\n"
               "  scripts/synth.py asic --ports 32 --queues 7 --scheme dsh --period 4\n"
               "  scripts/synth.py fpga --ports 2 --queues 2 --fpga-freq 50\n"
               "  scripts/synth.py report --jobs 2\n"
               "  scripts/synth.py asic --ports 4 --queues 4 --check timing,area --reuse\n"
               "See docs/synthesis.md.")
    p.add_argument("mode", choices=["generic", "asic", "fpga", "report"], help="flow to run")
    g = p.add_argument_group("configuration (dsh_mmu parameters)")
    g.add_argument("--ports", type=int, default=4, metavar="N", help="NumPorts, 1..1024 (default 4)")
    g.add_argument("--queues", type=int, default=4, metavar="N", help="NumQueues, 1..64 (default 4)")
    g.add_argument("--cell-w", type=int, default=20, metavar="N", help="CellW, 4..40 (default 20)")
    g.add_argument("--size-w", type=int, default=8, metavar="N", help="SizeW, 1..CellW (default 8)")
    g.add_argument("--cnt-w", type=int, default=32, metavar="N", help="CntW, 1..64 (default 32)")
    g.add_argument("--scheme", choices=["sih", "dsh"], default="dsh",
                   help="Dsh parameter: dsh (1) or sih (0); default dsh")
    g.add_argument("--latency", type=int, default=2, metavar="N",
                   help="ThreshLatency, 1..3 (default 2)")
    t = p.add_argument_group("asic")
    t.add_argument("--liberty", metavar="FILE",
                   help="Liberty file, plain or .gz (default $DSH_LIBERTY, else the committed sky130 HD "
                        f"typical library {DEFAULT_LIBERTY.relative_to(ROOT)})")
    t.add_argument("--period", default="4.0", metavar="NS",
                   help="target clock period in ns (default 4.0, i.e. 250 MHz), or 'recorded': "
                        "the target recorded for the configuration in --limits")
    t.add_argument("--input-delay", type=fraction("--input-delay"), default=0.2, metavar="FRAC",
                   help="input delay as a fraction of the period (default 0.2)")
    t.add_argument("--output-delay", type=fraction("--output-delay"), default=0.2, metavar="FRAC",
                   help="output delay as a fraction of the period (default 0.2)")
    t.add_argument("--uncertainty", type=float, default=0.0, metavar="NS",
                   help="setup clock uncertainty in ns (default 0)")
    t.add_argument("--driving-cell", metavar="CELL",
                   help="Liberty cell driving the inputs (default: the second-smallest buffer)")
    t.add_argument("--output-load", type=positive_float("--output-load"), metavar="CAP",
                   help="output load in library units (default: 4 input pins of the driving cell)")
    t.add_argument("--abc-script", choices=sorted(ABC_SCRIPTS), default="delay",
                   help="ABC script of the timing-driven mapping: delay (default; rebalances for "
                        "depth and sizes gates) or yosys (Yosys's own abc -D script)")
    t.add_argument("--time-cfg", action="store_true",
                   help="time paths from cfg_* too (no false path on static configuration)")
    t.add_argument("--dont-use", action="append", default=[], metavar="GLOB",
                   help="exclude Liberty cells matching GLOB from mapping (repeatable; added to "
                        f"the defaults {' '.join(DEFAULT_DONT_USE)})")
    t.add_argument("--no-default-dont-use", action="store_true",
                   help="do not exclude the default dont-use cells")
    f = p.add_argument_group("fpga")
    f.add_argument("--device", choices=sorted(ICE40), default="hx8k", help="iCE40 device (default hx8k)")
    f.add_argument("--package", default=None, help="package (default ct256 for hx8k, tq144 for hx1k, sg48 for up5k)")
    f.add_argument("--fpga-freq", type=positive_float("--fpga-freq"), default=50.0, metavar="MHZ",
                   help="nextpnr target frequency in MHz (default 50)")
    f.add_argument("--fpga-io", choices=["wrap", "direct"], default="wrap",
                   help="wrap: serialise the I/O in a generated wrapper (5 pins); direct: "
                        "dsh_mmu's ports on pins, reported as not fitting when too many (default wrap)")
    r = p.add_argument_group("report")
    r.add_argument("--configs", metavar="LIST",
                   help="sweep as PxQ[,PxQ...] (default 4x4,8x8,32x7,64x8), both schemes")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help=f"configurations in parallel (default {os.cpu_count() or 1}, the cores)")
    r.add_argument("--report-mode", choices=["auto", "asic", "generic"], default="auto",
                   help="flow per configuration: asic when a Liberty file is found (auto)")
    c = p.add_argument_group("output and checks")
    c.add_argument("--out", metavar="DIR",
                   help="output directory (default out/synth/<mode>/<config>, report: out/synth)")
    c.add_argument("--check", metavar="LIST",
                   help="comma list of latch, yosys-check, timing, area, all, or none: exit 1 if one "
                        "fails, 77 if one is skipped (default: latch,yosys-check; fpga: none)")
    c.add_argument("--manifest", default=str(MANIFEST), metavar="FILE",
                   help="source manifest (.f: one file a line, relative to it, // comments); "
                        "default %(default)s")
    c.add_argument("--limits", default=str(LIMITS), metavar="FILE",
                   help="recorded limits for area and the timing target (default %(default)s)")
    c.add_argument("--reuse", action="store_true",
                   help="reuse summary.json in --out when its inputs (RTL, SDC, script, options) are unchanged")
    c.add_argument("--liberty-optional", action="store_true",
                   help="asic mode without a Liberty file: run generic and mark timing/area skipped "
                        "instead of failing")
    c.add_argument("--record-limits", action="store_true",
                   help="write this run's figures into --limits as the new recorded values: "
                        "area and transistor limits at +--margin, the target period, date and "
                        "tool versions")
    c.add_argument("--margin", type=fraction("--margin"), default=0.10, metavar="FRAC",
                   help="margin of the recorded limits over the measured value (default 0.10)")
    c.add_argument("--timeout", type=positive_float("--timeout"), metavar="MIN",
                   help="stop a tool that runs longer than MIN minutes (the run then fails "
                        "with 'timed out'); default: no limit")
    c.add_argument("--quiet", action="store_true", help="print only the summary")
    return p


def config_from_args(a, ports=None, queues=None, scheme=None):
    cfg = Config(ports if ports is not None else a.ports, queues if queues is not None else a.queues,
                 scheme or a.scheme, a.cell_w, a.size_w, a.cnt_w, a.latency)
    validate_config(cfg)
    return cfg


def resolve_liberty(a, required):
    cand = a.liberty or os.environ.get("DSH_LIBERTY")
    if cand:
        if not Path(cand).is_file():
            raise UsageError(f"--liberty {cand}: no such file")
        return Path(cand)
    if DEFAULT_LIBERTY.is_file():
        return DEFAULT_LIBERTY
    if required:
        raise UsageError(f"--liberty not given and the default {DEFAULT_LIBERTY} is not present")
    return None


def prepare_liberty(a, out_root):
    patterns = ([] if a.no_default_dont_use else DEFAULT_DONT_USE) + a.dont_use
    t0 = time.monotonic()
    path, removed = Liberty.prepare(a.liberty, out_root, patterns)
    lib = Liberty(path)
    return lib, removed, time.monotonic() - t0


def liberty_cache():
    """Where the plain-text, filtered Liberty copies go (shared by all runs)."""
    return Path(os.environ.get("DSH_SYNTH_CACHE", ROOT / "out" / "synth" / ".liberty"))


def resolve_period(text, recorded, name, limits_path):
    if str(text) == "recorded":
        if "period_ns" not in recorded:
            raise UsageError(f"--period recorded: no target period recorded for {name} "
                             f"in {limits_path}")
        return float(recorded["period_ns"])
    try:
        v = float(text)
    except ValueError:
        raise UsageError(f"--period {text!r} is neither a number of ns nor 'recorded'")
    if not v > 0:
        raise UsageError(f"--period {text} must be > 0 ns")
    return v


def parse_checks(s):
    """None: the default checks; 'none': no check."""
    if s is None:
        return None
    if s.strip() == "none":
        return []
    valid = ["latch", "yosys-check", "timing", "area"]
    items = [x.strip() for x in s.split(",") if x.strip()]
    if "all" in items:
        return valid
    for x in items:
        if x not in valid:
            raise UsageError(f"--check {x}: unknown check (valid: {', '.join(valid)}, all)")
    return items


def main(argv=None):
    import signal
    signal.signal(signal.SIGTERM, _on_signal)
    signal.signal(signal.SIGINT, _on_signal)
    p = build_parser()
    a = p.parse_args(argv)
    try:
        return run_main(a)
    except UsageError as e:
        print(f"synth.py: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except ToolError as e:
        print(f"synth.py: error: {e}", file=sys.stderr)
        return EXIT_TOOL
    except OSError as e:  # an I/O failure the checks above did not foresee: one line, no traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"synth.py: error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_TOOL
    except KeyboardInterrupt:
        return 130


def run_main(a):
    if not Path(a.manifest).is_file():
        raise UsageError(f"--manifest {a.manifest}: no such file")
    set_manifest(a.manifest)
    checks = parse_checks(a.check)
    if a.jobs < 1:
        raise UsageError(f"--jobs {a.jobs} must be at least 1")
    if a.jobs > 256:
        raise UsageError(f"--jobs {a.jobs} is out of range 1..256")
    if (str(a.limits) != str(LIMITS) and not a.record_limits and not Path(a.limits).exists()):
        raise UsageError(f"--limits {a.limits}: no such file (without --limits: {LIMITS}; "
                         "--record-limits creates it)")
    if a.package is None:
        a.package = {"hx8k": "ct256", "hx1k": "tq144", "up5k": "sg48"}[a.device]
    if a.uncertainty < 0:
        raise UsageError(f"--uncertainty {a.uncertainty} must be >= 0")
    if a.configs is not None and a.mode != "report":
        raise UsageError(f"--configs is for the report mode, not {a.mode}")
    if a.out is not None:
        check_out_dir("--out", a.out)
    limits = load_limits(a.limits)
    if a.record_limits:
        check_out_file("--limits", a.limits)
    if a.liberty is not None:
        resolve_liberty(a, required=True)
    need_tool("yosys")
    if a.mode == "report":
        return run_report(a, limits)

    cfg = config_from_args(a)
    rec = (limits.get("configs") or {}).get(cfg.name, {})
    a.period = resolve_period(a.period, rec.get("asic") or {}, cfg.name, a.limits)
    out = Path(a.out).resolve() if a.out else ROOT / "out" / "synth" / a.mode / cfg.name
    check_out_dir("--out", out)
    mode, lib, skipped = a.mode, None, None
    if mode == "asic":
        lp = resolve_liberty(a, required=not a.liberty_optional)
        if lp is None:
            skipped = f"no Liberty file (default {DEFAULT_LIBERTY} not present, no --liberty)"
            say(f"asic: {skipped}; running the generic flow only")
            mode = "generic"
        else:
            a.liberty = lp
            need_tool("sta")
            lib, removed, sec = prepare_liberty(a, liberty_cache())
    run = Run(cfg, mode, out, a, lib=lib, quiet=a.quiet)
    if lib:
        run.removed = removed
    res = run.execute()
    if lib:
        res["steps_s"].setdefault("liberty_prep", round(sec, 2))
    if skipped:
        res["asic_skipped"] = skipped
        write_atomically(out / "summary.json", json.dumps(res, indent=2) + "\n")
    for ln in summary_lines(res):
        print(ln)
    print(f"  summary: {out / 'summary.json'}")
    if res["status"] != "ok":
        return EXIT_TOOL
    if checks is None:
        checks = ["latch", "yosys-check"] if a.mode != "fpga" else []
    results = evaluate_checks(res, checks, limits)
    res["checks"] = {k: {"status": s, "detail": d} for k, (s, d) in results.items()}
    write_atomically(out / "summary.json", json.dumps(res, indent=2) + "\n")
    if a.record_limits:
        record_limits(res, a.limits, a.margin)
    rc = EXIT_OK
    for k, (s, d) in results.items():
        print(f"  check {k}: {s.upper()} - {d}")
        if s == "fail":
            rc = EXIT_FAIL
        elif s == "skip" and rc == EXIT_OK:
            rc = EXIT_SKIP
    return rc


def run_report(a, limits):
    out = Path(a.out).resolve() if a.out else ROOT / "out" / "synth"
    check_out_dir("--out", out)
    a.period = resolve_period(a.period, {}, "report", a.limits)
    sizes = SWEEP
    if a.configs is not None:
        sizes = []
        if not a.configs.strip():
            raise UsageError("--configs '': expected a list PxQ[,PxQ...], e.g. 32x7,8x8 (without --configs: the "
                             "full sweep)")
        for item in a.configs.split(","):
            m = re.fullmatch(r"\s*(\d+)x(\d+)\s*", item)
            if not m:
                raise UsageError(f"--configs {item!r}: expected PxQ, e.g. 32x7")
            sizes.append((int(m.group(1)), int(m.group(2))))
    cfgs = [config_from_args(a, p, q, s) for p, q in sizes for s in ("sih", "dsh")]
    mode, lib, removed = a.report_mode, None, []
    if mode in ("auto", "asic"):
        lp = resolve_liberty(a, required=(mode == "asic"))
        if lp is None:
            say(f"report: no Liberty file ({DEFAULT_LIBERTY} not present): generic sweep")
            mode = "generic"
        else:
            a.liberty = lp
            need_tool("sta")
            mode = "asic"
            lib, removed, _ = prepare_liberty(a, liberty_cache())
    # largest first: the long runs start at once and the small ones fill in
    cfgs.sort(key=lambda c: -(c.ports * c.queues))
    say(f"report: {len(cfgs)} configurations, mode {mode}, {a.jobs} in parallel, "
        f"out {out}" + (f", target {a.period} ns" if mode == "asic" else ""))
    runs = []
    for c in cfgs:
        r = Run(c, mode, out / c.name, a, lib=lib, quiet=True)
        r.removed = removed
        runs.append(r)
    started = {}
    t_all = time.monotonic()
    stop = threading.Event()

    def heartbeat():
        while not stop.wait(60):
            busy = []
            for r in runs:
                if r in started and "total" not in r.res["steps_s"]:
                    st = r.out / "stamps.txt"
                    last = st.read_text().split()[-2] if st.is_file() and st.read_text().split() else "start"
                    busy.append(f"{r.cfg.name} ({fmt_s(time.monotonic() - started[r])}, after {last})")
            if busy:
                say(f"report: running {', '.join(busy)}")

    def work(r):
        started[r] = time.monotonic()
        return r.execute()

    hb = threading.Thread(target=heartbeat, daemon=True)
    hb.start()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(work, r): r for r in runs}
        for i, fu in enumerate(concurrent.futures.as_completed(futs), 1):
            r = futs[fu]
            res = fu.result()
            results.append(res)
            row = row_of(res)
            if res["status"] != "ok":
                say(f"[{i}/{len(runs)}] {r.cfg.name}: ERROR {'; '.join(res['errors'])}")
            elif mode == "asic":
                say(f"[{i}/{len(runs)}] {r.cfg.name}: area {row['area_um2']:,.0f} um2, "
                    f"{row['cells']:,} cells, {row['flops']:,} flops, depth {row['logic_depth']}, "
                    f"slack {row['worst_slack_ns']:.3f} ns, max {row['fmax_mhz']} MHz "
                    f"({fmt_s(row['runtime_s'])})")
            else:
                say(f"[{i}/{len(runs)}] {r.cfg.name}: {row['cells']:,} cells, {row['flops']:,} "
                    f"flops, {row['transistors']:,} transistors, depth {row['logic_depth']} "
                    f"({fmt_s(row['runtime_s'])})")
    stop.set()
    write_report(results, out, a, mode)
    say(f"report: done in {fmt_s(time.monotonic() - t_all)}: {out / 'report.md'}, "
        f"{out / 'report.csv'}")
    return EXIT_OK if all(r["status"] == "ok" for r in results) else EXIT_TOOL


if __name__ == "__main__":
    sys.exit(main())
