#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs every test layer
# except those labelled long (DSH_LONG=1 includes them; none yet).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
build
cd "$BUILD"
if [ "${DSH_LONG:-0}" = 1 ]; then
  ctest --output-on-failure -j "$JOBS" "$@"
else
  ctest --output-on-failure -j "$JOBS" -LE long "$@"
fi
