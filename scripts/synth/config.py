# SPDX-License-Identifier: Apache-2.0
"""What is synthesised (Config: dsh_mmu's parameters) and how (FlowOptions:
the knobs of the ASIC and FPGA flows, from the command line)."""

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .common import MANIFEST, UsageError

# Parameter limits, as checked by the RTL at elaboration (dsh_mmu.sv).
# (option, attribute, RTL parameter, low, high); high None: see SizeW.
PARAM_LIMITS = [
    ("--ports", "ports", "NumPorts", 1, 1024),
    ("--queues", "queues", "NumQueues", 1, 64),
    ("--cell-w", "cell_w", "CellW", 4, 40),
    ("--size-w", "size_w", "SizeW", 1, None),
    ("--cnt-w", "cnt_w", "CntW", 1, 64),
    ("--latency", "latency", "ThreshLatency", 1, 3),
]
DEFAULTS = {"cell_w": 20, "size_w": 8, "cnt_w": 32, "latency": 2}

# The report sweep: (ports, queues), each with both schemes.
SWEEP = [(4, 4), (8, 8), (32, 7), (64, 8)]


@dataclass(frozen=True)
class Config:
    """One dsh_mmu configuration."""
    ports: int
    queues: int
    scheme: str  # "dsh" or "sih"
    cell_w: int = 20
    size_w: int = 8
    cnt_w: int = 32
    latency: int = 2
    pause_banks: int = 1  # DSH PAUSE counters: 1 memory with 2 write ports, or a bank per slot
    read_slices: int = 0  # record read index copies per memory; 0: the RTL's default (dsh_pkg)
    stats: int = 1  # 1: the statistics counters (dsh_stats); 0: the threshold pipeline without them
    lanes: int = 1  # NumLanes: enqueues a cycle, one per lane (spec §4.7)
    deq: int = 1    # NumDeq: dequeue slots a cycle

    @property
    def dsh(self):
        return self.scheme == "dsh"

    @property
    def name(self):
        n = f"{self.scheme}_{self.ports}x{self.queues}"
        for attr, tag in (("cell_w", "cw"), ("size_w", "sw"), ("cnt_w", "nw"), ("latency", "l")):
            if getattr(self, attr) != DEFAULTS[attr]:
                n += f"_{tag}{getattr(self, attr)}"
        if self.pause_banks != 1:
            n += f"_b{self.pause_banks}"
        if self.read_slices:
            n += f"_s{self.read_slices}"
        if not self.stats:
            n += "_nostats"
        if (self.lanes, self.deq) != (1, 1):
            n += f"_n{self.lanes}d{self.deq}"
        return n

    def params(self):
        """RTL parameter name -> value, in -chparam order."""
        p = {"NumPorts": self.ports, "NumQueues": self.queues, "CellW": self.cell_w,
             "SizeW": self.size_w, "CntW": self.cnt_w, "Dsh": int(self.dsh),
             "ThreshLatency": self.latency}
        if self.pause_banks != 1:  # parameters at their RTL default are left out
            p["PauseBanks"] = self.pause_banks
        if self.read_slices:
            p["ReadSlices"] = self.read_slices
        if self.stats != 1:
            p["Stats"] = self.stats
        if self.lanes != 1:
            p["NumLanes"] = self.lanes
        if self.deq != 1:
            p["NumDeq"] = self.deq
        return p

    def as_dict(self):
        d = {"name": self.name, "scheme": self.scheme}
        d.update(self.params())
        return d

    @classmethod
    def from_dict(cls, d):
        return cls(d["NumPorts"], d["NumQueues"], d["scheme"], d["CellW"], d["SizeW"],
                   d["CntW"], d["ThreshLatency"], d.get("PauseBanks", 1), d.get("ReadSlices", 0),
                   d.get("Stats", 1), d.get("NumLanes", 1), d.get("NumDeq", 1))

    def decisions_per_s(self, fmax_mhz):
        """Admissions and departures a second at fmax_mhz: (lanes, NumDeq) x the clock."""
        return self.lanes * fmax_mhz * 1e6, self.deq * fmax_mhz * 1e6


def validate_config(cfg):
    """UsageError naming the option when a parameter is outside the RTL's limits."""
    for opt, attr, rtl, lo, hi in PARAM_LIMITS:
        v = getattr(cfg, attr)
        if hi is None:
            hi, why = cfg.cell_w, f"1..CellW (--cell-w {cfg.cell_w})"
        else:
            why = f"{lo}..{hi}"
        if not lo <= v <= hi:
            raise UsageError(f"{opt} {v} is out of range: {rtl} must be in {why}")
    if cfg.stats not in (0, 1):
        raise UsageError(f"--stats {cfg.stats} is out of range: Stats must be 0 or 1")
    lanes_hi = min(cfg.ports, 64)
    if not (1 <= cfg.lanes <= lanes_hi and cfg.lanes & (cfg.lanes - 1) == 0):
        raise UsageError(f"--lanes {cfg.lanes} is out of range: NumLanes must be a power of two "
                         f"in 1..{lanes_hi} (at most NumPorts = {cfg.ports} and 64, spec §4.7)")
    if not 1 <= cfg.deq <= 64:
        raise UsageError(f"--deq {cfg.deq} is out of range: NumDeq must be in 1..64")
    if cfg.read_slices and not 1 <= cfg.read_slices <= cfg.cell_w:
        raise UsageError(f"--read-slices {cfg.read_slices} is out of range: ReadSlices must be in "
                         f"1..CellW (--cell-w {cfg.cell_w})")


@dataclass
class FlowOptions:
    """The resolved options of a run (a sweep shares one)."""
    manifest: Path = MANIFEST
    timeout_min: Optional[float] = None
    reuse: bool = False
    # generic and asic: the threshold pipeline alone (Stats = 0) beside a
    # design with statistics, and the split into rows (synth.split)
    split: bool = True
    # asic
    liberty: Optional[Path] = None       # the library as given (before filtering)
    period: float = 4.0                  # ns
    input_delay: float = 0.2             # fraction of the period
    output_delay: float = 0.2
    uncertainty: float = 0.0             # ns
    driving_cell: Optional[str] = None
    output_load: Optional[float] = None  # library units
    time_cfg: bool = False
    abc_script: str = "delay"
    seeds: int = 1                       # ABC seeds of the mapping (synth.yosys.abc_script_text)
    # fpga
    device: str = "hx8k"
    package: str = "ct256"
    fpga_freq: float = 50.0
    fpga_io: str = "wrap"
    family: str = "ice40"
    # power (asic --power)
    power: bool = False
    power_sim: Optional[Path] = None
    power_cycles: int = 20000
    power_window: int = 5000
    power_seed: int = 1
    power_workload: str = "auto"         # auto (s1 on S1's chip, else random) | s1 | random
    power_burst: float = 30.0            # s1: the fan-in burst, % of the buffer
    s1_sim: Optional[Path] = None        # s1: dsh-sim and dsh-replay
    s1_replay: Optional[Path] = None

    @property
    def timeout_s(self):
        return self.timeout_min * 60 if self.timeout_min else None
