# SPDX-License-Identifier: Apache-2.0
"""Yosys: the scripts of the generic and ASIC flows, the driver, and the
readers of what the scripts write (stat, check, ltp, stamps)."""

import re
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .common import TOP, ToolError, fmt_s, ys_quote
from .record import GenericResult
from .tools import need_tool, run_tool, tool_errors, tool_version

FF_TYPES = re.compile(r"^\$(_?(S?DFF|DFFE|SDFFE|SDFFCE|ALDFF|ALDFFE|DFFSR|DFFSRE|DFF)\w*|"
                      r"dff|dffe|adff|adffe|sdff|sdffe|sdffce|aldff|aldffe|dffsr|dffsre)$")
LATCH_TYPES = re.compile(r"^\$(_?DLATCH\w*|dlatch|adlatch|dlatchsr)$", re.I)
FF_SELECT = "t:$_DFF* t:$_DFFE* t:$_SDFF* t:$_SDFFE* t:$_SDFFCE* t:$_ALDFF* t:$_DFFSR* %u"

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



def abc_script_text(name, seed=0):
    """The ABC script `name` for one seed. ABC's mapping has no random seed;
    what moves its result between runs of equal logic is the order it reads
    the network in. Seed 0 is the script as it is; seed k > 0 first
    permutes the network's inputs, outputs and node order with ABC's
    `permute -S k` (the logic is unchanged), so that N seeds show the
    spread of the clock a design's mapping can land on. None for Yosys's
    own script (which has no seeds)."""
    script = ABC_SCRIPTS[name]
    if script is None or seed == 0:
        return script
    head, rest = script.split(";", 1)
    assert head.strip() == "strash", "a seeded script starts from the strashed network"
    return f"{head}; permute -S {seed};{rest}"


def seed_files(out, seed):
    """Names of one extra seed's files: its ABC script, area report, netlist."""
    o = Path(out)
    return o / f"abc_s{seed}.script", o / f"stat_liberty_s{seed}.txt", o / f"netlist_s{seed}.v"


# Files the generic part of a script writes (collect_generic reads them).
GENERIC_REPORTS = ("stat_generic.txt", "stat_cmos.txt", "check.txt", "ltp.txt")


# ------------------------------------------------------------------ scripts
def include_dirs(files):
    """-I for each directory of the sources (their `include headers)."""
    dirs = sorted({str(Path(f).parent) for f in files})
    return " ".join(f"-I{ys_quote(d)}" for d in dirs)


def front(files, cfg, top=TOP):
    """Read the sources and elaborate dsh_mmu with cfg's parameters."""
    names = " ".join(ys_quote(f) for f in files)
    ch = " ".join(f"-chparam {k} {v}" for k, v in cfg.params().items())
    return [f"read_verilog -defer -sv {include_dirs(files)} {names}", f"hierarchy -check -top {top} {ch}"]


def stamp(out, label):
    """A script line that appends '<label> <time>' to out/stamps.txt."""
    return f"!echo {label} $(date +%s.%N) >> {shlex.quote(str(Path(out) / 'stamps.txt'))}"


def cell_name(path):
    """An instance path's cell in its parent module: the last component with
    the generate blocks (gen_*) just above it, which Yosys makes part of the
    cell's name ('u_stage_exec.u_thresh_pipe*' -> 'u_thresh_pipe*',
    'gen_stats.u_stats*' -> 'gen_stats.u_stats*')."""
    parts = path.split(".")
    i = len(parts) - 1
    while i > 0 and parts[i - 1].startswith("gen_"):
        i -= 1
    return ".".join(parts[i:])


def generic_script(files, cfg, out, keep=()):
    """keep: instance paths below the top ('u_stage_exec.u_thresh_pipe*')
    kept as their own modules (`synth -flatten` then flattens everything
    else), so that power can be reported per block. Before flattening an
    instance is a cell of its parent module, selected by its name there
    (cell_name)."""
    o = Path(out)
    kept = [f"setattr -set keep_hierarchy 1 */{cell_name(pat)}" for pat in keep]
    return (front(files, cfg) + [stamp(o, "elaborate")] + kept + [
        f"synth -flatten -top {TOP} -run begin:fine",
        stamp(o, "synth_coarse"),
        f"synth -flatten -top {TOP} -run fine:check",
        stamp(o, "synth_fine"),
        f"rename -wire {FF_SELECT}",
        f"tee -q -o {ys_quote(o / 'stat_generic.txt')} stat",
        f"tee -q -o {ys_quote(o / 'stat_cmos.txt')} stat -tech cmos",
        f"tee -q -o {ys_quote(o / 'check.txt')} check",
        f"tee -q -o {ys_quote(o / 'ltp.txt')} ltp -noff",
        stamp(o, "generic_reports"),
    ])


