#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scenario S5 (scenarios/pfc-refresh.toml; CTest systemc/pfc_refresh).

Frame mode with a pause time of 1024 quanta: refreshed every 2048 quanta,
a held pause runs out for half of each period and the upstream sends about
64 KiB per host into a queue past its threshold, beyond the headroom, so
lossless packets are dropped (dsh-sim exits 1); refreshed every 512 quanta
(before expiry), none are (exit 0, drops 0). Both schemes.

  test_pfc_refresh.py DSH_SIM SCENARIO_DIR OUTDIR
"""

import re
import subprocess
import sys
from pathlib import Path


def run(exe, scenario, out, scheme, refresh):
    r = subprocess.run([exe, str(scenario), "-b", "golden", "--point", f"{scheme}:100", "-o", str(out),
                        "--set", f"link.refresh_quanta={refresh}"], capture_output=True, text=True)
    m = re.search(r"drops (\d+)", r.stdout)
    return r.returncode, int(m.group(1)) if m else None, r


def main():
    exe, scenario, out = sys.argv[1], Path(sys.argv[2]) / "pfc-refresh.toml", Path(sys.argv[3])
    ok = True
    for scheme in ("dsh", "sih"):
        rc_late, drops_late, r1 = run(exe, scenario, out / f"{scheme}_late", scheme, 2048)
        rc_ok, drops_ok, r2 = run(exe, scenario, out / f"{scheme}_refreshed", scheme, 512)
        print(f"{scheme}: refresh 2048 > pause 1024: drops {drops_late} (exit {rc_late}); "
              f"refresh 512: drops {drops_ok} (exit {rc_ok})")
        if drops_late is None or drops_ok is None:
            print(r1.stdout + r1.stderr + r2.stdout + r2.stderr)
            return 1
        ok &= rc_late == 1 and drops_late > 0 and rc_ok == 0 and drops_ok == 0
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
