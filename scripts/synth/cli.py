# SPDX-License-Identifier: Apache-2.0
"""The command line of scripts/synth.py: options, their validation (exit
2 with a message naming the option), the modes, and the exit status."""

import argparse
import dataclasses
import json
import math
import os
import re
import signal
import sys
import time
from pathlib import Path

from .checks import evaluate_checks, exit_status, load_limits, parse_checks, record_limits
from .common import (DEFAULT_LIBERTY, EXIT_TOOL, EXIT_USAGE, LIMITS, MANIFEST, ROOT, ToolError,
                     UsageError, fmt_s, say)
from .config import SWEEP, Config, FlowOptions, validate_config
from .record import RunResult
from .files import check_out_dir, check_out_file
from . import power, split, wire
from .families import FAMILIES
from .fpga import DEFAULT_PACKAGE, ICE40
from .flow import Run
from .liberty import DEFAULT_DONT_USE, prepare_liberty
from .report import (ReportContext, run_sweep, summary_lines, sweep_status,
                     write_family_report, write_report)
from .rtl import package_default, package_has_function, rtl_identity
from .tools import need_tool, on_signal, tool_version
from .yosys import ABC_SCRIPTS

DESCRIPTION = """\
Area and timing flow of dsh_mmu: Yosys, OpenSTA, nextpnr-ice40.

Modes
  generic  technology-free: Yosys `synth -flatten`, cell and flop counts,
           `stat -tech cmos` transistor estimate, logic depth (`ltp -noff`),
           inferred latches and `check` problems.
  asic     generic, then dfflibmap + timing-driven abc on a Liberty library,
           area (`stat -liberty`), gate-level netlist, OpenSTA with
           constraints/dsh_mmu.sdc: worst slack, TNS, critical path, max clock.
  fpga     synth_ice40 + nextpnr-ice40: LUTs, flops, max frequency; the I/O is
           serialised by a generated wrapper (or reported as not fitting).
  report   sweep over configurations (asic when a Liberty file is there, else
           generic), in parallel; writes report.md and report.csv.
  wire     the frame-mode blocks beside the MMU (rtl/dsh_wire.f) through the
           asic flow: dsh_wire_port (one port's PFC sender, receive side and
           --queues watchdogs) and dsh_quanta_tick; area, flops, max clock of
           each, and --ports x port + one tick.

Every run writes summary.json (machine-readable) beside its logs and prints a
short summary. Exit status: 0 ok, 1 a check failed, 2 bad arguments, 3 a tool
is missing or a tool failed, 77 a requested check was skipped (no Liberty
file, no recorded limit), for CTest's SKIP_RETURN_CODE.

Only the Python 3 standard library is used.
"""


# Accepted ranges of the numeric options: (low, high, unit), low excluded
# where the value must be > 0. Not-a-number and infinity are refused with
# the range, before any tool runs (an infinite period hangs OpenSTA).
RANGES = {
    "--period": (0.01, 1000.0, "ns"),
    "--output-load": (0.0, 1000.0, "library capacitance units"),
    "--fpga-freq": (0.1, 1000.0, "MHz"),
    "--timeout": (0.1, 10080.0, "min"),
    "--uncertainty": (0.0, 1000.0, "ns"),  # and below the period (check_uncertainty)
    "--input-delay": (0.0, 1.0, "of the period"),
    "--output-delay": (0.0, 1.0, "of the period"),
    "--margin": (0.0, 1.0, ""),
}
# > low for these (0 is no period, no load, no frequency, no time)
POSITIVE = {"--period", "--output-load", "--fpga-freq", "--timeout"}
# < high for these (a fraction of 1 leaves no budget)
BELOW_HIGH = {"--input-delay", "--output-delay", "--margin"}
DEFAULT_TIMEOUT_MIN = 240.0


def range_text(opt, high=None):
    lo, hi, unit = RANGES[opt]
    hi = hi if high is None else high
    left = "(" if opt in POSITIVE else "["
    right = ")" if opt in BELOW_HIGH else "]"
    return f"{left}{lo:g}, {hi:g}{right}" + (f" {unit}" if unit else "")


def check_number(opt, text, high=None):
    """text as a float in opt's range (RANGES; high overrides the upper
    bound); UsageError naming the option, the value and the range."""
    lo, hi, _ = RANGES[opt]
    hi = hi if high is None else high
    try:
        v = float(text)
    except (TypeError, ValueError):
        raise UsageError(f"{opt} {text!r} is not a number; accepted: {range_text(opt, high)}")
    ok = (math.isfinite(v) and (v > lo if opt in POSITIVE else v >= lo)
          and (v < hi if opt in BELOW_HIGH else v <= hi))
    if not ok:
        raise UsageError(f"{opt} {text} is out of range; accepted: {range_text(opt, high)}")
    return v


