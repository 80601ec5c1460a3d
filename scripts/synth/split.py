# SPDX-License-Identifier: Apache-2.0
"""The area split: the threshold pipeline and the statistics
block as separate rows, each with its DSH/SIH ratio.

The threshold pipeline is dsh_mmu synthesised a second time with Stats = 0:
the statistics counters (dsh_stats) left out, and with them what only they
use (their index copies in stages R and D, the counts of stage W), which
Yosys removes. The statistics block is the full design less that. Both
netlists are flat like every other figure here; keeping dsh_stats as a
module instead (as --power does) would split one netlist, but one that is
not the flat netlist the area is reported of, and it would count the
counters' index copies as pipeline."""

import dataclasses

from .record import SplitResult

PIPELINE = "threshold pipeline (Stats = 0)"
STATISTICS = "statistics (difference)"
WHOLE = "whole MMU"


def companion(cfg):
    """The configuration of the threshold pipeline alone: cfg with Stats = 0."""
    return dataclasses.replace(cfg, stats=0)


def wanted(cfg, mode, opts):
    """Whether a run of cfg in mode gets the companion run and the split."""
    return opts.split and cfg.stats == 1 and mode in ("generic", "asic")


def _less(x, y):
    return None if x is None or y is None else round(x - y, 1)


def split_of(full, pipe):
    """The SplitResult of a full run and its Stats = 0 companion (RunResults)."""
    a, ap, g, gp = full.asic, pipe.asic, full.generic, pipe.generic
    if a and ap:
        area, flops = (a.area_um2, ap.area_um2), (a.flops, ap.flops)
    else:
        area, flops = (None, None), ((g.flops, gp.flops) if g and gp else (None, None))
    tr = (g.transistors, gp.transistors) if g and gp else (None, None)
    return SplitResult(companion=pipe.config.name,
                       pipeline_area_um2=area[1], stats_area_um2=_less(*area),
                       pipeline_transistors=tr[1], stats_transistors=_less(*tr),
                       pipeline_flops=flops[1], stats_flops=_less(*flops),
                       pipeline_fmax_mhz=ap.sta.fmax_mhz if ap and ap.sta else None)


def size_of(res, unit):
    """The whole design's size in unit ('um2': area, else transistors)."""
    if unit == "um2":
        return res.asic.area_um2 if res.asic else None
    return res.generic.transistors if res.generic else None


def rows(res, unit):
    """[(part, size)]: the whole MMU, the threshold pipeline, the statistics,
    in unit ('um2' or 'transistors'); [] without a split."""
    sp = res.split
    if sp is None:
        return []
    if unit == "um2":
        return [(WHOLE, size_of(res, unit)), (PIPELINE, sp.pipeline_area_um2),
                (STATISTICS, sp.stats_area_um2)]
    return [(WHOLE, size_of(res, unit)), (PIPELINE, sp.pipeline_transistors),
            (STATISTICS, sp.stats_transistors)]


def unit_of(res):
    return "um2" if res.asic and res.asic.area_um2 is not None else "transistors"


def ratio(dsh, sih):
    """DSH/SIH, None when either is missing or SIH's is not positive."""
    return None if dsh is None or sih is None or sih <= 0 else dsh / sih


def _num(v):
    return "-" if v is None else f"{v:,.0f}"


def split_lines(res):
    """The printed lines of a run's split (none without one)."""
    sp = res.split
    if sp is None:
        return []
    unit = unit_of(res)
    whole = size_of(res, unit)
    (_, pipe), (_, stats) = rows(res, unit)[1:]
    share = f" ({100 * stats / whole:.1f} %)" if whole and stats is not None else ""
    fmax = f", max clock {sp.pipeline_fmax_mhz} MHz" if sp.pipeline_fmax_mhz else ""
    return [f"  threshold pipeline (Stats = 0, {sp.companion}): {_num(pipe)} {unit}, "
            f"{_num(sp.pipeline_flops)} flops{fmax}",
            f"  statistics (the difference): {_num(stats)} {unit}{share}, "
            f"{_num(sp.stats_flops)} flops"]


def comparable(a, b):
    """Whether b is a's configuration in the other scheme, of the same RTL
    and flow, with a split: their DSH/SIH ratios mean something."""
    if a.split is None or b.split is None or not (a.ok and b.ok) or a.mode != b.mode:
        return False
    if a.config.scheme == b.config.scheme:
        return False
    if dataclasses.replace(b.config, scheme=a.config.scheme) != a.config:
        return False
    if (a.rtl and a.rtl.sha1) != (b.rtl and b.rtl.sha1):
        return False
    if a.asic or b.asic:
        if not (a.asic and b.asic):
            return False
        if (a.asic.library, a.asic.period_ns) != (b.asic.library, b.asic.period_ns):
            return False
    return True


def ratio_lines(res, other, where):
    """DSH/SIH for each row, res and other the two schemes (comparable)."""
    dsh, sih = (res, other) if res.config.dsh else (other, res)
    unit = unit_of(res)
    parts = [f"{part} {_ratio_text(ratio(d, s))}"
             for (part, d), (_, s) in zip(rows(dsh, unit), rows(sih, unit))]
    return [f"  DSH/SIH ({unit}; {other.config.name} from {where}): " + ", ".join(parts)]


def _ratio_text(r):
    return "-" if r is None else f"{r:.3f}"


def report_section(results, unit):
    """report.md's split table: for each size the three rows, SIH, DSH and
    DSH/SIH; [] when no result has a split."""
    with_split = [r for r in results if r.ok and r.split is not None]
    if not with_split:
        return []
    by = {(r.config.ports, r.config.queues, r.config.scheme): r for r in with_split}
    md = ["", f"## Threshold pipeline and statistics ({unit})", "",
          "The threshold pipeline is the same configuration synthesised with Stats = 0 (no "
          "statistics counters); the statistics are the difference (docs/design/synthesis.md).", "",
          "| P×Q | part | SIH | DSH | DSH/SIH |", "|---|---|---:|---:|---:|"]
    for p, q in sorted({(k[0], k[1]) for k in by}, key=lambda x: (x[0] * x[1], x[0])):
        s, d = by.get((p, q, "sih")), by.get((p, q, "dsh"))
        srows = rows(s, unit) if s else [(part, None) for part in (WHOLE, PIPELINE, STATISTICS)]
        drows = rows(d, unit) if d else [(part, None) for part in (WHOLE, PIPELINE, STATISTICS)]
        for (part, sv), (_, dv) in zip(srows, drows):
            md.append(f"| {p}×{q} | {part} | {_num(sv)} | {_num(dv)} | {_ratio_text(ratio(dv, sv))} |")
    return md
