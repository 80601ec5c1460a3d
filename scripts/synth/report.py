# SPDX-License-Identifier: Apache-2.0
"""What a run prints (summary_lines), and the sweep: its configurations in
parallel, report.md and report.csv."""

import concurrent.futures
import csv
import datetime
import io
import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Optional

from .common import EXIT_OK, EXIT_TOOL, fmt_s, say
from .files import write_atomically
from .flow import Run
from .rtl import manifest_name
from . import split


# ------------------------------------------------------------------ printing
def summary_lines(res):
    """The lines printed after a run, from its RunResult."""
    c = res.config
    lines = [f"dsh_mmu {c.name}: NumPorts={c.ports} NumQueues={c.queues} "
             f"CellW={c.cell_w} SizeW={c.size_w} CntW={c.cnt_w} "
             f"{'DSH' if c.dsh else 'SIH'} ThreshLatency={c.latency}  [{res.mode}]"]
    if not res.ok:
        lines += [f"  ERROR: {e}" for e in res.errors]
    g = res.generic
    if g:
        lines.append(f"  generic: {g.cells} cells, {g.flops} flops, "
                     f"{g.transistors} transistors (cmos est., {g.transistors_flops} in flops), "
                     f"logic depth {g.logic_depth}, latches {g.latch_cells}, "
                     f"check problems {g.check_problems}")
    a = res.asic
    if a:
        lines.append(f"  asic ({a.library}): area {a.area_um2:.0f} um2 "
                     f"(flops {a.seq_area_um2:.0f}, logic {a.comb_area_um2:.0f}), "
                     f"{a.cells} cells, {a.flops} flops")
        s = a.sta
        if s:
            cp = s.critical_path
            lines.append(f"  timing @ {a.period_ns} ns ({a.target_mhz} MHz): worst slack "
                         f"{s.worst_slack_ns:.3f} ns, TNS {s.tns_ns:.1f} ns, hold slack "
                         f"{s.hold_slack_ns:.3f} ns -> max clock {s.fmax_mhz} MHz "
                         f"({'met' if s.timing_met else 'VIOLATED'})")
            lines.append(f"  critical path: {cp.startpoint} -> {cp.endpoint}, "
                         f"{cp.stages} cells, arrival {cp.arrival_ns} ns")
            rp = s.reg2reg_path
            if rp.slack_ns is not None:
                lines.append(f"  reg-to-reg: slack {rp.slack_ns:.3f} ns, max clock "
                             f"{s.reg2reg_fmax_mhz} MHz, {rp.stages} cells")
            lines += seed_lines(a)
            lines.append("  check_setup: " + ("; ".join(s.check_setup) if s.check_setup
                                                  else "clean (every input and output constrained)"))
            if s.constant_outputs:
                more = len(s.constant_outputs) - 8
                lines.append("  constant outputs (tied by synthesis, no path to time): "
                             + ", ".join(s.constant_outputs[:8])
                             + (f" (+{more} more, in summary.json)" if more > 0 else ""))
    elif res.asic_skipped:
        lines.append(f"  asic: skipped ({res.asic_skipped})")
    lines += split.split_lines(res)
    pw = res.power
    if pw:
        lines += power_lines(pw)
    f = res.fpga
    if f and f.family != "ice40":
        lines.append(f"  fpga {f.family} ({f.io_mode}): {f.luts} LUTs, {f.flops} flops, "
                     f"{f.brams} block RAMs, {f.lutrams} LUT RAMs, {f.carries} carry, "
                     f"{f.dsps} DSP, {f.other_cells} other cells; smallest part: "
                     + (f"{f.part} ({f.part_note})" if f.part else f"none: {f.part_note}"))
    elif f:
        if f.part:
            lines.append(f"  fpga ice40 counts: {f.luts} LUT4, {f.flops} flops (wrapper "
                         f"{f.wrapper_flops or 0}), {f.brams} block RAMs, {f.carries} carry; "
                         f"smallest part: {f.part}")
        if f.fits:
            lines.append(f"  fpga ({f.device}/{f.package}, io {f.io_mode}): "
                         f"{f.luts} LUT4, {f.flops} flops, {f.lcs_used} / "
                         f"{f.lcs_available} LCs, max {f.fmax_mhz} MHz "
                         f"(target {f.target_mhz})")
        else:
            extra = f" ({f.luts} LUT4, {f.flops} flops)" if f.luts is not None else ""
            lines.append(f"  fpga ({f.device}/{f.package}): {f.reason}{extra}")
    if res.steps_s:
        lines.append("  time: " + ", ".join(f"{k} {fmt_s(v)}" for k, v in res.steps_s.items()))
    return lines


