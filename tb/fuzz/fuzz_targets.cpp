// SPDX-License-Identifier: Apache-2.0
#include "fuzz_targets.h"

#include <sstream>

#include "cli_common.h"
#include "params.h"
#include "vectors.h"

namespace dsh::fuzz {

bool vectors(const std::string& text) {
  // The 2x1 SIH chip of tb/tools/vectors, on the RTL widths of p2q1_sih_l2,
  // and the default chip: narrow and wide index and size checks.
  Config small;
  small.n_ports = 2;
  small.n_queues = 1;
  small.buffer_cells = 100;
  small.private_cells = 2;
  small.headroom_cells = 8;
  small.scheme = Scheme::SIH;
  const RtlWidths narrow{10, 4, 8};
  bool ok = true;
  std::vector<std::pair<Config, RtlWidths>> chips = {{small, narrow}, {Config{}, RtlWidths{}}};
  // A header block (vector format §2): its chip too, when it is one; a
  // format 3 one's rows through the format 3 reader (vector format §7).
  try {
    std::istringstream head(text);
    if (const auto h = read_vector_header(head, "fuzz.csv", VectorKind::Stimulus)) {
      h->config.validate();
      if (h->format == kLaneVectorFormat) {
        std::istringstream in(text);
        read_lane_stimulus(in, "fuzz.csv", h->config, RtlWidths{});
      } else {
        chips.emplace_back(h->config, RtlWidths{});
      }
    }
  } catch (const InputError&) {
    ok = false;
  }
  for (const auto& [c, w] : chips) {
    std::istringstream in(text);
    try {
      read_stimulus(in, "fuzz.csv", c, w);
    } catch (const InputError&) {
      ok = false;
    }
  }
  return ok;
}

bool scenario(const std::string& text) {
  try {
    sc::Params p;
    p.load_toml_text(text, "fuzz.toml");
    p.backend = Backend::Golden;  // the RTL variants built are the build's business, not the reader's
    p.validate();
    for (const auto& s : p.schemes) p.mmu_config(scheme_from_string(s));
    return true;
  } catch (const InputError&) {
    return false;
  }
}

bool config(const std::string& text) {
  try {
    Config c;
    load_config_text(text, "fuzz.toml", c);
    c.validate_ranges();
    return true;
  } catch (const InputError&) {
    return false;
  }
}

Target target_by_name(const std::string& name) {
  if (name == "vectors") return vectors;
  if (name == "scenario") return scenario;
  if (name == "config") return config;
  return nullptr;
}

}  // namespace dsh::fuzz
