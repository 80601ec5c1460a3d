# SPDX-License-Identifier: Apache-2.0
"""Power: OpenSTA's report_power on the gate-level netlist, with switching
activity counted in a simulated workload, per block.

The blocks are the top's instances kept as their own modules in synthesis
(BLOCKS: instance name patterns, the one place to change when the RTL's
top is re-arranged); everything else, flattened into the top, is 'rest'.
Known limit: this OpenSTA's report_power crashes (SIGSEGV) on the 32x7 SIH
netlist, hierarchical or flattened, with or without activities (not on
32x7 DSH or 4x4 SIH); then each block is reported from one of two runs
that do not crash (split_power).

This OpenSTA reads no VCD or SAIF, and a user activity set on a flop's Q
pin is not propagated into the logic it drives (checked: the logic's power
does not move when every Q pin's activity goes from 0.01 to 0.5). So the
activity is applied, not propagated:
  - data inputs: their measured toggle rate and duty (set_power_activity
    -input_ports, bits of a port averaged);
  - every flop whose output net is a traced RTL register bit: that bit's
    toggle rate and duty, on every pin of the net (driver and loads);
  - every other pin of a block's cells: the mean toggle rate of the
    block's traced signals (registers and wires in its scopes), duty 0.5.
The clock pins keep the clock's own activity (2 edges a cycle)."""

import fnmatch
from dataclasses import dataclass
import re
import shutil
from pathlib import Path
from typing import Optional

from .activity import read_vcd
from .common import ROOT, TOP, ToolError, UsageError
from .tools import run_tool

# (block, instance paths below the top, '.'-separated, glob patterns);
# first match wins.
BLOCKS = [
    ("threshold pipeline", ("u_stage_exec.u_thresh_pipe*",)),
    ("records", ("u_store*",)),
    ("statistics", ("gen_stats.u_stats*",)),  # with Stats = 1 only
]
REST = "rest (top: admission, FSMs, forwarding, I/O registers)"
DEFAULT_SIM = ROOT / "build" / "tools" / "dsh-run"
DEFAULT_S1_SIM = ROOT / "build" / "systemc" / "dsh-sim"
DEFAULT_S1_REPLAY = ROOT / "build" / "tools" / "dsh-replay"
S1_SCENARIO = ROOT / "scenarios" / "pfc-avoidance.toml"
# S1's chip with one lane: the RTL build with a trace (the FST this flow
# reads) and the one-lane stimulus format are those of one lane.
S1_CHIP = {"ports": 32, "queues": 7, "latency": 2, "cell_w": 20, "size_w": 8, "cnt_w": 32, "lanes": 1, "deq": 1}


def s1_applies(cfg):
    """Whether cfg is the chip of S1 (scenarios/pfc-avoidance.toml) with an RTL
    model built into dsh-replay."""
    return all(getattr(cfg, k) == v for k, v in S1_CHIP.items()) and cfg.stats == 1


def workload_of(cfg, wanted):
    """The workload --power-workload names for cfg: auto is s1 on S1's chip."""
    if wanted == "auto":
        return "s1" if s1_applies(cfg) else "random"
    if wanted == "s1" and not s1_applies(cfg):
        chip = ", ".join(f"{k} {v}" for k, v in S1_CHIP.items())
        raise UsageError(f"--power-workload s1: S1's chip is {chip} with statistics; this "
                         f"configuration ({cfg.name}) is not: use --power-workload random")
    return wanted


def keep_patterns():
    return [p for _, pats in BLOCKS for p in pats]


def block_of(name):
    """The block a cell, net or instance belongs to, from the leading
    components of its path (hierarchical 'u_store/_12_' or flattened
    'u_store.x_q[3]', 'u_stage_exec.u_thresh_pipe/_7_'), the block's own
    instance ('u_store') included."""
    parts = re.split(r"[/.]", name.lstrip("\\"))
    for blk, pats in BLOCKS:
        for n in range(1, len(parts) + 1):
            if any(fnmatch.fnmatchcase(".".join(parts[:n]), p) for p in pats):
                return blk
    return REST


# ------------------------------------------------------------ the workload
def dsh_run_config(cfg):
    """dsh-run's options for cfg: the golden model's fields that the RTL
    parameters set (the rest at dsh-run's defaults, the paper's chip)."""
    return ["--n_ports", str(cfg.ports), "--n_queues", str(cfg.queues), "--scheme", cfg.scheme,
            "--thresh_latency", str(cfg.latency)]


