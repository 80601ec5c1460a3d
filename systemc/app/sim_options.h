// SPDX-License-Identifier: Apache-2.0
// dsh-sim's command line, parsed once (dsh_sim.cpp) and handed to the
// runner of the scenario's kind: the single switch (dsh_sim.cpp) or the
// network (net_main.cpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace dsh::sc {

struct SimOptions {
  std::string scenario;  // "" = the built-in S1 (pfc-avoidance defaults)
  std::vector<std::pair<std::string, std::string>> sets;  // --set, -b, -j, --allow-lossy as (key, value) with origin below
  std::vector<std::string> set_origins;
  std::string out_dir, point, trace, pcap, merge_dir, python, plot_script, link_plot_script;
  bool has_out = false, has_point = false, has_trace = false, has_pcap = false, has_merge = false;
  bool list = false, keys = false, list_points = false, no_plot = false, rerun = false, reproducible = false;
  bool full = false;
};

}  // namespace dsh::sc
