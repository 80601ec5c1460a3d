#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every scenario key through every dsh-sim entry point.

For each scenario kind, the keys come from `dsh-sim FILE --keys json` (the
one registry). Each key gets the bad values its declaration implies: above
and below its range, a value of the wrong type, a word that is not one of
its choices, a list that does not parse. Each bad value goes through every
entry point: the scenario file (a TOML file with that key), --set on the
real scenario with the default run, --list, --list-points, --point ID and
--merge DIR. Every one must exit 2, name the key, where the value came from
(file:line or --set) and what is accepted, and write nothing: the -o
directory does not appear. A key given twice on the command line, options
and keys that have no effect on the chosen backend or scenario, an unknown
kind and a sweep with no feasible point are refused the same way, from a
table written here by hand.

usage: test_every_key.py DSH_SIM SCENARIO_DIR
Standard library only."""

import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

SIM = sys.argv[1]
SCEN = Path(sys.argv[2])
# One scenario file per kind.
FILES = {"pfc-avoidance": "pfc-avoidance.toml", "saturate": "worst-case.toml",
         "collateral-damage": "collateral-damage.toml", "deadlock": "deadlock.toml", "benchmark": "benchmark.toml",
         "pfc-storm": "pfc-storm.toml"}
REFUSED = ("out of range", "expected", "is not", "empty", "not a range", "must", "no point", "give it once")
FORBIDDEN = ("Traceback", "terminate called", "Segmentation fault", "AddressSanitizer", "runtime error:")


def run(args, out_dir):
    p = subprocess.run([SIM, *args, "-o", out_dir] if out_dir else [SIM, *args], capture_output=True, text=True,
                       timeout=60)
    return p.returncode, p.stderr + p.stdout


def keys_of(kind):
    p = subprocess.run([SIM, str(SCEN / FILES[kind]), "--keys", "json"], capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def num_text(x, integer):
    return str(int(x)) if integer else repr(float(x))


def bad_values(k):
    """(label, --set text, TOML literal) of values the declaration refuses."""
    t = k["type"]
    out = []
    if t in ("uint", "int", "real"):
        integer = t != "real"
        hi, lo = k["hi"], k["lo"]
        above = hi + 1 if integer else (hi * 10 if hi > 0 else hi + 1)
        out.append(("above", num_text(above, integer), num_text(above, integer)))
        if t == "uint" and lo == 0:
            out.append(("negative", "-1", "-1"))
        elif integer:
            out.append(("below", num_text(lo - 1, True), num_text(lo - 1, True)))
        else:
            below = lo if k["lo_open"] else lo - 1
            out.append(("below", num_text(below, False), num_text(below, False)))
        out.append(("word", "abc", '"abc"'))
        if integer:
            out.append(("fraction", "1.5", "1.5"))
    elif t == "bool":
        out += [("number", "2", "2"), ("word", "yes", '"yes"')]
    elif t == "choice":
        out.append(("word", "nope", '"nope"'))
    elif t == "list" or t == "text":
        if k.get("checked") or k["choices"]:
            out.append(("unparsable", "x9..x1", '"x9..x1"'))
    return out


def check_refusal(what, rc, text, key, origin, out_dir, failures):
    problems = []
    if rc != 2:
        problems.append(f"exit {rc}, expected 2")
    if key not in text and key.split(".")[-1] not in text:
        problems.append("the message does not name the key")
    if origin not in text:
        problems.append(f"the message does not say where the value came from ({origin})")
    if not any(r in text for r in REFUSED):
        problems.append("the message does not say what is accepted")
    for f in FORBIDDEN:
        if f in text:
            problems.append(f"crash: {f}")
    if out_dir and os.path.exists(out_dir):
        problems.append(f"the refused run left {out_dir} behind")
    if problems:
        failures.append(f"{what}: " + "; ".join(problems) + "\n    " + text.strip().replace("\n", "\n    "))


def one_point_id(kind, tmp):
    if kind == "saturate":
        return None
    rc, text = run([str(SCEN / FILES[kind]), "--set", "run.backend=golden", "--list-points"], None)
    assert rc == 0, text
    return text.split()[0]


def cases_for(kind, tmp):
    scen = str(SCEN / FILES[kind])
    pid = one_point_id(kind, tmp)
    cases = []
    for k in keys_of(kind):
        key = k["name"]
        if key == "scenario.kind":
            continue  # the file chooses the kind: a hand case below
        section, name = key.split(".", 1)
        for n, (label, text, literal) in enumerate(bad_values(k)):
            # The scenario file: its kind, then the key alone in its section.
            toml = tmp / f"{kind}-{key}-{label}.toml"
            body = f'[scenario]\nkind = "{kind}"\n' + (f"{name} = {literal}\n" if section == "scenario" else
                                                        f"[{section}]\n{name} = {literal}\n")
            toml.write_text(body)
            line = 3 if section == "scenario" else 4
            cases.append((f"{kind} {key}={text} in {toml.name}", [str(toml)], key, f"{toml}:{line}"))
            base = [scen, "--set", f"{key}={text}"]
            cases.append((f"{kind} --set {key}={text}", base, key, "--set"))
            if n == 0:  # the first bad value through the other entry points
                cases.append((f"{kind} --set {key}={text} --list", base + ["--list"], key, "--set"))
                if pid:
                    cases.append((f"{kind} --set {key}={text} --list-points", base + ["--list-points"], key, "--set"))
                    cases.append((f"{kind} --set {key}={text} --point", base + ["--point", pid], key, "--set"))
                    cases.append((f"{kind} --set {key}={text} --merge", base + ["--merge", str(tmp)], key, "--set"))
        # Given twice on the command line, even with the same value.
        cases.append((f"{kind} --set {key} twice", [scen, "--set", f"{key}={k['default']}", "--set",
                                                    f"{key}={k['default']}"], key, "already given by --set"))
    return cases


# Hand cases: (what, arguments, text the message must hold, what it names).
def hand_cases(tmp):
    s = {k: str(SCEN / f) for k, f in FILES.items()}
    unknown = tmp / "unknown_kind.toml"
    unknown.write_text('[scenario]\nkind = "dedlock"\n')
    typo = tmp / "typo.toml"
    typo.write_text('[scenario]\nkind = "deadlock"\n[traffic]\nlaod = 0.5\n')
    return [
        ("rtl fault on the golden model", [s["pfc-avoidance"], "-b", "golden", "--set", "run.rtl_fault=3"],
         "run.rtl_fault", "has no effect with run.backend = golden (-b)"),
        ("full compare without lockstep", [s["pfc-avoidance"], "-b", "rtl", "--set", "run.full_compare=true"],
         "run.full_compare", "needs run.backend = lockstep"),
        ("rtl variant on the golden model", [s["pfc-avoidance"], "-b", "golden", "--set", "run.rtl_variant=p3q3_dsh"],
         "run.rtl_variant", "has no effect with run.backend = golden"),
        ("rtl switches on the golden model", [s["collateral-damage"], "--set", "net.rtl_switches=S1"],
         "net.rtl_switches", "collateral-damage.toml:"),
        ("a fault on a golden network", [s["deadlock"], "--set", "run.rtl_fault=1"], "run.rtl_fault",
         "has no effect with run.backend = golden"),
        ("a pinned route that loops", [s["deadlock"], "--set", "net.routes=S0:L3:L1,L1:L3:S0"], "net.routes",
         'net.routes (--set): \'S0:L3:L1\' at switch S0 makes a routing loop toward H48: S0 -> L1 -> S0'),
        ("--trace on a network", [s["deadlock"], "--trace", "dsh:10"], "--trace", "a single-switch option"),
        ("--allow-lossy on a network", [s["deadlock"], "--allow-lossy"], "run.allow_lossy", "unknown key"),
        ("--full on the single switch", [s["pfc-avoidance"], "--full"], "--full", "the deadlock and benchmark scenarios' option"),
        ("--full on S2", [s["collateral-damage"], "--full"], "--full", "the deadlock and benchmark scenarios' option"),
        ("a listed network beside a generated one", [s["benchmark"], "--set", "net.switches=A,B"], "net.switches",
         "net.generate = leaf-spine"),
        ("a background load above the total", [s["benchmark"], "--set", "traffic.background_load=0.95"],
         "traffic.background_load", "above traffic.total_load"),
        ("an odd fat-tree k", [s["benchmark"], "--set", "net.generate=fat-tree", "--set", "net.fat_tree_k=5"],
         "net.fat_tree_k", "odd"),
        ("more fan-in senders than hosts outside a rack", [s["benchmark"], "--set", "net.leaves=2", "--set",
                                                          "traffic.fanin_senders=17"], "traffic.fanin_senders",
         "outside the largest rack"),
        ("--set changes the kind", [s["pfc-avoidance"], "--set", "scenario.kind=deadlock"], "scenario.kind",
         "cannot change it"),
        ("an unknown kind", [str(unknown)], "scenario.kind", "unknown_kind.toml:2"),
        ("a typo in a key", [str(typo)], "laod", "did you mean traffic.load"),
        ("-b and --set run.backend", [s["pfc-avoidance"], "-b", "golden", "--set", "run.backend=rtl"], "run.backend",
         "already given by --set"),
        ("every point infeasible", [str(SCEN / "link-speeds.toml"), "--set", "sweep.generations=800", "--set",
                                    "sweep.schemes=sih"], "sweep.schemes", "no point of this sweep can run"),
    ]


def main():
    failures = []
    with tempfile.TemporaryDirectory(prefix="dsh-every-key-") as d:
        tmp = Path(d)
        cases = [c for kind in FILES for c in cases_for(kind, tmp)]
        hand = hand_cases(tmp)

        def go(i_case):
            i, (what, args, key, origin) = i_case
            out_dir = str(tmp / f"out{i}")
            rc, text = run(args, out_dir)
            local = []
            check_refusal(what, rc, text, key, origin, out_dir, local)
            return local

        def go_hand(i_case):
            i, (what, args, names, says) = i_case
            out_dir = str(tmp / f"hand{i}")
            rc, text = run(args, out_dir)
            local = []
            if rc != 2 or names not in text or says not in text or os.path.exists(out_dir):
                local.append(f"{what}: exit {rc} (expected 2), must name {names!r} and say {says!r}"
                             f"{', and left ' + out_dir if os.path.exists(out_dir) else ''}\n    {text.strip()}")
            return local

        with ThreadPoolExecutor(max_workers=4) as ex:
            for r in ex.map(go, enumerate(cases)):
                failures += r
            for r in ex.map(go_hand, enumerate(hand)):
                failures += r
        n = len(cases) + len(hand)
    for f in failures:
        print("FAIL", f)
    print(f"{n - len(failures)} of {n} refusals as they should be "
          f"({len(cases)} from the registry's {sum(len(keys_of(k)) for k in FILES)} keys of {len(FILES)} kinds, "
          f"{len(hand)} by hand)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
