#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scenario S5's plot (systemc/single_switch/plot_pfc_refresh.py; CTest
systemc/pfc_refresh_plot): at refresh 512 (before the 1024-quanta pause
expires) no scheme drops, at 2048 both do (scenarios §S5); the CSV has
those four rows and the PNG is written.

  test_pfc_refresh_plot.py PYTHON PLOT_SCRIPT DSH_SIM SCENARIO_DIR OUTDIR
"""
import csv
import subprocess
import sys
from pathlib import Path


def main():
    py, script, exe, scen, out = sys.argv[1:6]
    out = Path(out)
    r = subprocess.run([py, script, exe, str(Path(scen) / "pfc-refresh.toml"), str(out), "512", "2048"],
                       capture_output=True, text=True)
    print(r.stdout + r.stderr)
    if r.returncode != 0:
        return 1
    rows = {(x["scheme"], int(x["refresh_quanta"])): int(x["drops"]) for x in csv.DictReader(open(out / "refresh.csv"))}
    ok = len(rows) == 4 and (out / "pfc_refresh.png").stat().st_size > 0
    for scheme in ("dsh", "sih"):
        ok &= rows.get((scheme, 512)) == 0 and rows.get((scheme, 2048), 0) > 0
    print("ok" if ok else f"FAILED: {rows}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