def number(opt):
    """argparse type for a numeric option with a range (exit 2 on a bad value)."""
    def conv(s):
        try:
            return check_number(opt, s)
        except UsageError as e:
            raise argparse.ArgumentTypeError(str(e).split(" ", 1)[1])
    return conv


def build_parser():
    p = argparse.ArgumentParser(
        prog="synth.py", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=DESCRIPTION,
        epilog="Examples:\n"
               "  scripts/synth.py generic --ports 4 --queues 4 --scheme dsh\n"
               "  scripts/synth.py asic --ports 32 --queues 7 --scheme dsh --period 4\n"
               "  scripts/synth.py fpga --ports 2 --queues 2 --fpga-freq 50\n"
               "  scripts/synth.py report --jobs 2\n"
               "  scripts/synth.py wire --ports 32 --queues 7\n"
               "  scripts/synth.py asic --ports 4 --queues 4 --check timing,area --reuse\n"
               "See docs/design/synthesis.md.")
    p.add_argument("mode", choices=["generic", "asic", "fpga", "report", "wire"], help="flow to run")
    g = p.add_argument_group("configuration (dsh_mmu parameters)")
    g.add_argument("--ports", type=int, default=4, metavar="N", help="NumPorts, 1..1024 (default 4)")
    g.add_argument("--queues", type=int, default=4, metavar="N", help="NumQueues, 1..64 (default 4)")
    g.add_argument("--cell-w", type=int, default=20, metavar="N", help="CellW, 4..40 (default 20)")
    g.add_argument("--size-w", type=int, default=8, metavar="N", help="SizeW, 1..CellW (default 8)")
    g.add_argument("--cnt-w", type=int, default=32, metavar="N", help="CntW, 1..64 (default 32)")
    g.add_argument("--scheme", choices=["sih", "dsh"], default="dsh",
                   help="Dsh parameter: dsh (1) or sih (0); default dsh")
    g.add_argument("--latency", type=int, default=2, metavar="N",
                   help="ThreshLatency, 1..3 (default 2)")
    g.add_argument("--pause-banks", type=int, choices=[1, 2], metavar="N",
                   help="PauseBanks: DSH's PAUSE counters in 1 memory with two write ports or in "
                        "2 banks, one per counting slot (block RAM on an FPGA); default 2 in fpga "
                        "mode, 1 otherwise")
    g.add_argument("--read-slices", type=int, metavar="N",
                   help="ReadSlices: copies of a record read's index, one per slice of each memory, "
                        "1..CellW (for the ASIC's buffer trees; 1 also leaves the counters' index "
                        "uncopied); default 1 in fpga mode, the RTL's default otherwise (one per "
                        "bit, at most dsh_pkg::ReadSlices = 20)")
    g.add_argument("--stats", type=int, choices=[0, 1], default=1, metavar="N",
                   help="Stats: 1 with the statistics counters (default), 0 the threshold "
                        "pipeline without them (configuration name + _nostats)")
    g.add_argument("--lanes", type=int, default=1, metavar="N",
                   help="NumLanes: enqueues a cycle, one per lane of ports p mod N; a power of two "
                        "in 1..min(ports, 64) (default 1; spec §4.7)")
    g.add_argument("--deq", type=int, metavar="N",
                   help="NumDeq: dequeue slots a cycle, 1..64 (default: --lanes, so that "
                        "departures keep up with admissions)")
    g.add_argument("--no-split", action="store_true",
                   help="generic, asic, report: do not synthesise the threshold pipeline alone "
                        "(Stats = 0) beside the design, so no threshold pipeline and statistics "
                        "rows (the default runs it, out/.../<config>/nostats)")
    t = p.add_argument_group("asic")
    t.add_argument("--liberty", metavar="FILE",
                   help="asic and report: Liberty file, plain or .gz (default $DSH_LIBERTY, else the committed sky130 HD "
                        f"typical library {DEFAULT_LIBERTY.relative_to(ROOT)})")
    t.add_argument("--period", default="4.0", metavar="NS",
                   help="target clock period in ns, (0.01, 1000] (default 4.0, i.e. 250 MHz), or "
                        "'recorded': the target recorded for the configuration in --limits")
    t.add_argument("--input-delay", type=number("--input-delay"), default=0.2, metavar="FRAC",
                   help="input delay as a fraction of the period (default 0.2)")
    t.add_argument("--output-delay", type=number("--output-delay"), default=0.2, metavar="FRAC",
                   help="output delay as a fraction of the period (default 0.2)")
    t.add_argument("--uncertainty", type=number("--uncertainty"), default=0.0, metavar="NS",
                   help="setup clock uncertainty in ns, 0 up to the period (default 0)")
    t.add_argument("--driving-cell", metavar="CELL",
                   help="Liberty cell driving the inputs (default: the second-smallest buffer)")
    t.add_argument("--output-load", type=number("--output-load"), metavar="CAP",
                   help="output load in library units, (0, 1000] (default: 4 input pins of the driving "
                        "cell)")
    t.add_argument("--abc-script", choices=sorted(ABC_SCRIPTS), default="delay",
                   help="ABC script of the timing-driven mapping: delay (default; rebalances for "
                        "depth and sizes gates) or yosys (Yosys's own abc -D script)")
    t.add_argument("--seeds", type=int, default=1, metavar="N",
                   help="ABC seeds, 1..16 (default 1): map the design N times, seed 0 as it is "
                        "and seed k with the network's input, output and node order permuted "
                        "(ABC permute -S k), time each netlist and report the max clock per seed "
                        "with min/median/max; area, cells and critical path stay seed 0's")
    t.add_argument("--time-cfg", action="store_true",
                   help="time paths from cfg_* too (no false path on static configuration)")
    t.add_argument("--dont-use", action="append", default=[], metavar="GLOB",
                   help="exclude Liberty cells matching GLOB from mapping (repeatable; added to "
                        f"the defaults {' '.join(DEFAULT_DONT_USE)})")
    t.add_argument("--no-default-dont-use", action="store_true",
                   help="do not exclude the default dont-use cells")
    w = p.add_argument_group("power (asic, and the report's asic sweep)")
    w.add_argument("--power", action="store_true",
                   help="report_power per block (threshold pipeline, records, statistics, "
                        "rest): the blocks are kept as modules in synthesis, the activity is "
                        "counted in a simulated workload through the Verilated RTL "
                        "(--power-workload)")
    w.add_argument("--power-workload", choices=("auto", "s1", "random"), default="auto",
                   help="the activity: s1 runs S1 (scenarios/pfc-avoidance.toml) at --power-burst "
                        "with the MMU clocked at the --period clock and replays its busiest "
                        "--power-window cycles through the RTL (dsh-sim, dsh-replay; the 32x7 "
                        "chip only); random is dsh-run's random bursty traffic, any chip; auto "
                        "(default): s1 on S1's chip, else random")
    w.add_argument("--power-burst", type=float, default=30.0, metavar="PCT",
                   help="s1: the fan-in burst, %% of the buffer, (0, 100] (default 30)")
    w.add_argument("--power-sim", metavar="FILE",
                   help="the dsh-run binary (default build/tools/dsh-run)")
    w.add_argument("--power-cycles", type=int, default=20000, metavar="N",
                   help="cycles of random traffic simulated, 100..100000000 (default 20000)")
    w.add_argument("--power-window", type=int, default=5000, metavar="N",
                   help="the last N cycles traced and counted, 10..--power-cycles (default 5000)")
    w.add_argument("--power-seed", type=int, default=1, metavar="N",
                   help="traffic seed, 0..2^63-1 (default 1)")
    f = p.add_argument_group("fpga")
    f.add_argument("--family", choices=sorted(FAMILIES), default="ice40",
                   help="FPGA family (default ice40): ice40 is synthesised, placed and routed "
                        "(nextpnr-ice40); xilinx (7 series), intel (Cyclone IV E), ecp5, gowin "
                        "are synthesised out of context (synth_<family>) and counted: LUTs, "
                        "flops, block RAMs, LUT RAMs, carry, DSP, and the smallest part that "
                        "holds them")
    f.add_argument("--device", choices=sorted(ICE40), default="hx8k", help="iCE40 device (default hx8k)")
    f.add_argument("--package", default=None, help="package (default ct256 for hx8k, tq144 for hx1k, sg48 for up5k)")
    f.add_argument("--fpga-freq", type=number("--fpga-freq"), default=50.0, metavar="MHZ",
                   help="nextpnr target frequency in MHz, (0.1, 1000] (default 50)")
    f.add_argument("--fpga-io", choices=["wrap", "direct"], default="wrap",
                   help="wrap: serialise the I/O in a generated wrapper (5 pins); direct: "
                        "dsh_mmu's ports on pins, reported as not fitting when too many (default wrap)")
    r = p.add_argument_group("report")
    r.add_argument("--configs", metavar="LIST",
                   help="sweep as PxQ[,PxQ...] (default 4x4,8x8,32x7,64x8), both schemes")
    r.add_argument("--lane-counts", metavar="LIST",
                   help="sweep each configuration over NumLanes (comma list of powers of two, "
                        "e.g. 1,2,4,8,16,32; NumDeq = lanes unless --deq): adds the lane table "
                        "(decisions per second, line rate) to report.md")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                   help=f"configurations in parallel (default {os.cpu_count() or 1}, the cores)")
    r.add_argument("--families", metavar="LIST",
                   help="sweep FPGA families instead (comma list of "
                        f"{','.join(FAMILIES)}, or all): report-fpga.md and report-fpga.csv")
    r.add_argument("--report-mode", choices=["auto", "asic", "generic"], default="auto",
                   help="flow per configuration: asic when a Liberty file is found (auto)")
    wg = p.add_argument_group("wire (also --ports: ports counted, --queues: classes, "
                              "1..8, the asic options)")
    wg.add_argument("--stat-w", type=int, default=32, metavar="N",
                    help="StatW of the wire blocks' counters, 1..64 (default 32)")
    c = p.add_argument_group("output and checks")
    c.add_argument("--out", metavar="DIR",
                   help="output directory (default out/synth/<mode>/<config>, report: out/synth)")
    c.add_argument("--check", metavar="LIST", nargs="?", const="ci",
                   help="comma list of latch, yosys-check, timing, constraints (OpenSTA "
                        "check_setup clean), area, all, or none: exit 1 if one fails, 77 if one "
                        "is skipped (default: latch,yosys-check; fpga: none). A bare --check, for "
                        "CI: latch,yosys-check,timing,constraints")
    c.add_argument("--manifest", default=str(MANIFEST), metavar="FILE",
                   help="source manifest (.f: one file a line, relative to it, // comments); "
                        "default %(default)s")
    c.add_argument("--limits", default=str(LIMITS), metavar="FILE",
                   help="recorded limits for area and the timing target (default %(default)s)")
    c.add_argument("--reuse", action="store_true",
                   help="reuse summary.json in --out when its inputs (RTL, SDC, script, options) are unchanged")
    c.add_argument("--liberty-optional", action="store_true",
                   help="asic mode without a Liberty file: run generic and mark timing/area skipped "
                        "instead of failing")
    c.add_argument("--record-limits", action="store_true",
                   help="write this run's figures into --limits as the new recorded values: "
                        "area and transistor limits at +--margin, the target period, date and "
                        "tool versions")
    c.add_argument("--margin", type=number("--margin"), default=0.10, metavar="FRAC",
                   help="margin of the recorded limits over the measured value (default 0.10)")
    c.add_argument("--timeout", type=number("--timeout"), default=DEFAULT_TIMEOUT_MIN,
                   metavar="MIN",
                   help="stop a tool (yosys, sta, nextpnr, the simulator, fst2vcd) that runs "
                        "longer than MIN minutes: the run fails with 'timed out', exit 3 "
                        f"(default {DEFAULT_TIMEOUT_MIN:g}; accepted (0.1, 10080])")
    c.add_argument("--quiet", action="store_true", help="print only the summary")
    return p


