// SPDX-License-Identifier: Apache-2.0
// The single-switch scenarios' keys: each declared once, bound to its
// Params field (params.h).
#include <algorithm>
#include <cmath>
#include <sstream>

#include "input.h"
#include "params.h"
#include "switch_keys.h"

namespace dsh::sc {

namespace {

// Strict numbers (common/input.h): what names the key in the message.
double to_num(const std::string& what, const std::string& v, double lo = -1e300, double hi = 1e300,
              bool lo_open = false) {
  return parse_real(what, v, lo, hi, lo_open);
}

long long to_int(const std::string& what, const std::string& v, long long lo = -(1LL << 31),
                 long long hi = (1LL << 31) - 1) {
  return parse_int(what, v, lo, hi);
}

std::vector<std::pair<int, double>> parse_port_rates(const std::string& v) {
  std::vector<std::pair<int, double>> out;
  for (const auto& item : list_items(v)) {
    const auto c = item.find(':');
    if (c == std::string::npos) throw ConfigError("link.port_rate_gbps = " + quoted(v) + ": " + quoted(item) + " is not port:gbps");
    out.emplace_back(int(parse_int("link.port_rate_gbps port", trim_item(item.substr(0, c)), -(1LL << 31), (1LL << 31) - 1)),
                     parse_real("link.port_rate_gbps rate", trim_item(item.substr(c + 1)), 0, 100000, true));
  }
  return out;
}

std::vector<std::string> parse_schemes(const std::string& v) {
  std::vector<std::string> out;
  for (const auto& s : list_items(v)) {
    const std::string n = lower_name(scheme_from_string(s));
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

Kind parse_kind(const std::string& v) {
  if (v != "pfc-avoidance" && v != "saturate")
    throw ConfigError("not a single-switch scenario (pfc-avoidance | saturate)");
  return v == "saturate" ? Kind::Saturate : Kind::PfcAvoidance;
}

// The shared keys (switch_keys.h) that fill Params and its chip.
void bind_switch_keys(KeyStore& k) {
  declare_switch_keys(k);
  k.fills("scenario.name", &Params::name);
  k.fills("scenario.kind", &Params::kind, parse_kind);
  k.fills("chip.headroom_cells", &Params::headroom_auto, [](const std::string& v) { return v == "auto"; });
  k.fills("chip.cell_bytes", &Params::cell_bytes);
  k.fills("chip.mmu_clock_ghz", &Params::mmu_clock_ghz);
  k.fills("link.rate_gbps", &Params::link_gbps);
  k.fills("link.prop_delay_ns", &Params::prop_delay_ns);
  k.fills("link.mtu_bytes", &Params::mtu_bytes);
  k.fills("link.processing_bytes", &Params::processing_bytes);
  k.fills("link.pause_frame_bytes", &Params::pause_frame_bytes);
  k.fills("switch.dwrr_quantum_bytes", &Params::dwrr_quantum_bytes);
  k.fills("traffic.packet_bytes", &Params::packet_bytes);
  k.fills("run.backend", &Params::backend, backend_from_string);
  k.fills("run.kernel", &Params::kernel, [](const std::string& v) { return net::parse_kernel(v, "run.kernel"); });
  k.fills("run.jobs", &Params::jobs);
  k.fills("run.full_compare", &Params::full_compare);
  k.fills("run.rtl_fault", &Params::rtl_fault);
}

// The keys of the single-switch scenarios (pfc-avoidance, saturate) beside
// the shared ones: each declared here once, with the member it fills.
}  // namespace

KeyStore s1_keys() {
  KeyStore k;
  bind_switch_keys(k);
  k.bind(list_key("link.port_rate_gbps", "", "per-port link rate exceptions, port:gbps list (negative port from the end)",
                  [](const std::string& v) { parse_port_rates(v); }),
         &Params::port_rate_gbps, parse_port_rates);
  auto hosts = [&](const std::string& name, const std::string& def, const std::string& help, std::vector<int> Params::*m) {
    k.bind(list_key(name, def, help, [name](const std::string& v) { parse_int_list(v, name); }), m,
           [name](const std::string& v) { return parse_int_list(v, name); });
  };
  const int64_t int_lo = -(1LL << 31), int_hi = (1LL << 31) - 1;
  hosts("traffic.background_srcs", "0,1", "hosts of the endless background flows, e.g. 0,1 or 0..1", &Params::background_srcs);
  k.bind(int_key("traffic.background_dst", int_lo, int_hi, "-1", "their destination; negative counts from the last port"),
         &Params::background_dst);
  k.bind(uint_key("traffic.background_class", 0, 63, "1", "their class"), &Params::background_class);
  hosts("traffic.fanin_srcs", "2..17", "hosts of the fan-in (bursty) flows, e.g. 2..17", &Params::fanin_srcs);
  k.bind(int_key("traffic.fanin_dst", int_lo, int_hi, "-2", "their destination; negative counts from the last port"),
         &Params::fanin_dst);
  hosts("traffic.fanin_classes", "0", "classes each fan-in host sends on (one flow each, sharing the burst)",
        &Params::fanin_classes);
  hosts("traffic.reverse_srcs", "", "hosts sending endlessly to fanin_srcs[k] (keeps the reverse links busy); empty for S1",
        &Params::reverse_srcs);
  k.bind(uint_key("traffic.reverse_class", 0, 63, "1", "their class"), &Params::reverse_class);
  k.bind(real_key("traffic.settle_us", 0, 1e7, false, "200", "pfc-avoidance: earliest fan-in start"), &Params::settle_us);
  k.bind(real_key("traffic.settle_after_pause_us", 0, 1e7, false, "50",
                  "pfc-avoidance: the fan-in starts no earlier than this after every background queue paused once"),
         &Params::settle_after_pause_us);
  k.bind(real_key("traffic.start_stagger_ns", 0, 1e9, false, "0", "host h starts its flows h * this later"),
         &Params::start_stagger_ns);
  k.bind(real_key("traffic.run_us", 0, 1e7, true, "300", "saturate: simulated time per point"), &Params::run_us);
  k.bind(real_key("traffic.max_run_us", 0, 1e7, true, "5000", "hard stop of any point"), &Params::max_run_us);
  k.bind(list_key("sweep.schemes", "dsh,sih", "list of dsh, sih", [](const std::string& v) {
           if (parse_schemes(v).empty()) throw ConfigError("sweep.schemes = " + quoted(v) + ": expected a list of dsh, sih");
         }),
         &Params::schemes, parse_schemes);
  k.bind(list_key("sweep.burst_pct", "5:60:5", "total fan-in burst, % of the buffer: list, or lo:hi:step",
                  [](const std::string& v) {
                    const auto b = parse_num_list(v, "sweep.burst_pct");
                    if (b.empty()) throw ConfigError("sweep.burst_pct = " + quoted(v) + ": empty");
                    for (double x : b) check_burst_pct("sweep.burst_pct", x);
                  }),
         &Params::burst_pct, [](const std::string& v) { return parse_num_list(v); });
  k.bind(uint_key("sweep.refine_steps", 0, 30, "5", "bisections between the last pause-free and first paused point"),
         &Params::refine_steps);
  k.bind(list_key("sweep.generations", "all", "[[generation]] rows to run, by rate_gbps: all, or a list (e.g. 100,400)",
                  [](const std::string& v) {
                    if (trim_item(v) != "all") parse_num_list(v, "sweep.generations");
                  }),
         &Params::generation_rates,
         [](const std::string& v) { return trim_item(v) == "all" ? std::vector<double>{} : parse_num_list(v); });
  k.bind(real_key("sweep.mmu_ghz_per_100gbps", 0, 1000, true, "0.08",
                  "generation sweeps: each generation's chip.mmu_clock_ghz = this * rate_gbps / 100"),
         &Params::mmu_ghz_per_100gbps);
  k.bind(bool_key("run.allow_lossy", "false",
                  "true: run a chip whose headroom is below what the link needs (chip.headroom_cells), its outputs "
                  "labelled lossy"),
         &Params::allow_lossy);
  k.bind(text_key("run.rtl_variant", "", "rtl/lockstep: RTL parameter set by name (default: the one matching the chip)"),
         &Params::rtl_variant);
  return k;
}

std::vector<int> parse_int_list(const std::string& s, const std::string& what) {
  std::vector<int> out;
  for (const auto& item : list_items(s)) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      out.push_back(int(to_int(what, item)));
      continue;
    }
    const long long a = to_int(what, trim_item(item.substr(0, dots))), b = to_int(what, trim_item(item.substr(dots + 2)));
    if (b < a || b - a > 100000)
      throw ConfigError(what + " = " + quoted(item) + ": a range a..b needs a <= b and at most 100000 values");
    for (long long i = a; i <= b; ++i) out.push_back(int(i));
    if (out.size() > 100000) throw ConfigError(what + ": more than 100000 values");
  }
  return out;
}

std::vector<double> parse_num_list(const std::string& s, const std::string& what) {
  std::vector<double> out;
  for (const auto& item : list_items(s)) {
    if (std::count(item.begin(), item.end(), ':') != 2) {
      out.push_back(to_num(what, item));
      continue;
    }
    const auto c1 = item.find(':'), c2 = item.rfind(':');
    const double lo = to_num(what, item.substr(0, c1)), hi = to_num(what, item.substr(c1 + 1, c2 - c1 - 1)),
                 step = to_num(what, item.substr(c2 + 1));
    if (step <= 0 || hi < lo || (hi - lo) / step > 10000)
      throw ConfigError(what + " = " + quoted(item) + ": a range lo:hi:step needs lo <= hi, step > 0 and at most 10000 steps");
    for (double x = lo; x <= hi + step * 1e-9; x += step) out.push_back(std::round(x * 1e9) / 1e9);
    if (out.size() > 10000) throw ConfigError(what + ": more than 10000 values");
  }
  return out;
}

}  // namespace dsh::sc