def seed_lines(a):
    """The printed spread over ABC seeds (none for a run of one seed)."""
    sp = a.fmax_spread()
    if sp is None:
        return []
    per = "; ".join(f"{x.seed}: {x.fmax_mhz} MHz, {x.area_um2:,.0f} um2"
                    + (f", {x.startpoint} -> {x.endpoint}" if x.startpoint else "")
                    for x in a.seeds)
    return [f"  max clock over {len(a.seeds)} ABC seeds (0 as mapped, k > 0 permute -S k): "
            f"min {sp[0]} / median {sp[1]} / max {sp[2]} MHz",
            f"    per seed: {per}"]


def power_lines(pw):
    """The printed power figures: total and per block, in mW."""
    mw = lambda d: f"{d['total_w'] * 1e3:.3f} mW (internal {d['internal_w'] * 1e3:.3f}, " \
                   f"switching {d['switching_w'] * 1e3:.3f}, leakage {d['leakage_w'] * 1e3:.4f})"
    lines = [f"  power @ {pw.get('clock_mhz')} MHz: {mw(pw['total'])}",
             f"    activity: {pw['source']}; enqueue {pw['enq_rate']}/cycle, dequeue "
             f"{pw['deq_rate']}/cycle; {pw['matched_flops']} of {pw['flops']} flops from the "
             f"trace, other pins at their block's mean toggle rate"]
    for blk, d in pw["blocks"].items():
        lines.append(f"    {blk}: {mw(d)}; mean activity {pw['block_activity'].get(blk)}")
    if pw.get("fallback"):
        lines.append(f"    note: {fallback_text(pw)}")
    return lines


def fallback_text(pw):
    """How the per-block figures were obtained when report_power crashed on
    the whole netlist, with the blocks measured in both runs."""
    both = "; ".join(f"{b} {v[0] * 1e3:.2f} / {v[1] * 1e3:.2f} mW"
                     for b, v in sorted((pw.get("cross_check_w") or {}).items()))
    return pw["fallback"] + (f" (blocks in both runs: {both})" if both else "")


# ------------------------------------------------------------------ report
# report.csv's columns, in order (row_of gives them).
CSV_COLUMNS = ["config", "scheme", "ports", "queues", "pq", "status", "area_um2",
               "seq_area_um2", "cells", "flops", "generic_cells", "transistors", "logic_depth",
               "period_ns", "worst_slack_ns", "tns_ns", "fmax_mhz", "reg2reg_fmax_mhz",
               "crit_stages", "crit_start", "crit_end", "latches", "check_problems",
               "power_mw", "pipeline_area_um2", "stats_area_um2", "pipeline_transistors",
               "stats_transistors", "pipeline_flops", "stats_flops", "seeds",
               "fmax_min_mhz", "fmax_median_mhz", "fmax_max_mhz", "runtime_s", "lanes", "deq"]

# 64 B line rate of one 100 Gb/s port: 84 B a frame on the wire with the
# preamble and the inter-frame gap.
LINE_RATE_PPS_100G = 100e9 / (84 * 8)