# ------------------------------------------------------------- resolution
def config_from_args(a, ports=None, queues=None, scheme=None, lanes=None):
    fpga = a.mode == "fpga"
    banks = a.pause_banks or (2 if fpga else 1)
    if a.read_slices is not None and not 1 <= a.read_slices <= a.cell_w:
        raise UsageError(f"--read-slices {a.read_slices} is out of range: ReadSlices must be in "
                         f"1..CellW (--cell-w {a.cell_w})")
    slices = a.read_slices if a.read_slices is not None else (1 if fpga else 0)
    lanes = lanes if lanes is not None else a.lanes
    cfg = Config(ports if ports is not None else a.ports, queues if queues is not None else a.queues,
                 scheme or a.scheme, a.cell_w, a.size_w, a.cnt_w, a.latency, banks, slices, a.stats,
                 lanes, a.deq if a.deq is not None else lanes)
    validate_config(cfg)
    if not slices and not package_has_function(a.manifest, "read_slices"):
        # an RTL whose default ReadSlices is a constant (before
        # dsh_pkg::read_slices(CellW), one slice a bit up to it): the default
        # must fit CellW too, or elaboration fails only after Yosys has read
        # everything
        dflt = package_default(a.manifest, "ReadSlices")
        if dflt is not None and cfg.cell_w < dflt:
            raise UsageError(f"--cell-w {cfg.cell_w} is too narrow for the RTL's default "
                             f"ReadSlices {dflt} (dsh_pkg): accepted --cell-w {dflt}..40 with "
                             f"it, or give --read-slices in 1..{cfg.cell_w}")
    return cfg


