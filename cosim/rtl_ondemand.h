// SPDX-License-Identifier: Apache-2.0
// RTL models on demand: a dsh_mmu parameter set that is not built into this
// binary is verilated and compiled at run time into a shared library, kept
// in a cache, and loaded (dlopen) by find_rtl_variant(). One library per
// cache key, so adding a parameter set never recompiles another.
//
// The cache key is the parameter set with its widths (ports, queues, scheme,
// thresh latency, CellW, SizeW, CntW), a hash of the content of every file
// that goes into the library (the RTL sources listed in rtl/dsh_mmu.f, the
// planted faults tb/faults/dsh_faults.sv, the .vlt control files,
// cosim/rtl_model.h, rtl_fields.h, rtl_observe.h, mmu_model.h,
// rtl_plugin_abi.h, rtl_plugin.cpp.in, golden/config.{h,cpp}, mmu.{h,cpp},
// mmu_invariants.cpp),
// the Verilator version and executable, the compiler and every flag. Its
// text is key.txt in the model's directory.
//
// The cache: $DSH_RTL_CACHE, else $XDG_CACHE_HOME/dsh_mmu/rtl, else
// ~/.cache/dsh_mmu/rtl. A model lives in <cache>/<name>_c<CellW>s<SizeW>n<CntW>-<hash>/
// (dsh_rtl.so, key.txt, build.log). A build holds flock() on <dir>.lock,
// builds in <dir>.tmp.<pid> and renames it into place, so concurrent
// requesters (ctest -j, dsh-sim's children) build once and the others
// reuse it; a failed build is left in <dir>.failed/ with its log.
// Deleting the cache directory clears it.
//
// The sources are read where resource_dir() says (common/resources.h):
// the checkout for a tool in its build tree, <prefix>/share/dsh_mmu for an
// installed one.
//
// Environment: DSH_RTL_CACHE (the place), DSH_RTL_CACHE_VERBOSE=1 (say
// "reused" on a cache hit), DSH_RTL_BUILD_JOBS (parallel compiles, default
// 2), DSH_VERILATOR (the verilator executable, default the one CMake found),
// DSH_RTL_DIR (another copy of rtl/, e.g. a mutant), DSH_SHARE_DIR (where
// the other sources are, resources.h).
#pragma once

#include <string>

#include "mmu_model.h"

namespace dsh {

// A model that could not be built or loaded; what() is one line naming what
// failed and, for a failed build, its log.
class RtlBuildError : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// The cache directory (not created).
std::string rtl_cache_dir();

// Whether dsh_mmu supports c's parameter set (ports 1..1024, queues 1..64,
// thresh_latency 1..3); if not, *why names the field and its range.
bool rtl_ondemand_supported(const Config& c, std::string* why = nullptr);

// The RTL model of c's parameter set with the default widths (RtlWidths{}):
// loaded from the cache, built into it first if absent (a progress line on
// stderr). c is validated against those widths before anything is built.
// Thread-safe; the reference stays valid for the life of the process, and
// a forked child reuses what its parent loaded. Throws ConfigError or
// RtlBuildError.
const RtlVariant& ondemand_rtl_variant(const Config& c);

}  // namespace dsh
