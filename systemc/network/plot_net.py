#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Plots of the network scenarios (files written by dsh-sim).

usage: plot_net.py throughput.csv out.png [GBPS]   S2: F0 throughput around the fan-in
                                                   (paper Fig. 13), one panel per CC; the
                                                   y-axis to 1.05 x GBPS, F0's link rate
                                                   (default 100)
       plot_net.py --deadlock summary.json out.png S3: CDF over runs of the deadlock
                                                   onset time (paper Fig. 12b); with
                                                   several loads also the deadlocked
                                                   fraction against the load (Wilson 95 %)
       plot_net.py --benchmark summary.json out.png benchmark traffic: average FCT of DSH
                                                   normalised to SIH, background and fan-in,
                                                   per CC against the background load (Fig. 14);
                                                   per workload with several (Fig. 15); the
                                                   average FCT against the buffer with several
                                                   buffers (Fig. 5)
       plot_net.py --storm storm.csv out.png START_US  S6: the innocent flows' throughput and the
                                                   switches and hosts with a class paused over
                                                   time, watchdog off and on, one column per
                                                   scheme; the storm's start marked

The benchmark plot shows the average FCT with each unfinished flow counted
at its elapsed time (summary.json "with_unfinished", a lower bound): the
average over finished flows alone leaves out the largest flows and so is
biased low. Bars: the mean over seeds of each seed's DSH/SIH ratio
("ratios_over_seeds"), with its 95 % t interval (from summary.json) when
there are two seeds or more; the hollow marker: the same ratio over
finished flows only.
"""
import json
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"dsh": "tab:blue", "sih": "tab:red"}


def main(csv_path, png_path, link_gbps="100"):
    link = float(link_gbps)
    if not link > 0:
        sys.exit("plot_net.py: link rate %r: expected a positive number of Gb/s" % link_gbps)
    rows = list(csv.DictReader(open(csv_path)))
    titles = {"none": "none", "dcqcn": "DCQCN", "powertcp": "PowerTCP"}
    ccs = [c for c in titles if any(r["cc"] == c for r in rows)]
    fig, axes = plt.subplots(1, len(ccs), figsize=(6 * len(ccs), 3.8), squeeze=False, sharey=True)
    for ax, cc in zip(axes[0], ccs):
        for scheme in ("dsh", "sih"):
            pts = [(float(r["t_us"]), float(r["f0_gbps"])) for r in rows if r["cc"] == cc and r["scheme"] == scheme]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=COLORS[scheme], lw=1.4,
                        label=scheme.upper())
        ax.axvline(0, color="grey", ls=":", lw=1)
        ax.set_title("F0 (innocent flow), CC: " + titles[cc])
        ax.set_xlabel("time from the fan-in start (us)")
        ax.set_ylim(0, 1.05 * link)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    axes[0][0].set_ylabel("throughput (Gb/s, 10 us bins)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    return fig


CC_NAMES = {"none": "no CC", "dcqcn": "DCQCN", "powertcp": "PowerTCP"}
CC_STYLES = {"none": "--", "dcqcn": "-", "powertcp": ":"}


def onset_cdf(ax, s, load):
    """The CDF over runs of the deadlock onset time at one load (paper Fig. 12b)."""
    for scheme, by_cc in sorted(s["results"].items()):
        for cc, by_load in sorted(by_cc.items()):
            if load not in by_load:
                continue
            r = by_load[load]
            onsets = sorted(r["onset_ms"])
            n = r["runs"]
            xs, ys = [0.0], [0.0]
            for i, o in enumerate(onsets):
                xs += [o, o]
                ys += [i / n, (i + 1) / n]
            xs.append(s["duration_ms"])
            ys.append(len(onsets) / n)
            lo, hi = r["ci95"]
            ax.plot(xs, ys, CC_STYLES.get(cc, "-"), color=COLORS.get(scheme, "k"), lw=1.5,
                    label="%s, %s: %d/%d [%.0f-%.0f %%]" % (scheme.upper(), CC_NAMES.get(cc, cc), len(onsets), n,
                                                            100 * lo, 100 * hi))
    ax.set_xlim(0, s["duration_ms"])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("deadlock onset (ms)")
    ax.set_ylabel("fraction of runs deadlocked")
    ax.set_title("load %s" % load, fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=6)


def fraction_vs_load(ax, s):
    """Deadlocked fraction against the load, with the Wilson 95 % interval."""
    loads = s["loads"]
    xs = [float(x) for x in loads]
    for scheme, by_cc in sorted(s["results"].items()):
        for cc, by_load in sorted(by_cc.items()):
            pts = [(float(l), by_load[l]) for l in loads if l in by_load]
            if not pts:
                continue
            x = [p[0] for p in pts]
            y = [p[1]["deadlocked_fraction"] for p in pts]
            err = [[p[1]["deadlocked_fraction"] - p[1]["ci95"][0] for p in pts],
                   [p[1]["ci95"][1] - p[1]["deadlocked_fraction"] for p in pts]]
            ax.errorbar(x, y, yerr=err, fmt="o" + CC_STYLES.get(cc, "-"), color=COLORS.get(scheme, "k"), lw=1.2,
                        ms=3, capsize=2, label="%s, %s" % (scheme.upper(), CC_NAMES.get(cc, cc)))
    paper = s.get("paper", {})
    if "0.5" in loads or len(loads) > 1:
        for scheme in ("sih", "dsh"):
            f = paper.get(scheme, {}).get("dcqcn")
            if f is not None:
                ax.plot([0.5], [f], "*", color=COLORS[scheme], ms=11, mec="k", mew=0.6,
                        label="paper, %s, DCQCN (its 0.5)" % scheme.upper())
    ax.set_xlim(0, max(xs) * 1.05 if xs else 1)
    ax.set_ylim(-0.02, 1.02)
    unit = "one receiver's downlink" if s.get("load_unit") == "receiver" else "the destination leaf's downlinks"
    ax.set_xlabel("load (fraction of %s)" % unit)
    ax.set_ylabel("fraction of runs deadlocked (95 % CI)")
    ax.set_title("deadlocked within %g ms, %d seeds" % (s["duration_ms"], len(s["seeds"])), fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=6)


def deadlock(summary_path, png_path):
    s = json.load(open(summary_path))
    loads = s["loads"]
    unit = "receiver" if s.get("load_unit") == "receiver" else "leaf"
    if len(loads) == 1:
        fig, ax = plt.subplots(figsize=(6.4, 4))
        onset_cdf(ax, s, loads[0])
        ax.set_title("S3: PFC deadlock onset, %d seeds x %g ms, load %s per %s, routes %s" %
                     (len(s["seeds"]), s["duration_ms"], loads[0], unit, s.get("routes", "?")), fontsize=9)
    else:
        cols = min(4, len(loads) + 1)
        rows = (len(loads) + 1 + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.0 * rows), squeeze=False)
        flat = [a for row in axes for a in row]
        fraction_vs_load(flat[0], s)
        for ax, load in zip(flat[1:], loads):
            onset_cdf(ax, s, load)
        for ax in flat[len(loads) + 1:]:
            ax.axis("off")
        fig.suptitle("S3: PFC deadlock, load per %s, routes %s" % (unit, s.get("routes", "?")), fontsize=10)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


CC_TITLES = {"none": "no CC", "dcqcn": "DCQCN", "powertcp": "PowerTCP"}
KIND_STYLE = {"background": ("tab:blue", "background"), "fanin": ("tab:orange", "fan-in")}


def ratio(s, w, b, cc, load, kind, metric):
    """(mean, lo, hi) of a DSH/SIH ratio over seeds; lo/hi None with one seed.
    Summaries without ratios_over_seeds: the pooled ratio, no interval."""
    r = s.get("ratios_over_seeds", {}).get(w, {}).get(b, {}).get(cc, {}).get(load, {}).get(kind, {}).get(metric)
    if r:
        return r["mean"], r.get("lo"), r.get("hi")
    pooled = "normalised_with_unfinished" if metric.endswith("_with_unfinished") else "normalised"
    v = s.get(pooled, s.get("normalised", {})).get(w, {}).get(b, {}).get(cc, {}).get(load, {}).get(kind)
    return (v, None, None) if v is not None else (float("nan"), None, None)


def bars_with_intervals(ax, xs, vals, width, **kw):
    """Bars at the ratios' means, with error bars where an interval exists."""
    ys = [v[0] for v in vals]
    ax.bar(xs, ys, width, **kw)
    for x, (m, lo, hi) in zip(xs, vals):
        if lo is not None:
            ax.errorbar([x], [m], yerr=[[m - lo], [hi - m]], fmt="none", ecolor="k", capsize=3, lw=1)
    return ys


