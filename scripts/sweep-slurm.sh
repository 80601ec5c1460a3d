#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# A dsh-sim sweep as a Slurm job array: one array task per point, then one
# merge job. Run from the repository root on the cluster's login node (the
# repository and build/ on a file system every node sees):
#
#   scripts/sweep-slurm.sh scenarios/link-speeds.toml [OUT] [--set key=value ...]
#
# It lists the points (dsh-sim SCENARIO --list-points > OUT/points.txt),
# submits `sbatch --array=1-N` whose task k runs line k (SLURM_ARRAY_TASK_ID)
# into OUT/points/, and a merge job that starts when every task has ended
# (afterany: a failed task leaves its point missing, and the merge then says
# which). Resubmitting the same command re-runs only the points without a
# valid result file. Extra arguments go to every dsh-sim call (S3 at the
# paper's scale: scripts/sweep-slurm.sh scenarios/deadlock.toml out/s3 --full).
# DSH_SLURM_TIME sets each point's time limit (default 00:30:00).
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,15p' "$0"; exit 2; }
SCENARIO=$1; shift
OUT=${1:-out/$(basename "$SCENARIO" .toml)-slurm}
[ $# -ge 1 ] && shift
SIM=${DSH_SIM:-$PWD/build/systemc/dsh-sim}
mkdir -p "$OUT/points" "$OUT/logs"
"$SIM" "$SCENARIO" "$@" --list-points > "$OUT/points.txt"
N=$(wc -l < "$OUT/points.txt")
[ "$N" -gt 0 ] || { echo "no points"; exit 1; }
EXTRA=$(printf ' %q' "$@")
ARRAY=$(sbatch --parsable --array=1-"$N" --job-name=dsh-points --output="$OUT/logs/%A_%a.log" \
  --ntasks=1 --cpus-per-task=1 --time="${DSH_SLURM_TIME:-00:30:00}" \
  --wrap="ID=\$(sed -n \"\${SLURM_ARRAY_TASK_ID}p\" '$OUT/points.txt'); \
exec '$SIM' '$SCENARIO'$EXTRA --point \"\$ID\" -o '$OUT/points'")
MERGE=$(sbatch --parsable --dependency=afterany:"$ARRAY" --job-name=dsh-merge --output="$OUT/logs/merge.log" \
  --ntasks=1 --cpus-per-task=2 --time=00:30:00 \
  --wrap="exec '$SIM' '$SCENARIO'$EXTRA -j 2 --merge '$OUT/points' -o '$OUT'")
echo "submitted $N points as array job $ARRAY and the merge as job $MERGE; outputs in $OUT"
