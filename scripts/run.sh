#!/usr/bin/env bash
# The main job: installs what is missing, builds, then runs constrained-random
# traffic through the RTL in lockstep with the golden model on the paper's
# 32 x 7 DSH chip (arguments go to dsh-run; try --help).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
build
cd "$ROOT"
exec "$BUILD/tools/dsh-run" --fst out/dsh_run.fst "$@"
