#include "params.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>

#include "toml_text.h"

namespace dsh::sc {

namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\"'[]");
  const auto b = s.find_last_not_of(" \t\"'[]");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  std::string item;
  while (std::getline(in, item, ','))
    if (!trim(item).empty()) out.push_back(trim(item));
  return out;
}

// Strict numbers (common/input.h): what names the key in the message.
double to_num(const std::string& what, const std::string& v, double lo = -1e300, double hi = 1e300,
              bool lo_open = false) {
  return parse_real(what, v, lo, hi, lo_open);
}

long long to_int(const std::string& what, const std::string& v, long long lo = -(1LL << 31),
                 long long hi = (1LL << 31) - 1) {
  return parse_int(what, v, lo, hi);
}

template <class T>
std::string join(const std::vector<T>& v) {
  std::ostringstream m;
  for (size_t i = 0; i < v.size(); ++i) m << (i ? "," : "") << v[i];
  return m.str();
}

std::string num_str(double d) {
  std::ostringstream m;
  m << d;
  return m.str();
}

struct Entry {
  KeyInfo info;
  std::function<void(Params&, const std::string&)> set;
  std::function<std::string(const Params&)> get;
};

// The MMU fields of [chip] (spec §1.2) go through dsh::Config::set.
// chip.<field> for an MMU configuration field: its help and range from the
// one field table (golden/config.h), and what the switch model makes of it.
Entry chip_field(const std::string& f, const std::string& note = "") {
  const ConfigField& d = *find_config_field(f);
  return {{"chip." + f, std::string(d.help) + (*d.unit ? ", " + std::string(d.unit) : "") + " (" + d.range() + ")" + note},
          [f](Params& p, const std::string& v) { p.mmu.set(f, v); },
          [&d](const Params& p) { return d.get(p.mmu); }};
}

// Every number has its accepted range here; the text is parsed strictly.
#define NUM(key, field, lo, hi, lo_open, help) \
  Entry{{key, help}, [](Params& p, const std::string& v) { p.field = to_num(key, v, lo, hi, lo_open); }, \
        [](const Params& p) { return num_str(double(p.field)); }}
#define U64(key, field, lo, hi, help) \
  Entry{{key, help}, [](Params& p, const std::string& v) { p.field = decltype(p.field)(parse_uint(key, v, lo, hi)); }, \
        [](const Params& p) { return std::to_string(p.field); }}
#define INT(key, field, help) \
  Entry{{key, help}, [](Params& p, const std::string& v) { p.field = int(to_int(key, v)); }, \
        [](const Params& p) { return std::to_string(p.field); }}