def simulate(cfg, out, sim, cycles, window, seed, timeout_s):
    """Run the Verilated RTL (dsh-run --backend rtl) with an FST of the last
    window cycles, convert it to VCD (fst2vcd). Returns (vcd path, command)."""
    sim = Path(sim)
    if not sim.is_file():
        raise UsageError(f"--power-sim {sim}: no such file (build it: cmake --build build "
                         "--target dsh-run)")
    if not shutil.which("fst2vcd"):
        raise ToolError("'fst2vcd' not found on PATH; install the Debian package gtkwave")
    o = Path(out)
    fst, vcd = o / "workload.fst", o / "workload.vcd"
    cmd = [str(sim), "--backend", "rtl", "-n", str(cycles), "--trace-cycles", str(window),
           "--seed", str(seed), "--fst", str(fst)] + dsh_run_config(cfg)
    rc, _ = run_tool(cmd, o / "workload.log", o, timeout=timeout_s)
    if rc != 0:
        raise ToolError(f"dsh-run failed (exit {rc}); see {o / 'workload.log'}")
    with open(vcd, "w") as f:
        rc, _ = run_tool(["fst2vcd", "-o", str(vcd), str(fst)], o / "fst2vcd.log", o,
                         timeout=timeout_s)
    if rc != 0 or vcd.stat().st_size == 0:
        raise ToolError(f"fst2vcd failed (exit {rc}); see {o / 'fst2vcd.log'}")
    shown = [Path(cmd[0]).name] + [c if not c.startswith(str(o)) else Path(c).name
                                   for c in cmd[1:]]
    return vcd, " ".join(shown)


def busiest_window(stim_path, window):
    """(first cycle, operations) of the `window` cycles holding the most
    enqueues and dequeues in a stimulus file (vector format: cycle, then the
    dequeue's and the enqueue's fields, empty when idle)."""
    cyc, ops = [], []
    with open(stim_path) as f:
        for ln in f:
            if not ln[:1].isdigit():
                continue
            v = ln.rstrip("\n").split(",")
            cyc.append(int(v[0]))
            ops.append((v[1] != "") + (v[4] != ""))
    best, best_at, total, lo = 0, 0, 0, 0
    for hi, c in enumerate(cyc):
        total += ops[hi]
        while cyc[lo] <= c - window:
            total -= ops[lo]
            lo += 1
        if total > best:
            best, best_at = total, cyc[lo]
    return best_at, best


def simulate_s1(cfg, out, tools, burst_pct, window, clock_mhz, timeout_s):
    """S1 (pfc-avoidance) at one burst with the MMU clocked at the power
    report's clock, its MMU stimulus recorded (dsh-sim --trace), then the
    busiest `window` cycles of it replayed through the Verilated RTL with an
    FST (dsh-replay), converted to VCD. Returns (vcd path, command, source
    text, (enqueues, dequeues) per cycle)."""
    sim, replay = tools
    for t, what in ((sim, "dsh-sim"), (replay, "dsh-replay")):
        if not Path(t).is_file():
            raise UsageError(f"--power-workload s1: {t} is not built (cmake --build build --target {what})")
    if not shutil.which("fst2vcd"):
        raise ToolError("'fst2vcd' not found on PATH; install the Debian package gtkwave")
    o = Path(out)
    s1_dir = o / "s1"
    shutil.rmtree(s1_dir, ignore_errors=True)
    point = f"{cfg.scheme}:{burst_pct:g}"
    ghz = f"{clock_mhz / 1000:.6g}"
    chip = ["--set", f"chip.lanes={cfg.lanes}", "--set", f"chip.deq_per_cycle={cfg.deq}",
            "--set", f"chip.mmu_clock_ghz={ghz}"]
    cmd = [str(sim), str(S1_SCENARIO), "--trace", point, "-o", str(s1_dir), "-b", "golden", *chip, "--no-plot"]
    rc, _ = run_tool(cmd, o / "workload_s1.log", o, timeout=timeout_s)
    stim = s1_dir / f"trace_{cfg.scheme}_{burst_pct:g}.stim.csv"
    if rc != 0 or not stim.is_file():
        raise ToolError(f"dsh-sim failed on the S1 point (exit {rc}); see {o / 'workload_s1.log'}")
    start, ops = busiest_window(stim, window)
    fst, vcd = o / "workload.fst", o / "workload.vcd"
    rcmd = [str(replay), str(stim), "-b", "rtl", "-o", "/dev/null", "--fst", str(fst),
            "--trace-from", str(start), "--trace-cycles", str(window)]
    rc, _ = run_tool(rcmd, o / "workload.log", o, timeout=timeout_s)
    if rc != 0:
        raise ToolError(f"dsh-replay failed (exit {rc}); see {o / 'workload.log'}")
    with open(vcd, "w"):
        pass
    rc, _ = run_tool(["fst2vcd", "-o", str(vcd), str(fst)], o / "fst2vcd.log", o, timeout=timeout_s)
    if rc != 0 or vcd.stat().st_size == 0:
        raise ToolError(f"fst2vcd failed (exit {rc}); see {o / 'fst2vcd.log'}")
    shown = (f"dsh-sim scenarios/pfc-avoidance.toml --trace {point} -b golden {' '.join(chip)}; dsh-replay {stim.name} -b rtl --fst workload.fst "
             f"--trace-from {start} --trace-cycles {window}")
    source = (f"S1 (scenarios/pfc-avoidance.toml), {cfg.scheme.upper()} at a {burst_pct:g} % burst "
              f"with the MMU clocked at {clock_mhz:g} MHz, the power's clock: its MMU stimulus "
              f"replayed through the Verilated RTL, the {window} cycles from cycle {start} "
              f"(the busiest window: {ops} enqueues and dequeues)")
    return vcd, shown, source


