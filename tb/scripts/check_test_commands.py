#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every test command the docs give runs at least one test.

Finds the ctest and scripts/test.sh commands in README.md, systemc/README.md
and docs/**/*.md (lines of ```sh and indented code blocks, and `code` spans in
the prose), runs each as written from the checkout's root, and checks that it
selects at least one test (a --print-labels listing: one label). Nothing is
run for real: a `ctest` first on PATH adds -N (list only), and
scripts/test.sh gets DSH_NO_BUILD=1. When the build
directory is not <root>/build, `build` in `--test-dir build` and
`cd build` is replaced by it.

  check_test_commands.py ROOT BUILD_DIR
  check_test_commands.py --self-test BUILD_DIR   # the check can fail
"""
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

COMMAND = re.compile(r"^(\(cd \S+ && )?(DSH_\w+=\S+ )*(ctest|scripts/test\.sh)\b")


def commands(text):
    """(line number, command) of every test command in a Markdown text."""
    found = []
    fence = None
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("```"):
            fence = None if fence is not None else s[3:].strip()
            continue
        if fence is not None or line.startswith("    "):
            if fence not in (None, "", "sh", "bash", "console"):
                continue
            cmd = re.sub(r"\s+#.*$", "", s)
            if COMMAND.match(cmd):
                found.append((n, cmd))
            continue
        for span in re.findall(r"`([^`]+)`", line):
            if COMMAND.match(span.strip()):
                found.append((n, span.strip()))
    return found


def ctest_wrapper(directory):
    real = shutil.which("ctest")
    if not real:
        sys.exit("no ctest on PATH")
    w = Path(directory) / "ctest"
    w.write_text(f'#!/bin/sh\nexec "{real}" -N "$@"\n')
    w.chmod(w.stat().st_mode | stat.S_IXUSR)


def run(root, build, cmd, wrapper_dir):
    root, build = Path(root).resolve(), Path(build).resolve()
    if build != root / "build":
        cmd = re.sub(r"(--test-dir|cd) build\b", lambda m: f"{m.group(1)} {build}", cmd)
    env = dict(os.environ, PATH=f"{wrapper_dir}:{os.environ['PATH']}", DSH_NO_BUILD="1", DSH_BUILD_DIR=str(build))
    p = subprocess.run(["bash", "-c", cmd], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    m = re.search(r"Total Tests: (\d+)", p.stdout)
    tests = int(m.group(1)) if m else 0
    if "--print-labels" in cmd:  # lists labels, not tests: count those
        labels = p.stdout.split("All Labels:", 1)
        tests = len(labels[1].split()) if len(labels) == 2 else 0
    return p.returncode, tests, p.stdout + p.stderr


def check(root, build, files):
    bad, checked = [], 0
    with tempfile.TemporaryDirectory() as wd:
        ctest_wrapper(wd)
        for f in files:
            for n, cmd in commands(Path(f).read_text()):
                checked += 1
                rc, tests, out = run(root, build, cmd, wd)
                where = f"{os.path.relpath(f, root)}:{n}: {cmd}"
                if rc != 0 or tests < 1:
                    bad.append(f"{where}: exit {rc}, {tests} tests selected\n{out.strip()}")
                else:
                    print(f"{where}: {tests} tests")
    return checked, bad


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--self-test":
        build = Path(sys.argv[2]).resolve()
        with tempfile.TemporaryDirectory() as root:
            doc = Path(root) / "README.md"
            # From the root without --test-dir: no test found.
            doc.write_text("Run\n\n```sh\nctest -L tools   # a layer\n```\n")
            checked, bad = check(root, build, [doc])
            if checked != 1 or not bad:
                sys.exit(f"self-test: a command that selects no test passed ({checked} checked)")
            doc.write_text(f"Run `ctest --test-dir {build} -L tools -R nothing_is_named_so`.\n")
            checked, bad = check(root, build, [doc])
            if checked != 1 or not bad:
                sys.exit("self-test: an empty selection passed")
        print("self-test: both empty selections were caught")
        return
    root, build = Path(sys.argv[1]).resolve(), sys.argv[2]
    files = [root / "README.md", root / "systemc" / "README.md"] + sorted((root / "docs").rglob("*.md"))
    checked, bad = check(root, build, [f for f in files if f.exists()])
    for b in bad:
        print(b, file=sys.stderr)
    if checked == 0:
        sys.exit("no test command found in the docs: the parser is broken")
    if bad:
        sys.exit(f"{len(bad)} of {checked} test commands select no test")
    print(f"{checked} test commands, each selects at least one test")


if __name__ == "__main__":
    main()
