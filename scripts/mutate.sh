#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation testing of rtl/ against the regression (docs/design/mutation.md):
#   scripts/mutate.sh                 every mutant of tb/mutate/mutants.txt
#   scripts/mutate.sh --only 4        one mutant
#   scripts/mutate.sh --no-formal     tiers 1-2 only (lockstep + read port, module tests)
# Needs build/tools/dsh-run and build/tb/lockstep/lockstep_read_port. One
# core throughout (mutants one at a time, DSH_RTL_BUILD_JOBS=1 unless set).
# Results in out/mutate/. Options: scripts/mutate.py --help.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$ROOT/scripts/mutate.py" "$@"
