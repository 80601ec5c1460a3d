# SPDX-License-Identifier: Apache-2.0
"""OpenSTA: the Tcl script that times the netlist against the SDC, the
driver, and the readers of its log (slacks, report_checks paths)."""

import re
from pathlib import Path

from .common import SDC, TOP, ToolError
from .record import PathReport, PathStage, StaResult
from .tools import need_tool, run_tool, tool_errors, tool_version

# The path groups reported, as the DSHSTA_BEGIN/END markers name them.
PATH_GROUPS = ("worst", "reg2reg")


def sta_script(liberty, netlist, period_lib, input_delay, output_delay, uncertainty_lib,
               driving_cell, load_lib, time_cfg, sdc=SDC):
    """sta.tcl: figures between DSHSTA markers (OpenSTA's exit status is
    always 0, so a missing marker is how a failure shows). Times in
    library units, delays as fractions of the period."""
    return sta_head(liberty, netlist, period_lib, input_delay, output_delay, uncertainty_lib,
                    driving_cell, load_lib, time_cfg, sdc) + [
        'puts "DSHSTA_BEGIN worst"',
        "report_checks -path_delay max -fields {capacitance slew input_pin} -digits 3",
        'puts "DSHSTA_END worst"',
        'puts "DSHSTA_BEGIN reg2reg"',
        "report_checks -path_delay max -from [all_registers -clock_pins]"
        " -to [all_registers -data_pins] -fields {capacitance slew input_pin} -digits 3",
        'puts "DSHSTA_END reg2reg"',
        'puts "DSHSTA worst_slack [worst_slack -max]"',
        'puts "DSHSTA tns [total_negative_slack -max]"',
        'puts "DSHSTA hold_slack [worst_slack -min]"',
        'puts "DSHSTA constant_outputs [join $dsh_constant_outputs ,]"',
        'puts "DSHSTA_BEGIN check_setup"',
        "check_setup -verbose",
        'puts "DSHSTA_END check_setup"',
    ]


def sta_head(liberty, netlist, period_lib, input_delay, output_delay, uncertainty_lib,
             driving_cell, load_lib, time_cfg, sdc=SDC):
    """The netlist read and linked, the SDC's variables set and the SDC read."""
    return [
        f"read_liberty {{{liberty}}}",
        f"read_verilog {{{netlist}}}",
        f"link_design {TOP}",
        f"set dsh_clock_period {period_lib:.6g}",
        f"set dsh_input_delay_frac {input_delay}",
        f"set dsh_output_delay_frac {output_delay}",
        f"set dsh_clock_uncertainty {uncertainty_lib:.6g}",
        f"set dsh_driving_cell {driving_cell}",
        f"set dsh_output_load {load_lib:.6g}",
        f"set dsh_cfg_false_path {0 if time_cfg else 1}",
        f"source {{{sdc}}}",
    ]


def run_sta(tcl_lines, out, res, timeout_s=None, name="sta"):
    """Run <name>.tcl in out (log <name>.log); the version goes into
    res.tools, the time into res.steps_s[name]. Returns the log's text."""
    need_tool("sta")
    res.tools["sta"] = tool_version("sta")
    o = Path(out)
    (o / f"{name}.tcl").write_text("\n".join(tcl_lines) + "\n")
    rc, sec = run_tool(["sta", "-no_init", "-no_splash", "-exit", str(o / f"{name}.tcl")],
                       o / f"{name}.log", o, timeout=timeout_s)
    res.steps_s[name] = round(sec, 2)
    return (o / f"{name}.log").read_text(errors="replace")


def path_sections(text):
    """{group: report_checks text between its markers ('' when missing)}."""
    res = {}
    for grp in PATH_GROUPS:
        m = re.search(rf"DSHSTA_BEGIN {grp}\n(.*?)DSHSTA_END {grp}", text, re.S)
        res[grp] = m.group(1) if m else ""
    return res


