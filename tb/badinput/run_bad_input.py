#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""One case of the bad-input table (cases.txt): runs the tool in a fresh work
directory and checks its exit status, that its message names the fault, that
it neither crashed nor traced back, and that no input file changed.

usage: run_bad_input.py --table cases.txt --case NAME --tool dsh-run=PATH ...
       --vectors DIR --scenarios DIR
Standard library only."""

import argparse
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# What no refusal may print: a crash, a traceback, a sanitizer report.
FORBIDDEN = [r"Traceback \(most recent call last\)", r"terminate called", r"Aborted", r"Segmentation fault",
             r"ERROR: AddressSanitizer", r"runtime error:", r"core dumped", r"filesystem_error"]


def load_table(path):
    cases = {}
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = line.split(" | ", 3)
        if len(parts) != 4:
            sys.exit(f"{path}:{n}: expected 'name | status | regex | command'")
        name, rc, rx, cmd = (p.strip() for p in parts)
        cases[name] = (int(rc), rx, cmd)
    return cases


def make_fixtures(w, vectors, scenarios):
    for f in Path(vectors).iterdir():
        if f.is_file():
            shutil.copy(f, w / f.name)
    for f in Path(scenarios).glob("*.toml"):
        shutil.copy(f, w / f.name)
    (w / "data").mkdir()  # the benchmark's flow-size CDFs, beside scenarios/ in the checkout
    for f in (Path(scenarios).parent / "data").glob("*.cdf"):
        shutil.copy(f, w / "data" / f.name)
    stim = (w / "sih_p2q1_stim.csv").read_bytes()
    resp = (w / "sih_p2q1_resp.csv").read_bytes()
    cfg = (w / "sih_p2q1.toml").read_bytes()
    bom = b"\xef\xbb\xbf"
    (w / "bom_stim.csv").write_bytes(bom + stim)
    (w / "crlf_stim.csv").write_bytes(stim.replace(b"\n", b"\r\n"))
    (w / "crlf_resp.csv").write_bytes(resp.replace(b"\n", b"\r\n"))
    (w / "blank_resp.csv").write_bytes(resp + b"\n\n")
    (w / "bom_resp.csv").write_bytes(bom + resp)
    (w / "bom_crlf.toml").write_bytes(bom + cfg.replace(b"\n", b"\r\n"))
    os.link(w / "sih_p2q1_stim.csv", w / "link_to_stim.csv")
    lines = stim.decode().splitlines()
    header = next(l for l in lines if l and not l.startswith("#"))
    (w / "neg_cycle.csv").write_text(f"# bad\n{header}\n-1,,,,0,0,1\n")
    (w / "huge_cycle.csv").write_text(f"# bad\n{header}\n18446744073709551616,,,,0,0,1\n")
    (w / "no_header.csv").write_text("0,,,,0,0,1\n")
    # Header blocks (vector format §2) gone wrong, from the shipped stimulus.
    block = [l for l in lines if l.startswith("# ")][:13]
    rest = "\n".join(lines[13:]) + "\n"
    (w / "hdr_v4.csv").write_text("\n".join(["# dsh-vectors 4 stimulus"] + block[1:]) + "\n" + rest)
    (w / "hdr_short.csv").write_text("\n".join(block[:-1]) + "\n" + rest)
    (w / "hdr_repeat.csv").write_text("\n".join(block + ["# n_ports = 2"]) + "\n" + rest)
    (w / "hdr_bad_value.csv").write_text("\n".join(block[:-1] + ["# thresh_latency = 9"]) + "\n" + rest)
    (w / "hdr_late.csv").write_text("# a comment first\n" + "\n".join(block) + "\n" + rest)
    # A previous run's trace: a run that fails must leave it as it was.
    (w / "prev_trace.fst").write_text("the previous run's trace\n")
    (w / "binary.csv").write_bytes(b"\x00\x01\xfe\xff,\x80\n")
    (w / "cfg_bool.toml").write_text("n_ports = 2\nn_queues = true\n")
    (w / "cfg_float.toml").write_text("n_ports = 2\nbuffer_cells = 100.0\n")
    (w / "cfg_section.toml").write_text("[chip]\nn_ports = 2\n")
    (w / "sc_bool.toml").write_text("[chip]\nn_ports = true\n")
    (w / "sc_float.toml").write_text("[chip]\nbuffer_cells = 65536.0\n")
    (w / "sc_syntax.toml").write_text("[chip]\nn_ports = = 3\n")
    (w / "sc_bom_crlf.toml").write_bytes(bom + b'[scenario]\r\nname = "bom-crlf"\r\n[chip]\r\nn_ports = 32\r\n\r\n')
    (w / "sc_gen_bad.toml").write_text("[[generation]]\nrate_gbps = 100\nchip_buffer_mb = -1\nchip_capacity_gbps = 3200\n")
    (w / "sc_out").mkdir()
    (w / "sc_out" / "sweep.csv").write_text('[scenario]\nname = "x"\n')


def snapshot(w):
    out = {}
    for root, _, files in os.walk(w):
        for f in files:
            p = Path(root) / f
            out[str(p.relative_to(w))] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--tool", action="append", default=[], help="name=command")
    ap.add_argument("--vectors", required=True)
    ap.add_argument("--scenarios", required=True)
    a = ap.parse_args()
    tools = dict(t.split("=", 1) for t in a.tool)
    rc_want, rx, cmd = load_table(a.table)[a.case]
    with tempfile.TemporaryDirectory(prefix="dsh-badinput-") as tmp:
        w = Path(tmp)
        make_fixtures(w, a.vectors, a.scenarios)
        argv = shlex.split(cmd.replace("{W}", str(w)))
        if argv[0] not in tools:
            sys.exit(f"{a.case}: no --tool {argv[0]}=... given")
        argv = shlex.split(tools[argv[0]]) + argv[1:]
        before = snapshot(w)
        env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
        p = subprocess.run(argv, cwd=w, capture_output=True, text=True, errors="replace", env=env, timeout=600)
        out = p.stdout + p.stderr
        print("$ " + " ".join(shlex.quote(x) for x in argv))
        print(out.rstrip())
        print(f"exit status {p.returncode}")
        fails = []
        if p.returncode != rc_want:
            fails.append(f"exit status {p.returncode}, expected {rc_want}")
        if not re.search(rx, out):
            fails.append(f"the message does not match /{rx}/")
        for f in FORBIDDEN:
            if re.search(f, out):
                fails.append(f"the output shows /{f}/")
        after = snapshot(w)
        for f, h in before.items():
            if after.get(f) != h:
                fails.append(f"input {f} changed" if f in after else f"input {f} was removed")
        new = sorted(set(after) - set(before))
        if new and not (a.case.endswith("_ok") or rc_want == 4):
            fails.append(f"files written by a refused run: {', '.join(new)}")
        if any(Path(f).name.startswith(".") and ".tmp" in f for f in new):
            fails.append(f"temporary files left: {', '.join(new)}")
        for f in fails:
            print(f"FAIL {a.case}: {f}")
        return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
