#include "net_setup.h"

#include <algorithm>
#include <cmath>

#include "input.h"

namespace dsh::net {

void declare_common_keys(KeyStore& k) {
  k.declare("scenario.name", "", "output folder name (out/<name>)");
  k.declare("scenario.kind", "", "collateral-damage | deadlock");
  // The MMU fields from the one field table (golden/config.h), its defaults
  // (spec §1.2); every switch gets them unless chip.<SWITCH>.<field> overrides.
  // eta comes from the links unless given; the scheme is the run's.
  for (const ConfigField& f : config_fields()) {
    const std::string name = f.name;
    if (name == "scheme" || name == "port_headroom_cells") continue;
    if (name == "headroom_cells")
      k.declare("chip.headroom_cells", "auto", "eta, cells; auto = what each port's link needs");
    else
      k.declare("chip." + name, f.default_text(),
                std::string(f.help) + (*f.unit ? ", " + std::string(f.unit) : "") + " (" + f.range() + ")");
  }
  k.declare("chip.cell_bytes", "256", "cell size, bytes");
  k.declare("chip.mmu_clock_ghz", "1.0", "MMU clock of the chip, GHz (one enqueue + one dequeue per cycle)");
  k.declare("link.rate_gbps", "100", "default link rate (a link item A-B:gbps:delay_ns overrides)");
  k.declare("link.prop_delay_ns", "2000", "default link propagation delay");
  k.declare("link.mtu_bytes", "1500", "MTU for the headroom formula");
  k.declare("link.processing_bytes", "3840", "PAUSE frame first bit in -> upstream decides (spec §7.1 item 3)");
  k.declare("link.pause_frame_bytes", "64", "PFC frame on the wire (class 7)");
  k.declare("switch.dwrr_quantum_bytes", "1600", "DWRR quantum of the lossless classes");
  k.declare("net.switches", "", "switch names");
  k.declare("net.hosts", "", "host names (ranges H2..H25)");
  k.declare("net.links", "", "links A-B[:gbps[:delay_ns]]; a node's ports are numbered in this order");
  k.declare("net.failed_links", "", "links A-B that carry nothing (their ports stay)");
  k.declare("net.routes", "", "explicit routes SWITCH:DEST:NEXT (DEST a host, or a switch = its hosts)");
  k.declare("net.rtl_switches", "", "switches whose MMU is run.backend (rtl|lockstep); empty = every switch");
  // DCQCN, HPCC ns-3 simulator defaults (see the scenario files for the sources).
  k.declare("dcqcn.kmin_kb", "400", "ECN Kmin at 100 Gb/s, KB = 1000 B; scaled with the link rate");
  k.declare("dcqcn.kmax_kb", "1600", "ECN Kmax at 100 Gb/s, KB; scaled with the link rate");
  k.declare("dcqcn.pmax", "0.2", "marking probability at Kmax");
  k.declare("dcqcn.g", "0.00390625", "alpha gain");
  k.declare("dcqcn.alpha_interval_us", "1", "alpha update period");
  k.declare("dcqcn.decrease_interval_us", "4", "at most one rate cut per this");
  k.declare("dcqcn.cnp_interval_us", "4", "receiver: at most one CNP per flow per this");
  k.declare("dcqcn.increase_timer_us", "300", "rate-increase timer");
  k.declare("dcqcn.byte_counter_bytes", "0", "rate-increase byte counter, 0 = off");
  k.declare("dcqcn.fast_recovery_steps", "1", "increase events of fast recovery before additive increase");
  k.declare("dcqcn.ai_mbps", "20", "additive increase at 100 Gb/s (scaled with the NIC rate)");
  k.declare("dcqcn.hai_mbps", "200", "hyper increase at 100 Gb/s (scaled with the NIC rate)");
  k.declare("dcqcn.min_rate_mbps", "1000", "rate floor");
  k.declare("dcqcn.clamp_target", "false", "target = rate at every cut");
  k.declare("dcqcn.cnp_bytes", "64", "CNP frame size (class 7)");
  k.declare("traffic.packet_bytes", "1500", "data packet size (the last packet of a flow may be shorter)");
  k.declare("run.kernel", "events", "what runs the model: events (its own event queue) | systemc (the SystemC kernel, "
            "TLM-2.0 netlist; one process per run); the same results");
  k.declare("run.backend", "golden", "MMU of the switches in net.rtl_switches: golden | rtl | lockstep");
  k.declare("run.schemes", "dsh,sih", "schemes to run");
  k.declare("run.cc", "none,dcqcn", "congestion control: none | dcqcn");
  k.declare("run.seed", "1", "random seed (ECN marking, workloads)");
  k.declare("run.full_compare", "false", "lockstep: compare every queue every cycle");
  k.declare("run.rtl_fault", "0", "rtl/lockstep: plant fault N of tb/faults/dsh_faults.sv (1..11; the checker's self-test), 0 none");
  k.declare("run.mismatch_dir", ".", "lockstep: where a mismatch writes its FST window");
}

std::vector<uint64_t> port_headroom_cells(const Topology& t, int sw, unsigned n_ports, const LinkParams& base,
                                          double mmu_clock_ghz) {
  // spec §7.2: the spec §1.3 formula has no slack for the admission wait (one
  // enqueue per cycle: up to one cycle per link of the switch) and the
  // decision latency (kRtlLatency + 1 cycles to act). At 100 Gb/s the
  // whole-packet rounding of spec §1.3 happens to cover them (12.8 ns); at
  // 400 Gb/s it leaves 3.2 ns and a 400 Gb/s uplink overflows by a packet.
  // So they are added here, at each link's rate.
  const double wait_ns = double(kRtlLatency + 1 + t.ports(sw).size()) / mmu_clock_ghz;
  auto eta = [&](double gbps, double delay_ns) {
    LinkParams l = base;
    l.processing_bytes += uint64_t(std::ceil(wait_ns * gbps / 8.0));
    l.link_gbps = gbps;
    l.prop_delay_ns = delay_ns;
    return headroom_cells(l);
  };
  std::vector<uint64_t> etas(n_ports, eta(base.link_gbps, base.prop_delay_ns));
  const auto& ports = t.ports(sw);
  for (size_t p = 0; p < ports.size() && p < n_ports; ++p) etas[p] = eta(ports[p].gbps, ports[p].delay_ns);
  return etas;
}

NetSetup build_setup(const KeyStore& k) {
  NetSetup s;
  const double rate = k.num("link.rate_gbps", 0, 1e5, true), delay = k.num("link.prop_delay_ns", 0, 1e9);
  std::vector<LinkSpec> links;
  const auto failed = k.list("net.failed_links");
  for (const auto& item : k.list("net.links")) {
    LinkSpec l = parse_link(item, rate, delay, "net.links");
    for (const auto& f : failed) {
      const LinkSpec x = parse_link(f, rate, delay, "net.failed_links");
      if ((x.a == l.a && x.b == l.b) || (x.a == l.b && x.b == l.a)) l.failed = true;
    }
    links.push_back(l);
  }
  for (const auto& f : failed) {
    const LinkSpec x = parse_link(f, rate, delay, "net.failed_links");
    bool found = false;
    for (const auto& l : links) found |= (x.a == l.a && x.b == l.b) || (x.a == l.b && x.b == l.a);
    if (!found) throw ConfigError("net.failed_links: " + f + " is not in net.links");
  }
  std::vector<Route> routes;
  for (const auto& r : k.list("net.routes")) routes.push_back(parse_route(r, "net.routes"));
  const auto sws = k.list("net.switches"), hosts = k.list("net.hosts");
  if (sws.empty()) throw ConfigError("net.switches: no switch");
  if (hosts.empty()) throw ConfigError("net.hosts: no host");
  s.topo = std::make_unique<Topology>(sws, hosts, links, routes);

  s.backend = backend_from_string(k.text("run.backend"));
  s.kernel = parse_kernel(k.text("run.kernel"), "run.kernel");
  s.rtl_switches = k.list("net.rtl_switches");
  for (const auto& n : s.rtl_switches)
    if (s.topo->node(n) < 0 || !s.topo->is_switch(s.topo->node(n)))
      throw ConfigError("net.rtl_switches: " + quoted(n) + " is not a switch");
  for (const auto& [sw, f] : k.chip_overrides())
    if (s.topo->node(sw) < 0 || !s.topo->is_switch(s.topo->node(sw)))
      throw ConfigError("chip." + sw + ".*: " + quoted(sw) + " is not a switch");
  for (const auto& x : k.list("run.schemes")) {
    if (x != "dsh" && x != "sih") throw ConfigError("run.schemes: " + quoted(x) + " is not dsh or sih");
    s.schemes.push_back(x);
  }
  for (const auto& x : k.list("run.cc")) {
    if (x != "none" && x != "dcqcn") throw ConfigError("run.cc: " + quoted(x) + " is not none or dcqcn");
    s.ccs.push_back(x);
  }
  if (s.schemes.empty()) throw ConfigError("run.schemes: empty");
  if (s.ccs.empty()) throw ConfigError("run.cc: empty");

  FabricParams& fp = s.fp;
  fp.mtu_bytes = k.u64("link.mtu_bytes", 64, 9216);
  fp.processing_bytes = k.u64("link.processing_bytes", 0, 1 << 20);
  fp.pause_frame_bytes = k.u64("link.pause_frame_bytes", 64, 1500);
  if (fp.processing_bytes < fp.pause_frame_bytes)
    throw ConfigError("link.processing_bytes = " + std::to_string(fp.processing_bytes) + ": at least link.pause_frame_bytes");
  fp.dwrr_quantum_bytes = k.u64("switch.dwrr_quantum_bytes", 1, 1 << 20);
  fp.kmin_kb_100g = k.num("dcqcn.kmin_kb", 0, 1e6);
  fp.kmax_kb_100g = k.num("dcqcn.kmax_kb", 0, 1e6, true);
  if (fp.kmax_kb_100g <= fp.kmin_kb_100g) throw ConfigError("dcqcn.kmax_kb: must be above dcqcn.kmin_kb");
  fp.pmax = k.num("dcqcn.pmax", 0, 1);
  fp.cnp_interval_us = k.num("dcqcn.cnp_interval_us", 0, 1e6);
  fp.cnp_bytes = k.u64("dcqcn.cnp_bytes", 64, 1500);
  DcqcnParams& d = fp.dcqcn_params;
  d.g = k.num("dcqcn.g", 0, 1, true);
  d.alpha_interval_us = k.num("dcqcn.alpha_interval_us", 0, 1e6, true);
  d.decrease_interval_us = k.num("dcqcn.decrease_interval_us", 0, 1e6);
  d.increase_timer_us = k.num("dcqcn.increase_timer_us", 0, 1e6, true);
  d.byte_counter = k.u64("dcqcn.byte_counter_bytes", 0, uint64_t(1) << 40);
  d.fast_recovery_steps = unsigned(k.u64("dcqcn.fast_recovery_steps", 0, 1000));
  d.ai_gbps = k.num("dcqcn.ai_mbps", 0, 1e6) / 1000;
  d.hai_gbps = k.num("dcqcn.hai_mbps", 0, 1e6) / 1000;
  d.min_gbps = k.num("dcqcn.min_rate_mbps", 0, 1e8, true) / 1000;
  d.clamp_target = k.flag("dcqcn.clamp_target");
  fp.packet_bytes = k.u64("traffic.packet_bytes", 64, fp.mtu_bytes);
  fp.seed = k.u64("run.seed", 0, ~uint64_t(0) >> 1);
  fp.full_compare = k.flag("run.full_compare");
  fp.rtl_fault = unsigned(k.u64("run.rtl_fault", 0, kRtlFaults));
  fp.mismatch_dir = k.text("run.mismatch_dir");
  return s;
}

void configure_run(NetSetup& s, const KeyStore& k, Scheme scheme, const std::string& cc) {
  const Topology& t = *s.topo;
  s.chips.clear();
  s.fp.dcqcn = cc == "dcqcn";
  for (size_t sw = 0; sw < t.n_switches(); ++sw) {
    const std::string& name = t.name(int(sw));
    auto field = [&](const std::string& f) -> std::string {
      const auto& o = k.chip_overrides();
      const auto it = o.find(name);
      if (it != o.end() && it->second.count(f)) return it->second.at(f);
      return k.text("chip." + f);
    };
    const std::string where = name == "" ? "chip" : "chip (switch " + name + ")";
    ChipSpec c;
    Config& m = c.mmu;
    for (const ConfigField& f : config_fields()) {
      const std::string name = f.name;
      if (name != "scheme" && name != "port_headroom_cells" && name != "headroom_cells") m.set(name, field(name));
    }
    c.cell_bytes = parse_uint(where + ".cell_bytes", field("cell_bytes"), 16, 65536);
    c.mmu_clock_ghz = parse_real(where + ".mmu_clock_ghz", field("mmu_clock_ghz"), 0.01, 100, true);
    LinkParams lp;
    lp.mtu_bytes = s.fp.mtu_bytes;
    lp.processing_bytes = s.fp.processing_bytes;
    lp.cell_bytes = c.cell_bytes;
    lp.pkt_bytes = s.fp.packet_bytes;
    lp.link_gbps = k.num("link.rate_gbps", 0, 1e5, true);  // a port without a link: the default link
    lp.prop_delay_ns = k.num("link.prop_delay_ns", 0, 1e9);
    const std::string h = field("headroom_cells");
    if (h == "auto") {  // per port; one eta when every port needs the same
      const auto etas = port_headroom_cells(t, int(sw), m.n_ports, lp, c.mmu_clock_ghz);
      m.headroom_cells = *std::max_element(etas.begin(), etas.end());
      if (std::any_of(etas.begin(), etas.end(), [&](uint64_t e) { return e != etas[0]; })) m.port_headroom_cells = etas;
    } else {
      m.headroom_cells = parse_uint(where + ".headroom_cells", h, 0, 1 << 20);
    }
    m.scheme = scheme;
    const bool named = s.rtl_switches.empty() ||
                       std::find(s.rtl_switches.begin(), s.rtl_switches.end(), name) != s.rtl_switches.end();
    c.backend = named ? s.backend : Backend::Golden;
    try {
      m.validate(widths_for(m, c.backend));
    } catch (const ConfigError& e) {
      throw ConfigError(std::string(to_string(scheme)) + " on switch " + name + ": " + e.what());
    }
    s.chips.push_back(c);
  }
}

}  // namespace dsh::net