def row_of(res):
    """One row of report.csv (a dict in CSV_COLUMNS order) from a RunResult."""
    c, g, a, sp = res.config, res.generic, res.asic, res.split
    s = a.sta if a else None
    cp = s.critical_path if s else None
    sd = a.fmax_spread() if a else None
    return {
        "config": c.name, "scheme": c.scheme, "ports": c.ports,
        "queues": c.queues, "pq": c.ports * c.queues,
        "status": res.status,
        "area_um2": a.area_um2 if a else None, "seq_area_um2": a.seq_area_um2 if a else None,
        "cells": a.cells if a else (g.cells if g else None),
        "flops": a.flops if a else (g.flops if g else None),
        "generic_cells": g.cells if g else None, "transistors": g.transistors if g else None,
        "logic_depth": g.logic_depth if g else None, "period_ns": a.period_ns if a else None,
        "worst_slack_ns": s.worst_slack_ns if s else None, "tns_ns": s.tns_ns if s else None,
        "fmax_mhz": s.fmax_mhz if s else None,
        "reg2reg_fmax_mhz": s.reg2reg_fmax_mhz if s else None,
        "crit_stages": cp.stages if cp else None,
        "crit_start": cp.startpoint if cp else None,
        "crit_end": cp.endpoint if cp else None,
        "latches": g.latch_cells if g else None,
        "check_problems": g.check_problems if g else None,
        "power_mw": round(res.power["total"]["total_w"] * 1e3, 3) if res.power else None,
        "pipeline_area_um2": sp.pipeline_area_um2 if sp else None,
        "stats_area_um2": sp.stats_area_um2 if sp else None,
        "pipeline_transistors": sp.pipeline_transistors if sp else None,
        "stats_transistors": sp.stats_transistors if sp else None,
        "pipeline_flops": sp.pipeline_flops if sp else None,
        "stats_flops": sp.stats_flops if sp else None,
        "seeds": len(a.seeds) if a and a.seeds else (1 if s else None),
        "fmax_min_mhz": sd[0] if sd else None,
        "fmax_median_mhz": sd[1] if sd else None,
        "fmax_max_mhz": sd[2] if sd else None,
        "runtime_s": res.steps_s.get("total"),
        "lanes": c.lanes, "deq": c.deq,
    }


@dataclass
class ReportContext:
    """What report.md's header says besides the results."""
    cell_w: int
    size_w: int
    cnt_w: int
    latency: int
    period: float
    input_delay: float
    output_delay: float
    yosys_version: str
    sta_version: Optional[str]
    rtl: object  # RtlIdentity
    date: str = ""


def rtl_text(rtl):
    """The RTL a report is of: the manifest's name in the repository, its
    git revision and the hash of the manifest and its files (no machine path)."""
    # a summary.json of an older flow may hold the manifest's absolute path
    name = manifest_name(rtl.manifest) if os.path.isabs(rtl.manifest) else rtl.manifest
    return (f"{name}"
            + (f" at git {rtl.git}" if rtl.git is not None else "")
            + f", sha1 of the manifest and its files {rtl.sha1}"
            + (", with uncommitted RTL changes" if rtl.rtl_modified else ""))