#define HOSTS(key, field, help) \
  Entry{{key, help}, [](Params& p, const std::string& v) { p.field = parse_int_list(v, key); }, \
        [](const Params& p) { return join(p.field); }}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = {
      {{"scenario.name", "name of the outputs"},
       [](Params& p, const std::string& v) { p.name = v; },
       [](const Params& p) { return p.name; }},
      {{"scenario.kind", "pfc-avoidance (S1 sweep) | saturate (endless flows for run_us)"},
       [](Params& p, const std::string& v) {
         if (v == "pfc-avoidance") p.kind = Kind::PfcAvoidance;
         else if (v == "saturate") p.kind = Kind::Saturate;
         else throw ConfigError("'" + v + "': must be pfc-avoidance or saturate");
       },
       [](const Params& p) { return std::string(p.kind == Kind::Saturate ? "saturate" : "pfc-avoidance"); }},
      chip_field("n_ports", "; one host per port"),
      chip_field("n_queues", "; classes 0..n_queues-1, class 7 is control"),
      chip_field("buffer_cells"),
      chip_field("private_cells"),
      {{"chip.headroom_cells",
        "eta, cells: auto = dsh::headroom_cells(link, packet_bytes) of each port's link rate, or a number (every port)"},
       [](Params& p, const std::string& v) {
         p.headroom_auto = v == "auto";
         if (!p.headroom_auto) p.mmu.set("headroom_cells", v);
       },
       [](const Params& p) { return p.headroom_auto ? std::string("auto") : std::to_string(p.mmu.headroom_cells); }},
      chip_field("alpha_log2"),
      chip_field("port_mult_log2"),
      chip_field("delta_q"),
      chip_field("delta_p"),
      chip_field("thresh_latency"),
      U64("chip.cell_bytes", cell_bytes, 1, 65536, "bytes per buffer cell"),
      NUM("chip.mmu_clock_ghz", mmu_clock_ghz, 0, 1000, true, "MMU clock; one enqueue and one dequeue per cycle"),
      NUM("link.rate_gbps", link_gbps, 0, 100000, true, "every link, Gb/s"),
      NUM("link.prop_delay_ns", prop_delay_ns, 0, 1e9, false, "every link, propagation delay D_prop"),
      U64("link.mtu_bytes", mtu_bytes, 1, 1048576, "MTU (headroom formula)"),
      U64("link.processing_bytes", processing_bytes, 1, 1000000000,
          "upstream reaction to a PAUSE frame, bytes at link rate, from its first bit (spec §7.1 item 3)"),
      U64("link.pause_frame_bytes", pause_frame_bytes, 1, 65536, "PAUSE/RESUME frame length on the reverse link"),
      {{"link.port_rate_gbps", "per-port link rate exceptions, port:gbps list (negative port from the end)"},
       [](Params& p, const std::string& v) {
         p.port_rate_gbps.clear();
         for (const auto& item : split(v)) {
           const auto c = item.find(':');
           if (c == std::string::npos) throw ConfigError(quoted(item) + ": expected port:gbps");
           p.port_rate_gbps.emplace_back(int(to_int("link.port_rate_gbps port", trim(item.substr(0, c)))),
                                         to_num("link.port_rate_gbps rate", trim(item.substr(c + 1)), 0, 100000, true));
         }
       },
       [](const Params& p) {
         std::string s;
         for (const auto& [port, r] : p.port_rate_gbps) s += (s.empty() ? "" : ",") + std::to_string(port) + ":" + num_str(r);
         return s;
       }},
      U64("switch.dwrr_quantum_bytes", dwrr_quantum_bytes, 1, 1000000000, "DWRR quantum of the lossless classes"),
      U64("traffic.packet_bytes", packet_bytes, 1, 1048576, "data packet size (last packet of a flow may be shorter)"),
      HOSTS("traffic.background_srcs", background_srcs, "hosts of the endless background flows, e.g. 0,1 or 0..1"),
      INT("traffic.background_dst", background_dst, "their destination; negative counts from the last port"),
      U64("traffic.background_class", background_class, 0, 63, "their class"),
      HOSTS("traffic.fanin_srcs", fanin_srcs, "hosts of the fan-in (bursty) flows, e.g. 2..17"),
      INT("traffic.fanin_dst", fanin_dst, "their destination; negative counts from the last port"),
      {{"traffic.fanin_classes", "classes each fan-in host sends on (one flow each, sharing the burst)"},
       [](Params& p, const std::string& v) { p.fanin_classes = parse_int_list(v, "traffic.fanin_classes"); },
       [](const Params& p) { return join(p.fanin_classes); }},
      HOSTS("traffic.reverse_srcs", reverse_srcs,
            "hosts sending endlessly to fanin_srcs[k] (keeps the reverse links busy); empty for S1"),
      U64("traffic.reverse_class", reverse_class, 0, 63, "their class"),
      NUM("traffic.settle_us", settle_us, 0, 1e7, false, "pfc-avoidance: earliest fan-in start"),
      NUM("traffic.settle_after_pause_us", settle_after_pause_us, 0, 1e7, false,
          "pfc-avoidance: the fan-in starts no earlier than this after every background queue paused once"),
      NUM("traffic.start_stagger_ns", start_stagger_ns, 0, 1e9, false, "host h starts its flows h * this later"),
      NUM("traffic.run_us", run_us, 0, 1e7, true, "saturate: simulated time per point"),
      NUM("traffic.max_run_us", max_run_us, 0, 1e7, true, "hard stop of any point"),
      {{"sweep.schemes", "list of dsh, sih"},
       [](Params& p, const std::string& v) {
         p.schemes.clear();
         for (const auto& s : split(v)) {
           std::string n = to_string(scheme_from_string(s));
           std::transform(n.begin(), n.end(), n.begin(), ::tolower);
           if (std::find(p.schemes.begin(), p.schemes.end(), n) == p.schemes.end()) p.schemes.push_back(n);
         }
       },
       [](const Params& p) { return join(p.schemes); }},
      {{"sweep.burst_pct", "total fan-in burst, % of the buffer: list, or lo:hi:step"},
       [](Params& p, const std::string& v) { p.burst_pct = parse_num_list(v, "sweep.burst_pct"); },
       [](const Params& p) { return join(p.burst_pct); }},
      U64("sweep.refine_steps", refine_steps, 0, 30, "bisections between the last pause-free and first paused point"),
      {{"sweep.generations", "[[generation]] rows to run, by rate_gbps: all, or a list (e.g. 100,400)"},
       [](Params& p, const std::string& v) {
         p.generation_rates = trim(v) == "all" ? std::vector<double>{} : parse_num_list(v, "sweep.generations");
       },
       [](const Params& p) { return p.generation_rates.empty() ? std::string("all") : join(p.generation_rates); }},
      NUM("sweep.mmu_ghz_per_100gbps", mmu_ghz_per_100gbps, 0, 1000, true,
          "generation sweeps: each generation's chip.mmu_clock_ghz = this * rate_gbps / 100"),
      {{"run.backend", "MMU backend: golden | rtl | lockstep"},
       [](Params& p, const std::string& v) { p.backend = backend_from_string(v); },
       [](const Params& p) { return std::string(to_string(p.backend)); }},
      U64("run.jobs", jobs, 1, 256, "points simulated in parallel (one process each)"),
      {{"run.kernel", "what runs the model: events (its own event queue) | systemc (the SystemC kernel, TLM-2.0 "
                      "netlist); the same results"},
       [](Params& p, const std::string& v) { p.kernel = net::parse_kernel(v, "run.kernel"); },
       [](const Params& p) { return std::string(net::to_string(p.kernel)); }},
      {{"run.full_compare", "lockstep: compare every queue and port every cycle (slow)"},
       [](Params& p, const std::string& v) { p.full_compare = parse_bool("run.full_compare", v); },
       [](const Params& p) { return std::string(p.full_compare ? "true" : "false"); }},
      {{"run.allow_lossy",
        "true: run a chip whose headroom is below what the link needs (chip.headroom_cells), its outputs labelled lossy"},
       [](Params& p, const std::string& v) { p.allow_lossy = parse_bool("run.allow_lossy", v); },
       [](const Params& p) { return std::string(p.allow_lossy ? "true" : "false"); }},
      {{"run.rtl_variant", "rtl/lockstep: RTL parameter set by name (default: the one matching the chip)"},
       [](Params& p, const std::string& v) { p.rtl_variant = v; },
       [](const Params& p) { return p.rtl_variant; }},
      U64("run.rtl_fault", rtl_fault, 0, kRtlFaults,
          "rtl/lockstep: plant this fault of tb/faults/dsh_faults.sv in the RTL (0 none; tests)"),
  };
  return e;
}

