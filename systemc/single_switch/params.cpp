// SPDX-License-Identifier: Apache-2.0
#include "params.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "input.h"
#include "switch_keys.h"
#include "switch_mmu.h"
#include "toml_text.h"

namespace dsh::sc {

void check_burst_pct(const std::string& what, double pct) {
  if (!(pct > 0 && pct <= kBurstPctMax))
    throw ConfigError(what + " = " + number_text(pct) + " is out of range (0, " + number_text(kBurstPctMax) +
                      "] (% of the buffer)");
}

Params::Params() : keys(s1_keys()) { apply(); }

void Params::set(const std::string& key, const std::string& value, const std::string& origin) {
  keys.set(key, value, origin);
  apply();
}

void Params::apply() {
  keys.fill(*this);
  keys.fill(mmu);
  wire = wire_keys(keys);  // derived: the flow-control mode, its times, DSCPs, captures
  if (name.empty()) name = keys.text("scenario.kind");  // the outputs' default name
}

namespace {

// The [[generation]] rows of a scenario file; each value strictly typed.
void load_generations(std::vector<Generation>& generations, const toml::node& node, const std::string& path) {
  const auto* rows = node.as_array();
  auto at = [&](const toml::node& n) { return path + ":" + std::to_string(n.source().begin.line) + ": "; };
  if (!rows || !rows->is_array_of_tables())
    throw ConfigError(at(node) + "'generation' must be a table array: [[generation]] rows");
  generations.clear();
  for (size_t i = 0; i < rows->size(); ++i) {
    const auto& row = *rows->get(i)->as_table();
    const std::string name = "generation[" + std::to_string(i) + "]";
    Generation g;
    bool has_rate = false, has_buf = false, has_cap = false;
    for (const auto& [k, v] : row) {
      const std::string key = std::string(k.str()), what = name + "." + key;
      auto num = [&](double lo) {
        if (v.is_boolean() || v.is_string() || !(v.is_integer() || v.is_floating_point()))
          throw ConfigError(at(v) + what + ": expected a number");
        const double d = v.is_integer() ? double(*v.value<int64_t>()) : *v.value<double>();
        if (!std::isfinite(d) || d <= lo || d > 1e12)
          throw ConfigError(at(v) + what + " = " + number_text(d) + " is out of range (" + number_text(lo) + ", 1e12]");
        return d;
      };
      auto str = [&] {
        if (!v.is_string()) throw ConfigError(at(v) + what + ": expected a string");
        return *v.value<std::string>();
      };
      if (key == "rate_gbps") g.rate_gbps = num(0), has_rate = true;
      else if (key == "chip_buffer_mb") g.chip_buffer_mb = num(0), has_buf = true;
      else if (key == "chip_capacity_gbps") g.chip_capacity_gbps = num(0), has_cap = true;
      else if (key == "chip") g.chip = str();
      else if (key == "source") g.source = str();
      else
        throw ConfigError(at(v) + "unknown key '" + what +
                          "' (known: rate_gbps chip_buffer_mb chip_capacity_gbps chip source)");
    }
    if (!has_rate || !has_buf || !has_cap)
      throw ConfigError(at(row) + name + " needs rate_gbps, chip_buffer_mb and chip_capacity_gbps");
    if (g.rate_gbps > 100000) throw ConfigError(at(row) + name + ".rate_gbps = " + number_text(g.rate_gbps) + " is out of range (0, 100000]");
    for (const auto& o : generations)
      if (o.label() == g.label()) throw ConfigError(at(row) + name + ".rate_gbps = " + g.label() + " appears twice");
    generations.push_back(g);
  }
}

}  // namespace

void Params::load_toml(const std::string& path) { load_toml_text(read_text_file("scenario", path), path); }

void Params::load_toml_text(const std::string& text, const std::string& path) {
  const toml::table t = parse_toml(text, path);
  if (const auto* g = t.get("generation")) load_generations(generations, *g, path);
  keys.load_toml_text(text, path, {"generation"});
  apply();
}

std::string Generation::label() const { return number_text(rate_gbps); }

std::vector<size_t> Params::selected_generations() const {
  std::vector<size_t> out;
  if (generation_rates.empty()) {
    for (size_t i = 0; i < generations.size(); ++i) out.push_back(i);
    return out;
  }
  for (double r : generation_rates) {
    size_t hit = generations.size();
    for (size_t i = 0; i < generations.size(); ++i)
      if (generations[i].rate_gbps == r) hit = i;
    if (hit == generations.size()) {
      std::string known;
      for (const auto& g : generations) known += " " + g.label();
      throw ConfigError("sweep.generations = " + number_text(r) + " is not a [[generation]] rate_gbps (the table has:" +
                        (known.empty() ? std::string(" none") : known) + ")");
    }
    if (std::find(out.begin(), out.end(), hit) == out.end()) out.push_back(hit);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Params Params::for_generation(size_t row) const {
  const Generation& g = generations.at(row);
  Params q = *this;
  q.generations.clear();
  // Buffer time kept: the chip's bytes per Gb/s of capacity, times this switch's capacity.
  const double bytes = g.chip_buffer_mb * 1048576.0 * double(mmu.n_ports) * g.rate_gbps / g.chip_capacity_gbps;
  const std::string origin = "[[generation]] rate_gbps = " + g.label();
  q.set("sweep.generations", "all", origin);
  q.set("link.rate_gbps", number_text(g.rate_gbps), origin);
  q.set("chip.mmu_clock_ghz", number_text(mmu_ghz_per_100gbps * g.rate_gbps / 100.0), origin);
  q.set("chip.buffer_cells", std::to_string(uint64_t(std::floor(bytes / double(cell_bytes)))), origin);
  return q;
}

std::string Params::dump() const {
  std::ostringstream m;
  m << keys.dump();
  for (size_t i = 0; i < generations.size(); ++i) {
    const Generation& g = generations[i];
    m << "generation[" << i << "] = rate_gbps=" << g.label() << " chip_buffer_mb=" << number_text(g.chip_buffer_mb)
      << " chip_capacity_gbps=" << number_text(g.chip_capacity_gbps) << " chip=" << quoted(g.chip) << '\n';
  }
  return m.str();
}

unsigned Params::port_of(int host) const {
  return host < 0 ? unsigned(int(mmu.n_ports) + host) : unsigned(host);
}

uint64_t Params::headroom_cells() const { return headroom_auto ? link_headroom_cells() : mmu.headroom_cells; }

Config Params::mmu_config(Scheme s) const {
  Config c = mmu;
  c.scheme = s;
  c.headroom_cells = headroom_cells();
  c.port_headroom_cells.clear();
  if (headroom_auto) {
    // eta from each port's own link (spec §1.3); a chip whose ports all
    // need the same keeps one eta.
    std::vector<uint64_t> eta(mmu.n_ports);
    for (unsigned p = 0; p < mmu.n_ports; ++p) eta[p] = link_headroom_cells(p);
    if (std::any_of(eta.begin(), eta.end(), [&](uint64_t e) { return e != c.headroom_cells; }))
      c.port_headroom_cells = std::move(eta);
  }
  return c;
}

double Params::rate_gbps(unsigned port) const {
  double r = link_gbps;
  for (const auto& [p, g] : port_rate_gbps)
    if (port_of(p) == port) r = g;
  return r;
}

uint64_t Params::burst_bytes(double pct) const {
  return uint64_t(std::llround(pct / 100.0 * double(buffer_bytes())));
}

void Params::validate() const {
  // The counters' planted fault has nothing to break in an RTL built
  // without them (Stats = 0); the model would refuse it at the first point.
  if (backend != Backend::Golden && rtl_fault == kRtlFaultCntBypass && !rtl_variant.empty())
    for (const auto& v : rtl_variants())
      if (rtl_variant == v.name && !v.stats)
        throw ConfigError("run.rtl_fault = " + std::to_string(rtl_fault) +
                          " (FaultCntBypass) is planted in the statistics counters; run.rtl_variant = '" +
                          rtl_variant + "' is built without them (Stats = 0)");
  if (!generations.empty() || !generation_rates.empty()) {
    // A generation sweep: every selected chip must make a valid experiment;
    // a scheme it cannot configure is reported per generation, not refused.
    if (kind != Kind::PfcAvoidance) throw ConfigError("[[generation]] rows need scenario.kind = pfc-avoidance");
    if (generations.empty()) throw ConfigError("sweep.generations is set but the scenario has no [[generation]] rows");
    size_t feasible = 0;
    std::string why;
    for (size_t i : selected_generations()) {
      const Params q = for_generation(i);
      try {
        q.validate_scenario();
      } catch (const ConfigError& e) {
        throw ConfigError("generation rate_gbps = " + generations[i].label() + ": " + e.what());
      }
      const auto bad = q.infeasible();
      feasible += q.schemes.size() - bad.size();
      for (const auto& [sch, reason] : bad) why += "; " + generations[i].label() + " Gb/s " + sch + ": " + reason;
    }
    if (feasible == 0) throw ConfigError("no point of this sweep can run (sweep.generations, sweep.schemes)" + why);
    return;
  }
  validate_scenario();
  const auto bad = infeasible();
  if (bad.size() == schemes.size()) {
    std::string m;
    for (const auto& [sch, why] : bad) m += (m.empty() ? "" : "; ") + sch + ": " + why;
    throw ConfigError(m);
  }
}

std::vector<std::pair<std::string, std::string>> Params::infeasible() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& s : schemes) {
    try {
      const Scheme sch = scheme_from_string(s);
      const Config c = mmu_config(sch);
      c.validate_ranges();  // the fields first, then the backend's widths
      c.validate(widths(sch));
    } catch (const ConfigError& e) {
      out.emplace_back(s, e.what());
    }
  }
  return out;
}

uint64_t Params::link_headroom_cells() const { return link_headroom_cells(link_gbps); }

uint64_t Params::link_headroom_cells(unsigned port) const { return link_headroom_cells(rate_gbps(port)); }

uint64_t Params::link_headroom_cells(double gbps) const {
  LinkParams l;
  l.link_gbps = gbps;
  l.prop_delay_ns = prop_delay_ns;
  l.mtu_bytes = mtu_bytes;
  l.processing_bytes = processing_bytes;
  l.cell_bytes = cell_bytes;
  l.pkt_bytes = packet_bytes;
  return net::auto_headroom_cells(l, mmu.n_ports, mmu.lanes, mmu_clock_ghz);
}

uint64_t Params::max_link_headroom_cells() const {
  uint64_t need = link_headroom_cells();
  for (unsigned p = 0; p < mmu.n_ports; ++p) need = std::max(need, link_headroom_cells(p));
  return need;
}

bool Params::lossy() const { return !headroom_auto && mmu.headroom_cells < max_link_headroom_cells(); }

void Params::validate_scenario() const {
  auto fail = [](const std::string& m) { throw ConfigError(m); };
  check_switch_keys(keys);
  if (backend == Backend::Golden && !rtl_variant.empty())
    keys.refuse("run.rtl_variant", "has no effect with run.backend = golden" + keys.where("run.backend"));
  const int np = int(mmu.n_ports);
  auto host_ok = [&](const char* key, int h) {
    const int p = h < 0 ? np + h : h;
    if (p < 0 || p >= np)
      fail(std::string(key) + " = " + std::to_string(h) + " is out of range 0.." + std::to_string(np - 1) +
           " (chip.n_ports = " + std::to_string(np) + "; or -" + std::to_string(np) + "..-1 counted from the last port)");
  };
  auto class_ok = [&](const char* key, unsigned c) {
    if (c >= mmu.n_queues)
      fail(std::string(key) + " = " + std::to_string(c) + " is not a lossless class 0.." +
           std::to_string(mmu.n_queues - 1) + " (chip.n_queues)");
  };
  for (int h : background_srcs) host_ok("traffic.background_srcs", h);
  for (int h : fanin_srcs) host_ok("traffic.fanin_srcs", h);
  for (int h : reverse_srcs) host_ok("traffic.reverse_srcs", h);
  host_ok("traffic.background_dst", background_dst);
  host_ok("traffic.fanin_dst", fanin_dst);
  class_ok("traffic.background_class", background_class);
  if (fanin_classes.empty()) fail("traffic.fanin_classes is empty");
  for (int c : fanin_classes) {
    if (c < 0) fail("traffic.fanin_classes = " + std::to_string(c) + " is not a lossless class 0.." +
                    std::to_string(mmu.n_queues - 1) + " (chip.n_queues)");
    class_ok("traffic.fanin_classes", unsigned(c));
  }
  for (const auto& [port, r] : port_rate_gbps) {
    host_ok("link.port_rate_gbps", port);
    if (!(r > 0)) fail("link.port_rate_gbps: rate of port " + std::to_string(port) + " must be > 0");
  }
  class_ok("traffic.reverse_class", reverse_class);
  if (fanin_srcs.empty()) fail("traffic.fanin_srcs is empty");
  if (!reverse_srcs.empty() && reverse_srcs.size() > fanin_srcs.size())
    fail("traffic.reverse_srcs has " + std::to_string(reverse_srcs.size()) + " hosts, more than traffic.fanin_srcs (" +
         std::to_string(fanin_srcs.size()) + ")");
  // A destination among its sources: a flow from a port to itself.
  for (int h : fanin_srcs)
    if (port_of(h) == port_of(fanin_dst))
      fail("traffic.fanin_srcs contains its destination traffic.fanin_dst = " + std::to_string(fanin_dst) + " (port " +
           std::to_string(port_of(fanin_dst)) + ")");
  for (int h : background_srcs)
    if (port_of(h) == port_of(background_dst))
      fail("traffic.background_srcs contains its destination traffic.background_dst = " +
           std::to_string(background_dst) + " (port " + std::to_string(port_of(background_dst)) + ")");
  for (size_t k = 0; k < reverse_srcs.size(); ++k)
    if (port_of(reverse_srcs[k]) == port_of(fanin_srcs[k]))
      fail("traffic.reverse_srcs[" + std::to_string(k) + "] = " + std::to_string(reverse_srcs[k]) +
           " sends to itself (its destination is traffic.fanin_srcs[" + std::to_string(k) + "])");
  // The fan-in burst must fit the packets' byte counter of a flow.
  if (kind == Kind::PfcAvoidance && double(buffer_bytes()) * kBurstPctMax / 100.0 > 1e15)
    fail("chip.buffer_cells * chip.cell_bytes = " + std::to_string(buffer_bytes()) + " B is too large (at most 1e14 B)");
  // Precondition: a headroom below what the link needs makes the lossless
  // classes lossy; refused unless the run asks for it (and is labelled so).
  if (lossy() && !allow_lossy) {
    const uint64_t need = max_link_headroom_cells();
    fail("chip.headroom_cells = " + std::to_string(mmu.headroom_cells) + " is below what the link needs, " +
         std::to_string(need) + " cells (2*(C*D_prop + MTU) + processing in " + std::to_string(packet_bytes) +
         " B packets; 'auto' gives it): the lossless classes would drop instead of pausing. Use 'auto' or at least " +
         std::to_string(need) + ", or --set run.allow_lossy=true to run it labelled lossy");
  }
}

RtlWidths Params::widths(Scheme s) const {
  if (backend == Backend::Golden) return RtlWidths{};
  if (rtl_variant.empty()) return widths_for(mmu_config(s), backend);
  for (const auto& v : rtl_variants())
    if (rtl_variant == v.name) return v.widths;
  throw ConfigError("run.rtl_variant = '" + rtl_variant + "' is not built");
}

AbsorptionModel Params::absorption_model() const {
  AbsorptionModel m;
  m.alpha = std::ldexp(1.0, mmu.alpha_log2);
  m.buffer = double(mmu.buffer_cells);
  m.eta = double(headroom_cells());
  m.private_per_queue = double(mmu.private_cells);
  m.n_ports = mmu.n_ports;
  m.n_queues = mmu.n_queues;
  m.congested = unsigned(background_srcs.size());
  m.bursty = unsigned(fanin_srcs.size() * fanin_classes.size());
  m.load = double(fanin_srcs.size());  // each fan-in queue: C/classes in, C/M out
  return m;
}

double pause_free_burst_k(const AbsorptionModel& m, Scheme s, double k) {
  const double a = m.alpha, n = m.congested, mm = m.bursty, r = m.load;
  const double num = a * model_shared(m, s) - (s == Scheme::DSH ? m.eta : 0.0);
  if (num <= 0 || r <= 1) return 0;
  // T' = -a*N*max(T', -k) - a*M*(R-1): the congested queues follow T (case 1)
  // while T falls no faster than they can drain, k.
  const double d = (a * mm * (r - 1) <= k * (1 + a * n)) ? num / ((1 + a * (n + mm)) * (r - 1))
                                                         : num / ((1 + a * n) * ((1 + a * mm) * (r - 1) - a * n * k));
  return mm * r * d + mm * r / (r - 1) * m.private_per_queue;
}

}  // namespace dsh::sc
