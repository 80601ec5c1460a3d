# SPDX-License-Identifier: Apache-2.0
"""The typed result of one run, and its summary.json form.

summary.json has one fixed layout (key order included): to_dict() writes
each key only where the flow has it, from_dict() reads such a file back.
Round trip: from_dict(to_dict(r)) == r.
"""

import json
from dataclasses import dataclass, field
from typing import Optional

from .config import Config
from .files import write_atomically


def _put(d, key, value, keep_none=False):
    if value is not None or keep_none:
        d[key] = value


@dataclass
class RtlIdentity:
    """Which sources a result is of."""
    manifest: str
    sha1: str
    git: Optional[str] = None
    rtl_modified: Optional[bool] = None

    def to_dict(self):
        d = {"manifest": self.manifest, "sha1": self.sha1}
        _put(d, "git", self.git)
        _put(d, "rtl_modified", self.rtl_modified)
        return d

    @classmethod
    def from_dict(cls, d):
        return cls(d["manifest"], d["sha1"], d.get("git"), d.get("rtl_modified"))


@dataclass
class GenericResult:
    """Technology-free figures of Yosys `synth -flatten`."""
    cells: Optional[int] = None
    flops: int = 0
    comb_cells: int = 0
    cell_types: dict = field(default_factory=dict)      # cell type -> count
    transistors: int = 0
    transistors_logic: Optional[int] = None
    transistors_flops: int = 0
    logic_depth: Optional[int] = None
    latch_cells: int = 0
    latch_types: dict = field(default_factory=dict)
    latch_signals: list = field(default_factory=list)
    check_problems: int = 0
    check_messages: list = field(default_factory=list)

    def to_dict(self):
        return {"cells": self.cells, "flops": self.flops, "comb_cells": self.comb_cells,
                "cell_types": dict(self.cell_types), "transistors": self.transistors,
                "transistors_logic": self.transistors_logic,
                "transistors_flops": self.transistors_flops, "logic_depth": self.logic_depth,
                "latch_cells": self.latch_cells, "latch_types": dict(self.latch_types),
                "latch_signals": list(self.latch_signals),
                "check_problems": self.check_problems,
                "check_messages": list(self.check_messages)}

    @classmethod
    def from_dict(cls, d):
        return cls(**{k: d[k] for k in cls().to_dict()})


@dataclass
class PathStage:
    """One driver (output pin) on a timing path."""
    inst: str
    pin: str
    cell: str
    delay_ns: float
    at_ns: float

    def to_dict(self):
        return {"inst": self.inst, "pin": self.pin, "cell": self.cell,
                "delay_ns": self.delay_ns, "at_ns": self.at_ns}


@dataclass
class PathReport:
    """One OpenSTA report_checks path."""
    startpoint: Optional[str] = None
    endpoint: Optional[str] = None
    slack_ns: Optional[float] = None
    arrival_ns: Optional[float] = None
    stages: int = 0
    cells: list = field(default_factory=list)  # [PathStage]

    def to_dict(self):
        return {"startpoint": self.startpoint, "endpoint": self.endpoint,
                "slack_ns": self.slack_ns, "arrival_ns": self.arrival_ns,
                "stages": self.stages, "cells": [c.to_dict() for c in self.cells]}

    @classmethod
    def from_dict(cls, d):
        return cls(d["startpoint"], d["endpoint"], d["slack_ns"], d["arrival_ns"],
                   d["stages"], [PathStage(**c) for c in d["cells"]])


@dataclass
class StaResult:
    """OpenSTA's figures of the gate-level netlist (ns, MHz)."""
    worst_slack_ns: float
    tns_ns: float
    hold_slack_ns: float
    timing_met: bool
    fmax_mhz: Optional[float]
    critical_path: PathReport
    reg2reg_path: PathReport
    reg2reg_fmax_mhz: Optional[float] = None  # written only when reg2reg_path has a slack
    unconstrained_endpoints: int = 0
    check_setup: list = field(default_factory=list)       # findings, one line each
    constant_outputs: list = field(default_factory=list)  # 'port=0|1', tied by synthesis

    def to_dict(self):
        d = {"worst_slack_ns": self.worst_slack_ns, "tns_ns": self.tns_ns,
             "hold_slack_ns": self.hold_slack_ns, "timing_met": self.timing_met,
             "fmax_mhz": self.fmax_mhz, "critical_path": self.critical_path.to_dict(),
             "reg2reg_path": self.reg2reg_path.to_dict()}
        if self.reg2reg_path.slack_ns is not None:
            d["reg2reg_fmax_mhz"] = self.reg2reg_fmax_mhz
        d["unconstrained_endpoints"] = self.unconstrained_endpoints
        d["check_setup"] = list(self.check_setup)
        d["constant_outputs"] = list(self.constant_outputs)
        return d

    @classmethod
    def from_dict(cls, d):
        return cls(d["worst_slack_ns"], d["tns_ns"], d["hold_slack_ns"], d["timing_met"],
                   d["fmax_mhz"], PathReport.from_dict(d["critical_path"]),
                   PathReport.from_dict(d["reg2reg_path"]), d.get("reg2reg_fmax_mhz"),
                   d["unconstrained_endpoints"], list(d.get("check_setup", [])),
                   list(d.get("constant_outputs", [])))