# ---------------------------------------------------------- the activities
def flop_net(cell_name):
    """A flop cell's RTL net, from the name `rename -wire` gave it
    ('gen_stats.u_stats.u_ppause.rd_q[26]$_DFF_P_' -> 'gen_stats.u_stats.u_ppause.rd_q[26]');
    a hierarchical instance path 'gen_stats.u_stats/x_q[3]$_DFF_P_' keeps its
    block ('gen_stats.u_stats.x_q[3]'). None for a flop without an RTL name."""
    name = cell_name.replace("\\", "").replace(" ", "")
    m = re.match(r"^(.*?)\$_[A-Z]+\w*$", name)
    if not m or m.group(1).startswith("$"):
        return None
    return m.group(1).replace("/", ".")


def block_means(act):
    """{block: mean toggles per cycle over every traced bit in its scopes}."""
    sums, counts = {}, {}
    for name, b in act.bits.items():
        blk = block_of(name) if "." in name else REST
        sums[blk] = sums.get(blk, 0) + b.toggles
        counts[blk] = counts.get(blk, 0) + 1
    return {blk: sums[blk] / counts[blk] / act.cycles for blk in sums if act.cycles}


def port_activities(act, ports):
    """{port: (activity, duty)} averaged over each input port's bits."""
    res = {}
    for p in ports:
        bits = [n for n in act.bits if n == p or re.fullmatch(re.escape(p) + r"\[\d+\]", n)]
        if bits:
            res[p] = (sum(act.activity(n) for n in bits) / len(bits),
                      sum(act.duty(n) for n in bits) / len(bits))
    return res


def tcl_quote(s):
    return "{" + s + "}"


def activity_tcl(act, input_ports, blocks_present):
    """Tcl lines applying the activities (see the module's docstring).
    blocks_present: {block: its instance name in the netlist}. The flops'
    activities go into the Tcl array dsh_act (RTL net -> {activity duty});
    dsh_apply_flops matches them to the flops by the cells' names."""
    means = block_means(act)
    lines = []
    for p, (a, d) in sorted(port_activities(act, input_ports).items()):
        lines.append(f"set_power_activity -input_ports [get_ports {tcl_quote(p)}] "
                     f"-activity {a:.6g} -duty {d:.6g}")
    # the rest first (every cell), then each block's cells over it
    if REST in means:
        lines.append(f"dsh_block_activity * {means[REST]:.6g}")
    for blk, inst in sorted(blocks_present.items()):
        if blk in means:
            lines.append(f"dsh_block_activity {tcl_quote(inst + '/*')} {means[blk]:.6g}")
    for name in sorted(act.bits):
        # registers and wires below the top (ports are set above); a name
        # Tcl cannot brace-quote is left out (no netlist flop has one)
        if "." in name and not re.search(r'[{}"\\\s]', name):
            lines.append(f"array set dsh_act {{{{{name}}} {{{act.activity(name):.6g} "
                         f"{act.duty(name):.6g}}}}}")
    lines.append("dsh_apply_flops")
    return lines


