# SPDX-License-Identifier: Apache-2.0
"""Paths of the repository, exit codes, errors and small helpers shared by
every module of the flow."""

import hashlib
import re
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "rtl" / "dsh_mmu.f"
SDC = ROOT / "constraints" / "dsh_mmu.sdc"
LIMITS = ROOT / "constraints" / "synth_limits.json"
# SkyWater sky130 HD, typical corner: committed under pdk/ (Apache-2.0, see its README).
DEFAULT_LIBERTY = ROOT / "pdk" / "sky130_fd_sc_hd" / "sky130_fd_sc_hd__tt_025C_1v80.lib.gz"
TOP = "dsh_mmu"
# Bump when a change of the flow changes what a run reports: --reuse then
# ignores results of the older flow.
FLOW_VERSION = 5

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_TOOL, EXIT_SKIP = 0, 1, 2, 3, 77

_print_lock = threading.Lock()


def say(msg, prefix=""):
    """Print one line; lines of parallel runs do not interleave."""
    with _print_lock:
        print(f"{prefix}{msg}", flush=True)


class UsageError(Exception):
    """Bad argument: message names the option, the value and the limit."""


class ToolError(Exception):
    """A tool is missing or failed."""


def fmt_s(sec):
    if sec is None:
        return "-"
    return f"{sec:.0f}s" if sec < 120 else f"{sec / 60:.1f}min"


def sha1_of(items):
    """SHA-1 over items: a Path counts with its contents, anything else as text."""
    h = hashlib.sha1()
    for it in items:
        if isinstance(it, Path):
            h.update(it.read_bytes())
        else:
            h.update(str(it).encode())
        h.update(b"\0")
    return h.hexdigest()


def ys_quote(p):
    """A path in a Yosys script. Some passes (tee -o, -liberty) take the text
    literally, quotes included, so paths go unquoted and must have no blanks."""
    if re.search(r"\s", str(p)):
        raise UsageError(f"path {p!r} contains white space, which Yosys scripts cannot take")
    return str(p)