@dataclass
class CellArea:
    cell: str
    count: int
    area_um2: float


@dataclass
class SeedResult:
    """One ABC seed's netlist (synth.yosys.abc_script_text): seed 0 is the
    mapping as the flow always ran it, seed k > 0 the same script on the
    network with its inputs, outputs and node order permuted by ABC's
    `permute -S k`; each netlist timed by OpenSTA like the first."""
    seed: int
    area_um2: Optional[float] = None
    cells: Optional[int] = None
    worst_slack_ns: Optional[float] = None
    tns_ns: Optional[float] = None
    fmax_mhz: Optional[float] = None
    reg2reg_fmax_mhz: Optional[float] = None
    startpoint: Optional[str] = None  # of the worst path
    endpoint: Optional[str] = None

    def to_dict(self):
        return {"seed": self.seed, "area_um2": self.area_um2, "cells": self.cells,
                "worst_slack_ns": self.worst_slack_ns, "tns_ns": self.tns_ns,
                "fmax_mhz": self.fmax_mhz, "reg2reg_fmax_mhz": self.reg2reg_fmax_mhz,
                "startpoint": self.startpoint, "endpoint": self.endpoint}

    @classmethod
    def from_dict(cls, d):
        return cls(**d)


def spread(values):
    """(min, median, max) of the values that are not None, or None when
    there are none; the median of an even count is the mean of the middle
    two."""
    v = sorted(x for x in values if x is not None)
    if not v:
        return None
    n = len(v)
    med = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    return v[0], round(med, 2), v[-1]


@dataclass
class AsicResult:
    """Mapping onto a Liberty library, and (sta) its timing."""
    liberty: str
    library: str
    period_ns: float
    target_mhz: float
    driving_cell: str
    output_load: float
    dont_use_removed: int = 0
    area_um2: Optional[float] = None
    cells: Optional[int] = None
    flops: int = 0
    seq_area_um2: float = 0.0
    comb_area_um2: float = 0.0
    top_cells_by_area: list = field(default_factory=list)  # [CellArea]
    sta: Optional[StaResult] = None  # None until OpenSTA has run
    # --seeds N > 1: every seed's netlist, seed 0 (the one above) first;
    # empty for a run of one seed (and absent from summary.json)
    seeds: list = field(default_factory=list)  # [SeedResult]

    def fmax_spread(self):
        """(min, median, max) max clock over the seeds, None without seeds."""
        return spread(s.fmax_mhz for s in self.seeds) if self.seeds else None

    def to_dict(self):
        d = {"liberty": self.liberty, "library": self.library, "period_ns": self.period_ns,
             "target_mhz": self.target_mhz, "driving_cell": self.driving_cell,
             "output_load": self.output_load, "dont_use_removed": self.dont_use_removed,
             "area_um2": self.area_um2, "cells": self.cells, "flops": self.flops,
             "seq_area_um2": self.seq_area_um2, "comb_area_um2": self.comb_area_um2,
             "top_cells_by_area": [{"cell": c.cell, "count": c.count, "area_um2": c.area_um2}
                                   for c in self.top_cells_by_area]}
        if self.sta is not None:
            d.update(self.sta.to_dict())
        if self.seeds:
            d["seeds"] = [x.to_dict() for x in self.seeds]
        return d

    @classmethod
    def from_dict(cls, d):
        return cls(d["liberty"], d["library"], d["period_ns"], d["target_mhz"],
                   d["driving_cell"], d["output_load"], d["dont_use_removed"], d["area_um2"],
                   d["cells"], d["flops"], d["seq_area_um2"], d["comb_area_um2"],
                   [CellArea(**c) for c in d["top_cells_by_area"]],
                   StaResult.from_dict(d) if "worst_slack_ns" in d else None,
                   [SeedResult.from_dict(x) for x in d.get("seeds", [])])


@dataclass
class FpgaResult:
    """synth_ice40 and nextpnr-ice40. Optional fields stay out of
    summary.json until the flow has got that far."""
    device: str
    package: str
    pins: int
    lcs_available: int
    io_mode: str
    core_ios: int
    target_mhz: float
    ios: Optional[int] = None
    wrapper_flops: Optional[int] = None
    luts: Optional[int] = None
    flops: Optional[int] = None
    carries: Optional[int] = None
    brams: Optional[int] = None
    fits: Optional[bool] = None
    reason: Optional[str] = None     # why it does not fit
    fmax_mhz: Optional[float] = None  # written whenever it fits (null: not reported)
    lcs_used: Optional[int] = None
    family: str = "ice40"
    lutrams: Optional[int] = None     # LUT RAM cells (Xilinx, ECP5, Gowin)
    dsps: Optional[int] = None
    other_cells: Optional[int] = None  # cells of no counted kind (MUXF7, PFUMX, ...)
    part: Optional[str] = None        # smallest listed part of the family that holds it
    part_note: Optional[str] = None   # its data sheet, or why no listed part holds it

    def to_dict(self):
        d = {"device": self.device, "package": self.package, "pins": self.pins,
             "lcs_available": self.lcs_available, "io_mode": self.io_mode,
             "core_ios": self.core_ios, "target_mhz": self.target_mhz}
        for k in ("ios", "wrapper_flops", "luts", "flops", "carries", "brams", "fits",
                  "reason"):
            _put(d, k, getattr(self, k))
        _put(d, "fmax_mhz", self.fmax_mhz, keep_none=bool(self.fits))
        _put(d, "lcs_used", self.lcs_used)
        if self.family != "ice40":
            d["family"] = self.family
        for k in ("lutrams", "dsps", "other_cells", "part", "part_note"):
            _put(d, k, getattr(self, k))
        return d

    @classmethod
    def from_dict(cls, d):
        return cls(**d)


