#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The PFC watchdog with the RTL deciding. S6 (scenarios/pfc-storm.toml),
DSH with the watchdog on, with the Verilated RTL deciding for L3, the switch
whose port to the storming host H48 detects the storm and drops the
victim's packets (each drop a dequeue of the RTL's buffer, spec §6.9), and
for S1, whose pause it lifts: lockstepped against the golden model every
cycle, it gives the golden-only run's summary and storm.csv byte for byte
(but CPU and wall seconds).

  test_pfc_storm_rtl.py DSH_SIM SCENARIO_DIR WORK_DIR
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402

SIM, SCENARIOS, WORK = testlib.sim_args(__doc__)
STORM = os.path.join(SCENARIOS, "pfc-storm.toml")
ONE = ["--set", "run.schemes=dsh", "--set", "run.watchdog=on", "--reproducible", "--no-plot"]


def run(out, *extra):
    rc, _, err = testlib.run([SIM, STORM, *ONE, *extra, "-o", out], timeout=600)
    print(err.strip()[-1500:])
    if rc != 0:
        sys.exit(f"FAIL: dsh-sim exited {rc}")
    return (testlib.read_json(os.path.join(out, "summary.json"))["results"],
            testlib.read_bytes(os.path.join(out, "storm.csv")))


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    golden, gcsv = run(os.path.join(WORK, "golden"))
    rtl, rcsv = run(os.path.join(WORK, "lockstep"), "--set", "run.backend=lockstep", "--set", "net.rtl_switches=L3,S1")
    if golden != rtl:
        sys.exit(f"FAIL: summaries differ: golden {golden}, lockstep {rtl}")
    if gcsv != rcsv:
        sys.exit("FAIL: storm.csv differs")
    on = golden["dsh"]["watchdog_on"]
    if on["storms"] != 1 or on["wd_dropped"] == 0:
        sys.exit(f"FAIL: expected one storm and drops by the watchdog, got {on['storms']} and {on['wd_dropped']}")
    print(f"PASS: RTL in L3 and S1 (lockstep) equals golden: {on['storms']} storm, {on['wd_dropped']} dropped, "
          f"{on['pauses_ignored']} pauses ignored")


if __name__ == "__main__":
    main()
