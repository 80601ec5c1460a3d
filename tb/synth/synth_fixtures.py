# SPDX-License-Identifier: Apache-2.0
"""Shared by the tb/synth unit tests: puts scripts/ on the import path (so
`import synth` is the package scripts/synth/) and builds hand-made result
records. No tool runs."""
import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

from synth.config import Config  # noqa: E402
from synth.record import (AsicResult, CellArea, GenericResult, PathReport,  # noqa: E402
                          PathStage, RtlIdentity, RunResult, StaResult)


def generic(transistors=1000, cells=900, flops=100, depth=20):
    return GenericResult(cells=cells, flops=flops, comb_cells=cells - flops,
                         cell_types={"$_AND_": cells - flops, "$_DFF_P_": flops},
                         transistors=transistors, transistors_logic=transistors - 24 * flops,
                         transistors_flops=24 * flops, logic_depth=depth)


def path(start="a_q$_DFF_P_", end="b_q$_DFF_P_", slack=0.1, stages=1):
    return PathReport(start, end, slack, 3.5,
                      stages, [PathStage("_1_", "Y", "inv_1", 0.07, 0.42)] * stages)


def asic_result(ports=4, queues=4, scheme="dsh", area=100.0, slack=0.1,
                library="lib_a", period=4.0, fmax=240.0):
    """A whole asic RunResult, as a summary.json of the flow would hold it."""
    sta = StaResult(worst_slack_ns=slack, tns_ns=min(slack, 0.0) * 10, hold_slack_ns=0.3,
                    timing_met=slack >= 0, fmax_mhz=fmax, critical_path=path(slack=slack),
                    reg2reg_path=path(slack=slack), reg2reg_fmax_mhz=fmax,
                    unconstrained_endpoints=0)
    asic = AsicResult(liberty="/x/lib_a.lib", library=library, period_ns=period,
                      target_mhz=round(1000 / period, 2), driving_cell="buf_2",
                      output_load=0.007, dont_use_removed=3, area_um2=area, cells=800,
                      flops=100, seq_area_um2=round(area * 0.4, 1),
                      comb_area_um2=round(area * 0.6, 1),
                      top_cells_by_area=[CellArea("dfxtp_1", 100, round(area * 0.4, 1))],
                      sta=sta)
    return RunResult(config=Config(ports, queues, scheme), mode="asic", date="2026-01-01",
                     steps_s={"yosys.total": 50.0, "sta": 3.0, "total": 54.0},
                     tools={"yosys": "Yosys 0.23", "sta": "2.0.17"},
                     rtl=RtlIdentity("/r/rtl/dsh_mmu.f", "0123456789abcdef", "abc1234", False),
                     abc_script="delay", generic=generic(), asic=asic, cache_key="k" * 40)