#undef NUM
#undef U64
#undef INT
#undef HOSTS

const Entry& find_entry(const std::string& key) {
  const Entry* hit = nullptr;
  int n = 0;
  for (const auto& e : entries()) {
    const std::string& k = e.info.key;
    if (k == key) return e;
    if (key.find('.') == std::string::npos && k.size() > key.size() &&
        k.compare(k.size() - key.size() - 1, std::string::npos, "." + key) == 0) {
      hit = &e;
      ++n;
    }
  }
  if (n == 1) return *hit;
  std::string known;
  for (const auto& e : entries()) known += " " + e.info.key;
  throw ConfigError("unknown or ambiguous key '" + key + "' (known:" + known + ")");
}

}  // namespace

std::vector<int> parse_int_list(const std::string& s, const std::string& what) {
  std::vector<int> out;
  for (const auto& item : split(s)) {
    const auto dots = item.find("..");
    if (dots == std::string::npos) {
      out.push_back(int(to_int(what, item)));
      continue;
    }
    const long long a = to_int(what, trim(item.substr(0, dots))), b = to_int(what, trim(item.substr(dots + 2)));
    if (b < a || b - a > 100000)
      throw ConfigError(what + " = " + quoted(item) + ": a range a..b needs a <= b and at most 100000 values");
    for (long long i = a; i <= b; ++i) out.push_back(int(i));
    if (out.size() > 100000) throw ConfigError(what + ": more than 100000 values");
  }
  return out;
}

