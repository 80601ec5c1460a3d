#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sanitizer test command: a second build in build-asan with
# AddressSanitizer + UndefinedBehaviorSanitizer (Debian's gcc) on every
# target, the Verilated model included, with one small RTL parameter set
# (p2q1_sih_l2); then the golden, lockstep, tools, bad-input, fuzz and SystemC
# tests that run on it. Any sanitizer report fails its test (halt_on_error).
#
# SystemC: Debian's libsystemc switches thread stacks with QuickThreads, which
# ASan does not follow; ASan's fake stacks for use-after-return would be
# wrong across the switches, so detect_stack_use_after_return=0 (all other
# ASan checks stay on, and the library itself is not instrumented).
#
#   scripts/test-sanitize.sh              # sanitize label, fuzzers at 10^5 inputs
#   DSH_LONG=1 scripts/test-sanitize.sh   # also the long fuzz runs (10^7 inputs per reader)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_deps
BUILD="${DSH_ASAN_BUILD_DIR:-$ROOT/build-asan}"
# Only what the sanitize-labelled tests run (the RTL module tests, lint and
# the benchmark are not built here).
TARGETS=(dsh-run dsh-replay dsh-sim dsh-fuzz test_golden test_validation test_systemc)
echo "== configuring and building ${TARGETS[*]} in $BUILD ($JOBS jobs, ASan + UBSan)"
mkdir -p "$BUILD"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DDSH_SANITIZE=ON \
  -DDSH_RTL_VARIANT_FILTER=p2q1_sih_l2 >"$BUILD/configure.log" 2>&1 || { cat "$BUILD/configure.log"; exit 1; }
cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}" || {
  echo "== build failed; building once more (Verilator's file lists may have changed)"
  cmake --build "$BUILD" -j "$JOBS" --target "${TARGETS[@]}"; }
cd "$BUILD"
export ASAN_OPTIONS="detect_stack_use_after_return=0:detect_leaks=1:halt_on_error=1:abort_on_error=0"
# One documented suppression, in Verilator's runtime header (scripts/ubsan.supp).
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$ROOT/scripts/ubsan.supp"
# The switch-model tests on the golden MMU (this build has no 32x7 RTL; the
# Verilated p2q1 model runs under the sanitizers in the tools and bad-input
# tests, in lockstep). Left out: the tests that need another parameter set.
export DSH_TEST_BACKEND=golden
skip='^(systemc/Lockstep\.|tools/run_short_lockstep$)'
if [ "${DSH_LONG:-0}" = 1 ]; then
  ctest --output-on-failure -j "$JOBS" -L sanitize -E "$skip" "$@"
else
  ctest --output-on-failure -j "$JOBS" -L sanitize -LE long -E "$skip" "$@"
fi
