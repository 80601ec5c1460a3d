// SPDX-License-Identifier: Apache-2.0
#include "vectors.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <istream>
#include <ostream>
#include <sstream>

namespace dsh {

namespace {

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
      if (format != std::to_string(kVectorFormat) && format != std::to_string(kLaneVectorFormat))
        fail(line, "format = " + quoted(format) + ": this reader knows format 1 (no header), " +
                       std::to_string(kVectorFormat) + " and " + std::to_string(kLaneVectorFormat) +
                       " (vector format §2)");
      if (kind != "stimulus" && kind != "response") fail(line, "kind = " + quoted(kind) + ": " + usage);
      if (kind != to_string(expected))
        fail(line, "this is a " + kind + " file; expected a " + to_string(expected) + " file");
      h = VectorHeader{};
      h->format = unsigned(std::stoul(format));
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
      if ((h->format == kLaneVectorFormat || !f.implied_at_default) && !h->field_line.count(f.name))
        fail(h->lines, "the header lacks " + std::string(f.name) + ": a format " + std::to_string(h->format) +
                           " header gives every configuration field" +
                           (f.implied_at_default ? " (format 3: lanes and deq_per_cycle too)" : "") +
                           " (vector format §2)");
  return h;
}

void write_vector_header(std::ostream& out, VectorKind kind, const Config& cfg, unsigned format) {
  out << "# " << kFormatWord << ' ' << format << ' ' << to_string(kind) << '\n';
  for (const ConfigField& f : config_fields()) {
    const std::string value = f.get(cfg);
    if (format == kVectorFormat && f.implied_at_default && value == f.default_text()) continue;  // vector format §2
    out << "# " << f.name << " =" << (value.empty() ? "" : " ") << value << '\n';
  }
}

std::optional<FieldDiff> first_difference(const Config& a, const Config& b) {
  const auto fa = a.fields(), fb = b.fields();
  for (size_t i = 0; i < fa.size(); ++i)
    if (fa[i].second != fb[i].second) return FieldDiff{fa[i].first, fa[i].second, fb[i].second};
  return std::nullopt;
}

namespace {

// The columns of a stimulus: the cycle, then a port, queue and cells triple
// per slot, named by the slots' prefixes ("deq", "enq"; "deq0", ...).
struct Columns {
  std::vector<std::string> slots;
  std::string line() const {
    std::string l = "cycle";
    for (const std::string& s : slots) l += "," + s + "_port," + s + "_queue," + s + "_cells";
    return l;
  }
};

// Format 3: the dequeue slots, then the enqueue slots (vector format §7).
Columns lane_columns(const Config& cfg) {
  Columns c;
  for (unsigned k = 0; k < cfg.deq_per_cycle; ++k) c.slots.push_back("deq" + std::to_string(k));
  for (unsigned l = 0; l < cfg.lanes; ++l) c.slots.push_back("enq" + std::to_string(l));
  return c;
}

// Reads the rows under the column line `cols` (comment lines, a header block
// among them, skipped) and gives each to row(cycle, slots), after the
// checks of vector format §3.
template <class Row>
void read_rows(std::istream& in, const std::string& name, const Config& cfg, const RtlWidths& w, const Columns& cols,
               Row row) {
  const std::string column_line = cols.line();
  const size_t n_fields = 1 + 3 * cols.slots.size();
  const unsigned port_w = rtl_index_bits(cfg.n_ports), queue_w = rtl_index_bits(cfg.n_queues);
  const uint64_t limits[3] = {(uint64_t(1) << port_w) - 1, (uint64_t(1) << queue_w) - 1,
                              (uint64_t(1) << w.size_w) - 1};
  static const char* kPart[3] = {"_port", "_queue", "_cells"};
  std::string text;
  size_t line = 0, prev_line = 0;
  uint64_t prev_cycle = 0;
  bool header = false, any = false;
  std::vector<Op> ops(cols.slots.size());
  auto fail = [&](const std::string& why) {
    throw VectorError(name + ":" + std::to_string(line) + ": " + why);
  };
  // A field as a number, or nullopt when it is empty; part 0, 1, 2: a
  // slot's port, queue, cells (for the limit's reason), -1 the cycle.
  auto number = [&](const std::string& f, const std::string& field, uint64_t limit, int part) -> std::optional<uint64_t> {
    if (f.empty()) return std::nullopt;
    size_t pos = 0;
    uint64_t v = 0;
    try {
      if (f[0] == '-' || f[0] == '+') throw std::invalid_argument("sign");
      v = std::stoull(f, &pos, 10);
    } catch (const std::exception&) {
      pos = 0;
    }
    if (pos != f.size()) fail(field + " = " + quoted(f) + ": expected a non-negative integer");
    if (v > limit) {
      std::ostringstream m;
      m << field << " = " << v << " exceeds " << limit;
      if (part == 0) m << " (the " << port_w << "-bit port index of a " << cfg.n_ports << "-port MMU)";
      else if (part == 1) m << " (the " << queue_w << "-bit queue index of " << cfg.n_queues << " queues per port)";
      else if (part == 2) m << " (the RTL's " << w.size_w << "-bit packet size, SizeW)";
      fail(m.str());
    }
    return v;
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
      if (got.str() != column_line) fail("expected the header '" + column_line + "', got " + quoted(got.str()));
      header = true;
      continue;
    }
    if (f.size() != n_fields) fail("expected " + std::to_string(n_fields) + " fields, got " + std::to_string(f.size()));
    const auto cycle = number(f[0], "cycle", ~uint64_t(0) >> 1, -1);
    if (!cycle) fail("cycle is empty");
    for (size_t s = 0; s < cols.slots.size(); ++s) {
      std::optional<uint64_t> v[3];
      for (int k = 0; k < 3; ++k) v[k] = number(f[1 + 3 * s + k], cols.slots[s] + kPart[k], limits[k], k);
      const int n = bool(v[0]) + bool(v[1]) + bool(v[2]);
      if (n != 0 && n != 3) fail(cols.slots[s] + " triple is partly empty: give port, queue and cells, or none");
      ops[s] = n ? Op{true, uint32_t(*v[0]), uint32_t(*v[1]), uint32_t(*v[2])} : Op{};
    }
    if (any && *cycle <= prev_cycle)
      fail("cycle = " + std::to_string(*cycle) + (*cycle == prev_cycle ? " repeats" : " goes backwards") +
           ": cycles must strictly increase (previous " + std::to_string(prev_cycle) + " on line " +
           std::to_string(prev_line) + ")");
    any = true;
    prev_cycle = *cycle;
    prev_line = line;
    row(*cycle, line, ops);
  }
  if (!header) {
    line = 0;
    fail("no header line '" + column_line + "'");
  }
}

}  // namespace

