#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scenario S5's plot (scenarios §S5, scenarios/pfc-refresh.toml): lossless
drops against the refresh period, both schemes, the pause time marked.

Runs dsh-sim's S5 point (SCHEME:100, the golden model) once per scheme and
refresh period, each with --set link.refresh_quanta=R, and writes
OUTDIR/refresh.csv (scheme, refresh_quanta, drops) and OUTDIR/pfc_refresh.png.

  plot_pfc_refresh.py DSH_SIM SCENARIO OUTDIR [R ...]   (default R: 256 512 768 1024 1280 1536 1792 2048)
"""
import csv
import re
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"dsh": "tab:blue", "sih": "tab:red"}


def drops(exe, scenario, out, scheme, refresh):
    r = subprocess.run([exe, scenario, "-b", "golden", "--point", f"{scheme}:100", "-o", str(out),
                        "--set", f"link.refresh_quanta={refresh}"], capture_output=True, text=True)
    m = re.search(r"drops (\d+)", r.stdout)
    if not m or r.returncode not in (0, 1):
        sys.exit(f"dsh-sim {scheme} refresh {refresh}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    return int(m.group(1))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    exe, scenario, out = sys.argv[1], sys.argv[2], Path(sys.argv[3])
    periods = [int(x) for x in sys.argv[4:]] or [256, 512, 768, 1024, 1280, 1536, 1792, 2048]
    pause = int(re.search(r"^pause_quanta\s*=\s*(\d+)", open(scenario).read(), re.M).group(1))
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    for scheme in ("dsh", "sih"):
        for r in periods:
            rows.append((scheme, r, drops(exe, scenario, out / f"{scheme}_{r}", scheme, r)))
            print(*rows[-1])
    with open(out / "refresh.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["scheme", "refresh_quanta", "drops"])
        w.writerows(rows)
    fig, ax = plt.subplots(figsize=(6, 4))
    for scheme in ("dsh", "sih"):
        pts = [(r, d) for s, r, d in rows if s == scheme]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=COLORS[scheme], label=scheme.upper())
    ax.axvline(pause, color="gray", lw=0.8, ls="--", label=f"pause time {pause} quanta")
    ax.set_xlabel("refresh period, quanta of 512 bit times")
    ax.set_ylabel("lossless packets dropped")
    ax.set_title("S5: a pause refreshed after it expires drops lossless packets")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out / "pfc_refresh.png", dpi=120)
    print(f"wrote {out}/refresh.csv, pfc_refresh.png")


if __name__ == "__main__":
    main()
