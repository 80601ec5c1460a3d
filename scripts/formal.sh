#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Formal checks of dsh_mmu and the blocks beside it with Yosys and yosys-smtbmc (docs/design/formal.md):
#   scripts/formal.sh                  all configurations, BMC depth 20, covers
#   scripts/formal.sh --quick          one small configuration per scheme
#   scripts/formal.sh --fault N        plant fault N (1..11): fails with a counterexample (FST)
#   scripts/formal.sh --wire           the frame-mode blocks (rtl/dsh_wire.f) only
# Other options: scripts/formal.py --help. Results in out/formal/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
exec python3 "$ROOT/scripts/formal.py" "$@"