def asic_tail(out, liberty, period_ns, buf, hi=None, lo=None, abc_script_file=None,
              seeds=1):
    """What follows generic_script in the ASIC flow: flops and logic mapped
    onto the library (liberty: its path), ties, buffers, area, netlist.
    buf: (cell, in pin, out pin); hi/lo: (cell, pin) tie cells or None;
    abc_script_file: the ABC script's path, None for Yosys's own.
    seeds > 1: the design before ABC is saved, and seeds 1..seeds-1 map it
    again, each with its own script (seed_files: abc_s<k>.script) into
    stat_liberty_s<k>.txt and netlist_s<k>.v."""
    o = Path(out)
    L = ys_quote(liberty)

    def mapping(script_file, stat_file, netlist, label):
        lines = [
            f"abc -D {period_ns * 1000:.0f} -liberty {L} -constr {ys_quote(o / 'abc.constr')}"
            + (f" -script {ys_quote(script_file)}" if script_file else ""),
            stamp(o, f"abc{label}"),
            "opt_clean -purge",
            "setundef -zero",
        ]
        if hi and lo:
            lines.append(f"hilomap -singleton -hicell {hi[0]} {hi[1]} -locell {lo[0]} {lo[1]}")
        lines += [f"insbuf -buf {buf[0]} {buf[1]} {buf[2]}", "opt_clean",
                  f"tee -q -o {ys_quote(stat_file)} stat -liberty {L}",
                  f"write_verilog -noattr -noexpr -nohex -nodec {ys_quote(netlist)}",
                  stamp(o, f"write_netlist{label}")]
        return lines

    tail = [f"dfflibmap -liberty {L}", stamp(o, "dfflibmap")]
    if seeds > 1:
        tail.append("design -save dsh_before_abc")
    tail += mapping(abc_script_file, o / "stat_liberty.txt", o / "netlist.v", "")
    for k in range(1, seeds):
        script_file, stat_file, netlist = seed_files(o, k)
        tail += ["design -load dsh_before_abc"] + mapping(script_file, stat_file, netlist,
                                                           f"_s{k}")
    return tail


def abc_constr(driving_cell, load_ff):
    """ABC's -constr file: the same input driver and output load as the SDC."""
    return f"set_driving_cell {driving_cell}\nset_load {load_ff:.3f}\n"


def ports_script(files, cfg, ports_file="ports.txt"):
    """Elaborate and write dsh_mmu's port list (portlist)."""
    return front(files, cfg) + [f"tee -q -o {ports_file} portlist"]


# ------------------------------------------------------------------ driver
def run_yosys(script_lines, out, res, *, name="yosys", timeout_min=None, log=None):
    """Run a Yosys script in out (script name.ys, log name.log). The version
    goes into res.tools, step times into res.steps_s (also when it fails).
    ToolError on failure or timeout."""
    need_tool("yosys")
    res.tools["yosys"] = tool_version("yosys")
    out = Path(out)
    ys = out / f"{name}.ys"
    ys.write_text("\n".join(script_lines) + "\n")
    (out / "stamps.txt").unlink(missing_ok=True)
    if log:
        log(f"{name}: running ({ys.name}, log {name}.log)")
    t0 = time.time()
    rc, sec = run_tool(["yosys", "-q", "-l", str(out / f"{name}.log"), "-s", str(ys)],
                       out / f"{name}.stdout", out,
                       timeout=timeout_min * 60 if timeout_min else None)
    res.steps_s.update(read_stamps(out / "stamps.txt", t0))
    res.steps_s[f"{name}.total"] = round(sec, 2)
    if rc != 0:
        errs = tool_errors(out / f"{name}.log") or tool_errors(out / f"{name}.stdout")
        log_path = out / f"{name}.log"
        raise ToolError(f"{name} failed (exit {rc}) after {fmt_s(sec)}: "
                        + ("; ".join(errs) + f" (log {log_path})" if errs else f"see {log_path}"))
    if log:
        log(f"{name}: done in {fmt_s(sec)}")


