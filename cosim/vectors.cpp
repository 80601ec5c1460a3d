// SPDX-License-Identifier: Apache-2.0
#include "vectors.h"

#include <cctype>
#include <cstring>
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

bool is_field_name(const std::string& s) {
  if (s.empty()) return false;
  for (unsigned char c : s)
    if (!(std::islower(c) || std::isdigit(c) || c == '_')) return false;
  return true;
}

const char* kFormatWord = "dsh-vectors";

}  // namespace

const char* to_string(VectorKind k) { return k == VectorKind::Stimulus ? "stimulus" : "response"; }

std::optional<VectorHeader> read_vector_header(std::istream& in, const std::string& name, VectorKind expected) {
  std::optional<VectorHeader> h;
  std::string text;
  size_t line = 0;
  bool seen_text = false;  // a non-blank line before this one
  bool in_block = false;
  auto fail = [&](size_t at, const std::string& why) {
    throw VectorError(name + ":" + std::to_string(at) + ": " + why);
  };
  skip_bom(in);
  while (get_line(in, text)) {
    ++line;
    const std::string t = trim(text);
    if (t.empty()) {
      in_block = false;
      continue;
    }
    if (t[0] != '#') break;  // the column line: any header is above it
    const std::string body = trim(t.substr(1));
    if (body.compare(0, std::strlen(kFormatWord), kFormatWord) == 0 &&
        (body.size() == std::strlen(kFormatWord) || body[std::strlen(kFormatWord)] == ' ' ||
         body[std::strlen(kFormatWord)] == '\t')) {
      if (seen_text) fail(line, "the format line " + quoted(t) + " must be the file's first line");
      std::istringstream words(body);
      std::string word, format, kind, extra;
      words >> word >> format >> kind >> extra;
      const std::string usage = "expected '# dsh-vectors " + std::to_string(kVectorFormat) + " " + to_string(expected) + "'";
      if (format.empty() || kind.empty() || !extra.empty()) fail(line, usage + ", got " + quoted(t));
      if (format != std::to_string(kVectorFormat))
        fail(line, "format = " + quoted(format) + ": this reader knows format 1 (no header) and " +
                       std::to_string(kVectorFormat) + " (vector format §2)");
      if (kind != "stimulus" && kind != "response") fail(line, "kind = " + quoted(kind) + ": " + usage);
      if (kind != to_string(expected))
        fail(line, "this is a " + kind + " file; expected a " + to_string(expected) + " file");
      h = VectorHeader{};
      h->kind = expected;
      h->lines = line;
      in_block = true;
      seen_text = true;
      continue;
    }
    seen_text = true;
    if (!in_block) continue;
    const auto eq = body.find('=');
    const std::string field = eq == std::string::npos ? std::string() : trim(body.substr(0, eq));
    if (!is_field_name(field)) {
      in_block = false;  // a free comment ends the block
      continue;
    }
    const auto dup = h->field_line.find(field);
    if (dup != h->field_line.end())
      fail(line, field + " repeats (first on line " + std::to_string(dup->second) + ")");
    try {
      h->config.set(field, trim(body.substr(eq + 1)));
    } catch (const ConfigError& e) {
      fail(line, e.what());
    }
    h->field_line[field] = line;
    h->lines = line;
  }
  if (h)
    for (const ConfigField& f : config_fields())
      if (!f.implied_at_default && !h->field_line.count(f.name))
        fail(h->lines, "the header lacks " + std::string(f.name) + ": a format " + std::to_string(kVectorFormat) +
                           " header gives every configuration field (vector format §2)");
  return h;
}

void write_vector_header(std::ostream& out, VectorKind kind, const Config& cfg) {
  out << "# " << kFormatWord << ' ' << kVectorFormat << ' ' << to_string(kind) << '\n';
  for (const ConfigField& f : config_fields()) {
    const std::string value = f.get(cfg);
    if (f.implied_at_default && value == f.default_text()) continue;  // vector format §2
    out << "# " << f.name << " =" << (value.empty() ? "" : " ") << value << '\n';
  }
}

std::optional<FieldDiff> first_difference(const Config& a, const Config& b) {
  const auto fa = a.fields(), fb = b.fields();
  for (size_t i = 0; i < fa.size(); ++i)
    if (fa[i].second != fb[i].second) return FieldDiff{fa[i].first, fa[i].second, fb[i].second};
  return std::nullopt;
}

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

void write_stimulus_header(std::ostream& out, const Config& cfg) {
  write_vector_header(out, VectorKind::Stimulus, cfg);
  out << kStimHeader << '\n';
}

void write_stimulus_row(std::ostream& out, uint64_t cycle, const CycleIn& in) {
  out << cycle;
  for (const Op* op : {&in.deq, &in.enq}) {
    if (op->valid) out << ',' << op->port << ',' << op->queue << ',' << op->cells;
    else out << ",,,";
  }
  out << '\n';
}

void write_response_header(std::ostream& out, const Config& cfg) {
  write_vector_header(out, VectorKind::Response, cfg);
  out << "cycle,region,T,S,events,error\n";
}

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
  write_response_header(response, m.config());
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
