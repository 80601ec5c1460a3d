# SPDX-License-Identifier: Apache-2.0
"""Check verdicts of a run (latch, yosys-check, timing, area) and the
recorded figures and limits (constraints/synth_limits.json)."""

import json
from pathlib import Path

from .common import EXIT_FAIL, EXIT_OK, EXIT_SKIP, UsageError, say
from .files import write_atomically
from .record import CheckVerdict

CHECKS = ["latch", "yosys-check", "timing", "constraints", "area"]
# A bare --check (for CI): everything that says the netlist is wrong or
# unconstrained, but not the recorded area limit.
CI_CHECKS = ["latch", "yosys-check", "timing", "constraints"]


def parse_checks(s):
    """--check: None (not given): the default checks; 'ci' (a bare --check):
    CI_CHECKS; 'none': no check."""
    if s is None:
        return None
    if s.strip() == "ci":
        return list(CI_CHECKS)
    if s.strip() == "none":
        return []
    items = [x.strip() for x in s.split(",") if x.strip()]
    if "all" in items:
        return list(CHECKS)
    for x in items:
        if x not in CHECKS:
            raise UsageError(f"--check {x}: unknown check (valid: {', '.join(CHECKS)}, all, "
                             "none; a bare --check is latch,yosys-check,timing,constraints)")
    return items


def load_limits(path):
    """The limits file's JSON; {} when it does not exist. UsageError when it
    is a directory, cannot be read or is not JSON."""
    try:
        return json.loads(Path(path).read_text())
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise UsageError(f"--limits {path}: is a directory, expected a JSON file")
    except OSError as e:
        raise UsageError(f"--limits {path}: cannot read it: {e.strerror}")
    except ValueError as e:
        raise UsageError(f"--limits {path}: not valid JSON ({e})")


def evaluate_checks(res, checks, limits):
    """{check: CheckVerdict} of RunResult res against the recorded limits."""
    out = {}
    g, asic = res.generic, res.asic
    name = res.config.name
    rec = (limits.get("configs") or {}).get(name, {})
    for c in checks:
        if not res.ok:
            out[c] = CheckVerdict("fail", "flow failed: " + "; ".join(res.errors))
        elif c == "latch":
            n = (g.latch_cells + len(g.latch_signals)) if g else 0
            out[c] = (CheckVerdict("fail", f"{g.latch_cells} latch cells, inferred for: "
                                   + ", ".join(g.latch_signals[:10]))
                      if n else CheckVerdict("pass", "no latch inferred"))
        elif c == "yosys-check":
            n = g.check_problems if g else 0
            out[c] = (CheckVerdict("fail", f"{n} problems: " + " | ".join(g.check_messages[:5]))
                      if n else CheckVerdict("pass", "Yosys check: 0 problems"))
        elif c == "timing":
            if not asic:
                out[c] = CheckVerdict("skip", res.asic_skipped
                                      or "no ASIC result (asic mode only)")
            elif asic.sta.worst_slack_ns < 0:
                out[c] = CheckVerdict("fail", f"worst slack {asic.sta.worst_slack_ns:.3f} ns at "
                                      f"{asic.period_ns} ns ({asic.target_mhz} MHz); max clock "
                                      f"{asic.sta.fmax_mhz} MHz")
            else:
                out[c] = CheckVerdict("pass", f"worst slack {asic.sta.worst_slack_ns:.3f} ns at "
                                      f"{asic.period_ns} ns")
        elif c == "constraints":
            if not asic:
                out[c] = CheckVerdict("skip", res.asic_skipped
                                      or "no ASIC result (asic mode only)")
            elif asic.sta.check_setup:
                out[c] = CheckVerdict("fail", "check_setup: " + "; ".join(asic.sta.check_setup))
            else:
                consts = asic.sta.constant_outputs
                out[c] = CheckVerdict("pass", "check_setup clean" + (
                    f" ({len(consts)} constant output(s): {', '.join(consts[:4])})"
                    if consts else ""))
        elif c == "area":
            if asic:
                lim = rec.get("asic") or {}
                if lim.get("library") != asic.library or "area_limit_um2" not in lim:
                    out[c] = CheckVerdict("skip", f"no recorded area limit for {name} "
                                          f"with library {asic.library}")
                elif asic.area_um2 > lim["area_limit_um2"]:
                    out[c] = CheckVerdict("fail", f"area {asic.area_um2:.0f} um2 > limit "
                                          f"{lim['area_limit_um2']:.0f} um2 (recorded "
                                          f"{lim.get('area_um2')})")
                else:
                    out[c] = CheckVerdict("pass", f"area {asic.area_um2:.0f} um2 <= limit "
                                          f"{lim['area_limit_um2']:.0f} um2")
            else:
                lim = rec.get("generic") or {}
                transistors = g.transistors if g else None
                if "transistors_limit" not in lim:
                    out[c] = CheckVerdict("skip", f"no recorded generic limit for {name}")
                elif (transistors or 0) > lim["transistors_limit"]:
                    out[c] = CheckVerdict("fail", f"{transistors} transistors > limit "
                                          f"{lim['transistors_limit']}")
                else:
                    out[c] = CheckVerdict("pass", f"{transistors} transistors <= limit "
                                          f"{lim['transistors_limit']}")
    return out


def exit_status(verdicts):
    """1 if a check failed, else 77 if one was skipped, else 0."""
    rc = EXIT_OK
    for v in verdicts.values():
        if v.status == "fail":
            rc = EXIT_FAIL
        elif v.status == "skip" and rc == EXIT_OK:
            rc = EXIT_SKIP
    return rc


def record_limits(res, path, margin):
    """Write res's figures into the limits file at path, limits at +margin."""
    data = load_limits(path) or {}
    data.setdefault("about", "Recorded synthesis figures and limits of dsh_mmu, checked by the "
                    "synth/* CTest tests (scripts/synth.py --check area,timing). Limits are the "
                    "measured value plus a margin; update with scripts/synth.py ... "
                    "--record-limits after an intended change.")
    cfg = res.config.name
    entry = data.setdefault("configs", {}).setdefault(cfg, {})
    tools = res.tools
    g = res.generic
    if g:
        entry["generic"] = {"transistors": g.transistors,
                            "transistors_limit": int(g.transistors * (1 + margin)),
                            "cells": g.cells, "flops": g.flops,
                            "logic_depth": g.logic_depth, "date": res.date,
                            "yosys": tools.get("yosys")}
    a = res.asic
    if a:
        entry["asic"] = {"library": a.library, "period_ns": a.period_ns,
                         "area_um2": round(a.area_um2, 1),
                         "area_limit_um2": round(a.area_um2 * (1 + margin), 1),
                         "worst_slack_ns": a.sta.worst_slack_ns, "fmax_mhz": a.sta.fmax_mhz,
                         "cells": a.cells, "flops": a.flops, "date": res.date,
                         "yosys": tools.get("yosys"), "sta": tools.get("sta")}
    data["configs"] = dict(sorted(data["configs"].items()))
    write_atomically(path, json.dumps(data, indent=2) + "\n")
    say(f"recorded {cfg} in {path} (margin {margin:.0%})")