def power_section(results):
    """report.md's power table: per configuration and block, mW, with the
    clock and the activity source of each configuration."""
    runs = sorted((r for r in results if r.power),
                  key=lambda r: (r.config.ports * r.config.queues, r.config.scheme))
    if not runs:
        return []
    md = ["", "## Power per block (OpenSTA report_power, mW)", "",
          "| config | block | internal | switching | leakage | total | share | "
          "mean toggles/cycle |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in runs:
        pw = r.power
        tot = pw["total"]["total_w"]
        for blk, d in list(pw["blocks"].items()) + [("all", pw["total"])]:
            act = pw["block_activity"].get(blk)
            md.append(f"| {r.config.name} | {blk} | {d['internal_w'] * 1e3:.3f} "
                      f"| {d['switching_w'] * 1e3:.3f} | {d['leakage_w'] * 1e3:.4f} "
                      f"| {d['total_w'] * 1e3:.3f} | {100 * d['total_w'] / tot:.1f} % "
                      f"| {'-' if act is None else f'{act:.4f}'} |")
    md.append("")
    for r in runs:
        pw = r.power
        md.append(f"- {r.config.name}: clock {pw.get('clock_mhz')} MHz; activity: {pw['source']} "
                  f"(`{pw['command']}`), enqueue {pw['enq_rate']}/cycle, dequeue "
                  f"{pw['deq_rate']}/cycle; {pw['matched_flops']} of {pw['flops']} flops "
                  "from the trace, other pins at their block's mean toggle rate."
                  + (f" {fallback_text(pw)}." if pw.get("fallback") else ""))
    return md


def write_report(results, out, ctx, mode):
    """report.csv and report.md in out from RunResults; mode asic or generic."""
    rows = [row_of(r) for r in results]
    rows.sort(key=lambda r: (r["pq"], r["ports"], r["lanes"], r["deq"], r["scheme"]))
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=CSV_COLUMNS)
    w.writeheader()
    w.writerows(rows)
    write_atomically(out / "report.csv", buf.getvalue())
    size_key = "area_um2" if mode == "asic" else "transistors"
    unit = "um2" if mode == "asic" else "transistors"
    md = [f"# dsh_mmu synthesis sweep ({mode})", "",
          f"Generated by `scripts/synth.py report` on "
          f"{ctx.date or datetime.date.today().isoformat()}; "
          f"CellW={ctx.cell_w}, SizeW={ctx.size_w}, CntW={ctx.cnt_w}, "
          f"ThreshLatency={ctx.latency}."]
    if mode == "asic":
        lib = results[0].asic.library if results and results[0].asic else None
        md.append(f"Library {lib}, target clock {ctx.period} ns "
                  f"({1000 / ctx.period:.0f} MHz), input/output delay "
                  f"{ctx.input_delay}/{ctx.output_delay} of the period.")
    md.append(f"Tools: {ctx.yosys_version}" + (f"; OpenSTA {ctx.sta_version}"
                                               if mode == "asic" else "") + ".")
    rtl = ctx.rtl
    md.append(f"RTL: {rtl_text(rtl)}.")
    # with ABC seeds (--seeds N > 1) a column of the clock's spread over them
    seeded = any(r["fmax_median_mhz"] is not None for r in rows)
    md += ["", "| config | P×Q | area µm² | flop area µm² | cells | flops | transistors (cmos est.) "
           "| depth | worst slack ns | TNS ns | max clock MHz | reg2reg MHz "
           + ("| ABC seeds: max clock min / median / max MHz " if seeded else "")
           + "| power mW | runtime |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
           + ("---:|" if seeded else "") + "---:|---:|"]
    f = lambda v, d=0: "-" if v is None else (f"{v:,.{d}f}" if isinstance(v, float) else f"{v:,}")
    for r in rows:
        spread_col = ""
        if seeded:
            spread_col = ("| - " if r["fmax_median_mhz"] is None else
                          f"| {r['seeds']}: {f(r['fmax_min_mhz'], 1)} / "
                          f"{f(r['fmax_median_mhz'], 1)} / {f(r['fmax_max_mhz'], 1)} ")
        md.append(f"| {r['config']}{'' if r['status'] == 'ok' else ' (' + r['status'] + ')'} "
                  f"| {r['pq']} | {f(r['area_um2'])} | {f(r['seq_area_um2'])} | {f(r['cells'])} "
                  f"| {f(r['flops'])} | {f(r['transistors'])} | {f(r['logic_depth'])} "
                  f"| {f(r['worst_slack_ns'], 3)} | {f(r['tns_ns'], 0)} | {f(r['fmax_mhz'], 1)} "
                  f"| {f(r['reg2reg_fmax_mhz'], 1)} {spread_col}| {f(r['power_mw'], 2)} "
                  f"| {fmt_s(r['runtime_s'])} |")
    if seeded:
        md += ["", "Max clock, worst slack, TNS, area and the critical path are of seed 0 (the "
               "mapping as the flow runs it); the seeds column times every seed's netlist: "
               "seed k > 0 is the same ABC script on the network with its inputs, outputs and "
               "node order permuted (`permute -S k`), so that the clock is read as a spread "
               "and not one draw."]
    # DSH over SIH
    md += ["", f"## DSH over SIH ({unit})", "",
           "| P×Q | SIH | DSH | DSH extra | depth SIH → DSH | max clock SIH → DSH MHz |",
           "|---|---:|---:|---:|---|---|"]
    one = [r for r in rows if (r["lanes"], r["deq"]) == (1, 1)]
    by = {(r["ports"], r["queues"], r["scheme"]): r for r in one}
    for p, q in sorted({(r["ports"], r["queues"]) for r in one}, key=lambda x: x[0] * x[1]):
        s, d = by.get((p, q, "sih")), by.get((p, q, "dsh"))
        if not (s and d and s.get(size_key) and d.get(size_key)):
            continue
        extra = 100.0 * (d[size_key] / s[size_key] - 1.0)
        md.append(f"| {p}×{q} | {f(s[size_key])} | {f(d[size_key])} | {extra:+.1f} % "
                  f"| {f(s['logic_depth'])} → {f(d['logic_depth'])} "
                  f"| {f(s['fmax_mhz'], 1)} → {f(d['fmax_mhz'], 1)} |")
    md += split.report_section(results, unit)
    # growth with P×Q
    md += ["", "## Growth with ports × queues", ""]
    for scheme in ("sih", "dsh"):
        pts = [(r["pq"], r[size_key], r["logic_depth"]) for r in one
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
    md += lane_section(rows, size_key, unit)
    crit = [r for r in rows if r["crit_start"]]
    if crit:
        md += ["", "## Critical paths", ""]
        for r in crit:
            md.append(f"- {r['config']}: {r['crit_start']} → {r['crit_end']}, "
                      f"{r['crit_stages']} cells")
    md += power_section(results)
    md += ["", "Figures: see docs/design/synthesis.md. Per-configuration logs and summary.json are in "
           "the sub-directories of this folder."]
    write_atomically(out / "report.md", "\n".join(md) + "\n")


def clock_of(r):
    """The clock a row reached: the median over the ABC seeds when there
    are several, else seed 0's."""
    return r["fmax_median_mhz"] if r["fmax_median_mhz"] is not None else r["fmax_mhz"]


def lane_section(rows, size_key, unit):
    """report.md's lane table: per P×Q swept over more than one lane count,
    each lane count's size, flops and clock per scheme, the decisions per
    second they give (NumLanes or NumDeq × the clock), and the smallest
    lane count that reaches 64 B line rate of P × 100 Gb/s."""
    f = lambda v, d=0: "-" if v is None else f"{v:,.{d}f}"
    md = []
    for p, q in sorted({(r["ports"], r["queues"]) for r in rows}, key=lambda x: x[0] * x[1]):
        mine = [r for r in rows if (r["ports"], r["queues"]) == (p, q)]
        counts = sorted({(r["lanes"], r["deq"]) for r in mine})
        if len(counts) < 2:
            continue
        need = p * LINE_RATE_PPS_100G
        md += ["", f"## Lanes: decisions per second, {p}×{q}", "",
               f"64 B line rate of {p} × 100 Gb/s is {need / 1e9:.2f} G admissions and as many "
               f"departures a second ({LINE_RATE_PPS_100G / 1e6:.1f} M a port). Admissions a "
               "second are NumLanes × the clock, departures NumDeq × the clock (the clock: the "
               "median over the ABC seeds when there are several).", "",
               f"| lanes | NumDeq | scheme | {unit} | flops | clock MHz | admissions G/s "
               "| departures G/s | a port's share M/s | line rate | power mW |",
               "|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|"]
        first = {}
        for n, d in counts:
            for r in sorted((r for r in mine if (r["lanes"], r["deq"]) == (n, d)),
                            key=lambda r: r["scheme"]):
                clk = clock_of(r) if r["status"] == "ok" else None
                adm = n * clk * 1e6 if clk else None
                dep = d * clk * 1e6 if clk else None
                ok = adm is not None and adm >= need and dep >= need
                if ok:
                    first.setdefault(r["scheme"], (n, d, clk))
                md.append(f"| {n} | {d} | {r['scheme'].upper()}"
                          f"{'' if r['status'] == 'ok' else ' (' + r['status'] + ')'} "
                          f"| {f(r[size_key])} | {f(r['flops'])} | {f(clk, 1)} "
                          f"| {f(adm and adm / 1e9, 2)} | {f(dep and dep / 1e9, 2)} "
                          f"| {f(adm and adm / p / 1e6, 1)} | {'yes' if ok else 'no'} "
                          f"| {f(r['power_mw'], 2)} |")
        md += ["", f"| lanes | NumDeq | SIH {unit} | DSH {unit} | DSH/SIH |", "|---:|---:|---:|---:|---:|"]
        for n, d in counts:
            s_ = next((r for r in mine if (r["lanes"], r["deq"], r["scheme"]) == (n, d, "sih")), None)
            d_ = next((r for r in mine if (r["lanes"], r["deq"], r["scheme"]) == (n, d, "dsh")), None)
            if s_ and d_ and s_[size_key] and d_[size_key]:
                md.append(f"| {n} | {d} | {f(s_[size_key])} | {f(d_[size_key])} "
                          f"| {d_[size_key] / s_[size_key]:.3f} |")
        md.append("")
        for scheme in ("dsh", "sih"):
            if scheme in first:
                n, d, clk = first[scheme]
                md.append(f"- {scheme.upper()}: the smallest lane count that reaches 64 B line rate "
                          f"is {n} lanes, {d} dequeue slots, at {clk:.1f} MHz "
                          f"({n * clk / 1e3:.2f} G admissions a second).")
            else:
                md.append(f"- {scheme.upper()}: no lane count swept reaches 64 B line rate.")
    return md


# ------------------------------------------------------------------- sweep
def run_sweep(cfgs, mode, out, opts, lib, removed, jobs):
    """Every configuration through mode, jobs at a time, largest first, with
    a progress line per result and a heartbeat a minute. Returns the
    RunResults in completion order."""
    cfgs = sorted(cfgs, key=lambda c: -(c.ports * c.queues))
    say(f"report: {len(cfgs)} configurations, mode {mode}, {jobs} in parallel, "
        f"out {out}" + (f", target {opts.period} ns" if mode == "asic" else ""))
    runs = [Run(c, mode, out / c.name, opts, lib=lib, removed=removed, quiet=True)
            for c in cfgs]
    started = {}
    stop = threading.Event()

    def heartbeat():
        while not stop.wait(60):
            busy = []
            for r in runs:
                if r in started and "total" not in r.res.steps_s:
                    st = r.out / "stamps.txt"
                    words = st.read_text().split() if st.is_file() else []
                    last = words[-2] if words else "start"
                    busy.append(f"{r.cfg.name} ({fmt_s(time.monotonic() - started[r])}, "
                                f"after {last})")
            if busy:
                say(f"report: running {', '.join(busy)}")

    def work(r):
        started[r] = time.monotonic()
        return r.execute()

    hb = threading.Thread(target=heartbeat, daemon=True)
    hb.start()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(work, r): r for r in runs}
        for i, fu in enumerate(concurrent.futures.as_completed(futs), 1):
            r = futs[fu]
            res = fu.result()
            results.append(res)
            say(progress_line(i, len(runs), res, mode))
    stop.set()
    return results


