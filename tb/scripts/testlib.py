# SPDX-License-Identifier: Apache-2.0
"""Helpers the Python tests under tb/ share: the command line a scenario
test is given, running a program, fresh work directories, reading outputs,
and comparing two dsh-sim output directories with the timing fields aside.

A test imports it with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    import testlib
Only the Python 3 standard library is used.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys


def sim_args(doc):
    """DSH_SIM, SCENARIO_DIR, WORK_DIR from the command line; the usage (doc) and exit 2 otherwise."""
    if len(sys.argv) < 4:
        sys.exit(doc.strip())
    return sys.argv[1], sys.argv[2], sys.argv[3]


def run(cmd, timeout=300, stdin=None):
    """Runs cmd (a list); (exit status, stdout, stderr) as text."""
    p = subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def parallel_points(cmd, ids, points_dir, timeout=600):
    """Runs `cmd --point ID -o points_dir` for each ID under GNU Parallel (2 jobs); (exit status, output)."""
    rc, out, err = run(["parallel", "--will-cite", "-j", "2", *cmd, "--point", "{}", "-o", points_dir],
                       timeout=timeout, stdin="\n".join(ids) + "\n")
    return rc, out + err


def fresh(work, name, make=True):
    """WORK/name emptied; created too unless make is False (the program under test makes it)."""
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    if make:
        os.makedirs(d)
    return d


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def read_json(path):
    with open(path) as f:
        return json.load(f)


def read_csv(path):
    """The rows of a CSV file with a header line, as dicts."""
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- two output directories, the timing fields aside ---

TIMING_KEYS = {"wall_s", "cpu_s", "speed", "wall_s_total", "cpu_s_total"}
TIMING_LINE = re.compile(r"wall|cpu|CPU|per second|/s\b|packets/s|^timing:")


def _strip_json(v):
    if isinstance(v, dict):
        return {k: _strip_json(x) for k, x in v.items() if k not in TIMING_KEYS}
    if isinstance(v, list):
        return [_strip_json(x) for x in v]
    return v


def _normal(path):
    """A file's content for comparison: JSON without the timing keys at any
    depth, CSV with the timing columns emptied, text without the lines that
    report timing (as lists of lines); anything else as bytes."""
    data = read_bytes(path)
    if path.endswith(".json"):
        return json.dumps(_strip_json(json.loads(data)), indent=1, sort_keys=False).splitlines()
    if path.endswith(".csv"):
        rows = list(csv.reader(io.StringIO(data.decode())))
        if not rows:
            return []
        drop = [i for i, name in enumerate(rows[0]) if name in TIMING_KEYS]
        return [",".join("" if i in drop else c for i, c in enumerate(r)) for r in rows]
    if path.endswith(".txt"):
        return [l for l in data.decode().splitlines() if not TIMING_LINE.search(l)]
    return data


def _files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def compare_dirs(a, b, skip_png=False):
    """The differences between two output directories (recursively), one
    report each, timing fields aside; an empty list when they agree."""
    diffs = []
    fa, fb = _files(a), _files(b)
    keep = lambda f: not (skip_png and f.endswith(".png"))
    for only, where in ((fa - fb, a), (fb - fa, b)):
        diffs += [f"only in {where}: {f}" for f in sorted(only) if keep(f)]
    for f in sorted(fa & fb):
        if not keep(f):
            continue
        x, y = _normal(os.path.join(a, f)), _normal(os.path.join(b, f))
        if x == y:
            continue
        if isinstance(x, bytes) or isinstance(y, bytes):
            diffs.append(f"differs: {f} (binary)")
            continue
        lines = [f"differs: {f}"]
        for i in range(max(len(x), len(y))):
            lx = x[i] if i < len(x) else "<none>"
            ly = y[i] if i < len(y) else "<none>"
            if lx != ly and len(lines) <= 6:
                lines.append(f"  line {i + 1}:\n    - {lx}\n    + {ly}")
        diffs.append("\n".join(lines))
    return diffs