std::vector<double> parse_num_list(const std::string& s, const std::string& what) {
  std::vector<double> out;
  for (const auto& item : split(s)) {
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

void check_burst_pct(const std::string& what, double pct) {
  if (!(pct > 0 && pct <= kBurstPctMax))
    throw ConfigError(what + " = " + num_str(pct) + " is out of range (0, " + num_str(kBurstPctMax) +
                      "] (% of the buffer)");
}

const std::vector<KeyInfo>& param_keys() {
  static const std::vector<KeyInfo> k = [] {
    std::vector<KeyInfo> v;
    for (const auto& e : entries()) v.push_back(e.info);
    return v;
  }();
  return k;
}

void Params::set(const std::string& key, const std::string& value) {
  const Entry& e = find_entry(trim(key));
  try {
    e.set(*this, trim(value));
  } catch (const InputError& x) {
    const std::string what = x.what();
    // Config::set names the field; say which key (unless the message does).
    if (what.rfind(e.info.key, 0) == 0) throw ConfigError(what);
    throw ConfigError(e.info.key + ": " + what);
  }
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
          throw ConfigError(at(v) + what + " = " + num_str(d) + " is out of range (" + num_str(lo) + ", 1e12]");
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
    if (g.rate_gbps > 100000) throw ConfigError(at(row) + name + ".rate_gbps = " + num_str(g.rate_gbps) + " is out of range (0, 100000]");
    for (const auto& o : generations)
      if (o.label() == g.label()) throw ConfigError(at(row) + name + ".rate_gbps = " + g.label() + " appears twice");
    generations.push_back(g);
  }
}

}  // namespace

void Params::load_toml(const std::string& path) { load_toml_text(read_text_file("scenario", path), path); }

void Params::load_toml_text(const std::string& text_in, const std::string& path) {
  const toml::table t = parse_toml(text_in, path);
  const auto text = [](const toml::node& n) { return toml_text(n); };
  for (const auto& [sec, node] : t) {
    if (sec.str() == "generation") {
      load_generations(generations, node, path);
      continue;
    }
    const auto* tab = node.as_table();
    if (!tab) throw ConfigError(path + ":" + std::to_string(node.source().begin.line) + ": top-level key '" +
                                std::string(sec.str()) + "' must be in a [section]");
    for (const auto& [k, v] : *tab) {
      const std::string key = std::string(sec.str()) + "." + std::string(k.str());
      try {
        set(key, text(v));
      } catch (const ConfigError& e) {
        throw ConfigError(path + ":" + std::to_string(v.source().begin.line) + ": " + e.what());
      }
    }
  }
}


std::string Generation::label() const { return num_str(rate_gbps); }

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
      throw ConfigError("sweep.generations = " + num_str(r) + " is not a [[generation]] rate_gbps (the table has:" +
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
  q.generation_rates.clear();
  q.link_gbps = g.rate_gbps;
  q.mmu_clock_ghz = mmu_ghz_per_100gbps * g.rate_gbps / 100.0;
  // Buffer time kept: the chip's bytes per Gb/s of capacity, times this switch's capacity.
  const double bytes = g.chip_buffer_mb * 1048576.0 * double(mmu.n_ports) * g.rate_gbps / g.chip_capacity_gbps;
  q.mmu.buffer_cells = uint64_t(std::floor(bytes / double(cell_bytes)));
  return q;
}

