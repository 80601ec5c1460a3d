#include "vectors.h"

#include <istream>
#include <ostream>
#include <sstream>

namespace dsh {

namespace {

const char* kStimHeader = "cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells";

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> f;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      f.push_back(cur);
      cur.clear();
    } else if (c != ' ' && c != '\t' && c != '\r') {
      cur += c;
    }
  }
  f.push_back(cur);
  return f;
}

}  // namespace

std::vector<StimRow> read_stimulus(std::istream& in, const std::string& name, const Config& cfg,
                                   const RtlWidths& w) {
  static const char* kFields[] = {"cycle", "deq_port", "deq_queue", "deq_cells", "enq_port", "enq_queue", "enq_cells"};
  const unsigned port_w = rtl_index_bits(cfg.n_ports), queue_w = rtl_index_bits(cfg.n_queues);
  const uint64_t limits[] = {~uint64_t(0) >> 1,
                             (uint64_t(1) << port_w) - 1, (uint64_t(1) << queue_w) - 1, (uint64_t(1) << w.size_w) - 1,
                             (uint64_t(1) << port_w) - 1, (uint64_t(1) << queue_w) - 1, (uint64_t(1) << w.size_w) - 1};
  std::vector<StimRow> rows;
  std::string text;
  size_t line = 0;
  bool header = false;
  auto fail = [&](const std::string& why) {
    throw VectorError(name + ":" + std::to_string(line) + ": " + why);
  };
  skip_bom(in);
  while (get_line(in, text)) {
    ++line;
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#') continue;
    auto f = split(text);
    if (!header) {
      std::ostringstream got;
      for (size_t i = 0; i < f.size(); ++i) got << (i ? "," : "") << f[i];
      if (got.str() != kStimHeader) fail("expected the header '" + std::string(kStimHeader) + "', got " + quoted(got.str()));
      header = true;
      continue;
    }
    if (f.size() != 7) fail("expected 7 fields, got " + std::to_string(f.size()));
    uint64_t v[7] = {};
    bool present[7] = {};
    for (int i = 0; i < 7; ++i) {
      if (f[i].empty()) continue;
      present[i] = true;
      size_t pos = 0;
      try {
        if (f[i][0] == '-' || f[i][0] == '+') throw std::invalid_argument("sign");
        v[i] = std::stoull(f[i], &pos, 10);
      } catch (const std::exception&) {
        pos = 0;
      }
      if (pos != f[i].size()) fail(std::string(kFields[i]) + " = " + quoted(f[i]) + ": expected a non-negative integer");
      if (v[i] > limits[i]) {
        std::ostringstream m;
        m << kFields[i] << " = " << v[i] << " exceeds " << limits[i];
        if (i == 1 || i == 4) m << " (the " << port_w << "-bit port index of a " << cfg.n_ports << "-port MMU)";
        else if (i == 2 || i == 5) m << " (the " << queue_w << "-bit queue index of " << cfg.n_queues << " queues per port)";
        else if (i != 0) m << " (the RTL's " << w.size_w << "-bit packet size, SizeW)";
        fail(m.str());
      }
    }
    if (!present[0]) fail("cycle is empty");
    for (int base : {1, 4}) {
      const int n = present[base] + present[base + 1] + present[base + 2];
      if (n != 0 && n != 3)
        fail(std::string(base == 1 ? "deq" : "enq") + " triple is partly empty: give port, queue and cells, or none");
    }
    StimRow r;
    r.cycle = v[0];
    r.line = line;
    if (!rows.empty() && r.cycle <= rows.back().cycle)
      fail("cycle = " + std::to_string(r.cycle) + (r.cycle == rows.back().cycle ? " repeats" : " goes backwards") +
           ": cycles must strictly increase (previous " + std::to_string(rows.back().cycle) + " on line " +
           std::to_string(rows.back().line) + ")");
    if (present[1]) r.in.deq = Op{true, uint32_t(v[1]), uint32_t(v[2]), uint32_t(v[3])};
    if (present[4]) r.in.enq = Op{true, uint32_t(v[4]), uint32_t(v[5]), uint32_t(v[6])};
    rows.push_back(r);
  }
  if (!header) {
    line = 0;
    fail("no header line '" + std::string(kStimHeader) + "'");
  }
  return rows;
}

void write_stimulus_header(std::ostream& out) { out << kStimHeader << '\n'; }

void write_stimulus_row(std::ostream& out, uint64_t cycle, const CycleIn& in) {
  out << cycle;
  for (const Op* op : {&in.deq, &in.enq}) {
    if (op->valid) out << ',' << op->port << ',' << op->queue << ',' << op->cells;
    else out << ",,,";
  }
  out << '\n';
}

void write_response_header(std::ostream& out) { out << "cycle,region,T,S,events,error\n"; }

void write_response_row(std::ostream& out, uint64_t cycle, const CycleOut& o) {
  out << cycle << ',' << region_letter(o.region) << ',' << o.thr.t << ',' << o.s << ',';
  for (unsigned i = 0; i < o.n_events; ++i) out << (i ? ";" : "") << o.events[i].str();
  out << ',' << (o.error() ? 1 : 0) << '\n';
}

void write_final_state(std::ostream& out, const MmuModel& m) {
  const Config& c = m.config();
  out << "# final\n";
  for (uint32_t p = 0; p < c.n_ports; ++p)
    for (uint32_t q = 0; q < c.n_queues; ++q) {
      const QueueState s = m.queue(p, q);
      out << "queue," << p << ',' << q << ',' << s.priv << ',' << s.shared << ',' << s.hdrm << ',' << int(s.qoff)
          << ',' << s.drops << '\n';
    }
  for (uint32_t p = 0; p < c.n_ports; ++p) {
    const PortState s = m.port(p);
    out << "port," << p << ',' << s.shared << ',' << s.hdrm << ',' << int(s.poff) << '\n';
  }
}

uint64_t replay(const std::vector<StimRow>& stim, MmuModel& m, std::ostream& response) {
  write_response_header(response);
  // A model of latency L returns a cycle's results L steps later: answer
  // each row when its results come, L idle steps past the last row. Idle
  // gaps between rows are stepped until every earlier row is answered and
  // skipped from there (MmuModel::skip_idle: O(1) however long).
  const uint64_t lat = m.latency();
  uint64_t c = 0;  // the next cycle to step
  size_t next_out = 0;
  auto step = [&](const CycleIn& in) {
    const CycleOut& o = m.step(in);
    if (c >= lat && next_out < stim.size() && stim[next_out].cycle == c - lat)
      write_response_row(response, stim[next_out++].cycle, o);
    ++c;
  };
  for (size_t i = 0; i < stim.size(); ++i) {
    while (c < stim[i].cycle && next_out < i) step(CycleIn{});
    if (c < stim[i].cycle) {
      m.skip_idle(stim[i].cycle - c);
      c = stim[i].cycle;
    }
    step(stim[i].in);
  }
  for (uint64_t k = 0; k < lat; ++k) step(CycleIn{});
  m.finish();
  write_final_state(response, m);
  return stim.empty() ? 0 : stim.back().cycle + 1;
}

}  // namespace dsh