# ------------------------------------------------------------------ readers
def read_stamps(path, t_start):
    """{'yosys.<label>': seconds since the previous stamp} from stamps.txt."""
    steps, prev = {}, t_start
    f = Path(path)
    if f.is_file():
        for line in f.read_text().split("\n"):
            parts = line.split()
            if len(parts) == 2:
                t = float(parts[1])
                steps[f"yosys.{parts[0]}"] = round(t - prev, 2)
                prev = t
    return steps


@dataclass
class StatReport:
    """A Yosys stat report: the top's cells (total, per type) and area."""
    cells: Optional[int] = None
    types: dict = field(default_factory=dict)
    area: Optional[float] = None
    transistors: Optional[int] = None
    transistors_partial: bool = False


def parse_stat(path):
    return parse_stat_text(Path(path).read_text(errors="replace"))


def parse_stat_text(text):
    # the last module block is the top after flattening
    total = re.findall(r"Number of cells:\s+(\d+)", text)
    types = {}
    block = text.split("Number of cells:")[-1] if total else ""
    for m in re.finditer(r"^\s+(\S+)\s+(\d+)\s*$", block, re.M):
        types[m.group(1)] = int(m.group(2))
    area = re.findall(r"Chip area for (?:top )?module '?\\?\S+'?:\s+([\d.]+)", text)
    tr = re.search(r"Estimated number of transistors:\s+(\d+)(\+?)", text)
    return StatReport(int(total[-1]) if total else None, types,
                      float(area[-1]) if area else None,
                      int(tr.group(1)) if tr else None, bool(tr and tr.group(2)))


def flop_transistors(cell_types):
    """`stat -tech cmos` leaves flip-flops out (its "+"): a static
    master-slave flop of 24 transistors, +12 for an enable mux, +4 for a
    reset or set, so that the estimate covers the whole design."""
    return sum(n * (24 + (12 if re.search(r"DFFE|SDFFCE|SDFFE|_DFFE", t) else 0)
                    + (4 if re.search(r"_(S?DFFC?E?_P[NP][01]|DFF_[NP][NP][01])", t) else 0))
               for t, n in cell_types.items() if FF_TYPES.match(t))


def collect_generic(out):
    """GenericResult from the generic part's reports in out and yosys.log."""
    o = Path(out)
    st = parse_stat(o / "stat_generic.txt")
    cmos = parse_stat(o / "stat_cmos.txt")
    log = (o / "yosys.log").read_text(errors="replace")
    latch_cells = {t: n for t, n in st.types.items() if LATCH_TYPES.match(t)}
    latch_sigs = sorted(set(re.findall(r"^Latch inferred for signal `?([^']+)'? ", log, re.M)))
    chk = (o / "check.txt").read_text(errors="replace")
    m = re.search(r"Found and reported (\d+) problems", chk)
    problems = int(m.group(1)) if m else 0
    msgs = [ln.strip() for ln in chk.splitlines() if ln.strip().startswith("Warning")][:20]
    ltp = (o / "ltp.txt").read_text(errors="replace")
    m = re.search(r"Longest topological path in \S+ \(length=(\d+)\)", ltp)
    flops = sum(n for t, n in st.types.items() if FF_TYPES.match(t))
    ff_tr = flop_transistors(st.types)
    return GenericResult(
        cells=st.cells, flops=flops,
        comb_cells=(st.cells or 0) - flops - sum(latch_cells.values()),
        cell_types=st.types, transistors=(cmos.transistors or 0) + ff_tr,
        transistors_logic=cmos.transistors, transistors_flops=ff_tr,
        logic_depth=int(m.group(1)) if m else None,
        latch_cells=sum(latch_cells.values()), latch_types=latch_cells,
        latch_signals=latch_sigs, check_problems=problems, check_messages=msgs)


def parse_portlist(text):
    """([(name, width)] inputs, outputs) from `portlist`, without clk_i, rst_ni."""
    ins, outs = [], []
    for ln in text.splitlines():
        m = re.match(r"^(input|output|inout)\s+(?:\[(\d+):(\d+)\]\s+)?(\S+)$", ln.strip())
        if not m or m.group(4) in ("clk_i", "rst_ni"):
            continue
        w = abs(int(m.group(2)) - int(m.group(3))) + 1 if m.group(2) else 1
        (ins if m.group(1) == "input" else outs).append((m.group(4), w))
    return ins, outs
