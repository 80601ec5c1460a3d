# SPDX-License-Identifier: Apache-2.0
"""External tools: finding them (with the Debian package to install),
their versions, and running one with its output to a log, in its own
process group so that a timeout or a signal ends its children too."""

import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

from .common import ToolError

# Debian package that provides each tool.
PACKAGES = {
    "yosys": "yosys",
    "sta": "opensta",
    "nextpnr-ice40": "nextpnr-ice40 (and fpga-icestorm-chipdb)",
    "fst2vcd": "gtkwave",
}


def need_tool(name):
    path = shutil.which(name)
    if not path:
        raise ToolError(f"'{name}' not found on PATH; install the Debian package "
                        f"{PACKAGES.get(name, name)} (apt-get install -y "
                        f"{PACKAGES.get(name, name).split()[0]})")
    return path


_version_cache = {}


def tool_version(name):
    if name not in _version_cache:
        cmd = {"yosys": ["yosys", "-V"], "sta": ["sta", "-version"],
               "nextpnr-ice40": ["nextpnr-ice40", "--version"]}[name]
        try:
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
            _version_cache[name] = (out.stdout + out.stderr).strip().splitlines()[0]
        except (OSError, IndexError, subprocess.SubprocessError):
            _version_cache[name] = "unknown"
    return _version_cache[name]


# Tools run in their own process groups (so that a timeout also ends
# yosys-abc); on SIGINT/SIGTERM every one still running is ended with us.
_procs, _procs_lock = set(), threading.Lock()


def timeout_message(tool, timeout_s):
    return (f"{tool} timed out: stopped after the limit of {timeout_s / 60:g} min "
            "(--timeout)")


def run_tool(cmd, log_path, cwd, timeout=None):
    """Run a tool with its output to log_path. Returns (rc, seconds). On
    timeout the tool's whole process group (yosys-abc too) is killed and
    ToolError says which tool and which limit (exit 3)."""
    t0 = time.monotonic()
    with open(log_path, "w") as log:
        p = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
        with _procs_lock:
            _procs.add(p)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            log.write(f"\n*** synth.py: killed after {timeout} s\n")
            raise ToolError(timeout_message(Path(cmd[0]).name, timeout)
                            + f"; log {log_path}")
        except KeyboardInterrupt:
            os.killpg(p.pid, 9)
            raise
        finally:
            with _procs_lock:
                _procs.discard(p)
    return rc, time.monotonic() - t0


def on_signal(signum, _frame):
    """SIGINT/SIGTERM handler: end every running tool's group, then exit."""
    with _procs_lock:
        for p in list(_procs):
            try:
                os.killpg(p.pid, 9)
            except OSError:
                pass
    try:
        sys.stderr.write("\nsynth.py: interrupted; the running tools were stopped; configurations that "
                         "finished keep their summary.json, no report.md/report.csv was written\n")
        sys.stderr.flush()
    except Exception:
        pass
    os._exit(128 + signum)


def tool_errors(log_path, pattern=r"^(ERROR|Error)\b.*"):
    """The first error lines of a tool's log (at most 5)."""
    try:
        text = Path(log_path).read_text(errors="replace")
    except OSError:
        return []
    return [m.group(0).strip() for m in re.finditer(pattern, text, re.M)][:5]
