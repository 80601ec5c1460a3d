#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The fabric's speed on the 256-host leaf-spine (bench/leafspine256.toml):
# one run of the deadlock runner, then packets forwarded
# per wall second and per CPU second of that run (the forked run process;
# set-up of the flows included, the parent's key parsing not).
#   bench/fabric_speed.sh [DSH_SIM] [--set key=value ...]
# DSH_SIM defaults to build/systemc/dsh-sim of this checkout. Outputs go to
# a temporary directory, removed afterwards.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sim=${1:-$here/../build/systemc/dsh-sim}
[ $# -gt 0 ] && shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$sim" "$here/leafspine256.toml" -o "$out" --no-plot "$@" >/dev/null 2>&1 || true
csv="$out/deadlock.csv"
[ -s "$csv" ] || { echo "fabric_speed: no $csv (did the run fail? run $sim $here/leafspine256.toml by hand)" >&2; exit 1; }
# columns: scheme,cc,load,seed,deadlocked,onset_ms,detected_ms,sim_ms,lossless_drops,pause_frames,flows,flows_done,
#          packets_forwarded,cpu_s,wall_s,cycle,error
awk -F, 'NR == 2 {
  printf "256 hosts, load 0.9, %s ms simulated: %d packets forwarded, %.2f s wall, %.2f s CPU\n", $8, $13, $15, $14
  printf "%.3f M packets per wall second, %.3f M packets per CPU second\n", $13 / $15 / 1e6, $13 / $14 / 1e6
}' "$csv"