POWER_PROCS = r"""
# Every pin of the cells matching a pattern (leaf cells only: a kept
# block's instance has no Liberty cell), but those on a clock net, gets
# activity A at duty 0.5.
proc dsh_block_activity {pattern a} {
  foreach c [get_cells $pattern] {
    if {[catch {get_lib_cells -of_objects $c}]} { continue }
    foreach p [get_pins -of_objects $c] {
      set n [get_nets -quiet -of_objects $p]
      if {$n ne "" && $n ne "NULL" && [string match *clk_i [get_full_name $n]]} { continue }
      sta::set_power_pin_activity $p $a 0.5
    }
  }
}
# Flops named after their RTL net ('<block>/<net>$_DFF..._'): the traced
# bit's activity on every pin of the flop's output net. Prints how many
# flops there are and how many matched.
proc dsh_apply_flops {} {
  global dsh_act
  set flops 0
  set matched 0
  foreach c [get_cells -hierarchical *] {
    if {![regexp {^(.*)\$_[A-Z]+\w*$} [get_full_name $c] -> net]} { continue }
    incr flops
    set key [string map [list / . "\\" "" " " ""] $net]
    if {![info exists dsh_act($key)]} { continue }
    incr matched
    lassign $dsh_act($key) a d
    foreach q [get_pins -of_objects $c] {
      if {[get_property $q direction] ne "output"} { continue }
      set n [get_nets -quiet -of_objects $q]
      if {$n eq "" || $n eq "NULL"} { continue }
      foreach p [get_pins -of_objects $n] { sta::set_power_pin_activity $p $a $d }
    }
  }
  puts "DSHPOWER flops $flops matched $matched"
}
"""


def power_script(sta_head, act_lines, blocks_present):
    """power.tcl: sta_head (liberty, netlist, SDC), the activities, then
    report_power for the whole design and for every leaf cell."""
    return (sta_head + POWER_PROCS.strip("\n").splitlines() + act_lines + [
        'puts "DSHPOWER_BEGIN total"',
        "report_power -digits 4",
        'puts "DSHPOWER_END total"',
        'puts "DSHPOWER_BEGIN instances"',
        f"report_power -instances [get_cells -hierarchical *] -digits 4",
        'puts "DSHPOWER_END instances"',
    ])


def section(text, name):
    m = re.search(rf"DSHPOWER_BEGIN {name}\n(.*?)DSHPOWER_END {name}", text, re.S)
    return m.group(1) if m else ""


# ------------------------------------------------------ report_power reader
@dataclass
class PowerFigures:
    internal_w: float = 0.0
    switching_w: float = 0.0
    leakage_w: float = 0.0

    @property
    def total_w(self):
        return self.internal_w + self.switching_w + self.leakage_w

    def add(self, i, s, l):
        self.internal_w += i
        self.switching_w += s
        self.leakage_w += l

    def to_dict(self):
        return {"internal_w": self.internal_w, "switching_w": self.switching_w,
                "leakage_w": self.leakage_w, "total_w": self.total_w}


_NUM = r"(-?\d[\d.]*(?:[eE][-+]?\d+)?)"


def parse_power_groups(text):
    """{group: PowerFigures} of report_power's table (Sequential,
    Combinational, ..., Total)."""
    res = {}
    for m in re.finditer(rf"^(\w+)\s+{_NUM}\s+{_NUM}\s+{_NUM}\s+{_NUM}\s+[\d.]+%\s*$", text, re.M):
        f = PowerFigures()
        f.add(float(m.group(2)), float(m.group(3)), float(m.group(4)))
        res[m.group(1)] = f
    return res


def parse_power_instances(text):
    """[(instance, internal, switching, leakage)] of report_power -instances."""
    return [(m.group(5), float(m.group(1)), float(m.group(2)), float(m.group(3)))
            for m in re.finditer(rf"^\s*{_NUM}\s+{_NUM}\s+{_NUM}\s+{_NUM}\s+(\S.*?)\s*$",
                                 text, re.M)]