@dataclass
class SplitResult:
    """The design in two rows (synth.split): the threshold pipeline, the
    companion run of the same configuration with Stats = 0, and the
    statistics block, the full run less it. Areas from the asic flow
    (None in generic), transistors from the generic part of either."""
    companion: str                      # the Stats = 0 configuration's name
    pipeline_area_um2: Optional[float] = None
    stats_area_um2: Optional[float] = None
    pipeline_transistors: Optional[int] = None
    stats_transistors: Optional[int] = None
    pipeline_flops: Optional[int] = None
    stats_flops: Optional[int] = None
    pipeline_fmax_mhz: Optional[float] = None

    def to_dict(self):
        return {"companion": self.companion, "pipeline_area_um2": self.pipeline_area_um2,
                "stats_area_um2": self.stats_area_um2,
                "pipeline_transistors": self.pipeline_transistors,
                "stats_transistors": self.stats_transistors,
                "pipeline_flops": self.pipeline_flops, "stats_flops": self.stats_flops,
                "pipeline_fmax_mhz": self.pipeline_fmax_mhz}

    @classmethod
    def from_dict(cls, d):
        return cls(**d)


@dataclass
class CheckVerdict:
    status: str  # pass | fail | skip
    detail: str


@dataclass
class RunResult:
    """One configuration through one mode: what summary.json holds."""
    config: Config
    mode: str
    date: str
    status: str = "ok"  # ok | error
    errors: list = field(default_factory=list)
    steps_s: dict = field(default_factory=dict)  # step -> seconds, in run order
    tools: dict = field(default_factory=dict)    # tool -> version line
    schema: int = 1
    rtl: Optional[RtlIdentity] = None
    abc_script: Optional[str] = None
    generic: Optional[GenericResult] = None
    asic: Optional[AsicResult] = None
    fpga: Optional[FpgaResult] = None
    cache_key: Optional[str] = None
    asic_skipped: Optional[str] = None  # why an asic run fell back to generic
    checks: Optional[dict] = None       # check -> CheckVerdict
    power: Optional[dict] = None        # asic --power: synth.power.run_power's figures
    split: Optional[SplitResult] = None  # threshold pipeline and statistics (synth.split)

    @property
    def ok(self):
        return self.status == "ok"

    def to_dict(self):
        d = {"schema": self.schema, "config": self.config.as_dict(), "mode": self.mode,
             "status": self.status, "errors": list(self.errors), "steps_s": dict(self.steps_s),
             "tools": dict(self.tools), "date": self.date}
        _put(d, "rtl", self.rtl and self.rtl.to_dict())
        _put(d, "abc_script", self.abc_script)
        for k in ("generic", "asic", "fpga"):
            part = getattr(self, k)
            _put(d, k, part and part.to_dict())
        _put(d, "cache_key", self.cache_key)
        _put(d, "asic_skipped", self.asic_skipped)
        _put(d, "power", self.power)
        _put(d, "split", self.split and self.split.to_dict())
        if self.checks is not None:
            d["checks"] = {k: {"status": v.status, "detail": v.detail}
                           for k, v in self.checks.items()}
        return d

    @classmethod
    def from_dict(cls, d):
        opt = lambda k, c: c.from_dict(d[k]) if d.get(k) is not None else None
        checks = d.get("checks")
        return cls(config=Config.from_dict(d["config"]), mode=d["mode"], date=d["date"],
                   status=d["status"], errors=list(d["errors"]), steps_s=dict(d["steps_s"]),
                   tools=dict(d["tools"]), schema=d["schema"], rtl=opt("rtl", RtlIdentity),
                   abc_script=d.get("abc_script"), generic=opt("generic", GenericResult),
                   asic=opt("asic", AsicResult), fpga=opt("fpga", FpgaResult),
                   cache_key=d.get("cache_key"), asic_skipped=d.get("asic_skipped"),
                   power=d.get("power"), split=opt("split", SplitResult),
                   checks=None if checks is None else
                   {k: CheckVerdict(v["status"], v["detail"]) for k, v in checks.items()})

    def to_json(self):
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def write(self, path):
        write_atomically(path, self.to_json())
