#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares two dsh-sim output directories, ignoring wall-clock fields.

    compare_outputs.py DIR_A DIR_B [--skip-png]

Every file of either directory (recursively) must be in both and equal:
JSON with the timing keys (wall_s, cpu_s, speed) removed at any depth; CSV
with the timing columns (wall_s, cpu_s) emptied; text with the lines that
report timing (wall, CPU, per second) removed; anything else byte for byte.
Prints each difference; exit status 0 when there is none, 1 otherwise.
"""
import csv
import io
import json
import os
import re
import sys

TIMING_KEYS = {"wall_s", "cpu_s", "speed", "wall_s_total", "cpu_s_total"}
TIMING_LINE = re.compile(r"wall|cpu|CPU|per second|/s\b|packets/s|^timing:")


def strip_json(v):
    if isinstance(v, dict):
        return {k: strip_json(x) for k, x in v.items() if k not in TIMING_KEYS}
    if isinstance(v, list):
        return [strip_json(x) for x in v]
    return v


def normal(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".json"):
        return json.dumps(strip_json(json.loads(data)), indent=1, sort_keys=False).splitlines()
    if path.endswith(".csv"):
        rows = list(csv.reader(io.StringIO(data.decode())))
        if not rows:
            return []
        drop = [i for i, name in enumerate(rows[0]) if name in TIMING_KEYS]
        return [",".join("" if i in drop else c for i, c in enumerate(r)) for r in rows]
    if path.endswith(".txt"):
        return [l for l in data.decode().splitlines() if not TIMING_LINE.search(l)]
    return data


def files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    skip_png = "--skip-png" in sys.argv
    if len(args) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    a, b = args
    diffs = 0
    fa, fb = files(a), files(b)
    for only, where in ((fa - fb, a), (fb - fa, b)):
        for f in sorted(only):
            if skip_png and f.endswith(".png"):
                continue
            print(f"only in {where}: {f}")
            diffs += 1
    for f in sorted(fa & fb):
        if skip_png and f.endswith(".png"):
            continue
        x, y = normal(os.path.join(a, f)), normal(os.path.join(b, f))
        if x == y:
            continue
        diffs += 1
        if isinstance(x, bytes):
            print(f"differs: {f} (binary)")
            continue
        print(f"differs: {f}")
        shown = 0
        for i in range(max(len(x), len(y))):
            lx = x[i] if i < len(x) else "<none>"
            ly = y[i] if i < len(y) else "<none>"
            if lx != ly and shown < 6:
                print(f"  line {i + 1}:\n    - {lx}\n    + {ly}")
                shown += 1
    print(f"{diffs} difference(s)" if diffs else "same (timing fields aside)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