def resolve_liberty(a, required):
    cand = a.liberty or os.environ.get("DSH_LIBERTY")
    if cand:
        if not Path(cand).is_file():
            raise UsageError(f"--liberty {cand}: no such file")
        return Path(cand)
    if DEFAULT_LIBERTY.is_file():
        return DEFAULT_LIBERTY
    if required:
        raise UsageError(f"--liberty not given and the default {DEFAULT_LIBERTY} is not present")
    return None


def resolve_period(text, recorded, name, limits_path):
    if str(text) == "recorded":
        if "period_ns" not in recorded:
            raise UsageError(f"--period recorded: no target period recorded for {name} "
                             f"in {limits_path}")
        try:
            return check_number("--period", recorded["period_ns"])
        except UsageError as e:
            raise UsageError(f"{e} (the value recorded for {name} in {limits_path})")
    try:
        float(text)
    except ValueError:
        raise UsageError(f"--period {text!r} is neither a number of ns nor 'recorded'; "
                         f"accepted: {range_text('--period')} or 'recorded'")
    return check_number("--period", text)


def check_uncertainty(uncertainty, period):
    """The setup uncertainty must leave some of the period: [0, period)."""
    if not uncertainty < period:
        raise UsageError(f"--uncertainty {uncertainty:g} is out of range; accepted: [0, "
                         f"{period:g}) ns, less than the period (--period {period:g})")


