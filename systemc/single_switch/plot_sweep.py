#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Pause time of the fan-in senders vs burst size (S1, paper Fig. 11b), both
schemes, with the Theorem 1 (DSH) / Theorem 2 (SIH) pause-free limits.

usage: plot_sweep.py sweep.csv summary.json out.png   (files written by dsh-sim)
"""
import csv
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"dsh": "tab:blue", "sih": "tab:red"}


def main(csv_path, summary_path, png_path):
    rows = list(csv.DictReader(open(csv_path)))
    summary = json.load(open(summary_path))
    fig, ax = plt.subplots(figsize=(8, 4.8))
    for scheme in ("dsh", "sih"):
        pts = sorted((float(r["burst_pct"]), float(r["fanin_pause_us"]), r["refine"] == "1")
                     for r in rows if r["scheme"] == scheme)
        if not pts:
            continue
        c = COLORS[scheme]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "-", color=c, lw=1.2)
        ax.plot([p[0] for p in pts if not p[2]], [p[1] for p in pts if not p[2]], "o", color=c,
                label=f"{scheme.upper()} simulated")
        ax.plot([p[0] for p in pts if p[2]], [p[1] for p in pts if p[2]], ".", color=c, ms=5)
        s = summary["schemes"].get(scheme)
        if s:
            thm = "Theorem 1" if scheme == "dsh" else "Theorem 2"
            ax.axvline(s["theorem_bytes_pct"], color=c, ls="--", lw=1,
                       label=f"{thm}: {s['theorem_pct']:.1f}% of the buffer's cells "
                             f"= {s['theorem_bytes_pct']:.1f}% in bytes")
            ax.plot([s["sim_pause_free_pct"]], [0], marker="v", color=c, ms=10, ls="none",
                    label=f"{scheme.upper()} largest pause-free: {s['sim_pause_free_pct']:.2f}% "
                          f"({s['sim_pause_free_cells_pct']:.2f}% in cells)")
    ax.set_xlabel("total fan-in burst, % of buffer (bytes sent)")
    ax.set_ylabel("total pause time of fan-in senders (µs)")
    title = f"PFC avoidance ({summary.get('scenario', '')}, {summary.get('backend', '')} MMU)"
    if "ratio_sim" in summary:
        title += f": DSH/SIH pause-free {summary['ratio_sim']:.2f}x (theorem {summary['ratio_theorem']:.2f}x)"
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.set_ylim(bottom=-0.02 * max(1.0, ax.get_ylim()[1]))
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