std::vector<StimRow> read_stimulus(std::istream& in, const std::string& name, const Config& cfg,
                                   const RtlWidths& w) {
  std::vector<StimRow> rows;
  read_rows(in, name, cfg, w, Columns{{"deq", "enq"}}, [&](uint64_t cycle, size_t line, const std::vector<Op>& ops) {
    rows.push_back(StimRow{cycle, CycleIn{ops[0], ops[1]}, line});
  });
  return rows;
}

LaneCycleIn LaneStimulus::row(size_t i) const {
  LaneCycleIn in;
  const Op* s = slots.data() + i * (deq_per_cycle + lanes);
  std::copy(s, s + deq_per_cycle, in.deq.begin());
  std::copy(s + deq_per_cycle, s + deq_per_cycle + lanes, in.enq.begin());
  return in;
}

LaneStimulus read_lane_stimulus(std::istream& in, const std::string& name, const Config& cfg, const RtlWidths& w) {
  LaneStimulus st;
  st.lanes = cfg.lanes;
  st.deq_per_cycle = cfg.deq_per_cycle;
  read_rows(in, name, cfg, w, lane_columns(cfg), [&](uint64_t cycle, size_t, const std::vector<Op>& ops) {
    st.cycles.push_back(cycle);
    st.slots.insert(st.slots.end(), ops.begin(), ops.end());
  });
  return st;
}

void write_stimulus_header(std::ostream& out, const Config& cfg) {
  write_vector_header(out, VectorKind::Stimulus, cfg);
  out << Columns{{"deq", "enq"}}.line() << '\n';
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
void write_lane_stimulus_header(std::ostream& out, const Config& cfg) {
  write_vector_header(out, VectorKind::Stimulus, cfg, kLaneVectorFormat);
  out << lane_columns(cfg).line() << '\n';
}

void write_lane_stimulus_row(std::ostream& out, uint64_t cycle, const LaneCycleIn& in, const Config& cfg) {
  out << cycle;
  auto slot = [&](const Op& op) {
    if (op.valid) out << ',' << op.port << ',' << op.queue << ',' << op.cells;
    else out << ",,,";
  };
  for (unsigned k = 0; k < cfg.deq_per_cycle; ++k) slot(in.deq[k]);
  for (unsigned l = 0; l < cfg.lanes; ++l) slot(in.enq[l]);
  out << '\n';
}

void write_lane_response_header(std::ostream& out, const Config& cfg) {
  write_vector_header(out, VectorKind::Response, cfg, kLaneVectorFormat);
  out << "cycle,regions,T,S,events,enq_errors,deq_errors,deq_taken\n";
}

void write_lane_response_row(std::ostream& out, uint64_t cycle, const LaneCycleOut& o,
                             const std::array<bool, kDeqPerCycleMax>& taken, const Config& cfg) {
  out << cycle << ',';
  for (unsigned l = 0; l < cfg.lanes; ++l) out << region_letter(o.region[l]);
  out << ',' << o.thr.t << ',' << o.s << ',';
  for (unsigned i = 0; i < o.n_events; ++i) out << (i ? ";" : "") << o.events[i].str();
  out << ',';
  for (unsigned l = 0; l < cfg.lanes; ++l) out << (o.enq_error[l] ? '1' : '0');
  out << ',';
  for (unsigned k = 0; k < cfg.deq_per_cycle; ++k) out << (o.deq_error[k] ? '1' : '0');
  out << ',';
  for (unsigned k = 0; k < cfg.deq_per_cycle; ++k) out << (taken[k] ? '1' : '0');
  out << '\n';
}

}  // namespace dsh
