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
  check_range<unsigned>("n_ports", n_ports, 1, 1024);
  check_range<unsigned>("n_queues", n_queues, 1, 64);
  check_range<uint64_t>("buffer_cells", buffer_cells, 1, cell_max, fits);
  check_range<uint64_t>("private_cells", private_cells, 0, cell_max, fits);
  check_range<uint64_t>("headroom_cells", headroom_cells, 0, cell_max, fits);
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
    else if (field == "port_headroom_cells") port_headroom_cells = parse_port_headroom(value, kCellsMax);
    else if (field == "alpha_log2") alpha_log2 = int(parse_int(field, value, kAlphaLog2Min, kAlphaLog2Max));
    else if (field == "port_mult_log2") port_mult_log2 = unsigned(u(0, kPortMultLog2Max));
    else if (field == "delta_q") delta_q = u(0, kCellsMax);
    else if (field == "delta_p") delta_p = u(0, kCellsMax);
    else if (field == "scheme") scheme = scheme_from_string(value);
    else if (field == "thresh_latency") thresh_latency = unsigned(u(kThreshLatencyMin, kThreshLatencyMax));
    else
      throw ConfigError("unknown configuration field '" + field +
                        "' (known: n_ports, n_queues, buffer_cells, private_cells, headroom_cells, port_headroom_cells, alpha_log2, "
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
  if (!port_headroom_cells.empty()) m << " port_headroom_cells=" << port_headroom_text(port_headroom_cells);
  return m.str();
}

std::vector<std::pair<std::string, std::string>> Config::fields() const {
  auto n = [](auto v) { return std::to_string(v); };
  return {{"n_ports", n(n_ports)},
          {"n_queues", n(n_queues)},
          {"buffer_cells", n(buffer_cells)},
          {"private_cells", n(private_cells)},
          {"headroom_cells", n(headroom_cells)},
          {"port_headroom_cells", port_headroom_text(port_headroom_cells)},
          {"alpha_log2", n(alpha_log2)},
          {"port_mult_log2", n(port_mult_log2)},
          {"delta_q", n(delta_q)},
          {"delta_p", n(delta_p)},
          {"scheme", to_string(scheme)},
          {"thresh_latency", n(thresh_latency)}};
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
