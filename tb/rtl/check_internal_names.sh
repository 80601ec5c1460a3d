#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# No C++ file but cosim/rtl_observe.h names a Verilator-internal signal
# (dsh_mmu__DOT__...): a renamed register is then mended in one place.
cd "${1:-.}" || exit 2
found=$(grep -rl --exclude-dir='build*' --exclude-dir=.git --exclude-dir=out \
          --include='*.h' --include='*.cpp' --include='*.in' '__DOT__' . | grep -v '^\./cosim/rtl_observe\.h$')
if [ -n "$found" ]; then
  echo "Verilator-internal signal names outside cosim/rtl_observe.h:"
  echo "$found"
  exit 1
fi
grep -q '__DOT__' cosim/rtl_observe.h || { echo "cosim/rtl_observe.h names no signal: wrong tree?"; exit 1; }
echo "ok: only cosim/rtl_observe.h names Verilator-internal signals"
