#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: installs what is missing, builds, then runs the paper's PFC
# avoidance scenario (Fig. 11) in the SystemC switch model with the RTL MMU in
# lockstep with the golden model: both schemes, a sweep of burst sizes.
# Arguments go to dsh-sim (try --help), e.g. --set chip.alpha_log2=-3.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
build
cd "$ROOT"
exec "$BUILD/systemc/dsh-sim" scenarios/pfc-avoidance.toml "$@"
