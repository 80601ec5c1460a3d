#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Headroom pressure across link speeds (scenarios/link-speeds.toml, the DSH
paper's Fig. 4 argument): each scheme's largest pause-free burst, simulated
and Theorem 1/2, and the DSH/SIH ratio, against the link rate of the chip
generation; a scheme that cannot be configured is marked infeasible.

usage: plot_link_speeds.py summary.json out.png   (summary written by dsh-sim)
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"dsh": "tab:blue", "sih": "tab:red"}
THEOREM = {"dsh": "Theorem 1", "sih": "Theorem 2"}


def main(summary_path, png_path):
    s = json.load(open(summary_path))
    rates = sorted(s["results"], key=float)
    x = [float(r) for r in rates]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 7), sharex=True,
                                      gridspec_kw={"height_ratios": [3, 2]})
    for scheme in ("dsh", "sih"):
        c = COLORS[scheme]
        thm = [(float(r), s["results"][r][scheme]["theorem_pct"]) for r in rates if scheme in s["results"][r]]
        sim = [(float(r), s["results"][r][scheme]["sim_pause_free_cells_pct"]) for r in rates
               if scheme in s["results"][r] and s["results"][r][scheme].get("sim_pause_free_cells_pct") is not None]
        bad = [float(r) for r in rates if s["results"][r].get(scheme, {}).get("infeasible")]
        if thm:
            top.plot([a for a, _ in thm], [b for _, b in thm], "--", color=c, lw=1, label=f"{scheme.upper()} {THEOREM[scheme]}")
        if sim:
            top.plot([a for a, _ in sim], [b for _, b in sim], "o-", color=c, label=f"{scheme.upper()} simulated")
        if bad:
            top.plot(bad, [0] * len(bad), "x", color=c, ms=11, mew=2, ls="none",
                     label=f"{scheme.upper()} infeasible (no shared buffer left)")
    share = [(float(r), s["generations"][r]["headroom_share_sih_pct"]) for r in rates]
    ax2 = top.twinx()
    ax2.plot([a for a, _ in share], [b for _, b in share], ":", color="gray", marker=".")
    ax2.set_ylabel("SIH headroom, % of buffer (dotted)", color="gray")
    top.set_ylabel("largest pause-free burst, % of buffer (cells)")
    top.set_ylim(-2, 50)
    top.grid(alpha=0.3)
    top.legend(fontsize=8, loc="center right")
    basis = s.get("basis", {})
    top.set_title(f"S1 on chip generations ({basis.get('n_ports', '?')} ports, {basis.get('n_queues', '?')} lossless "
                  f"queues, D_prop {basis.get('prop_delay_ns', '?')} ns; {s.get('backend', '')} MMU)", fontsize=10)
    for scheme, key, style in (("sim", "ratio_sim", "o-"), ("theorem", "ratio_theorem", "--")):
        pts = [(float(r), s["generations"][r][key]) for r in rates if key in s["generations"][r]]
        if pts:
            bottom.plot([a for a, _ in pts], [b for _, b in pts], style, color="k", label=f"DSH/SIH {scheme}")
    bottom.set_ylabel("DSH / SIH pause-free burst")
    bottom.set_xlabel("link rate of the generation, Gb/s")
    bottom.set_xscale("log")
    bottom.set_xticks(x)
    bottom.set_xticklabels([f"{r}\n{s['generations'][r]['chip'].split(' (')[0]}" for r in rates], fontsize=8)
    bottom.grid(alpha=0.3)
    bottom.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(*sys.argv[1:])