def legend_below(fig, ax):
    # One legend under the panels: inside one, it hides a bar.
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 4), fontsize=8)


def benchmark(summary_path, png_path):
    s = json.load(open(summary_path))
    res = s.get("results", {})
    norm = s.get("normalised", {})
    workloads = list(res)
    buffers = sorted({b for w in res.values() for b in w}, key=lambda b: float(b) if b != "chip" else 0)
    topo = s["topology"]
    where = "%s, %d hosts" % (topo["generate"], topo["hosts"])
    rect = (0, 0, 1, 1)
    if len(buffers) > 1:  # Fig. 5: average FCT against the buffer
        fig, ax = plt.subplots(figsize=(6, 3.8))
        for w in workloads:
            series = {}
            for b in buffers:
                for cc, by_load in res[w].get(b, {}).items():
                    for load, by_scheme in by_load.items():
                        for sch, x in by_scheme.items():
                            o = x.get("over_seeds", {}).get("mean_fct_us_all_with_unfinished")
                            if o:
                                series.setdefault((sch, cc, load), []).append((float(b), o["mean"], o.get("lo"),
                                                                               o.get("hi")))
                            elif "mean_fct_us_all" in x:
                                series.setdefault((sch, cc, load), []).append((float(b), x["mean_fct_us_all"], None,
                                                                               None))
            for (sch, cc, load), pts in sorted(series.items()):
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=COLORS.get(sch, "k"),
                        label="%s, %s, %s, bg load %s" % (sch.upper(), CC_TITLES.get(cc, cc), w, load))
                for x, m, lo, hi in pts:
                    if lo is not None:
                        ax.errorbar([x], [m], yerr=[[m - lo], [hi - m]], fmt="none", ecolor=COLORS.get(sch, "k"),
                                    capsize=3, lw=1)
        ax.set_xlabel("buffer (MiB)")
        ax.set_ylim(bottom=0)
        ax.set_ylabel("average FCT (us), unfinished counted")
        ax.set_title("FCT against buffer size (paper Fig. 5), " + where)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    elif len(workloads) > 1:  # Fig. 15: normalised FCT per workload
        ccs = sorted({cc for w in norm.values() for b in w.values() for cc in b})
        fig, axes = plt.subplots(1, max(1, len(ccs)), figsize=(6 * max(1, len(ccs)), 3.8), squeeze=False)
        for ax, cc in zip(axes[0], ccs):
            loads = sorted({l for w in norm.values() for b in w.values() for l in b.get(cc, {})}, key=float)
            width = 0.8 / max(1, 2 * len(loads))
            for li, load in enumerate(loads):
                for ki, kind in enumerate(("background", "fanin")):
                    xs = [i + (2 * li + ki - (2 * len(loads) - 1) / 2) * width for i in range(len(workloads))]
                    vals = [ratio(s, w, buffers[0], cc, load, kind, "mean_fct_with_unfinished") for w in workloads]
                    bars_with_intervals(ax, xs, vals, width, color=KIND_STYLE[kind][0], alpha=1 - 0.3 * li,
                                        label="%s, bg load %s" % (KIND_STYLE[kind][1], load))
                    fin = [ratio(s, w, buffers[0], cc, load, kind, "mean_fct")[0] for w in workloads]
                    ax.plot(xs, fin, "o", mfc="none", mec="k", ms=5,
                            label="finished flows only" if li == 0 and ki == 0 else None)
            ax.axhline(1, color=COLORS["sih"], ls="--", lw=1, label="SIH")
            ax.set_xticks(range(len(workloads)))
            ax.set_xticklabels(workloads)
            ax.set_ylabel("average FCT, DSH / SIH (unfinished counted)")
            ax.set_title("Fig. 15 (%s), %s" % (CC_TITLES.get(cc, cc), where))
            ax.grid(alpha=0.3, axis="y")
        legend_below(fig, axes[0][0])
        rect = (0, 0.1, 1, 1)
    else:  # Fig. 14: normalised FCT against the background load, one panel per CC
        w = workloads[0] if workloads else ""
        b0 = buffers[0] if buffers else "chip"
        by_cc = norm.get(w, {}).get(b0, {})
        ccs = [c for c in ("none", "dcqcn", "powertcp") if c in by_cc]
        fig, axes = plt.subplots(1, max(1, len(ccs)), figsize=(5.5 * max(1, len(ccs)), 3.8), squeeze=False,
                                 sharey=True)
        for ax, cc in zip(axes[0], ccs):
            loads = sorted(by_cc[cc], key=float)
            for ki, kind in enumerate(("background", "fanin")):
                xs = [i + (ki - 0.5) * 0.38 for i in range(len(loads))]
                vals = [ratio(s, w, b0, cc, l, kind, "mean_fct_with_unfinished") for l in loads]
                ys = bars_with_intervals(ax, xs, vals, 0.38, color=KIND_STYLE[kind][0],
                                         label="DSH, " + KIND_STYLE[kind][1])
                fin = [ratio(s, w, b0, cc, l, kind, "mean_fct")[0] for l in loads]
                ax.plot(xs, fin, "o", mfc="none", mec="k", ms=5, label="finished flows only" if ki == 0 else None)
                for x, y in zip(xs, ys):
                    ax.text(x + 0.19, y, "%.2f" % y, ha="center", va="bottom", fontsize=7)
            ax.axhline(1, color=COLORS["sih"], ls="--", lw=1, label="SIH (= 1)")
            ax.set_xticks(range(len(loads)))
            ax.set_xticklabels(loads)
            ax.set_xlabel("background load (total %g)" % s["traffic"]["total_load"])
            ax.set_title("%s, %s, %s" % (CC_TITLES.get(cc, cc), w, where))
            ax.grid(alpha=0.3, axis="y")
        axes[0][0].set_ylabel("average FCT normalised to SIH\n(unfinished counted; mean of seeds, 95 %)")
        legend_below(fig, axes[0][0])
        rect = (0, 0.07, 1, 1)
    fig.tight_layout(rect=rect)
    fig.savefig(png_path, dpi=120)


