#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# RTL coverage (docs/design/verification.md): builds with DSH_COVERAGE=ON into
# build-cov (DSH_COVERAGE_BUILD_DIR), runs the default regression's RTL tests
# (labels rtl, lockstep, replay, tools; not long; not the planted faults'
# PlantedFault.*, LaneFault.* and faults/*, which run a broken RTL on
# purpose) with each
# test's coverage written to out/coverage/tests/, merges it and writes
# out/coverage/ (DSH_COVERAGE_OUT):
# merged.dat, cov.info and html/ (genhtml), report.md and summary.json;
# one-lane/: report.md and summary.json of the models with one lane and one
# dequeue slot alone (the coverage files without dsh_deq_route, which every
# chip with lanes or several dequeue slots has), their cover points those
# the models elaborate.
# Exits non-zero when a test fails or a named cover point is never hit.
# Extra arguments go to ctest (e.g. -R lockstep to run fewer tests);
# DSH_COVERAGE_VARIANTS restricts the RTL builds (a DSH_RTL_VARIANT_FILTER
# regex; empty: all of the regression's), DSH_BUILD_TARGETS the targets
# built (empty: all).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
BUILD="${DSH_COVERAGE_BUILD_DIR:-$ROOT/build-cov}"
OUT="${DSH_COVERAGE_OUT:-$ROOT/out/coverage}"
start=$(date +%s.%N)
ensure_deps
build -DDSH_COVERAGE=ON -DDSH_RTL_VARIANT_FILTER="${DSH_COVERAGE_VARIANTS:-}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
rm -rf "$OUT/tests" "$OUT/html"
mkdir -p "$OUT/tests"
echo "== running the RTL tests with coverage into $OUT/tests"
status=0
DSH_COVERAGE_DIR="$OUT/tests" ctest --test-dir "$BUILD" -j "$JOBS" -L 'rtl|lockstep|replay|tools' -LE long \
  -E 'PlantedFault|LaneFault|^faults/' --output-on-failure "$@" || status=$?
echo "== merging"
verilator_coverage --write "$OUT/merged.dat" "$OUT"/tests/*.dat
verilator_coverage --write-info "$OUT/cov.info" "$OUT/merged.dat"
genhtml --quiet --output-directory "$OUT/html" --title "dsh_mmu RTL coverage" "$OUT/cov.info" >"$OUT/genhtml.log" 2>&1 \
  || { cat "$OUT/genhtml.log"; exit 1; }
end=$(date +%s.%N)
python3 "$ROOT/scripts/coverage_report.py" --tests-dir "$OUT/tests" --merged "$OUT/merged.dat" --rtl "$ROOT/rtl" \
  --waivers "$ROOT/docs/design/coverage-waivers.toml" --out "$OUT" --seconds "$(python3 -c "print($end - $start)")" || status=1
ONE="$OUT/one-lane"
rm -rf "$ONE"
mkdir -p "$ONE/tests"
for f in "$OUT"/tests/*.dat; do grep -q 'dsh_deq_route\.sv' "$f" || ln -s "$f" "$ONE/tests/"; done
if compgen -G "$ONE/tests/*.dat" >/dev/null; then
  verilator_coverage --write "$ONE/merged.dat" "$ONE"/tests/*.dat
  python3 "$ROOT/scripts/coverage_report.py" --tests-dir "$ONE/tests" --merged "$ONE/merged.dat" --rtl "$ROOT/rtl" \
    --waivers "$ROOT/docs/design/coverage-waivers.toml" --out "$ONE" --elaborated-only || status=1
fi
echo "== $OUT/report.md, $OUT/summary.json, $OUT/html/index.html"
exit $status
