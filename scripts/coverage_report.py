#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The RTL coverage report of scripts/coverage.sh.

Reads the per-test coverage files that the DSH_COVERAGE build writes
(cosim/rtl_coverage.h: <test>.<pid>.<n>.dat, '/' in the test name written
as '+') and their merge, and writes into OUT:
  report.md     each named cover point (rtl/*.sv, `COVER...(Name_C, ...)`)
                with its hits and the tests that hit it; line coverage per
                file; every uncovered line with its explanation
  summary.json  cover_points_total, cover_points_hit, line_pct, toggle_pct
Exits 1 when a named cover point was never hit.

A coverage file holds one point a line, C '<key/value pairs>' <count>, each
key and value opened by \\x01 and \\x02. Keys used here: f (file), l (line),
n (column), page (v_user/, v_line/, v_branch/, v_toggle/ and the module), o
(the cover's name, the toggled bit, or block/if/else), h (the instance).
Line coverage counts the v_line and v_branch points of rtl/ (those on the
lines of the assertion macros apart: they are the macro's reset branch), toggle coverage
the v_toggle points; a point is hit when any instance of it is.
"""

import argparse
import json
import re
import sys
import tomllib
from collections import defaultdict
from pathlib import Path

COVER_RE = re.compile(r"`COVER(?:_CLK|_COMB)?\(\s*(\w+_C)\s*,")
# A line of the assertion macros (rtl/dsh_assert.svh): its points are the
# macro's `if (rst_n)` branches, not the design's; counted apart.
MACRO_LINE_RE = re.compile(r"^`(ASSERT|ASSUME|COVER)(_CLK|_COMB|_KNOWN)?\(")
TEST_FILE_RE = re.compile(r"^(.*)\.(\d+)\.(\d+)\.dat$")


def parse_dat(path):
    """Yields (fields, count) for each point of a coverage file."""
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if not line.startswith("C '"):
                continue
            key, _, count = line[3:].rpartition("' ")
            fields = {}
            for part in key.split("\x01")[1:]:
                k, _, v = part.partition("\x02")
                fields[k] = v
            yield fields, int(count)


def cover_points(rtl):
    """Every named cover point of the RTL: (file name, point name) -> line."""
    points = {}
    for sv in sorted(Path(rtl).glob("*.sv")):
        for i, text in enumerate(sv.read_text().splitlines(), 1):
            for m in COVER_RE.finditer(text):
                key = (sv.name, m.group(1))
                if key in points:
                    sys.exit(f"coverage_report: cover point {m.group(1)} twice in {sv.name} "
                             f"(lines {points[key]} and {i}); names must be unique per file")
                points[key] = i
    return points


def test_name(dat):
    m = TEST_FILE_RE.match(dat.name)
    return (m.group(1) if m else dat.stem).replace("+", "/")


def load_waivers(path):
    """Explanations of uncovered lines: a list of (file name, line text or
    None, regular expression or None, why)."""
    if not path or not Path(path).is_file():
        return []
    data = tomllib.loads(Path(path).read_text())
    out = []
    for i, w in enumerate(data.get("waiver", [])):
        for k in ("file", "why"):
            if k not in w:
                sys.exit(f"coverage_report: {path}: waiver {i + 1} has no '{k}'")
        if ("line" in w) == ("pattern" in w):
            sys.exit(f"coverage_report: {path}: waiver {i + 1} needs one of 'line' and 'pattern'")
        pat = re.compile(w["pattern"]) if "pattern" in w else None
        out.append((w["file"], w.get("line", "").strip() or None, pat, w["why"]))
    return out


def explain(waivers, f, text):
    for wf, line, pat, why in waivers:
        if wf == f and ((line is not None and line == text) or (pat is not None and pat.search(text))):
            return why
    return None


def in_rtl(f, rtl):
    try:
        Path(f).resolve().relative_to(Path(rtl).resolve())
        return True
    except ValueError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tests-dir", required=True, help="the per-test .dat files")
    ap.add_argument("--merged", required=True, help="verilator_coverage --write of them all")
    ap.add_argument("--rtl", required=True, help="the RTL directory (rtl/)")
    ap.add_argument("--waivers", help="docs/design/coverage-waivers.toml")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, help="the run's wall time, for the report")
    ap.add_argument("--elaborated-only", action="store_true",
                    help="count only the cover points the coverage files have (those of the modules and "
                         "generate branches their models elaborate), not every one in rtl/")
    a = ap.parse_args()

    points = cover_points(a.rtl)
    hits = defaultdict(int)
    tests = defaultdict(lambda: defaultdict(int))
    dats = sorted(Path(a.tests_dir).glob("*.dat"))
    if not dats:
        sys.exit(f"coverage_report: no coverage files in {a.tests_dir}")
    unknown, seen = set(), set()
    for dat in dats:
        name = test_name(dat)
        for fl, count in parse_dat(dat):
            if not fl.get("page", "").startswith("v_user/"):
                continue
            key = (Path(fl.get("f", "")).name, fl.get("o", ""))
            if key not in points:
                unknown.add(key)
                continue
            seen.add(key)
            hits[key] += count
            if count:
                tests[key][name] += count

    if a.elaborated_only:
        points = {k: ln for k, ln in points.items() if k in seen}

    # Line and toggle coverage of rtl/, from the merge, by source point.
    src = {p.name: p.read_text().splitlines() for p in Path(a.rtl).glob("*.sv")}

    def text_of(f, ln):
        lines = src.get(f, [])
        return lines[ln - 1].strip() if 0 < ln <= len(lines) else ""

    line_pts, macro_pts, toggle_pts = defaultdict(int), defaultdict(int), defaultdict(int)
    for fl, count in parse_dat(a.merged):
        page, f = fl.get("page", ""), fl.get("f", "")
        if not in_rtl(f, a.rtl):
            continue
        key = (Path(f).name, int(fl.get("l", 0)), fl.get("n", ""), fl.get("o", ""))
        if page.startswith(("v_line/", "v_branch/")):
            d = macro_pts if MACRO_LINE_RE.match(text_of(key[0], key[1])) else line_pts
            d[key] = max(d[key], count)
        elif page.startswith("v_toggle/"):
            toggle_pts[key] = max(toggle_pts[key], count)

    def pct(d):
        return round(100.0 * sum(1 for c in d.values() if c) / len(d), 2) if d else 0.0

    waivers = load_waivers(a.waivers)
    uncovered = sorted({(k[0], k[1]) for k, c in line_pts.items() if not c})
    # A line is uncovered when one of its points is; list each line once.
    unexplained = 0
    rows = []
    for f, ln in uncovered:
        text = text_of(f, ln)
        why = explain(waivers, f, text)
        unexplained += why is None
        rows.append((f, ln, text, why or "**not explained**"))

    per_file = defaultdict(lambda: [0, 0])
    for k, c in line_pts.items():
        per_file[k[0]][0] += 1
        per_file[k[0]][1] += bool(c)

    hit = sum(1 for k in points if hits[k])
    summary = {
        "cover_points_total": len(points),
        "cover_points_hit": hit,
        "line_pct": pct(line_pts),
        "line_points": len(line_pts),
        "line_points_hit": sum(1 for c in line_pts.values() if c),
        "macro_line_pct": pct(macro_pts),
        "macro_line_points": len(macro_pts),
        "toggle_pct": pct(toggle_pts),
        "toggle_points": len(toggle_pts),
        "uncovered_lines": len(rows),
        "uncovered_lines_unexplained": unexplained,
        "tests": len({test_name(d) for d in dats}),
        "coverage_files": len(dats),
    }
    if a.seconds is not None:
        summary["seconds"] = round(a.seconds, 1)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")

    md = ["# RTL coverage", "",
          "Written by `scripts/coverage.sh` (docs/design/verification.md). Named cover points are the "
          "`COVER` macros of rtl/; hits of a combinational leaf's point (`COVER_COMB`) count "
          "evaluations, of a clocked one (`COVER`, `COVER_CLK`) cycles.", "",
          f"- named cover points: {hit} of {len(points)} hit",
          f"- line coverage of rtl/ (Verilator line and branch points): {summary['line_pct']} % "
          f"({summary['line_points_hit']} of {summary['line_points']})",
          f"- the assertion macros' own lines (their `if (rst_n)` branches, counted apart): "
          f"{summary['macro_line_pct']} % of {summary['macro_line_points']} points",
          f"- toggle coverage of rtl/: {summary['toggle_pct']} % of {summary['toggle_points']} bits",
          f"- tests: {summary['tests']} ({summary['coverage_files']} coverage files)"]
    if a.seconds is not None:
        md.append(f"- scripts/coverage.sh took {summary['seconds']} s")
    md += ["", "## Named cover points", "", "| file | point | hits | tests that hit it |", "|---|---|---:|---|"]
    for (f, name), ln in sorted(points.items(), key=lambda kv: (kv[0][0], kv[1])):
        t = tests[(f, name)]
        by = sorted(t, key=lambda n: -t[n])
        shown = ", ".join(f"`{n}`" for n in by[:4]) + (f" and {len(by) - 4} more" if len(by) > 4 else "")
        md.append(f"| {f}:{ln} | {name} | {hits[(f, name)]} | {shown or '**never hit**'} |")
    if unknown:
        md += ["", "Cover points in the coverage files but not in rtl/ (stale build?): " +
               ", ".join(f"{f}:{n}" for f, n in sorted(unknown))]
    md += ["", "## Line coverage per file", "", "| file | points | hit | % |", "|---|---:|---:|---:|"]
    for f in sorted(per_file):
        n, h = per_file[f]
        md.append(f"| {f} | {n} | {h} | {100.0 * h / n:.1f} |")
    md += ["", "## Uncovered lines", "",
           "Explanations come from docs/design/coverage-waivers.toml, keyed by file and line text.", "",
           "| file:line | line | why |", "|---|---|---|"]
    for f, ln, text, why in rows:
        md.append(f"| {f}:{ln} | `{text.replace('|', '&#124;')}` | {why} |")
    (out / "report.md").write_text("\n".join(md) + "\n")

    print(json.dumps(summary))
    never = [f"{f}:{n}" for (f, n) in sorted(points) if not hits[(f, n)]]
    if never:
        print("coverage_report: named cover points never hit: " + ", ".join(never), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