def sum_by_block(instances):
    """{block: PowerFigures} summed over report_power -instances lines."""
    res = {}
    for name, i, s, l in instances:
        res.setdefault(block_of(name), PowerFigures()).add(i, s, l)
    return res


def kept_blocks(netlist_text, lib_cells):
    """{block: instance name} of the top's instances of kept modules (not
    Liberty cells) in a netlist written by write_verilog."""
    top = netlist_text[netlist_text.rfind(f"module {TOP}("):]
    res = {}
    for mod, inst in re.findall(r"^\s+(\\?\S+)\s+(\\?[\w.\[\]$]+)\s*\(", top, re.M):
        if mod.lstrip("\\") in lib_cells or mod in ("module", "input", "output", "wire"):
            continue
        blk = block_of(inst)
        if blk != REST:
            res[blk] = inst.lstrip("\\")
    return res


def module_of(netlist_text, inst):
    """The module name of the top's instance `inst`."""
    top = netlist_text[netlist_text.rfind(f"module {TOP}("):]
    m = re.search(rf"^\s+(\\?\S+)\s+\\?{re.escape(inst)}\s*\(", top, re.M)
    return m.group(1) if m else None


def emptied_module(netlist_text, module):
    """The netlist with `module`'s cells taken out: its ports stay, so the
    instance still links, and nothing inside it loads or drives a net."""
    start = netlist_text.index(f"module {module} (" if f"module {module} (" in netlist_text
                               else f"module {module}(")
    end = netlist_text.index("endmodule", start)
    body = netlist_text[start:end]
    head_end = body.index(");") + 2
    decls = "".join(re.findall(r"(?m)^\s*(?:input|output)\b[^;]*;\n", body[head_end:]))
    return netlist_text[:start] + body[:head_end] + "\n" + decls + netlist_text[end:]


def without_top_cells(netlist_text, lib_cells):
    """The netlist with the top's own Liberty cells and assigns taken out
    (the kept blocks' instances stay)."""
    start = netlist_text.rfind(f"module {TOP}(")
    top = netlist_text[start:]

    def keep(m):
        return "" if m.group(1).lstrip("\\") in lib_cells else m.group(0)
    top = re.sub(r"(?ms)^\s+(\\?\S+)\s+\\?\S+\s*\(.*?\);\n", keep, top)
    top = re.sub(r"(?m)^\s+assign .*;\n", "", top)
    return netlist_text[:start] + top


# This OpenSTA crashes (SIGSEGV) in report_power on some netlists (32x7
# SIH) whole, but not with the records' cells or the top's cells taken out
# (docs/design/synthesis.md). Then every block is reported from a run that holds
# it: the records from the netlist without the top's cells, the others
# from the netlist without the records' cells. What that costs: a net
# crossing into the missing cells loses their pins' load, and the records'
# inputs are undriven (ideal slews); the blocks present in both runs give
# the size of that error (the summary's 'cross_check').
SPLIT_RUNS = (("without_records", "records", False), ("without_top", "records", True))


def split_power(o, text_netlist, head, act_lines, blocks, lib_cells, timeout_s):
    """Per block from the two runs of SPLIT_RUNS. Returns (per block
    PowerFigures, {block: [total W per run]} for blocks in both runs)."""
    chosen, seen = {}, {}
    for tag, blk, take_it in SPLIT_RUNS:
        if tag == "without_records":
            mod = module_of(text_netlist, blocks[blk])
            variant = emptied_module(text_netlist, mod)
        else:
            variant = without_top_cells(text_netlist, lib_cells)
        nl = o / f"netlist_{tag}.v"
        nl.write_text(variant)
        h = [ln.replace(str(o / "netlist.v"), str(nl)) for ln in head]
        tcl = o / f"power_{tag}.tcl"
        tcl.write_text("\n".join(power_script(h, act_lines, blocks)) + "\n")
        log = o / f"power_{tag}.log"
        rc, _ = run_tool(["sta", "-no_init", "-no_splash", "-exit", str(tcl)], log, o,
                         timeout=timeout_s)
        if rc != 0:
            raise ToolError(f"OpenSTA failed in report_power on the netlist {tag} too "
                            f"(exit {rc}); see {log}")
        per = sum_by_block(parse_power_instances(section(log.read_text(errors="replace"),
                                                         "instances")))
        nl.unlink()  # large; the script and log say what it was
        for b, f in per.items():
            if (b == blk) == take_it:
                chosen[b] = f
            if b != blk and f.total_w > 0:
                seen.setdefault(b, []).append(f.total_w)
    return chosen, {b: v for b, v in seen.items() if len(v) == 2}