def storm(csv_path, png_path, start_us="0"):
    rows = list(csv.DictReader(open(csv_path)))
    schemes = sorted({r["scheme"] for r in rows})
    fig, axes = plt.subplots(2, len(schemes), figsize=(6 * len(schemes), 6.5), sharex=True, squeeze=False)
    styles = {"off": "-", "on": "--"}
    for col, sch in enumerate(schemes):
        top, bottom = axes[0][col], axes[1][col]
        for wd in ("off", "on"):
            rs = [r for r in rows if r["scheme"] == sch and r["watchdog"] == wd]
            if not rs:
                continue
            t = [float(r["t_us"]) for r in rs]
            top.plot(t, [float(r["innocent_gbps"]) for r in rs], styles[wd], color=COLORS.get(sch, "k"),
                     label=f"watchdog {wd}")
            bottom.plot(t, [int(r["switches_paused"]) for r in rs], styles[wd], color="tab:purple",
                        label=f"switches, watchdog {wd}")
            bottom.plot(t, [int(r["hosts_paused"]) for r in rs], styles[wd], color="tab:green",
                        label=f"hosts, watchdog {wd}")
        for ax in (top, bottom):
            ax.axvline(float(start_us), color="gray", lw=0.8)
            ax.grid(alpha=0.3)
        top.set_title(f"{sch.upper()}: PFC storm from {start_us} us")
        top.set_ylabel("innocent flows, Gb/s")
        bottom.set_ylabel("nodes with a class paused")
        bottom.set_xlabel("time, us")
        top.legend(fontsize=8)
        bottom.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--storm":
        storm(*sys.argv[2:])
        sys.exit(0)
    if len(sys.argv) == 4 and sys.argv[1] == "--deadlock":
        deadlock(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "--benchmark":
        benchmark(*sys.argv[2:])
    elif len(sys.argv) in (3, 4):
        main(*sys.argv[1:])
    else:
        sys.exit(__doc__)
