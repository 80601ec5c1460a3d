// SPDX-License-Identifier: Apache-2.0
// An on-demand RTL model's inputs and cache key (rtl_ondemand.h describes
// the key): the sources it is built from, verilator's command line and the
// plugin's source. rtl_ondemand.cpp builds, caches and loads by them.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "mmu_model.h"

namespace dsh::ondemand {

// The environment variable `name`, "" when unset.
std::string env(const char* name);
// The whole file; throws RtlBuildError naming it.
std::string read_file(const std::string& path);

// What the library is built from, in the order verilator reads it for the
// RTL: the control file first, then the manifest's sources.
struct Sources {
  std::string root;                   // resource_dir(): the checkout, or an installed share/dsh_mmu
  std::vector<std::string> rtl;       // absolute: the .vlt files, rtl/dsh_mmu.f's .sv files, the faults
  std::vector<std::string> cxx;       // absolute: golden sources compiled into the library
  std::vector<std::string> headers;   // absolute: hashed, not listed to verilator
};

Sources sources();

struct Request {
  unsigned ports, queues, latency;
  Scheme scheme;
  RtlWidths w;
  std::string name() const {  // as the built-in variants are named
    return "p" + std::to_string(ports) + "q" + std::to_string(queues) + (scheme == Scheme::DSH ? "_dsh" : "_sih") +
           "_l" + std::to_string(latency);
  }
  std::string describe() const {
    std::ostringstream m;
    m << ports << 'x' << queues << ' ' << to_string(scheme) << " L" << latency << " (CellW " << w.cell_w << " SizeW "
      << w.size_w << " CntW " << w.cnt_w << ')';
    return m.str();
  }
};

// Exported from the library: the factory and its key; everything else
// local (the Verilator runtime, the golden objects, the model).
extern const char* const kVersionScript;

// verilator's arguments; `tmp` is the build directory ("<tmp>" in the key).
std::vector<std::string> verilator_args(const Request& r, const Sources& s, const std::string& tmp);

struct Key {
  std::string text;  // key.txt
  std::string hash;  // 16 hex digits of text
  std::string dir;   // <name>_c<CellW>s<SizeW>n<CntW>-<hash>
};

Key make_key(const Request& r, const Sources& s);

// rtl_plugin.cpp.in with the request and the key filled in.
std::string plugin_source(const Request& r, const Sources& s, const Key& k);

}  // namespace dsh::ondemand
