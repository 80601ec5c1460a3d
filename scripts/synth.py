#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Area and timing flow of dsh_mmu (Yosys, OpenSTA, nextpnr-ice40): the
entry point. The flow is the package scripts/synth/ (see its __init__.py);
`scripts/synth.py --help` lists the modes and options."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth.cli import main  # noqa: E402  (the package beside this file)

if __name__ == "__main__":
    sys.exit(main())
