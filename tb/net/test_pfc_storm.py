#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Scenario S6 (scenarios/pfc-storm.toml; CTest net/pfc_storm).

Hand-reasoned expectations (scenarios §S6, spec §6.9):
- without the watchdog the pause spreads beyond the storming host's leaf
  L3: S1, L3's only live spine, has a class paused, and so does a switch
  upstream of it on the victim's detour (L1 or L2, S0, L0); hosts on other
  leaves are paused; the innocent flows lose most of their throughput and
  never recover while the storm lasts;
- with it (drop): one storm, detected by the rule between detection (200 us)
  and detection + one poll (250 us) after the storm's first frame, plus the
  frame's 2.4 us way to L3: the first frame acts at 327.4 us, the next poll
  is at 350, detection at 550 (225 us after the start); the innocent flows
  back to 90 % of their pre-storm throughput within detection + one poll
  of the storm's start; packets dropped, pauses ignored, the storm restored
  after it stops (last frame 801.4 us, polls at 900..1050 without one:
  restored at 1050 < 1200 us); no lossless drop by the MMU.
Both schemes.

  test_pfc_storm.py DSH_SIM SCENARIO_DIR OUTDIR
"""

import json
import subprocess
import sys
from pathlib import Path


def main():
    exe, scenario, out = sys.argv[1], Path(sys.argv[2]) / "pfc-storm.toml", Path(sys.argv[3])
    r = subprocess.run([exe, str(scenario), "-o", str(out), "--no-plot", "--reproducible", "--rerun"],
                       capture_output=True, text=True)
    print(r.stderr[-3000:])
    if r.returncode != 0:
        print(f"dsh-sim exit {r.returncode}")
        return 1
    s = json.load(open(out / "summary.json"))["results"]
    ok = True

    def check(cond, what):
        nonlocal ok
        print(("ok   " if cond else "FAIL ") + what)
        ok &= bool(cond)

    for scheme in ("dsh", "sih"):
        off, on = s[scheme]["watchdog_off"], s[scheme]["watchdog_on"]
        sw = set(off["switches_paused"])
        check("S1" in sw, f"{scheme} off: S1 paused (switches paused: {sorted(sw)})")
        check(len(sw & {"S0", "L0", "L1", "L2"}) >= 1, f"{scheme} off: the pause reaches past S1")
        check(off["max_hosts_paused"] >= 1, f"{scheme} off: hosts paused ({off['max_hosts_paused']})")
        check(off["min_gbps"] < 0.5 * off["pre_gbps"],
              f"{scheme} off: innocent min {off['min_gbps']:.1f} < half of pre {off['pre_gbps']:.1f} Gb/s")
        check(off["recovered_us"] == -1, f"{scheme} off: never recovered during the storm ({off['recovered_us']})")
        check(off["storms"] == 0 and off["wd_dropped"] == 0, f"{scheme} off: no watchdog counts")
        check(on["storms"] == 1 and on["restores"] == 1, f"{scheme} on: storms {on['storms']} restores {on['restores']}")
        check(on["wd_dropped"] > 0 and on["pauses_ignored"] > 0,
              f"{scheme} on: dropped {on['wd_dropped']} ignored {on['pauses_ignored']}")
        check(on["detected_us"] == 225, f"{scheme} on: detected {on['detected_us']} us after the start (225)")
        events = [(e["port"], e["event"], e["at_us"]) for e in on["watchdog_events"]]
        check(events == [("L3>H48", "storm", 550), ("L3>H48", "restore", 1050)],
              f"{scheme} on: watchdog events {events} (L3's port to H48: storm at 550 us, restore at 1050 us)")
        check(off["watchdog_events"] == [], f"{scheme} off: no watchdog events")
        check(on["pre_gbps"] > 400, f"{scheme} on: pre-storm innocent throughput {on['pre_gbps']:.1f} Gb/s")
        check(0 <= on["recovered_us"] <= on["bound_us"] == 250,
              f"{scheme} on: recovered {on['recovered_us']} us <= bound {on['bound_us']} us")
        check(on["lossless_drops"] == 0 and off["lossless_drops"] == 0, f"{scheme}: no lossless drop")
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
