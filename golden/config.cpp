#include "config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>

namespace dsh {

const char* to_string(Scheme s) { return s == Scheme::SIH ? "SIH" : "DSH"; }

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
  const int64_t per = int64_t(headroom_cells);
  return scheme == Scheme::SIH ? int64_t(n_ports) * n_queues * per : int64_t(n_ports) * per;
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
  check_range<unsigned>("n_ports", n_ports, 1, 1024);
  check_range<unsigned>("n_queues", n_queues, 1, 64);
  check_range<uint64_t>("buffer_cells", buffer_cells, 1, cell_max, fits);
  check_range<uint64_t>("private_cells", private_cells, 0, cell_max, fits);
  check_range<uint64_t>("headroom_cells", headroom_cells, 0, cell_max, fits);
  check_range<uint64_t>("delta_q", delta_q, 0, cell_max, fits);
  check_range<uint64_t>("delta_p", delta_p, 0, cell_max, fits);
  check_range<int>("alpha_log2", alpha_log2, kAlphaLog2Min, kAlphaLog2Max);
  check_range<unsigned>("port_mult_log2", port_mult_log2, 0, kPortMultLog2Max);
  check_range<unsigned>("thresh_latency", thresh_latency, kThreshLatencyMin, kThreshLatencyMax);
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

void Config::set(const std::string& field, const std::string& value) {
  // Sizes fit the widest RTL counter (CellW 40); validate() checks the
  // backend's own width.
  constexpr uint64_t kCellsMax = (uint64_t(1) << 40) - 1;
  auto u = [&](uint64_t lo, uint64_t hi) { return parse_uint(field, value, lo, hi); };
  try {
    if (field == "n_ports") n_ports = unsigned(u(1, 1024));
    else if (field == "n_queues") n_queues = unsigned(u(1, 64));
    else if (field == "buffer_cells") buffer_cells = u(1, kCellsMax);
    else if (field == "private_cells") private_cells = u(0, kCellsMax);
    else if (field == "headroom_cells") headroom_cells = u(0, kCellsMax);
    else if (field == "alpha_log2") alpha_log2 = int(parse_int(field, value, kAlphaLog2Min, kAlphaLog2Max));
    else if (field == "port_mult_log2") port_mult_log2 = unsigned(u(0, kPortMultLog2Max));
    else if (field == "delta_q") delta_q = u(0, kCellsMax);
    else if (field == "delta_p") delta_p = u(0, kCellsMax);
    else if (field == "scheme") scheme = scheme_from_string(value);
    else if (field == "thresh_latency") thresh_latency = unsigned(u(kThreshLatencyMin, kThreshLatencyMax));
    else
      throw ConfigError("unknown configuration field '" + field +
                        "' (known: n_ports, n_queues, buffer_cells, private_cells, headroom_cells, alpha_log2, "
                        "port_mult_log2, delta_q, delta_p, scheme, thresh_latency)");
  } catch (const ConfigError&) {
    throw;
  } catch (const InputError& e) {
    throw ConfigError(e.what());
  }
}

std::string Config::describe() const {
  std::ostringstream m;
  m << "scheme=" << to_string(scheme) << " n_ports=" << n_ports << " n_queues=" << n_queues
    << " buffer_cells=" << buffer_cells << " private_cells=" << private_cells
    << " headroom_cells=" << headroom_cells << " alpha_log2=" << alpha_log2
    << " port_mult_log2=" << port_mult_log2 << " delta_q=" << delta_q << " delta_p=" << delta_p
    << " thresh_latency=" << thresh_latency;
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
