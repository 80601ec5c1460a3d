#!/usr/bin/env python3
"""F0 throughput over time around the fan-in (S2, paper Fig. 13), one panel
per congestion control, DSH and SIH in each.

usage: plot_net.py throughput.csv out.png   (files written by dsh-sim)
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"dsh": "tab:blue", "sih": "tab:red"}


def main(csv_path, png_path):
    rows = list(csv.DictReader(open(csv_path)))
    ccs = [c for c in ("none", "dcqcn") if any(r["cc"] == c for r in rows)]
    fig, axes = plt.subplots(1, len(ccs), figsize=(6 * len(ccs), 3.8), squeeze=False, sharey=True)
    for ax, cc in zip(axes[0], ccs):
        for scheme in ("dsh", "sih"):
            pts = [(float(r["t_us"]), float(r["f0_gbps"])) for r in rows if r["cc"] == cc and r["scheme"] == scheme]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=COLORS[scheme], lw=1.4,
                        label=scheme.upper())
        ax.axvline(0, color="grey", ls=":", lw=1)
        ax.set_title("F0 (innocent flow), CC: " + ("none" if cc == "none" else "DCQCN"))
        ax.set_xlabel("time from the fan-in start (us)")
        ax.set_ylim(0, 105)
        ax.grid(alpha=0.3)
        ax.legend(loc="lower right")
    axes[0][0].set_ylabel("throughput (Gb/s, 10 us bins)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