def progress_line(i, n, res, mode):
    row = row_of(res)
    name = res.config.name
    if not res.ok:
        return f"[{i}/{n}] {name}: ERROR {'; '.join(res.errors)}"
    if mode == "fpga":
        r = family_row(res)
        return (f"[{i}/{n}] {r['family']} {name}: {r['luts']} LUTs, {r['flops']} flops, "
                f"{r['brams']} block RAMs, part {r['part']}, max clock {r['fmax_mhz']} MHz "
                f"({fmt_s(r['runtime_s'])})")
    if mode == "asic":
        return (f"[{i}/{n}] {name}: area {row['area_um2']:,.0f} um2, "
                f"{row['cells']:,} cells, {row['flops']:,} flops, depth {row['logic_depth']}, "
                f"slack {row['worst_slack_ns']:.3f} ns, max {row['fmax_mhz']} MHz "
                f"({fmt_s(row['runtime_s'])})")
    return (f"[{i}/{n}] {name}: {row['cells']:,} cells, {row['flops']:,} "
            f"flops, {row['transistors']:,} transistors, depth {row['logic_depth']} "
            f"({fmt_s(row['runtime_s'])})")


def sweep_status(results):
    return EXIT_OK if all(r.ok for r in results) else EXIT_TOOL


# ------------------------------------------------------------ FPGA families
FAMILY_COLUMNS = ["family", "config", "scheme", "ports", "queues", "status", "luts", "flops",
                  "brams", "lutrams", "carries", "dsps", "part", "fmax_mhz", "runtime_s"]


