// The one function an on-demand RTL model library exports (rtl_ondemand.cpp
// builds the library from rtl_plugin.cpp.in and loads it with dlopen). Only
// C types cross: the configuration and options as plain fields, an error
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
#define DSH_RTL_PLUGIN_ABI 2

struct dsh_rtl_args {
  uint32_t abi;  // DSH_RTL_PLUGIN_ABI of the caller
  // dsh::Config, field by field.
  uint32_t n_ports, n_queues;
  uint64_t buffer_cells, private_cells, headroom_cells;
  const uint64_t* port_headroom_cells;  // n_port_headroom entries (0: none)
  uint32_t n_port_headroom;
  int32_t alpha_log2;
  uint32_t port_mult_log2;
  uint64_t delta_q, delta_p;
  uint32_t dsh;  // 1 DSH, 0 SIH
  uint32_t thresh_latency;
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
