# SPDX-License-Identifier: Apache-2.0
"""Output paths and how the flow writes its results: an output directory or
file is checked before any run (a UsageError naming the option, exit 2), and
summary.json, report.md, report.csv and the limits file are written under a
temporary name and renamed, so that a reader never sees half a file."""

import os
import threading
from pathlib import Path

from .common import UsageError


def check_out_dir(opt, path):
    """An output directory: created when missing, must be a writable directory.
    Raises UsageError naming the option and the path (exit 2, before any run)."""
    p = Path(path)
    if str(path) == "":
        raise UsageError(f"{opt} '': expected a directory name")
    for part in [*reversed(p.parents), p]:
        if part.exists() and not part.is_dir():
            raise UsageError(f"{opt} {path}: {part} exists and is not a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"{opt} {path}: cannot create it: {e.strerror}")
    if not os.access(p, os.W_OK | os.X_OK):
        raise UsageError(f"{opt} {path}: cannot write in it: permission denied")


def check_out_file(opt, path):
    """A file that will be written: not a directory, its directory writable."""
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{opt} {path}: is a directory, expected a file")
    if p.exists() and not os.access(p, os.W_OK):
        raise UsageError(f"{opt} {path}: cannot write it: permission denied")
    d = p.parent if str(p.parent) else Path(".")
    if not d.is_dir():
        raise UsageError(f"{opt} {path}: directory {d} does not exist")
    if not os.access(d, os.W_OK | os.X_OK):
        raise UsageError(f"{opt} {path}: cannot write in {d}: permission denied")


def write_atomically(path, text):
    """Writes under a temporary name and renames: never a half-written file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()