def parse_check_setup(text):
    """check_setup -verbose's findings, one line each ('1 unconstrained
    endpoint: stat_pevt_pause_o[0]'), from the text between its markers
    (a whole sta.log is accepted too). A finding is a 'Warning: There
    is/are N ...' line followed by its indented items (at most 8 kept)."""
    m = re.search(r"DSHSTA_BEGIN check_setup\n(.*?)DSHSTA_END check_setup", text, re.S)
    body = m.group(1) if m else text
    findings, cur, items, extra = [], None, [], 0

    def flush():
        if cur:
            more = f" (+{extra} more)" if extra else ""
            findings.append(cur + (": " + ", ".join(items) + more if items else ""))

    for ln in body.splitlines():
        w = re.match(r"^(?:Warning|Error): There (?:is|are) (\d+) (.*?)\.?\s*$", ln)
        if w:
            flush()
            cur, items, extra = f"{w.group(1)} {w.group(2)}", [], 0
        elif cur and re.match(r"^\s+\S", ln):
            if len(items) < 8:
                items.append(ln.strip())
            else:
                extra += 1
        elif ln.strip():
            flush()
            cur = None
    flush()
    return findings


def parse_sta_log(text, tu, period_ns, log_path="sta.log"):
    """StaResult from sta.log's text; tu: the library's time unit in ns.
    ToolError when a slack is missing."""
    vals = dict(re.findall(r"^DSHSTA (\w+) (\S+)", text, re.M))
    try:
        ws, tns, hs = (float(vals[k]) for k in ("worst_slack", "tns", "hold_slack"))
    except (KeyError, ValueError):
        errs = tool_errors(log_path, r"^(Error|ERROR).*")
        raise ToolError("OpenSTA printed no slack (exit status is always 0): "
                        + ("; ".join(errs) if errs else f"see {log_path}"))
    sec = path_sections(text)
    res = StaResult(
        worst_slack_ns=round(ws * tu, 4), tns_ns=round(tns * tu, 3),
        hold_slack_ns=round(hs * tu, 4), timing_met=ws >= 0,
        fmax_mhz=round(1000.0 / (period_ns - ws * tu), 1) if period_ns - ws * tu > 0 else None,
        critical_path=parse_path(sec["worst"], tu), reg2reg_path=parse_path(sec["reg2reg"], tu))
    rp = res.reg2reg_path
    if rp.slack_ns is not None:
        d = period_ns - rp.slack_ns
        res.reg2reg_fmax_mhz = round(1000.0 / d, 1) if d > 0 else None
    m = re.search(r"There (?:is|are) (\d+) unconstrained endpoint", text)
    res.unconstrained_endpoints = int(m.group(1)) if m else 0
    res.check_setup = parse_check_setup(text)
    m = re.search(r"^DSHSTA constant_outputs ?(.*)$", text, re.M)
    res.constant_outputs = [x for x in (m.group(1).split(",") if m else []) if x]
    return res


def parse_path(text, tu):
    """Start, end, stages and slack of one OpenSTA report_checks path."""
    res = PathReport()
    # OpenSTA wraps the "(... clocked by ...)" note onto the next line when
    # the name is long; keep it only for ports, where it says what they are.
    for key, label in (("startpoint", "Startpoint"), ("endpoint", "Endpoint")):
        m = re.search(label + r": (\S+)\s*(?:\(([^)\n]*)\))?", text)
        if m:
            note = m.group(2)
            setattr(res, key,
                    m.group(1) + (f" ({note})" if note and "flip-flop" not in note else ""))
    m = re.search(r"(-?[\d.]+)\s+slack \((MET|VIOLATED)\)", text)
    if m:
        res.slack_ns = round(float(m.group(1)) * tu, 4)
    m = re.search(r"(-?[\d.]+)\s+data arrival time", text)
    if m:
        res.arrival_ns = round(float(m.group(1)) * tu, 4)
    # driver (output pin) lines carry a capacitance column: 4 numbers before the edge
    for ln in text.splitlines():
        mm = re.match(r"^\s*([\d.]+)\s+([\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+[\^v]\s+(\S+)/(\S+)\s+\((\S+)\)", ln)
        if mm:
            res.cells.append(PathStage(inst=mm.group(5), pin=mm.group(6), cell=mm.group(7),
                                       delay_ns=round(float(mm.group(3)) * tu, 4),
                                       at_ns=round(float(mm.group(4)) * tu, 4)))
    res.stages = len(res.cells)
    return res
