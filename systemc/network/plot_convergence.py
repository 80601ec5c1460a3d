#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""DSH/SIH ratios of the benchmark scenarios against the arrival window.

usage: plot_convergence.py out.png summary.json [summary.json ...]

Each summary.json is one merged benchmark run (dsh-sim --merge) of the
same points at one arrival window (its "duration_ms"). For every
(workload, buffer, CC, background load) the plot draws, against the window,
the mean over seeds of each seed's DSH/SIH ratio with its 95 % t interval,
both as summary.json states them ("ratios_over_seeds"; the intervals are
computed once, in systemc/network/stats.h): rows the average FCT with the
unfinished flows counted (a lower bound, the figure the results pages
show), the average FCT of finished flows only, and p99 FCT; columns the
background and the fan-in. Summaries of several buffers (Fig. 5) are
drawn in Fig. 5's own form instead: the average FCT of all flows with the
unfinished counted, per buffer and scheme, mean over seeds with its 95 % t
interval ("over_seeds"), against the window. It also prints the table it
plots.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

METRICS = [("mean_fct_with_unfinished", "average FCT, unfinished counted"),
           ("mean_fct", "average FCT, finished only"),
           ("p99_fct", "p99 FCT, finished only")]
KINDS = [("background", "background"), ("fanin", "fan-in")]


def series(summaries):
    """{(workload, buffer, cc, load): {(kind, metric): [(window, mean, lo, hi, n)]}}"""
    out = {}
    for s in summaries:
        window = s["duration_ms"]
        for w, by_buf in s.get("ratios_over_seeds", {}).items():
            for b, by_cc in by_buf.items():
                for cc, by_load in by_cc.items():
                    for load, by_kind in by_load.items():
                        for kind, by_metric in by_kind.items():
                            for metric, r in by_metric.items():
                                out.setdefault((w, b, cc, load), {}).setdefault((kind, metric), []).append(
                                    (window, r["mean"], r.get("lo"), r.get("hi"), r["n"]))
    for by in out.values():
        for pts in by.values():
            pts.sort()
    return out


def absolute_series(summaries):
    """{(workload, buffer, cc, load, scheme): [(window, mean, lo, hi, n)]} of the
    average FCT of all flows, unfinished counted (Fig. 5's y-axis)."""
    out = {}
    for s in summaries:
        for w, by_buf in s.get("results", {}).items():
            for b, by_cc in by_buf.items():
                for cc, by_load in by_cc.items():
                    for load, by_scheme in by_load.items():
                        for sch, x in by_scheme.items():
                            o = x.get("over_seeds", {}).get("mean_fct_us_all_with_unfinished")
                            if o:
                                out.setdefault((w, b, cc, load, sch), []).append(
                                    (s["duration_ms"], o["mean"], o.get("lo"), o.get("hi"), o["n"]))
    for pts in out.values():
        pts.sort()
    return out


def window_ticks(ax, summaries):
    """The windows as the x ticks, written as numbers (log axis)."""
    ws = sorted({s["duration_ms"] for s in summaries})
    ax.set_xticks(ws)
    ax.set_xticklabels(["%g" % w for w in ws])
    ax.minorticks_off()


def fig5(png_path, summaries):
    data = absolute_series(summaries)
    fig, ax = plt.subplots(figsize=(7, 4))
    print("workload buffer cc load scheme: window_ms mean_us [lo, hi] n")
    for ci, (key, pts) in enumerate(sorted(data.items(), key=lambda kv: (float(kv[0][1]), kv[0]))):
        err = [[p[1] - p[2] if p[2] is not None else 0 for p in pts],
               [p[3] - p[1] if p[3] is not None else 0 for p in pts]]
        ax.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=err, fmt="o-", capsize=3, lw=1, ms=4,
                    color="C%d" % ci, label="%s, %s MiB, %s, bg %s, %s" % (key[0], key[1], key[2], key[3],
                                                                         key[4].upper()))
        for p in pts:
            iv = "[%.1f, %.1f]" % (p[2], p[3]) if p[2] is not None else "(one seed)"
            print("%s: %g %.1f %s %d" % (" ".join(key), p[0], p[1], iv, p[4]))
    ax.set_xscale("log")
    window_ticks(ax, summaries)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("arrival window bench.duration_ms (ms)")
    ax.set_ylabel("average FCT (us), unfinished counted")
    ax.set_title("Fig. 5 against the arrival window: mean over seeds, 95 % t interval", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


def main(png_path, paths):
    summaries = [json.load(open(p)) for p in paths]
    if len({b for s in summaries for w in s.get("results", {}).values() for b in w}) > 1:
        return fig5(png_path, summaries)
    data = series(summaries)
    if not data:
        sys.exit("plot_convergence.py: no ratios_over_seeds in %s (runs with both schemes needed)" % ", ".join(paths))
    fig, axes = plt.subplots(len(METRICS), len(KINDS), figsize=(6 * len(KINDS), 3.2 * len(METRICS)), squeeze=False,
                             sharex=True)
    print("workload buffer cc load kind metric: window_ms mean [lo, hi] n")
    for ci, (point, by) in enumerate(sorted(data.items())):
        label = "%s %s %s, bg load %s" % point
        for r, (metric, mtitle) in enumerate(METRICS):
            for c, (kind, ktitle) in enumerate(KINDS):
                pts = by.get((kind, metric), [])
                if not pts:
                    continue
                ax = axes[r][c]
                xs = [p[0] * (1 + 0.03 * (ci - (len(data) - 1) / 2)) for p in pts]  # side by side on a log axis
                ys = [p[1] for p in pts]
                err = [[p[1] - p[2] if p[2] is not None else 0 for p in pts],
                       [p[3] - p[1] if p[3] is not None else 0 for p in pts]]
                ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, lw=1, ms=4, color="C%d" % ci, label=label)
                for p in pts:
                    iv = "[%.3f, %.3f]" % (p[2], p[3]) if p[2] is not None else "(one seed)"
                    print("%s %s: %g %.3f %s %d" % (" ".join(point), kind + " " + metric, p[0], p[1], iv, p[4]))
    for r, (metric, mtitle) in enumerate(METRICS):
        for c, (kind, ktitle) in enumerate(KINDS):
            ax = axes[r][c]
            ax.axhline(1, color="tab:red", ls="--", lw=1)
            ax.set_xscale("log")
            window_ticks(ax, summaries)
            ax.set_title("%s, %s: DSH / SIH" % (ktitle, mtitle), fontsize=10)
            ax.grid(alpha=0.3)
            if r == len(METRICS) - 1:
                ax.set_xlabel("arrival window bench.duration_ms (ms)")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("DSH/SIH against the arrival window: mean over seeds, 95 % t interval", fontsize=11)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2:])