def parse_configs(text):
    """--configs 'PxQ[,PxQ...]' -> [(ports, queues)]; SWEEP when None (not
    given). An empty or blank list is refused, not taken as the full sweep."""
    if text is None:
        return list(SWEEP)
    if not text.strip():
        raise UsageError("--configs '': expected a list PxQ[,PxQ...], e.g. 32x7,8x8 (without --configs: the "
                         "full sweep)")
    sizes = []
    for item in text.split(","):
        m = re.fullmatch(r"\s*(\d+)x(\d+)\s*", item)
        if not m:
            raise UsageError(f"--configs {item!r}: expected PxQ, e.g. 32x7")
        sizes.append((int(m.group(1)), int(m.group(2))))
    return sizes


def parse_lane_counts(text, default):
    """--lane-counts 'N[,N...]' -> [N]; [default] (--lanes) when not given."""
    if text is None:
        return [default]
    out = []
    for item in text.split(","):
        if not re.fullmatch(r"\s*\d+\s*", item):
            raise UsageError(f"--lane-counts {item!r}: expected a number, e.g. 1,2,4,8,16,32")
        n = int(item)
        if n not in out:
            out.append(n)
    return out


def dont_use_patterns(a):
    return ([] if a.no_default_dont_use else DEFAULT_DONT_USE) + a.dont_use


def liberty_cache():
    """Where the plain-text, filtered Liberty copies go (shared by all runs)."""
    return Path(os.environ.get("DSH_SYNTH_CACHE", ROOT / "out" / "synth" / ".liberty"))


def flow_options(a, manifest, period, liberty):
    return FlowOptions(manifest=manifest, timeout_min=a.timeout, reuse=a.reuse,
                       liberty=liberty, period=period, input_delay=a.input_delay,
                       output_delay=a.output_delay, uncertainty=a.uncertainty,
                       driving_cell=a.driving_cell, output_load=a.output_load,
                       time_cfg=a.time_cfg, abc_script=a.abc_script, seeds=a.seeds,
                       device=a.device,
                       package=a.package, fpga_freq=a.fpga_freq, fpga_io=a.fpga_io,
                       family=a.family, power=a.power,
                       power_sim=Path(a.power_sim) if a.power_sim else power.DEFAULT_SIM,
                       power_cycles=a.power_cycles, power_window=a.power_window,
                       power_seed=a.power_seed, power_workload=a.power_workload,
                       power_burst=a.power_burst,
                       s1_sim=power.DEFAULT_S1_SIM, s1_replay=power.DEFAULT_S1_REPLAY,
                       split=not a.no_split)


# ------------------------------------------------------------------- main
def main(argv=None):
    """Entry point of scripts/synth.py: ends running tools on SIGINT/SIGTERM."""
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    return run(argv)


