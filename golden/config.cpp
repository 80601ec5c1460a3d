// SPDX-License-Identifier: Apache-2.0
#include "config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <type_traits>

namespace dsh {

const char* to_string(Scheme s) { return s == Scheme::SIH ? "SIH" : "DSH"; }

const char* lower_name(Scheme s) { return s == Scheme::SIH ? "sih" : "dsh"; }

Scheme scheme_from_string(const std::string& s) {
  std::string u = s;
  std::transform(u.begin(), u.end(), u.begin(), [](unsigned char c) { return std::toupper(c); });
  if (u == "SIH") return Scheme::SIH;
  if (u == "DSH") return Scheme::DSH;
  throw ConfigError("scheme = " + quoted(s) + ": must be SIH or DSH");
}

int64_t Config::private_total_cells() const {
  return int64_t(n_ports) * n_queues * int64_t(private_cells);
}

int64_t Config::headroom_total_cells() const {
  // One eta per port (DSH) or per queue of the port (SIH), summed over ports.
  int64_t per_port_sum = 0;
  if (port_headroom_cells.empty()) per_port_sum = int64_t(n_ports) * int64_t(headroom_cells);
  else
    for (uint64_t eta : port_headroom_cells) per_port_sum += int64_t(eta);
  return scheme == Scheme::SIH ? int64_t(n_queues) * per_port_sum : per_port_sum;
}

int64_t Config::shared_cells() const {
  return int64_t(buffer_cells) - private_total_cells() - headroom_total_cells();
}

namespace {

template <typename T>
void check_range(const char* field, T v, T lo, T hi, const char* why = nullptr) {
  if (v < lo || v > hi) {
    std::ostringstream m;
    m << field << " = " << v << " is out of range " << lo << ".." << hi;
    if (why) m << " (" << why << ")";
    throw ConfigError(m.str());
  }
}

}  // namespace

void Config::validate(const RtlWidths& w) const {
  if (w.cell_w < 4 || w.cell_w > 40) throw ConfigError("cell_w = " + std::to_string(w.cell_w) + " is out of range 4..40");
  const uint64_t cell_max = (uint64_t(1) << w.cell_w) - 1;
  const char* fits = "must fit the RTL counter width CellW";
  // Each field's fixed range from the table; a size must also fit CellW.
  for (const auto& f : config_fields()) {
    if (f.kind != ConfigField::Kind::Integer) continue;
    const bool cells = std::string(f.unit) == "cells";
    const int64_t v = f.num(*this);
    const int64_t hi = cells ? std::min<int64_t>(f.hi, int64_t(cell_max)) : f.hi;
    check_range<int64_t>(f.name, v, f.lo, hi, cells ? fits : nullptr);
  }
  if (!port_headroom_cells.empty()) {
    if (port_headroom_cells.size() != n_ports)
      throw ConfigError("port_headroom_cells has " + std::to_string(port_headroom_cells.size()) +
                        " entries: must have one per port, n_ports = " + std::to_string(n_ports));
    for (size_t p = 0; p < port_headroom_cells.size(); ++p)
      if (port_headroom_cells[p] > cell_max)
        throw ConfigError("port_headroom_cells of port " + std::to_string(p) + " = " +
                          std::to_string(port_headroom_cells[p]) + " is out of range 0.." + std::to_string(cell_max) +
                          " (" + fits + ")");
  }
  if (lanes & (lanes - 1))
    throw ConfigError("lanes = " + std::to_string(lanes) + " is not a power of two (1, 2, 4, ..., " +
                      std::to_string(kLanesMax) + "; spec §4.7)");
  if (lanes > n_ports)
    throw ConfigError("lanes = " + std::to_string(lanes) + " exceeds n_ports = " + std::to_string(n_ports) +
                      " (each lane serves at least one port; spec §4.7)");
  if (shared_cells() <= 0) {
    std::ostringstream m;
    m << "buffer_cells = " << buffer_cells << " leaves no shared buffer under " << to_string(scheme)
      << ": must exceed private " << private_total_cells() << " + "
      << (scheme == Scheme::SIH ? "headroom " : "insurance ") << headroom_total_cells()
      << " = " << private_total_cells() + headroom_total_cells() << " cells";
    throw ConfigError(m.str());
  }
}

void Config::validate_ranges() const { validate(RtlWidths{40, 8, 32}); }

namespace {
// Sizes fit the widest RTL counter (CellW 40); validate() checks the
// backend's own width.
constexpr int64_t kCellsMax = (int64_t(1) << 40) - 1;
using K = ConfigField::Kind;
ConfigField implied(ConfigField f) {
  f.implied_at_default = true;
  return f;
}
template <typename T>
int64_t saturated(T v) {
  if constexpr (std::is_signed_v<T>) return int64_t(v);
  else return v > uint64_t(INT64_MAX) ? INT64_MAX : int64_t(v);
}
}  // namespace

const std::vector<ConfigField>& config_fields() {
  // In spec §1.2's order (describe(), the vector headers, --help).
#define DSH_INT_FIELD(f, lo, hi, unit, spec, help)                                             \
  ConfigField{#f, K::Integer, lo, hi, unit, spec, help,                                        \
              [](const Config& c) { return std::to_string(c.f); },                             \
              [](Config& c, int64_t v) { c.f = decltype(c.f)(v); },                           \
              [](const Config& c) { return saturated(c.f); }}
  static const std::vector<ConfigField> fields = {
      DSH_INT_FIELD(n_ports, 1, 1024, "", "spec §1.2", "N_p, ports"),
      DSH_INT_FIELD(n_queues, 1, 64, "", "spec §1.2", "N_q, lossless queues per port"),
      DSH_INT_FIELD(buffer_cells, 1, kCellsMax, "cells", "spec §1.2", "B, the lossless buffer"),
      DSH_INT_FIELD(private_cells, 0, kCellsMax, "cells", "spec §1.2", "phi, private buffer per queue"),
      DSH_INT_FIELD(headroom_cells, 0, kCellsMax, "cells", "spec §1.3",
                    "eta of every port: per queue (SIH) or the port's insurance (DSH)"),
      {"port_headroom_cells", K::PortList, 0, kCellsMax, "cells", "spec §1.2",
       "eta of each port, n_ports entries: values or COUNTxVALUE runs, comma-separated (\"24x228,8x828\"); "
       "overrides headroom_cells",
       [](const Config& c) { return port_headroom_text(c.port_headroom_cells); }, nullptr, nullptr},
      DSH_INT_FIELD(alpha_log2, kAlphaLog2Min, kAlphaLog2Max, "", "spec §3.1", "DT factor alpha = 2^alpha_log2"),
      DSH_INT_FIELD(port_mult_log2, 0, kPortMultLog2Max, "", "spec §3.1", "DSH port threshold X_poff = T << port_mult_log2"),
      DSH_INT_FIELD(delta_q, 0, kCellsMax, "cells", "spec §3.1", "queue resume hysteresis"),
      DSH_INT_FIELD(delta_p, 0, kCellsMax, "cells", "spec §3.1", "port resume hysteresis"),
      {"scheme", K::Scheme, 0, 0, "", "spec §1.2", "SIH (static headroom) or DSH (dynamic and shared headroom)",
       [](const Config& c) { return std::string(to_string(c.scheme)); }, nullptr, nullptr},
      DSH_INT_FIELD(thresh_latency, kThreshLatencyMin, kThreshLatencyMax, "cycles", "spec §3.2",
                    "L, from a change of S to its use in the thresholds"),
      implied(DSH_INT_FIELD(lanes, 1, kLanesMax, "", "spec §4.7",
                            "N_l, enqueue slots a cycle, one per lane; lane l serves the ports p with p mod lanes = l; "
                            "a power of two, at most n_ports")),
      implied(DSH_INT_FIELD(deq_per_cycle, 1, kDeqPerCycleMax, "", "spec §4.7",
                            "N_d, dequeue slots a cycle; a lane takes one (merged) dequeue a cycle")),
  };
#undef DSH_INT_FIELD
  return fields;
}

std::string ConfigField::range() const {
  switch (kind) {
    case K::Scheme: return "SIH|DSH";
    case K::PortList: return "n_ports entries of 0.." + std::to_string(hi);
    case K::Integer: break;
  }
  return std::to_string(lo) + ".." + std::to_string(hi);
}

const ConfigField* find_config_field(const std::string& name) {
  for (const auto& f : config_fields())
    if (name == f.name) return &f;
  return nullptr;
}

std::string config_field_names() {
  std::string s;
  for (const auto& f : config_fields()) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

void Config::set(const std::string& field, const std::string& value) {
  const ConfigField* f = find_config_field(field);
  if (!f) throw ConfigError("unknown configuration field '" + field + "' (known: " + config_field_names() + ")");
  try {
    switch (f->kind) {
      case K::Scheme: scheme = scheme_from_string(value); break;
      case K::PortList: port_headroom_cells = parse_port_headroom(value, uint64_t(f->hi)); break;
      case K::Integer:
        f->put(*this, f->lo < 0 ? parse_int(field, value, f->lo, f->hi)
                                : int64_t(parse_uint(field, value, uint64_t(f->lo), uint64_t(f->hi))));
        break;
    }
  } catch (const ConfigError&) {
    throw;
  } catch (const InputError& e) {
    throw ConfigError(e.what());
  }
}

std::string Config::describe() const {
  std::string s;
  for (const auto& f : config_fields()) {
    if (f.kind == K::PortList && port_headroom_cells.empty()) continue;
    if (f.implied_at_default && f.get(*this) == f.default_text()) continue;
    s += (s.empty() ? "" : " ") + std::string(f.name) + "=" + f.get(*this);
  }
  return s;
}

Config Config::from_text(const std::string& text) {
  Config c;
  std::istringstream in(text);
  std::string kv;
  while (in >> kv) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos) throw ConfigError(quoted(kv) + ": expected field=value");
    c.set(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return c;
}

std::vector<std::pair<std::string, std::string>> Config::fields() const {
  std::vector<std::pair<std::string, std::string>> v;
  for (const auto& f : config_fields()) v.emplace_back(f.name, f.get(*this));
  return v;
}

std::vector<uint64_t> parse_port_headroom(const std::string& text, uint64_t max_value) {
  // Bounds the list itself: no more entries than the most ports a chip has.
  constexpr uint64_t kMaxEntries = 1024;
  std::vector<uint64_t> cells;
  if (text.find_first_not_of(" \t") == std::string::npos) return cells;
  size_t start = 0;
  for (unsigned entry = 1;; ++entry) {
    const size_t comma = text.find(',', start);
    std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    const std::string what = "port_headroom_cells entry " + std::to_string(entry);
    const size_t x = item.find('x');
    uint64_t count = 1;
    std::string value = item;
    if (x != std::string::npos) {
      if (x == 0 || x + 1 == item.size())
        throw ConfigError(what + " = " + quoted(item) + ": expected a value or COUNTxVALUE, e.g. 24x228");
      count = parse_uint(what + " count", item.substr(0, x), 1, kMaxEntries);
      value = item.substr(x + 1);
    }
    const uint64_t eta = parse_uint(what, value, 0, max_value);
    if (cells.size() + count > kMaxEntries)
      throw ConfigError("port_headroom_cells has more than " + std::to_string(kMaxEntries) +
                        " entries (at most one per port, n_ports <= 1024)");
    cells.insert(cells.end(), count, eta);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return cells;
}

std::string port_headroom_text(const std::vector<uint64_t>& cells) {
  std::ostringstream m;
  for (size_t i = 0; i < cells.size();) {
    size_t j = i;
    while (j < cells.size() && cells[j] == cells[i]) ++j;
    m << (i ? "," : "");
    if (j - i > 1) m << (j - i) << 'x';
    m << cells[i];
    i = j;
  }
  return m.str();
}

uint64_t headroom_bytes(const LinkParams& p) {
  // C [bytes/ns] * D_prop [ns]: 100 Gb/s = 12.5 B/ns, 2 us -> 25000 B.
  const double in_flight = p.link_gbps / 8.0 * p.prop_delay_ns;
  return uint64_t(std::ceil(2.0 * (in_flight + double(p.mtu_bytes)))) + p.processing_bytes;
}

uint64_t headroom_cells(const LinkParams& p) {
  if (p.pkt_bytes == 0 || p.cell_bytes == 0) throw ConfigError("pkt_bytes and cell_bytes must be > 0");
  const uint64_t pkts = (headroom_bytes(p) + p.pkt_bytes - 1) / p.pkt_bytes;
  return pkts * cells_of(p.pkt_bytes, p.cell_bytes);
}

}  // namespace dsh
