#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Mutation testing of the RTL (scripts/mutate.sh runs this; docs/design/mutation.md).

Each mutant of tb/mutate/mutants.txt is applied alone to a copy of rtl/
(rtl/ itself is never edited) and the regression runs against it, in tiers;
the first test that fails kills the mutant, and the later tiers run only on
the survivors of the earlier ones:
  1. lockstep: dsh-run --backend lockstep (RTL against the golden model every
     cycle, dsh_mmu's named assertions on) on three small chips, then the
     read-port check (build/tb/lockstep/lockstep_read_port: stat_rd_* and
     qoff_o against the golden state); the RTL model is built on demand from
     the copy (DSH_RTL_DIR, cosim/rtl_ondemand.cpp);
  2. module tests: tb/rtl's test_rtl_modules, built from a copy of the source
     tree with the mutant applied (modules dsh_mmu does not use, such as
     dsh_egress_pause, are seen only here);
  3. formal: scripts/formal.py on the mutated copy (DSH_RTL_DIR), BMC of the
     harness's and the RTL's assertions on 1x1 chips, whose memories start
     anywhere.
A mutant is killed by a lockstep mismatch, by an RTL assertion firing, by a
failing module test or by a formal counterexample. One whose model does not
build is "build failed", not killed. Each tier runs unmutated first (the
baseline): a tier whose baseline fails is not used.
Report: out/mutate/report.md and summary.json, rewritten after each mutant.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The regression: (name, program, arguments). Small chips with a small
# buffer, so that every region, threshold and state machine is exercised
# quickly; the read-port checks reuse the first two chips' models (one
# Verilator build per chip and mutant).
SMALL = ["--buffer_cells", "160", "--private_cells", "3", "--headroom_cells", "12", "--alpha_log2", "0",
         "--delta_q", "2", "--delta_p", "3", "--port_mult_log2", "1"]
CHIP_DSH = ["--scheme", "DSH", "--n_ports", "3", "--n_queues", "2", "--thresh_latency", "2"] + SMALL
CHIP_SIH = (["--scheme", "SIH", "--n_ports", "3", "--n_queues", "2", "--thresh_latency", "1", "--buffer_cells", "200"]
            + SMALL[2:])
TESTS = [
    ("lockstep 3x2 DSH L2", "dsh-run", ["--seed", "1"] + CHIP_DSH),
    ("lockstep 3x2 SIH L1", "dsh-run", ["--seed", "2"] + CHIP_SIH),
    # alpha < 1: T has a fraction, which X_poff = T << port_mult_log2 must drop
    # (mutant 2 survives the two above, whose alpha is 1).
    ("lockstep 2x1 DSH L3 alpha 1/4", "dsh-run", ["--scheme", "DSH", "--n_ports", "2", "--n_queues", "1",
                                                  "--thresh_latency", "3", "--seed", "3", "--alpha_log2", "-2"]
                                                 + SMALL[:6] + SMALL[8:]),
    # Outputs the lockstep's compare does not read: stat_rd_* and qoff_o.
    ("read port 3x2 DSH L2", "read-port", ["--seed", "4"] + CHIP_DSH),
    ("read port 3x2 SIH L1", "read-port", ["--seed", "5"] + CHIP_SIH),
]


def read_mutants(path):
    mutants = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.rstrip("\n").split("\t")
            if len(fields) not in (4, 5):
                sys.exit("mutate: %s:%d: %d TAB-separated fields, expected 4 or 5 (id, file, original, "
                         "replacement[, equivalent: why])" % (path, n, len(fields)))
            mutants.append({"id": fields[0], "file": fields[1], "original": fields[2], "replacement": fields[3],
                            "equivalent": fields[4] if len(fields) == 5 else ""})
    return mutants


def classify(rc, out):
    """One test run: (outcome, detail). outcome: pass, killed, build failed
    or error (the tool failed for another reason: not a kill)."""
    if rc == 0:
        return "pass", ""
    lines = [l.strip() for l in out.splitlines() if l.strip()]
    # cosim/rtl_ondemand.cpp's RtlBuildError (its progress lines say "building
    # the RTL model for ..., once" on every build: not a failure).
    m = re.search(r"building the RTL model for [^\n]* failed: [^\n]*|RTL model on demand: [^\n]*", out)
    if m:
        return "build failed", m.group(0)[:300]
    # An RTL assertion: reported by the lockstep (exit 1, "dsh_mmu assertion"),
    # or by the model's constructor when it fails during reset (an always_comb
    # one: "an assertion failed during reset", exit 3); Verilator's %Error
    # line names it.
    m = re.search(r"Assertion failed in (\S+)", out)
    if " dsh_mmu assertion: " in out or (m and "an assertion failed during reset" in out):
        return "killed", "assertion " + (m.group(1).split(".")[-1].rstrip(":") if m else "(name not found)")
    if rc == 1:
        diff = [l for l in lines if l.startswith("cycle ") and (" rtl=" in l or " pipeline fill" in l)]
        if diff:
            return "killed", "mismatch: " + diff[0][:200]
    return "error", ("exit %d: %s" % (rc, lines[-1] if lines else ""))[:300]


def run_tests(a, rtl, cache, cwd):
    """The regression on the RTL in `rtl`: (result, test name, detail)."""
    env = dict(os.environ, DSH_RTL_DIR=rtl, DSH_RTL_CACHE=cache)
    env.setdefault("DSH_RTL_BUILD_JOBS", "1")  # one core for Verilator's make
    for name, prog, args in TESTS:
        if prog == "dsh-run":
            cmd = [a.dsh_run, "--backend", "lockstep", "--cycles", str(a.cycles), "--fst", ""] + args
        else:
            cmd = [a.read_port, "--cycles", str(a.cycles)] + args
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace")
        outcome, detail = classify(p.returncode, p.stdout)
        if outcome != "pass":
            return outcome, name, detail
    return "survived", "", ""


class ModuleTests:
    """Tier 2: tb/rtl's module tests, built (one core) in <out>/module_tests
    from a copy of the source tree whose rtl/ file takes each mutant in turn."""

    def __init__(self, a):
        self.a, self.dir = a, os.path.join(a.out, "module_tests")
        self.src, self.bld = os.path.join(self.dir, "src"), os.path.join(self.dir, "build")
        self.usable = None  # unknown until first needed; then True, or a reason

    def _build_and_run(self):
        log = os.path.join(self.dir, "build.log")
        with open(log, "w") as f:
            b = subprocess.run(["cmake", "--build", self.bld, "-j1", "--target", "test_rtl_modules"],
                               stdout=f, stderr=subprocess.STDOUT)
        if b.returncode != 0:
            tail = [l for l in open(log, errors="replace").read().splitlines() if "%Error" in l or "error:" in l]
            return "build failed", (tail[0] if tail else "see " + log)[:300]
        p = subprocess.run([os.path.join(self.bld, "tb", "rtl", "test_rtl_modules")], cwd=self.dir,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        if p.returncode == 0:
            return "pass", ""
        failed = re.findall(r"^\[  FAILED  \] (\S+)", p.stdout, re.M)
        m = re.search(r"Assertion failed in (\S+)", p.stdout)
        what = "module test " + (failed[0] if failed else "exit %d" % p.returncode)
        if m:
            what += ": assertion " + m.group(1).split(".")[-1].rstrip(":")
        return "killed", what

    def setup(self):
        if self.usable is not None:
            return self.usable
        t0 = time.time()
        shutil.rmtree(self.dir, ignore_errors=True)
        skip = {"out", ".git", "Testing"}
        shutil.copytree(ROOT, self.src, ignore=lambda d, names: [
            n for n in names if os.path.abspath(d) == ROOT and (n in skip or n.startswith("build"))])
        with open(os.path.join(self.dir, "configure.log"), "w") as f:
            c = subprocess.run(["cmake", "-S", self.src, "-B", self.bld, "-DCMAKE_BUILD_TYPE=Release",
                                "-DDSH_RTL_VARIANT_FILTER=none"], stdout=f, stderr=subprocess.STDOUT)
        if c.returncode != 0:
            self.usable = "cmake configure failed (%s)" % os.path.join(self.dir, "configure.log")
        else:
            outcome, detail = self._build_and_run()
            self.usable = True if outcome == "pass" else "baseline %s: %s" % (outcome, detail)
        print("module tests: baseline %s (%.0f s)" % ("passes" if self.usable is True else self.usable,
                                                       time.time() - t0), flush=True)
        return self.usable

    def run(self, m, text):
        if self.setup() is not True:
            return "not run", self.usable
        path = os.path.join(self.src, "rtl", m["file"])
        with open(path, "w") as f:
            f.write(text.replace(m["original"], m["replacement"]))
        try:
            return self._build_and_run()
        finally:
            with open(path, "w") as f:
                f.write(text)


class Formal:
    """Tier 3: scripts/formal.py (BMC to --formal-depth, no induction, no
    covers) on the mutated copy, per configuration, after the same check of
    rtl/ (the baseline) passed. Reads its summary.json: runs[0].bmc_status
    and .failed (the assertion it names)."""

    def __init__(self, a):
        self.a, self.dir = a, os.path.join(a.out, "formal")
        self.baseline = {}  # config -> True or the reason it is not used

    def _check(self, cfg, rtl, out):
        env = dict(os.environ)
        env.pop("DSH_RTL_DIR", None)
        if rtl:
            env["DSH_RTL_DIR"] = rtl
        shutil.rmtree(out, ignore_errors=True)
        cmd = [sys.executable, os.path.join(ROOT, "scripts", "formal.py"), "--config", cfg, "--depth",
               str(self.a.formal_depth), "--cover-depth", "0", "--induction", "0", "--timeout",
               str(self.a.formal_timeout), "--out", out]
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            run = json.load(open(os.path.join(out, "summary.json")))["runs"][0]
        except (OSError, ValueError, KeyError, IndexError):
            return "ERROR", []
        return run.get("bmc_status", "ERROR"), run.get("failed") or []

    def usable(self, cfg):
        if cfg not in self.baseline:
            t0 = time.time()
            status, failed = self._check(cfg, None, os.path.join(self.dir, "baseline_" + cfg))
            self.baseline[cfg] = True if status in ("PASSED", "PROVEN") else "baseline %s %s" % (
                status, ", ".join(failed))
            print("formal %s depth %d: baseline %s (%.0f s)" % (
                cfg, self.a.formal_depth, "passes" if self.baseline[cfg] is True else self.baseline[cfg],
                time.time() - t0), flush=True)
        return self.baseline[cfg]

    def run(self, rtl):
        notes = []
        for cfg in self.a.formal_config:
            if self.usable(cfg) is not True:
                notes.append("%s: not used (%s)" % (cfg, self.baseline[cfg]))
                continue
            status, failed = self._check(cfg, rtl, os.path.join(self.dir, "mutant"))
            if status == "FAILED":
                return "killed", "%s BMC depth %d: counterexample, %s" % (
                    cfg, self.a.formal_depth, ", ".join(f.split(".")[-1] for f in failed) or "assertion not named")
            notes.append("%s %s to depth %d" % (cfg, status, self.a.formal_depth))
        return "pass", "; ".join(notes)


def kill_kind(r):
    """What killed a killed mutant, for the counts: lockstep mismatch, RTL
    assertion, read port, module test, formal."""
    if r["killed_by"] in ("module tests", "formal"):
        return r["killed_by"]
    if r["why"].startswith("assertion"):
        return "RTL assertion"
    return "read port" if r["killed_by"].startswith("read port") else "lockstep mismatch"


def write_report(results, a, t0, baseline, final):
    count = lambda k: sum(1 for r in results if r["result"] == k)
    kinds = ("lockstep mismatch", "RTL assertion", "read port", "module tests", "formal")
    by_kind = {k: sum(1 for r in results if r["result"] == "killed" and kill_kind(r) == k) for k in kinds}
    summary = {"mutants": len(results), "killed": count("killed"), "killed_by": by_kind,
               "survived": count("survived"), "equivalent": count("equivalent"),
               "build_failed": count("build failed"), "error": count("error"), "not_applied": count("not applied"),
               "cycles": a.cycles, "baseline_seconds": baseline, "seconds": round(time.time() - t0, 1),
               "tests": [t[0] for t in TESTS] + (["module tests"] if a.module_tests else [])
                        + (["formal %s depth %d" % (c, a.formal_depth) for c in a.formal_config] if a.formal else []),
               "results": results}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    esc = lambda s: s.replace("|", "\\|")
    line = ("%d mutants: %d killed (%s), %d survived, %d equivalent, %d failed to build, %d tool errors, "
            "%d not applied" % (summary["mutants"], summary["killed"],
                                ", ".join("%s %d" % (k, n) for k, n in by_kind.items() if n) or "none",
                                summary["survived"], summary["equivalent"], summary["build_failed"],
                                summary["error"], summary["not_applied"]))
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("# Mutation results\n\n%s. %d cycles per simulation run; %.0f s in all (baseline %s s).\n\n"
                "Tests, in order (the first that fails kills): %s.\n\n"
                % (line, a.cycles, summary["seconds"], baseline if baseline is not None else "not run",
                   "; ".join(summary["tests"])))
        f.write("| id | file | mutation | result | killed by / argument | s |\n|---|---|---|---|---|---|\n")
        for r in results:
            by = ("%s: %s" % (r["killed_by"], r["why"]) if r["result"] in ("killed", "build failed", "error")
                  else r["equivalent"] or r.get("why", ""))
            f.write("| %s | %s | `%s` -> `%s` | %s | %s | %s |\n" % (
                r["id"], r["file"], esc(r["original"]), esc(r["replacement"]), r["result"], esc(by),
                r.get("seconds", "")))
    if final:
        print("mutate: %s; %.0f s" % (line, summary["seconds"]))
    return summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--list", default=os.path.join(ROOT, "tb", "mutate", "mutants.txt"))
    ap.add_argument("--only", action="append", help="mutant id(s) to run")
    ap.add_argument("--cycles", type=int, default=20000, help="cycles per simulation run (default 20000)")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated baseline of tier 1")
    ap.add_argument("--no-module-tests", dest="module_tests", action="store_false",
                    help="skip tier 2 (tb/rtl's module tests from a copy of the tree)")
    ap.add_argument("--no-formal", dest="formal", action="store_false", help="skip tier 3 (scripts/formal.py)")
    ap.add_argument("--formal-depth", type=int, default=12, help="tier 3's BMC depth (default 12)")
    ap.add_argument("--formal-config", action="append",
                    help="tier 3's configurations of scripts/formal.py, in order (default p1q1_dsh_l1, p1q1_sih_l1)")
    ap.add_argument("--formal-timeout", type=int, default=1800, help="seconds per formal run (default 1800)")
    ap.add_argument("--dsh-run", default=os.path.join(ROOT, "build", "tools", "dsh-run"),
                    help="the dsh-run of tier 1 (default build/tools/dsh-run)")
    ap.add_argument("--read-port", default=os.path.join(ROOT, "build", "tb", "lockstep", "lockstep_read_port"),
                    help="tier 1's read-port check (default build/tb/lockstep/lockstep_read_port)")
    ap.add_argument("--out", default=os.path.join(ROOT, "out", "mutate"), help="results (default out/mutate)")
    a = ap.parse_args()
    # Absolute: the tiers run in other folders.
    a.out, a.dsh_run, a.read_port = (os.path.abspath(x) for x in (a.out, a.dsh_run, a.read_port))
    a.formal_config = a.formal_config or ["p1q1_dsh_l1", "p1q1_sih_l1"]
    for prog, target in ((a.dsh_run, "dsh-run"), (a.read_port, "lockstep_read_port")):
        if not os.access(prog, os.X_OK):
            sys.exit("mutate: %s is not built (cmake --build build --target %s)" % (prog, target))
    mutants = read_mutants(a.list)
    if a.only:
        mutants = [m for m in mutants if m["id"] in a.only]
        missing = set(a.only) - {m["id"] for m in mutants}
        if missing:
            sys.exit("mutate: no mutant %s in %s" % (", ".join(sorted(missing)), a.list))
    os.makedirs(a.out, exist_ok=True)
    cache = os.path.join(a.out, "rtl_cache")
    t0 = time.time()

    baseline = None
    if not a.no_baseline:
        with tempfile.TemporaryDirectory(prefix="dsh_mutant_") as tmp:
            rtl = os.path.join(tmp, "rtl")
            shutil.copytree(os.path.join(ROOT, "rtl"), rtl)
            result, name, detail = run_tests(a, rtl, cache, tmp)
        shutil.rmtree(cache, ignore_errors=True)
        baseline = round(time.time() - t0, 1)
        if result != "survived":
            sys.exit("mutate: the unmutated RTL fails the regression (%s: %s %s): fix that first"
                     % (name, result, detail))
        print("baseline: the unmutated RTL passes every tier-1 test (%.0f s)" % baseline, flush=True)
    module_tests = ModuleTests(a) if a.module_tests else None
    formal = Formal(a) if a.formal else None

    results = []
    for m in mutants:
        src = os.path.join(ROOT, "rtl", m["file"])
        text = open(src).read() if os.path.exists(src) else None
        count = text.count(m["original"]) if text is not None else 0
        r = dict(m)
        if text is None or count != 1:
            r["result"], r["killed_by"] = "not applied", ""
            r["why"] = ("mutant %s: original text not found in %s" % (m["id"], m["file"]) if count == 0 else
                        "mutant %s: original text occurs %d times in %s" % (m["id"], count, m["file"]))
            print(r["why"], flush=True)
            results.append(r)
            continue
        t1 = time.time()
        with tempfile.TemporaryDirectory(prefix="dsh_mutant_") as tmp:
            rtl = os.path.join(tmp, "rtl")
            shutil.copytree(os.path.join(ROOT, "rtl"), rtl)
            with open(os.path.join(rtl, m["file"]), "w") as f:
                f.write(text.replace(m["original"], m["replacement"]))
            r["result"], r["killed_by"], r["why"] = run_tests(a, rtl, cache, tmp)
            m_log = re.search(r"log (\S+/build\.log)", r["why"]) if r["result"] == "build failed" else None
            if m_log and os.path.exists(m_log.group(1)):  # the cache goes: keep Verilator's log
                keep = os.path.join(a.out, "build_failed_%s.log" % m["id"])
                shutil.copy(m_log.group(1), keep)
                r["why"] = r["why"].replace(m_log.group(1), os.path.relpath(keep, ROOT)
                                            if keep.startswith(ROOT + os.sep) else keep)
            shutil.rmtree(cache, ignore_errors=True)  # one model per chip and mutant: nothing to reuse
            notes = ["tier 1 passes"] if r["result"] == "survived" else []
            if r["result"] == "survived" and module_tests:
                outcome, detail = module_tests.run(m, text)
                if outcome == "killed":
                    r["result"], r["killed_by"], r["why"] = "killed", "module tests", detail
                else:
                    notes.append("module tests " + ("pass" if outcome == "pass" else "%s (%s)" % (outcome, detail)))
            if r["result"] == "survived" and formal:
                outcome, detail = formal.run(rtl)
                if outcome == "killed":
                    r["result"], r["killed_by"], r["why"] = "killed", "formal", detail
                else:
                    notes.append("formal " + detail)
            if r["result"] == "survived":
                r["why"] = "; ".join(notes)
        r["seconds"] = round(time.time() - t1, 1)
        if r["result"] == "survived" and r["equivalent"]:
            r["result"] = "equivalent"
        print("mutant %s (%s): %s (%s%s) (%.0f s)" % (m["id"], m["file"], r["result"],
              r["killed_by"] + ": " if r["killed_by"] else "", r["why"], r["seconds"]), flush=True)
        results.append(r)
        write_report(results, a, t0, baseline, False)  # partial results survive an interrupted run

    summary = write_report(results, a, t0, baseline, True)
    bad = summary["survived"] or summary["not_applied"] or summary["build_failed"] or summary["error"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