def run(argv=None):
    """Parse argv and run; returns the exit status (argparse's own errors
    exit 2 through SystemExit)."""
    a = build_parser().parse_args(argv)
    try:
        return run_main(a)
    except UsageError as e:
        print(f"synth.py: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except ToolError as e:
        print(f"synth.py: error: {e}", file=sys.stderr)
        return EXIT_TOOL
    except OSError as e:  # an I/O failure the checks above did not foresee: one line, no traceback
        where = f"{e.filename}: " if e.filename else ""
        print(f"synth.py: error: {where}{e.strerror or e}", file=sys.stderr)
        return EXIT_TOOL
    except KeyboardInterrupt:
        return 130


def run_main(a):
    # Every argument is checked before a tool is looked for, and the output
    # paths before anything is run or written.
    if not Path(a.manifest).is_file():
        raise UsageError(f"--manifest {a.manifest}: no such file")
    manifest = Path(a.manifest).resolve()
    checks = parse_checks(a.check)
    if a.jobs < 1:
        raise UsageError(f"--jobs {a.jobs} must be at least 1")
    if a.jobs > 256:
        raise UsageError(f"--jobs {a.jobs} is out of range 1..256")
    if str(a.limits) != str(LIMITS) and not a.record_limits and not Path(a.limits).exists():
        raise UsageError(f"--limits {a.limits}: no such file (without --limits: {LIMITS}; "
                         "--record-limits creates it)")
    if a.package is None:
        a.package = DEFAULT_PACKAGE[a.device]
    if a.configs is not None and a.mode != "report":
        raise UsageError(f"--configs is for the report mode, not {a.mode}")
    if a.lane_counts is not None and a.mode != "report":
        raise UsageError(f"--lane-counts is for the report mode, not {a.mode} (one lane count: --lanes N)")
    if a.mode == "wire" and (a.lanes != 1 or a.deq is not None):
        raise UsageError("--lanes and --deq are dsh_mmu's parameters; the wire mode has none "
                         "(its blocks are per port)")
    if a.families is not None and a.mode != "report":
        raise UsageError(f"--families is for the report mode, not {a.mode} (one family: "
                         "fpga --family F)")
    if a.power and a.mode not in ("asic", "report"):
        raise UsageError(f"--power is for the asic and report modes, not {a.mode}")
    if not 1 <= a.seeds <= 16:
        raise UsageError(f"--seeds {a.seeds} is out of range; accepted: 1..16")
    if a.seeds > 1 and a.mode not in ("asic", "report"):
        raise UsageError(f"--seeds is for the asic and report modes, not {a.mode}")
    if a.seeds > 1 and ABC_SCRIPTS[a.abc_script] is None:
        raise UsageError(f"--seeds {a.seeds} needs an ABC script of the flow's own "
                         f"(--abc-script delay), not --abc-script {a.abc_script}")
    if not 100 <= a.power_cycles <= 100_000_000:
        raise UsageError(f"--power-cycles {a.power_cycles} is out of range; accepted: "
                         "100..100000000")
    if not 10 <= a.power_window <= a.power_cycles:
        raise UsageError(f"--power-window {a.power_window} is out of range; accepted: "
                         f"10..{a.power_cycles} (--power-cycles)")
    if not (math.isfinite(a.power_burst) and 0 < a.power_burst <= 100):
        raise UsageError(f"--power-burst {a.power_burst} is out of range; accepted: (0, 100]")
    if not 0 <= a.power_seed < 2 ** 63:
        raise UsageError(f"--power-seed {a.power_seed} is out of range; accepted: 0..2^63-1")
    if a.power_sim is not None and not Path(a.power_sim).is_file():
        raise UsageError(f"--power-sim {a.power_sim}: no such file")
    if a.power and a.power_sim is None and not power.DEFAULT_SIM.is_file():
        raise UsageError(f"--power: the simulator {power.DEFAULT_SIM.relative_to(ROOT)} is not "
                         "built (cmake --build build --target dsh-run), or give --power-sim")
    if a.family != "ice40" and a.mode != "fpga":
        raise UsageError(f"--family {a.family} is for the fpga mode, not {a.mode}")
    if a.liberty is not None and a.mode not in ("asic", "report"):
        raise UsageError(f"--liberty is for the asic and report modes, not {a.mode} "
                         "(its flow maps to no cell library)")
    if a.out is not None:
        check_out_dir("--out", a.out)
    limits = load_limits(a.limits)
    if a.record_limits:
        check_out_file("--limits", a.limits)
    if a.liberty is not None:
        resolve_liberty(a, required=True)
    if a.mode == "report":
        return run_report(a, limits, manifest)
    if a.mode == "wire":
        return run_wire_mode(a, checks)
    if a.stat_w != 32:
        raise UsageError(f"--stat-w is for the wire mode, not {a.mode}")

    cfg = config_from_args(a)
    rec = (limits.get("configs") or {}).get(cfg.name, {})
    period = resolve_period(a.period, rec.get("asic") or {}, cfg.name, a.limits)
    check_uncertainty(a.uncertainty, period)
    out = Path(a.out).resolve() if a.out else ROOT / "out" / "synth" / a.mode / cfg.name
    check_out_dir("--out", out)
    mode, lp, skipped = a.mode, None, None
    if mode == "asic":
        lp = resolve_liberty(a, required=not a.liberty_optional)
    need_tool("yosys")
    if a.power:
        need_tool("fst2vcd")  # before a long synthesis, not after it
        check_power_workload(a, cfg)
    lib, removed, sec = None, [], None
    if mode == "asic":
        if lp is None:
            skipped = f"no Liberty file (default {DEFAULT_LIBERTY} not present, no --liberty)"
            say(f"asic: {skipped}; running the generic flow only")
            mode = "generic"
        else:
            need_tool("sta")
            lib, removed, sec = prepare_liberty(lp, liberty_cache(), dont_use_patterns(a))
    opts = flow_options(a, manifest, period, lp)
    res = Run(cfg, mode, out, opts, lib=lib, removed=removed, quiet=a.quiet).execute()
    if lib:
        res.steps_s.setdefault("liberty_prep", round(sec, 2))
    if skipped:
        res.asic_skipped = skipped
        res.write(out / "summary.json")
    for ln in summary_lines(res) + counterpart_lines(res, out):
        print(ln)
    print(f"  summary: {out / 'summary.json'}")
    if not res.ok:
        return EXIT_TOOL
    if checks is None:
        checks = ["latch", "yosys-check"] if a.mode != "fpga" else []
    res.checks = evaluate_checks(res, checks, limits)
    res.write(out / "summary.json")
    if a.record_limits:
        record_limits(res, a.limits, a.margin)
    for k, v in res.checks.items():
        print(f"  check {k}: {v.status.upper()} - {v.detail}")
    return exit_status(res.checks)


def run_wire_mode(a, checks):
    """The wire mode (synth.wire): --ports ports counted, --queues classes,
    --stat-w counter width; the asic options; exit 1 on a latch, a Yosys
    check problem, or with --check timing a negative slack, with --check
    constraints an unconstrained endpoint."""
    cfg = wire.WireConfig(a.ports, a.queues, a.stat_w)
    wire.validate(cfg)
    if str(a.period) == "recorded":
        raise UsageError("--period recorded: the wire mode has no recorded target; give ns")
    period = check_number("--period", a.period)
    check_uncertainty(a.uncertainty, period)
    unknown = set(checks or []) - {"latch", "yosys-check", "timing", "constraints"}
    if unknown:
        raise UsageError(f"--check {','.join(sorted(unknown))}: the wire mode checks latch, "
                         "yosys-check, timing and constraints only")
    out = Path(a.out).resolve() if a.out else ROOT / "out" / "synth" / "wire" / cfg.name
    check_out_dir("--out", out)
    lp = resolve_liberty(a, required=True)
    need_tool("yosys")
    need_tool("sta")
    lib, _, _ = prepare_liberty(lp, liberty_cache(), dont_use_patterns(a))
    opts = flow_options(a, wire.MANIFEST, period, lp)
    out.mkdir(parents=True, exist_ok=True)
    return wire.run_wire(cfg, lib, opts, out, timeout_min=a.timeout, quiet=a.quiet,
                         checks=set(checks or []))


def check_power_workload(a, cfg):
    """The workload's chip and tools, before the synthesis (UsageError)."""
    if power.workload_of(cfg, a.power_workload) == "s1":
        for t, what in ((power.DEFAULT_S1_SIM, "dsh-sim"), (power.DEFAULT_S1_REPLAY, "dsh-replay")):
            if not t.is_file():
                raise UsageError(f"--power-workload s1: {t.relative_to(ROOT)} is not built "
                                 f"(cmake --build build --target {what})")


def counterpart_lines(res, out):
    """DSH/SIH of each split row when the other scheme's run of the same
    configuration is beside this one (out/synth/<mode>/<other config>, or
    the sibling of --out named after it) with the same RTL and flow; else
    how to get it. Nothing without a split."""
    if res.split is None or not res.ok:
        return []
    other = dataclasses.replace(res.config, scheme="sih" if res.config.dsh else "dsh")
    f = out.parent / other.name / "summary.json"
    how = (f"  DSH/SIH: run the same command with --scheme {other.scheme}"
           + (f" --out {f.parent}" if out.name != res.config.name else "")
           + " for the ratios of each row")
    if out.name != res.config.name or not f.is_file():
        return [how]
    try:
        theirs = RunResult.from_dict(json.loads(f.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return [how + f" ({f} is unreadable)"]
    if not split.comparable(res, theirs):
        return [how + f" ({f} is of another RTL, flow or target)"]
    return split.ratio_lines(res, theirs, f)


def parse_families(text):
    items = [x.strip() for x in text.split(",") if x.strip()]
    if items == ["all"]:
        return list(FAMILIES)
    if not items:
        raise UsageError(f"--families {text!r}: expected a list of {', '.join(FAMILIES)} or all")
    for x in items:
        if x not in FAMILIES:
            raise UsageError(f"--families {x}: unknown family (valid: {', '.join(FAMILIES)}, all)")
    return items


def run_families(a, manifest, fams):
    """The FPGA family sweep: every family, configuration and scheme."""
    out = Path(a.out).resolve() if a.out else ROOT / "out" / "synth"
    a.mode = "fpga"  # the FPGA arrangement (PauseBanks 2, ReadSlices 1) unless given
    cfgs = [config_from_args(a, p, q, s) for p, q in parse_configs(a.configs)
            for s in ("sih", "dsh")]
    check_out_dir("--out", out)
    need_tool("yosys")
    results = []
    t_all = time.monotonic()
    for fam in fams:
        opts = dataclasses.replace(flow_options(a, manifest, 4.0, None), family=fam)
        results += run_sweep(cfgs, "fpga", out / f"fpga_{fam}", opts, None, [], a.jobs)
    ctx = ReportContext(cell_w=a.cell_w, size_w=a.size_w, cnt_w=a.cnt_w, latency=a.latency,
                        period=0.0, input_delay=0.0, output_delay=0.0,
                        yosys_version=tool_version("yosys"), sta_version=None,
                        rtl=rtl_identity(manifest))
    write_family_report(results, out, ctx)
    say(f"report: done in {fmt_s(time.monotonic() - t_all)}: {out / 'report-fpga.md'}, "
        f"{out / 'report-fpga.csv'}")
    return sweep_status(results)


def run_report(a, limits, manifest):
    if a.families is not None:
        return run_families(a, manifest, parse_families(a.families))
    out = Path(a.out).resolve() if a.out else ROOT / "out" / "synth"
    period = resolve_period(a.period, {}, "report", a.limits)
    check_uncertainty(a.uncertainty, period)
    cfgs = [config_from_args(a, p, q, s, n) for p, q in parse_configs(a.configs)
            for n in parse_lane_counts(a.lane_counts, a.lanes) for s in ("sih", "dsh")]
    if a.power:
        for c in cfgs:
            check_power_workload(a, c)
    mode, lp = a.report_mode, None
    if mode in ("auto", "asic"):
        lp = resolve_liberty(a, required=(mode == "asic"))
    check_out_dir("--out", out)
    need_tool("yosys")
    if a.power:
        need_tool("fst2vcd")
    lib, removed = None, []
    if mode in ("auto", "asic"):
        if lp is None:
            say(f"report: no Liberty file ({DEFAULT_LIBERTY} not present): generic sweep")
            mode = "generic"
        else:
            need_tool("sta")
            mode = "asic"
            lib, removed, _ = prepare_liberty(lp, liberty_cache(), dont_use_patterns(a))
    opts = flow_options(a, manifest, period, lp)
    t_all = time.monotonic()
    results = run_sweep(cfgs, mode, out, opts, lib, removed, a.jobs)
    ctx = ReportContext(cell_w=a.cell_w, size_w=a.size_w, cnt_w=a.cnt_w, latency=a.latency,
                        period=period, input_delay=a.input_delay, output_delay=a.output_delay,
                        yosys_version=tool_version("yosys"),
                        sta_version=tool_version("sta") if mode == "asic" else None,
                        rtl=rtl_identity(manifest))
    write_report(results, out, ctx, mode)
    say(f"report: done in {fmt_s(time.monotonic() - t_all)}: {out / 'report.md'}, "
        f"{out / 'report.csv'}")
    return sweep_status(results)
