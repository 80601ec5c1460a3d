# SPDX-License-Identifier: Apache-2.0
"""The wire mode: area and timing of the frame-mode blocks beside the MMU
(rtl/dsh_wire.f). Two tops go through the ASIC flow of the MMU (the same
Yosys mapping, OpenSTA, constraints/dsh_mmu.sdc): dsh_wire_port, one
port's sender, receive side and a watchdog per class, and
dsh_quanta_tick, which every port of one link rate shares. N ports are
N x dsh_wire_port + one dsh_quanta_tick (a sum: the tick's quanta fan out
to the ports, nothing else is shared)."""

import json
import types
from dataclasses import dataclass
from pathlib import Path

from .common import ROOT, UsageError, say, ys_quote
from .rtl import rtl_files, rtl_identity
from . import sta, yosys

MANIFEST = ROOT / "rtl" / "dsh_wire.f"
PORT_TOP = "dsh_wire_port"
TICK_TOP = "dsh_quanta_tick"
QUEUES = (1, 8)   # dsh_pfc_tx / dsh_pfc_rx NumQueues
STAT_W = (1, 64)  # their StatW


@dataclass(frozen=True)
class WireConfig:
    """One port's frame-mode blocks: classes, counter width, ports counted."""
    ports: int
    queues: int
    stat_w: int = 32

    @property
    def name(self):
        return f"wire_{self.ports}x{self.queues}" + (f"_sw{self.stat_w}" if self.stat_w != 32 else "")

    def params(self, top):
        """RTL parameters of one top, in -chparam order."""
        return {"NumQueues": self.queues, "StatW": self.stat_w} if top == PORT_TOP else {}


def validate(cfg):
    for opt, v, (lo, hi), rtl in (("--queues", cfg.queues, QUEUES, "NumQueues"),
                                  ("--stat-w", cfg.stat_w, STAT_W, "StatW"),
                                  ("--ports", cfg.ports, (1, 1024), "ports counted")):
        if not lo <= v <= hi:
            raise UsageError(f"{opt} {v} is out of range: {rtl} must be in {lo}..{hi} "
                             "for the wire mode")


def yosys_script(files, cfg, top, out, liberty, period_ns, buf, hi, lo, abc_script_file):
    """Elaborate top, synthesise it flat, the generic reports (the names
    yosys.collect_generic reads), then the ASIC tail of the MMU's flow."""
    o = Path(out)
    ch = " ".join(f"-chparam {k} {v}" for k, v in cfg.params(top).items())
    return [f"read_verilog -defer -sv {yosys.include_dirs(files)} "
            + " ".join(ys_quote(f) for f in files),
            f"hierarchy -check -top {top} {ch}".rstrip(),
            f"synth -flatten -top {top}",
            f"rename -wire {yosys.FF_SELECT}",
            f"tee -q -o {ys_quote(o / 'stat_generic.txt')} stat",
            f"tee -q -o {ys_quote(o / 'stat_cmos.txt')} stat -tech cmos",
            f"tee -q -o {ys_quote(o / 'check.txt')} check",
            f"tee -q -o {ys_quote(o / 'ltp.txt')} ltp -noff",
            ] + yosys.asic_tail(o, liberty, period_ns, buf, hi, lo, abc_script_file)


def sta_lines(top, *args, **kw):
    """synth.sta's script with top linked instead of dsh_mmu."""
    lines = sta.sta_script(*args, **kw)
    i = next(k for k, ln in enumerate(lines) if ln.startswith("link_design "))
    lines[i] = f"link_design {top}"
    return lines


