# SPDX-License-Identifier: Apache-2.0
"""dsh_mmu's area and timing flow (Yosys, OpenSTA, nextpnr-ice40) as a package.

scripts/synth.py is the entry point; it only calls synth.cli.main. Modules:

  common   paths of the repository, exit codes, errors, small helpers
  files    output paths checked before a run (exit 2), atomic writes
  tools    finding, versioning and running external tools (process groups)
  config   Config (dsh_mmu's parameters) and FlowOptions (the run's knobs)
  record   the typed result of one run (RunResult and its parts), to and from
           summary.json
  rtl      the source manifest: its files and the identity of the RTL
  liberty  Liberty reader (cells, pins, units) and the filtered plain copy
  yosys    Yosys script generation, the Yosys driver and its report readers
  sta      OpenSTA script, driver and report_checks path reader
  fpga     the serialising iCE40 wrapper and the synth_ice40 + nextpnr flow
  flow     Run: one configuration through one mode, with the --reuse cache
  checks   check verdicts (latch, yosys-check, timing, area), recorded limits
  report   the printed summary, the sweep, report.md and report.csv
  cli      argument parsing, validation, main() and its exit codes

Only the Python 3 standard library is used.
"""
