// SPDX-License-Identifier: Apache-2.0
// The one function an on-demand RTL model library exports (rtl_ondemand.cpp
// builds the library from rtl_plugin.cpp.in and loads it with dlopen). Only
// C types cross: the configuration as text, the options as plain fields, an error
// message into the caller's buffer. What comes back is an MmuModel whose
// vtable both sides compile from the same mmu_model.h; everything else in
// the library (its own Verilator runtime, the golden Config::validate) is
// hidden and stays private to it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dsh {
class MmuModel;
}

extern "C" {

// Bumped whenever this struct or the meaning of a field changes.
#define DSH_RTL_PLUGIN_ABI 3

struct dsh_rtl_args {
  uint32_t abi;  // DSH_RTL_PLUGIN_ABI of the caller
  // dsh::Config as Config::describe() writes it (name=value of every field
  // of config_fields(), golden/config.h), read back with Config::from_text.
  const char* config;
  // dsh::RtlOptions.
  const char* fst_path;  // empty or null: no trace
  uint32_t fault;
  uint64_t trace_from, trace_to;
  // Out: on failure (null returned), one line of what went wrong.
  char* error;
  size_t error_size;
};

// A new model the caller owns (delete through MmuModel's virtual
// destructor), or null with args->error filled.
typedef dsh::MmuModel* (*dsh_rtl_make_fn)(struct dsh_rtl_args* args);
#define DSH_RTL_MAKE_SYMBOL "dsh_rtl_make"
// The cache key's hash the library was built for (a check against a
// directory renamed by hand).
typedef const char* (*dsh_rtl_key_fn)(void);
#define DSH_RTL_KEY_SYMBOL "dsh_rtl_key"
}
