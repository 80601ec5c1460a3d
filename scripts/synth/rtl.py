# SPDX-License-Identifier: Apache-2.0
"""The source manifest (rtl/dsh_mmu.f or --manifest): its files, and what
RTL a result is of."""

import re
import subprocess
from pathlib import Path

from .common import ROOT, ToolError, sha1_of
from .record import RtlIdentity


def rtl_files(manifest):
    manifest = Path(manifest)
    if not manifest.is_file():
        raise ToolError(f"source manifest {manifest} not found")
    files = []
    for raw in manifest.read_text().splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line or line.startswith(("+", "-")):
            continue
        f = (manifest.parent / line).resolve()
        if not f.is_file():
            raise ToolError(f"{manifest}: listed file {line} not found")
        files.append(f)
    return files


def manifest_name(manifest):
    """The manifest as a report names it: relative to the repository, or its
    file name when it is elsewhere; never a path of this machine."""
    p = Path(manifest).resolve()
    try:
        return p.relative_to(ROOT).as_posix()
    except ValueError:
        return f"{p.name} (outside the repository)"


def rtl_headers(manifest):
    """The headers the sources `include (rtl/*.svh beside the manifest):
    hashed with them, found by Yosys through -I (yosys.include_dirs)."""
    return sorted(Path(manifest).parent.glob("*.svh"))


def rtl_identity(manifest):
    """Hash of the manifest and its files, and the git commit (with -dirty)
    when the manifest is inside a work tree."""
    manifest = Path(manifest)
    files = rtl_files(manifest) + rtl_headers(manifest)
    ident = RtlIdentity(manifest=manifest_name(manifest), sha1=sha1_of([manifest] + files)[:16])
    try:
        out = subprocess.run(["git", "-C", str(manifest.parent), "describe", "--always",
                              "--dirty", "--abbrev=10"], capture_output=True, text=True,
                             timeout=20)
        if out.returncode == 0:
            ident.git = out.stdout.strip()
            st = subprocess.run(["git", "-C", str(manifest.parent), "status", "--porcelain",
                                 "--", "."], capture_output=True, text=True, timeout=20)
            ident.rtl_modified = bool(st.stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return ident


def package_has_function(manifest, name):
    """Whether a package in the manifest's files declares function `name`."""
    for f in rtl_files(manifest):
        text = f.read_text(errors="replace")
        if (re.search(r"^\s*package\b", text, re.M)
                and re.search(rf"\bfunction\b[^;]*\b{name}\s*\(", text)):
            return True
    return False


def package_default(manifest, name):
    """The value of an `int unsigned` localparam of a package in the
    manifest's files (e.g. dsh_pkg::ReadSlices), or None when none sets it."""
    for f in rtl_files(manifest):
        text = f.read_text(errors="replace")
        if not re.search(r"^\s*package\b", text, re.M):
            continue
        m = re.search(rf"localparam\s+int(?:\s+unsigned)?\s+{name}\s*=\s*(\d+)\s*;", text)
        if m:
            return int(m.group(1))
    return None
