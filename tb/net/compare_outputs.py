#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compares two dsh-sim output directories, ignoring wall-clock fields.

    compare_outputs.py DIR_A DIR_B [--skip-png]

Every file of either directory (recursively) must be in both and equal:
JSON with the timing keys (wall_s, cpu_s, speed) removed at any depth; CSV
with the timing columns (wall_s, cpu_s) emptied; text with the lines that
report timing (wall, CPU, per second) removed; anything else byte for byte.
Prints each difference; exit status 0 when there is none, 1 otherwise.
The comparison is testlib.compare_dirs (tb/scripts/testlib.py).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import testlib  # noqa: E402


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    diffs = testlib.compare_dirs(*args, skip_png="--skip-png" in sys.argv)
    for d in diffs:
        print(d)
    print(f"{len(diffs)} difference(s)" if diffs else "same (timing fields aside)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
