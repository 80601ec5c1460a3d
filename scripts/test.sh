#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The test command: installs what is missing, builds, runs every test layer
# except those labelled long; a selection that runs no test fails.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: scripts/test.sh [CTEST_ARGUMENT...]

Installs the Debian packages the project needs (apt-get, as root or through
sudo), configures and builds a Release build, then runs its tests with
ctest, every layer except the tests labelled `long`. Run it from anywhere;
it works on the checkout it belongs to. A selection that runs no test is an
error (ctest --no-tests=error): the command cannot pass empty.

Arguments go to ctest as they are, after the ones the script passes
(--output-on-failure -j JOBS -LE long --no-tests=error).

Environment:
  DSH_LONG=1         also run the tests labelled `long` (today the readers'
                     fuzz targets at 10^7 inputs each: ctest -N -L long)
  DSH_JOBS=N         parallel jobs for the build and ctest (default: nproc)
  DSH_BUILD_DIR=DIR  the build directory (default: build/ in the checkout)
  DSH_NO_BUILD=1     run the tests of the existing build: no package
                     check, no configure, no build

Examples:
  scripts/test.sh                         # everything but `long`
  scripts/test.sh -L lockstep             # one layer (labels: ctest -N --print-labels)
  scripts/test.sh -R 'tools/replay_.*'    # tests by name
  DSH_LONG=1 scripts/test.sh -L fuzz      # a layer with its long tests
  DSH_JOBS=2 DSH_BUILD_DIR=/tmp/b scripts/test.sh
USAGE
}

for a in "$@"; do
  case "$a" in -h|--help) usage; exit 0 ;; esac
done

source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
if [ "${DSH_NO_BUILD:-0}" != 1 ]; then
  ensure_deps
  build
fi
cd "$BUILD"
args=(--output-on-failure -j "$JOBS" --no-tests=error)
[ "${DSH_LONG:-0}" = 1 ] || args+=(-LE long)
ctest "${args[@]}" "$@"