def family_row(res):
    c, f = res.config, res.fpga
    return {"family": f.family if f else None, "config": c.name, "scheme": c.scheme,
            "ports": c.ports, "queues": c.queues, "status": res.status,
            "luts": f and f.luts, "flops": f and f.flops, "brams": f and f.brams,
            "lutrams": f and f.lutrams, "carries": f and f.carries, "dsps": f and f.dsps,
            "part": (f.part or "none listed") if f and f.luts is not None else None,
            "fmax_mhz": f and f.fmax_mhz, "runtime_s": res.steps_s.get("total")}


def write_family_report(results, out, ctx):
    """report-fpga.md and report-fpga.csv: one row per family and configuration."""
    from .families import BRAM_UNIT, PARTS
    order = {f: i for i, f in enumerate(PARTS)}
    rows = sorted((family_row(r) for r in results),
                  key=lambda r: (order.get(r["family"], 99), r["ports"] * r["queues"],
                                 r["ports"], r["scheme"]))
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=FAMILY_COLUMNS)
    w.writeheader()
    w.writerows(rows)
    write_atomically(out / "report-fpga.csv", buf.getvalue())
    f = lambda v: "-" if v is None else (f"{v:,}" if isinstance(v, int) else str(v))
    md = ["# dsh_mmu on FPGA families", "",
          f"Generated by `scripts/synth.py report --families ...` on "
          f"{ctx.date or datetime.date.today().isoformat()}; CellW={ctx.cell_w}, "
          f"SizeW={ctx.size_w}, CntW={ctx.cnt_w}, ThreshLatency={ctx.latency}, the FPGA "
          "arrangement (PauseBanks 2, ReadSlices 1).",
          f"Tools: {ctx.yosys_version}. RTL: {rtl_text(ctx.rtl)}.",
          "",
          "iCE40: synth_ice40 around the serialising I/O wrapper, then nextpnr-ice40 when the "
          "count fits the device (max clock from its timing report). Other families: "
          "synth_<family> of dsh_mmu alone, out of context (no I/O buffers), no place and "
          "route. Part: the smallest listed part whose LUTs (LUT RAMs, shift registers and "
          "ECP5/Gowin carry cells counted as the LUTs they take), flip-flops, block RAMs and "
          "DSPs hold the counts; block RAMs in the "
          "unit Yosys maps to (" + "; ".join(f"{k}: {v}" for k, v in BRAM_UNIT.items())
          + ").", "",
          "| family | config | LUTs | flops | block RAMs | LUT RAMs | carry | DSP | part "
          "| max clock MHz | runtime |",
          "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|"]
    for r in rows:
        md.append(f"| {r['family']} | {r['config']}"
                  f"{'' if r['status'] == 'ok' else ' (' + r['status'] + ')'} "
                  f"| {f(r['luts'])} | {f(r['flops'])} | {f(r['brams'])} | {f(r['lutrams'])} "
                  f"| {f(r['carries'])} | {f(r['dsps'])} | {f(r['part'])} "
                  f"| {f(r['fmax_mhz'])} | {fmt_s(r['runtime_s'])} |")
    md += ["", "Parts and their data sheets:", ""]
    for fam in sorted({r["family"] for r in rows if r["family"]}, key=lambda x: order[x]):
        src, parts = PARTS[fam]
        md.append(f"- {fam}: " + ", ".join(f"{p.name} ({p.luts:,} LUTs, {p.ffs:,} FFs, "
                                            f"{p.brams} BRAM, {p.dsps} DSP)" for p in parts)
                  + f"; {src}.")
    write_atomically(out / "report-fpga.md", "\n".join(md) + "\n")
