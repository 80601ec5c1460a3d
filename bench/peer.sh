#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The peer benchmark: the fabric and ns-3 on one
# leaf-spine, one table, the ratio from this one run. bench/README.md.
set -euo pipefail

usage() {
  cat <<'USAGE'
usage: bench/peer.sh [--window-ms MS] [--seed N] [--out DIR] [SCENARIO.toml]

Installs what is missing (the project's Debian packages and libns3-dev, as
root or through sudo), configures the build and builds dsh-sim and
ns3-leafspine, then runs bench/peer/peer.py: the fabric (dsh-sim) and
ns-3 3.37 on the same leaf-spine, flows and window, each as its own
process, and prints packets forwarded, wall and CPU seconds, packets per
wall second of each, the ratio fabric / ns-3, and what the two models do
not share. Default scenario: bench/peer/leafspine256.toml (256 hosts,
load 0.9, 0.5 ms: ns-3 takes about 110 CPU s, 5.5 min wall on a shared 2-core
machine; the fabric a few seconds).

Environment:
  DSH_JOBS=N         build jobs (default: nproc)
  DSH_BUILD_DIR=DIR  the build directory (default: build/ in the checkout)
  DSH_NO_BUILD=1     use the existing build: no package check, no configure, no build
USAGE
}

for a in "$@"; do
  case "$a" in -h|--help) usage; exit 0 ;; esac
done

source "$(dirname "${BASH_SOURCE[0]}")/../scripts/common.sh"
scenario="$ROOT/bench/peer/leafspine256.toml"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --window-ms|--seed|--out) args+=("$1" "$2"); shift 2 ;;
    *.toml) scenario="$1"; shift ;;
    *) echo "bench/peer.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
  esac
done
if [ "${DSH_NO_BUILD:-0}" != 1 ]; then
  ensure_deps
  ensure_packages libns3-dev
  mkdir -p "$BUILD"
  echo "== configuring $BUILD; building dsh-sim and ns3-leafspine ($JOBS jobs)"
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >"$BUILD/configure.log" 2>&1 || {
    cat "$BUILD/configure.log"; exit 1; }
  grep -q "building bench/peer's ns3-leafspine" "$BUILD/configure.log" || {
    grep "ns-3" "$BUILD/configure.log" >&2; echo "bench/peer.sh: CMake did not find ns-3" >&2; exit 1; }
  cmake --build "$BUILD" -j "$JOBS" --target dsh-sim ns3-leafspine
fi
exec python3 "$ROOT/bench/peer/peer.py" --fabric "$BUILD/systemc/dsh-sim" --ns3 "$BUILD/bench/ns3-leafspine" \
  "${args[@]}" "$scenario"