def run_top(cfg, top, files, out, lib, opts, timeout_min, log):
    """One top through Yosys and OpenSTA; its figures as a dict."""
    o = Path(out)
    o.mkdir(parents=True, exist_ok=True)
    buf, drv, load_lib = lib.drive(opts.driving_cell, opts.output_load)
    hi, lo = lib.tie_cells()
    (o / "abc.constr").write_text(yosys.abc_constr(drv, load_lib * lib.cap_unit_ff))
    script = yosys.abc_script_text(opts.abc_script)
    if script:
        (o / "abc.script").write_text(script + "\n")
    res = types.SimpleNamespace(tools={}, steps_s={})
    yosys.run_yosys(yosys_script(files, cfg, top, o, lib.path, opts.period, buf, hi, lo,
                                 o / "abc.script" if script else None),
                    o, res, timeout_min=timeout_min, log=log)
    gen = yosys.collect_generic(o)
    st = yosys.parse_stat(o / "stat_liberty.txt")
    flops = sum(n for t, n in st.types.items() if t in lib.cells and lib.cells[t].seq)
    period_lib = opts.period / lib.time_unit_ns
    log(f"{top}: area {st.area:.0f} um2, {st.cells} cells; running OpenSTA")
    text = sta.run_sta(sta_lines(top, lib.path, o / "netlist.v", period_lib, opts.input_delay,
                                 opts.output_delay, opts.uncertainty / lib.time_unit_ns, drv,
                                 load_lib, opts.time_cfg),
                       o, res, timeout_s=timeout_min * 60 if timeout_min else None)
    r = sta.parse_sta_log(text, lib.time_unit_ns, opts.period, o / "sta.log")
    for grp, body in sta.path_sections(text).items():
        (o / f"critical_path_{grp}.txt").write_text(body)
    return {"top": top, "params": cfg.params(top), "area_um2": st.area, "cells": st.cells,
            "flops": flops, "transistors": gen.transistors, "logic_depth": gen.logic_depth,
            "latches": gen.latch_cells, "check_problems": gen.check_problems,
            "worst_slack_ns": r.worst_slack_ns, "fmax_mhz": r.fmax_mhz,
            "reg2reg_fmax_mhz": r.reg2reg_fmax_mhz,
            "critical_path": [r.critical_path.startpoint, r.critical_path.endpoint],
            "unconstrained_endpoints": r.unconstrained_endpoints,
            "tools": res.tools, "steps_s": res.steps_s}


def totals(cfg, port, tick):
    """The N-port figures: N x port + one tick; the clock is the slower top's."""
    n = cfg.ports
    clocks = [x["fmax_mhz"] for x in (port, tick) if x["fmax_mhz"]]
    return {"ports": n, "area_um2": round(n * port["area_um2"] + tick["area_um2"], 1),
            "flops": n * port["flops"] + tick["flops"],
            "cells": n * port["cells"] + tick["cells"],
            "fmax_mhz": min(clocks) if clocks else None}


def summary_lines(s):
    p, t, tot = s["port"], s["tick"], s["total"]
    lines = [f"wire {s['config']} ({s['library']}, target {s['period_ns']} ns):"]
    for x in (p, t):
        lines.append(f"  {x['top']:<16} area {x['area_um2']:10.1f} um2, {x['cells']:5d} cells, "
                     f"{x['flops']:4d} flops, worst slack {x['worst_slack_ns']:+.3f} ns, "
                     f"max clock {x['fmax_mhz']} MHz")
        lines.append(f"    critical path {x['critical_path'][0]} -> {x['critical_path'][1]}")
    lines.append(f"  {tot['ports']} ports (x {p['top']} + one {t['top']}): "
                 f"area {tot['area_um2']:.1f} um2 ({tot['area_um2'] / 1e6:.3f} mm2), "
                 f"{tot['flops']} flops, max clock {tot['fmax_mhz']} MHz")
    return lines


def run_wire(cfg, lib, opts, out, timeout_min=None, quiet=False, checks=()):
    """The wire mode: both tops, summary.json in out, the summary printed.
    Returns the exit status: 0, or 1 when a latch, a Yosys check problem,
    with "timing" in checks a negative slack, with "constraints" an
    unconstrained endpoint is found."""
    validate(cfg)
    files = rtl_files(MANIFEST)

    def log(msg):
        if not quiet:
            say(msg, f"[{cfg.name}] ")

    out = Path(out)
    port = run_top(cfg, PORT_TOP, files, out / PORT_TOP, lib, opts, timeout_min, log)
    tick = run_top(cfg, TICK_TOP, files, out / TICK_TOP, lib, opts, timeout_min, log)
    ident = rtl_identity(MANIFEST)
    s = {"config": cfg.name, "ports": cfg.ports, "queues": cfg.queues, "stat_w": cfg.stat_w,
         "library": lib.name, "period_ns": opts.period, "rtl_git": ident.git,
         "rtl_sha1": ident.sha1, "port": port, "tick": tick, "total": totals(cfg, port, tick)}
    problems = [f"{x['top']}: {x['latches']} latches" for x in (port, tick) if x["latches"]]
    problems += [f"{x['top']}: {x['check_problems']} Yosys check problems"
                 for x in (port, tick) if x["check_problems"]]
    if "timing" in checks:
        problems += [f"{x['top']}: worst slack {x['worst_slack_ns']} ns < 0"
                     for x in (port, tick) if x["worst_slack_ns"] < 0]
    if "constraints" in checks:
        problems += [f"{x['top']}: {x['unconstrained_endpoints']} unconstrained endpoints"
                     for x in (port, tick) if x["unconstrained_endpoints"]]
    s["problems"] = problems
    (out / "summary.json").write_text(json.dumps(s, indent=1) + "\n")
    for ln in summary_lines(s):
        print(ln)
    print(f"  summary: {out / 'summary.json'}")
    for p in problems:
        print(f"  check: FAIL - {p}")
    return 1 if problems else 0
