#!/usr/bin/env python3
"""Plots of the network scenarios (files written by dsh-sim).

usage: plot_net.py throughput.csv out.png          S2: F0 throughput around the fan-in
                                                   (paper Fig. 13), one panel per CC
       plot_net.py --deadlock summary.json out.png S3: CDF over runs of the deadlock
                                                   onset time (paper Fig. 12b)
"""
import json
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"dsh": "tab:blue", "sih": "tab:red"}


def main(csv_path, png_path):
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
        ax.set_ylim(0, 105)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    axes[0][0].set_ylabel("throughput (Gb/s, 10 us bins)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


def deadlock(summary_path, png_path):
    s = json.load(open(summary_path))
    fig, ax = plt.subplots(figsize=(6.4, 4))
    styles = {"none": "--", "dcqcn": "-"}
    for scheme, by_cc in sorted(s["results"].items()):
        for cc, r in sorted(by_cc.items()):
            onsets = sorted(r["onset_ms"])
            n = r["runs"]
            xs, ys = [0.0], [0.0]
            for i, o in enumerate(onsets):
                xs += [o, o]
                ys += [i / n, (i + 1) / n]
            xs.append(s["duration_ms"])
            ys.append(len(onsets) / n)
            ax.plot(xs, ys, styles.get(cc, "-"), color=COLORS.get(scheme, "k"), lw=1.5,
                    label="%s, %s: %d/%d runs deadlock" % (scheme.upper(), "DCQCN" if cc == "dcqcn" else "no CC",
                                                          len(onsets), n))
    ax.set_xlim(0, s["duration_ms"])
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("deadlock onset (ms)")
    ax.set_ylabel("fraction of runs deadlocked")
    ax.set_title("S3: PFC deadlock onset, %d seeds x %g ms" % (len(s["seeds"]), s["duration_ms"]))
    ax.grid(alpha=0.3)
    ax.legend(loc="center right", fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--deadlock":
        deadlock(*sys.argv[2:])
    elif len(sys.argv) == 3:
        main(*sys.argv[1:])
    else:
        sys.exit(__doc__)