def input_ports(act):
    """The data and configuration inputs traced at the top (not the clock
    or the reset), by name without the bit index."""
    names = {re.sub(r"\[\d+\]$", "", n) for n in act.bits if "." not in n}
    return sorted(n for n in names if n.endswith("_i") and n not in ("clk_i", "rst_ni"))


def run_power(cfg, out, lib, head, opts, res_tools, steps):
    """Simulate, count, apply, report. Returns the summary.json 'power' dict."""
    import time
    from .tools import tool_version
    o = Path(out)
    t0 = time.monotonic()
    if workload_of(cfg, opts.power_workload) == "s1":
        clock_mhz = 1000.0 / opts.period
        vcd, cmd, source = simulate_s1(cfg, o, (opts.s1_sim, opts.s1_replay), opts.power_burst,
                                       opts.power_window, clock_mhz, opts.timeout_s)
    else:
        vcd, cmd = simulate(cfg, o, opts.power_sim, opts.power_cycles, opts.power_window,
                            opts.power_seed, opts.timeout_s)
        source = None
    steps["power_sim"] = round(time.monotonic() - t0, 2)
    t0 = time.monotonic()
    act = read_vcd(str(vcd), skip_cycles=1)
    vcd.unlink()  # the FST beside it holds the same
    steps["power_toggles"] = round(time.monotonic() - t0, 2)
    blocks = kept_blocks((o / "netlist.v").read_text(errors="replace"), lib.cells)
    act_lines = activity_tcl(act, input_ports(act), blocks)
    tcl = power_script(head, act_lines, blocks)
    (o / "power.tcl").write_text("\n".join(tcl) + "\n")
    t_sta = time.monotonic()
    rc, _ = run_tool(["sta", "-no_init", "-no_splash", "-exit", str(o / "power.tcl")],
                     o / "power.log", o, timeout=opts.timeout_s)
    text = (o / "power.log").read_text(errors="replace")
    fallback, cross = None, None
    if rc < 0 and "records" in blocks:  # the crash above: per block from two runs
        per_block, cross = split_power(o, (o / "netlist.v").read_text(errors="replace"), head,
                                       act_lines, blocks, lib.cells, opts.timeout_s)
        total = PowerFigures()
        for f in per_block.values():
            total.add(f.internal_w, f.switching_w, f.leakage_w)
        groups = {"Total": total}
        fallback = (f"OpenSTA's report_power crashed on the whole netlist (exit {rc}); each "
                    "block is from a run that holds it: the records from the netlist without "
                    "the top's cells, the rest from the one without the records' cells")
    elif rc != 0:
        raise ToolError(f"OpenSTA failed in report_power (exit {rc}{', a crash' if rc < 0 else ''}); "
                        f"see {o / 'power.log'}")
    else:
        groups = parse_power_groups(section(text, "total"))
        if "Total" not in groups:
            raise ToolError(f"OpenSTA printed no report_power total; see {o / 'power.log'}")
        per_block = sum_by_block(parse_power_instances(section(text, "instances")))
    steps["power_sta"] = round(time.monotonic() - t_sta, 2)
    m = re.search(r"DSHPOWER flops (\d+) matched (\d+)", text)
    means = block_means(act)
    rate = lambda n: round(act.duty(n), 4) if n in act.bits else None
    return {
        "source": source or (f"dsh-run random bursty traffic through the Verilated RTL, seed "
                             f"{opts.power_seed}: the last {act.cycles} of {opts.power_cycles} cycles"),
        "command": cmd, "cycles": act.cycles,
        "enq_rate": rate("enq_valid_i"), "deq_rate": rate("deq_valid_i"),
        "flops": int(m.group(1)) if m else None, "matched_flops": int(m.group(2)) if m else None,
        "blocks_kept": blocks,
        "block_activity": {k: round(v, 5) for k, v in sorted(means.items())},
        "total": groups["Total"].to_dict(),
        "groups": {k: v.to_dict() for k, v in groups.items() if k != "Total"},
        "blocks": {k: v.to_dict() for k, v in sorted(per_block.items())},
        "fallback": fallback,
        "cross_check_w": cross,
    }