std::string Params::dump() const {
  std::ostringstream m;
  for (const auto& e : entries()) m << e.info.key << " = " << e.get(*this) << '\n';
  for (size_t i = 0; i < generations.size(); ++i) {
    const Generation& g = generations[i];
    m << "generation[" << i << "] = rate_gbps=" << g.label() << " chip_buffer_mb=" << num_str(g.chip_buffer_mb)
      << " chip_capacity_gbps=" << num_str(g.chip_capacity_gbps) << " chip=" << quoted(g.chip) << '\n';
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
    for (size_t i : selected_generations()) {
      try {
        for_generation(i).validate_scenario();
      } catch (const ConfigError& e) {
        throw ConfigError("generation rate_gbps = " + generations[i].label() + ": " + e.what());
      }
    }
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

uint64_t Params::link_headroom_cells() const {
  LinkParams l;
  l.link_gbps = link_gbps;
  l.prop_delay_ns = prop_delay_ns;
  l.mtu_bytes = mtu_bytes;
  l.processing_bytes = processing_bytes;
  l.cell_bytes = cell_bytes;
  l.pkt_bytes = packet_bytes;
  return dsh::headroom_cells(l);
}

uint64_t Params::link_headroom_cells(unsigned port) const {
  LinkParams l;
  l.link_gbps = rate_gbps(port);
  l.prop_delay_ns = prop_delay_ns;
  l.mtu_bytes = mtu_bytes;
  l.processing_bytes = processing_bytes;
  l.cell_bytes = cell_bytes;
  l.pkt_bytes = packet_bytes;
  return dsh::headroom_cells(l);
}

uint64_t Params::max_link_headroom_cells() const {
  uint64_t need = link_headroom_cells();
  for (unsigned p = 0; p < mmu.n_ports; ++p) need = std::max(need, link_headroom_cells(p));
  return need;
}

bool Params::lossy() const { return !headroom_auto && mmu.headroom_cells < max_link_headroom_cells(); }

void Params::validate_scenario() const {
  auto fail = [](const std::string& m) { throw ConfigError(m); };
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
  if (mmu.n_ports < 1 || mmu.n_ports > 1024)
    fail("chip.n_ports = " + std::to_string(mmu.n_ports) + " is out of range 1..1024");
  if (mmu.n_queues < 1 || mmu.n_queues > 64)
    fail("chip.n_queues = " + std::to_string(mmu.n_queues) + " is out of range 1..64");
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
  if (!(link_gbps > 0)) fail("link.rate_gbps must be > 0");
  if (!(prop_delay_ns >= 0)) fail("link.prop_delay_ns must be >= 0");
  if (!(mmu_clock_ghz > 0 && mmu_clock_ghz <= 1000)) fail("chip.mmu_clock_ghz must be in (0, 1000]");
  if (cell_bytes == 0) fail("chip.cell_bytes must be > 0");
  if (packet_bytes == 0 || packet_bytes > mtu_bytes)
    fail("traffic.packet_bytes = " + std::to_string(packet_bytes) + " must be 1..link.mtu_bytes (" +
         std::to_string(mtu_bytes) + ")");
  if (pause_frame_bytes == 0 || pause_frame_bytes > processing_bytes)
    fail("link.pause_frame_bytes = " + std::to_string(pause_frame_bytes) +
         " must be 1..link.processing_bytes (the frame is received within the processing time)");
  if (dwrr_quantum_bytes == 0) fail("switch.dwrr_quantum_bytes must be > 0");
  if (schemes.empty()) fail("sweep.schemes is empty");
  if (kind == Kind::PfcAvoidance && burst_pct.empty()) fail("sweep.burst_pct is empty");
  for (double b : burst_pct) check_burst_pct("sweep.burst_pct", b);
  if (jobs == 0 || jobs > 256) fail("run.jobs = " + std::to_string(jobs) + " is out of range 1..256");
  if (!(max_run_us > 0)) fail("traffic.max_run_us must be > 0");
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
