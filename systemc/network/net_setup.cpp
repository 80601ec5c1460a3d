// SPDX-License-Identifier: Apache-2.0
#include "net_setup.h"

#include <algorithm>
#include <cmath>

#include "input.h"

namespace dsh::net {

void declare_network_keys(KeyStore& k) {
  declare_switch_keys(k);
  k.allow_per_switch_chip();  // chip.<SWITCH>.<field>
  const auto names = [](const std::string& what) {
    return [what](const std::string& v) { expand_list(v, what); };
  };
  k.declare(list_key("net.switches", "", "switch names", names("net.switches")));
  k.declare(list_key("net.hosts", "", "host names (ranges H2..H25)", names("net.hosts")));
  k.declare(list_key("net.links", "", "links A-B[:gbps[:delay_ns]]; a node's ports are numbered in this order",
                     names("net.links")));
  k.declare(list_key("net.failed_links", "", "links A-B that carry nothing (their ports stay)", names("net.failed_links")));
  k.declare(list_key("net.routes", "",
                     "pinned routes SWITCH:DEST:NEXT (DEST a host, or a switch = its hosts) instead of ECMP there; "
                     "a route that makes a loop is refused"));
  k.declare(uint_key("net.ecmp_seed", 0, ~uint32_t(0), "0",
                     "mixed into every switch's ECMP hash seed (0: switch s hashes with a seed from s alone)"));
  k.declare(list_key("net.rtl_switches", "", "switches whose MMU is run.backend (rtl|lockstep); empty = every switch"));
  // DCQCN, HPCC ns-3 simulator defaults (see the scenario files for the sources).
  k.declare(real_key("dcqcn.kmin_kb", 0, 1e6, false, "400", "ECN Kmin at 100 Gb/s, KB = 1000 B; scaled with the link rate"));
  k.declare(real_key("dcqcn.kmax_kb", 0, 1e6, true, "1600", "ECN Kmax at 100 Gb/s, KB; scaled with the link rate"));
  k.declare(real_key("dcqcn.pmax", 0, 1, false, "0.2", "marking probability at Kmax"));
  k.declare(real_key("dcqcn.g", 0, 1, true, "0.00390625", "alpha gain"));
  k.declare(real_key("dcqcn.alpha_interval_us", 0, 1e6, true, "1", "alpha update period"));
  k.declare(real_key("dcqcn.decrease_interval_us", 0, 1e6, false, "4", "at most one rate cut per this"));
  k.declare(real_key("dcqcn.cnp_interval_us", 0, 1e6, false, "4", "receiver: at most one CNP per flow per this"));
  k.declare(real_key("dcqcn.increase_timer_us", 0, 1e6, true, "300", "rate-increase timer"));
  k.declare(uint_key("dcqcn.byte_counter_bytes", 0, uint64_t(1) << 40, "0", "rate-increase byte counter, 0 = off"));
  k.declare(uint_key("dcqcn.fast_recovery_steps", 0, 1000, "1", "increase events of fast recovery before additive increase"));
  k.declare(real_key("dcqcn.ai_mbps", 0, 1e6, false, "20", "additive increase at 100 Gb/s (scaled with the NIC rate)"));
  k.declare(real_key("dcqcn.hai_mbps", 0, 1e6, false, "200", "hyper increase at 100 Gb/s (scaled with the NIC rate)"));
  k.declare(real_key("dcqcn.min_rate_mbps", 0, 1e8, true, "1000", "rate floor"));
  k.declare(bool_key("dcqcn.clamp_target", "false", "target = rate at every cut"));
  k.declare(uint_key("dcqcn.cnp_bytes", 64, 1500, "64", "CNP frame size (class 7)"));
  // PowerTCP, its authors' ns-3 simulation defaults (powertcp.h; the scenario files cite each line).
  k.declare(real_key("powertcp.gamma", 0, 1, true, "0.9", "EWMA weight of the window update"));
  k.declare(real_key("powertcp.beta_mbps", 0, 1e6, false, "150",
                     "additive increase as a rate: beta * base RTT bytes per update"));
  k.declare(real_key("powertcp.target_util", 0, 1, true, "0.95", "the normalised power is divided by this"));
  k.declare(real_key("powertcp.min_rate_mbps", 0, 1e6, true, "100", "window floor, as a rate (window / base RTT)"));
  k.declare(real_key("powertcp.current_floor", 0, 1, false, "0.5",
                     "a hop's current (arrival rate) is at least this fraction of its link rate"));
  k.declare(real_key("powertcp.base_rtt_us", 0, 1e6, false, "0",
                     "base RTT tau; 0 = the largest over host pairs of 2 x propagation + one packet's serialisation per link"));
  k.declare(uint_key("powertcp.ack_bytes", 64, 1500, "64", "ACK frame size (class 7), one per data packet"));
  k.declare(list_key("run.schemes", "dsh,sih", "schemes to run", nullptr, {"dsh", "sih"}));
  k.declare(list_key("run.cc", "none,dcqcn", "congestion control", nullptr, {"none", "dcqcn", "powertcp"}));
  k.declare(uint_key("run.seed", 0, ~uint64_t(0) >> 11, "1", "random seed (ECN marking, workloads)"));
  k.declare(text_key("run.mismatch_dir", ".", "lockstep: where a mismatch writes its FST window"));
}

void declare_generator_keys(KeyStore& k) {
  k.declare(choice_key("net.generate", {"none", "leaf-spine", "fat-tree"}, "none",
                       "none = net.switches/hosts/links as listed; leaf-spine (net.leaves x net.spines, "
                       "net.hosts_per_leaf each) or fat-tree (net.fat_tree_k) generated, every link link.rate_gbps "
                       "and link.prop_delay_ns"));
  k.declare(uint_key("net.leaves", 1, 1024, "16", "leaf-spine: leaves L0.."));
  k.declare(uint_key("net.spines", 1, 1024, "16", "leaf-spine: spines S0.., each linked to every leaf"));
  k.declare(uint_key("net.hosts_per_leaf", 1, 1024, "16", "leaf-spine: hosts per leaf (H0.. in leaf order)"));
  k.declare(uint_key("net.fat_tree_k", 2, 64, "16", "fat-tree: k (even): k^3/4 hosts, 5k^2/4 switches"));
}

void check_network_keys(const KeyStore& k) {
  check_switch_keys(k);
  if (k.text("run.backend") == "golden" && !k.list("net.rtl_switches").empty())
    k.refuse("net.rtl_switches", "has no effect with run.backend = golden" + k.where("run.backend") +
                                     "; use rtl or lockstep");
}

std::vector<uint64_t> port_headroom_cells(const Topology& t, int sw, unsigned n_ports, unsigned lanes, const LinkParams& base,
                                          double mmu_clock_ghz) {
  // chip.headroom_cells = "auto" (switch_mmu.h): the admission wait counts
  // the links of the switch in a port's lane.
  auto eta = [&](double gbps, double delay_ns) {
    LinkParams l = base;
    l.link_gbps = gbps;
    l.prop_delay_ns = delay_ns;
    return auto_headroom_cells(l, t.ports(sw).size(), lanes, mmu_clock_ghz);
  };
  std::vector<uint64_t> etas(n_ports, eta(base.link_gbps, base.prop_delay_ns));
  const auto& ports = t.ports(sw);
  for (size_t p = 0; p < ports.size() && p < n_ports; ++p) etas[p] = eta(ports[p].gbps, ports[p].delay_ns);
  return etas;
}

NetSetup build_setup(const KeyStore& k) {
  NetSetup s;
  check_network_keys(k);
  const double rate = k.num("link.rate_gbps"), delay = k.num("link.prop_delay_ns");
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
  auto sws = k.list("net.switches"), hosts = k.list("net.hosts");
  const std::string gen = k.declared("net.generate") ? k.text("net.generate") : "none";
  if (gen != "none") {
    for (const std::string key : {"net.switches", "net.hosts", "net.links", "net.failed_links"})
      if (!k.list(key).empty()) k.refuse(key, "a listed network and net.generate = " + gen + k.where("net.generate") + ": give one");
    GeneratedNet g = gen == "leaf-spine"
                         ? leaf_spine(unsigned(k.u64("net.leaves")), unsigned(k.u64("net.spines")),
                                      unsigned(k.u64("net.hosts_per_leaf")), rate, delay)
                         : GeneratedNet{};
    if (gen == "fat-tree") {
      if (k.u64("net.fat_tree_k") % 2) k.refuse("net.fat_tree_k", "odd: a fat-tree's k is even");
      g = fat_tree(unsigned(k.u64("net.fat_tree_k")), rate, delay);
    }
    sws = std::move(g.switches);
    hosts = std::move(g.hosts);
    links = std::move(g.links);
  }
  if (sws.empty()) throw ConfigError("net.switches: no switch");
  if (hosts.empty()) throw ConfigError("net.hosts: no host");
  try {
    s.topo = std::make_unique<Topology>(sws, hosts, links, routes, k.u64("net.ecmp_seed"));
  } catch (const ConfigError& e) {  // name where the refused value came from: "net.routes (--set): ..."
    std::string m = e.what();
    for (const std::string key : {"net.routes", "net.links", "net.failed_links", "net"})
      if (m.rfind(key + ":", 0) == 0) {
        if (k.declared(key)) m.insert(key.size(), k.where(key));
        break;
      }
    throw ConfigError(m);
  }

  s.backend = backend_from_string(k.text("run.backend"));
  s.kernel = parse_kernel(k.text("run.kernel"), "run.kernel");
  s.rtl_switches = k.list("net.rtl_switches");
  for (const auto& n : s.rtl_switches)
    if (s.topo->node(n) < 0 || !s.topo->is_switch(s.topo->node(n)))
      throw ConfigError("net.rtl_switches: " + quoted(n) + " is not a switch");
  for (const auto& [sw, f] : k.chip_overrides())
    if (s.topo->node(sw) < 0 || !s.topo->is_switch(s.topo->node(sw)))
      throw ConfigError("chip." + sw + ".*: " + quoted(sw) + " is not a switch");
  s.schemes = k.list("run.schemes");
  s.ccs = k.list("run.cc");
  if (s.schemes.empty()) k.refuse("run.schemes", "empty");
  if (s.ccs.empty()) k.refuse("run.cc", "empty");

  FabricParams& fp = s.fp;
  fp.mtu_bytes = k.u64("link.mtu_bytes");
  fp.processing_bytes = k.u64("link.processing_bytes");
  fp.pause_frame_bytes = k.u64("link.pause_frame_bytes");
  fp.dwrr_quantum_bytes = k.u64("switch.dwrr_quantum_bytes");
  fp.kmin_kb_100g = k.num("dcqcn.kmin_kb");
  fp.kmax_kb_100g = k.num("dcqcn.kmax_kb");
  if (fp.kmax_kb_100g <= fp.kmin_kb_100g) k.refuse("dcqcn.kmax_kb", "must be above dcqcn.kmin_kb = " + k.text("dcqcn.kmin_kb"));
  fp.pmax = k.num("dcqcn.pmax");
  fp.cnp_interval_us = k.num("dcqcn.cnp_interval_us");
  fp.cnp_bytes = k.u64("dcqcn.cnp_bytes");
  DcqcnParams& d = fp.dcqcn_params;
  d.g = k.num("dcqcn.g");
  d.alpha_interval_us = k.num("dcqcn.alpha_interval_us");
  d.decrease_interval_us = k.num("dcqcn.decrease_interval_us");
  d.increase_timer_us = k.num("dcqcn.increase_timer_us");
  d.byte_counter = k.u64("dcqcn.byte_counter_bytes");
  d.fast_recovery_steps = unsigned(k.u64("dcqcn.fast_recovery_steps"));
  d.ai_gbps = k.num("dcqcn.ai_mbps") / 1000;
  d.hai_gbps = k.num("dcqcn.hai_mbps") / 1000;
  d.min_gbps = k.num("dcqcn.min_rate_mbps") / 1000;
  d.clamp_target = k.flag("dcqcn.clamp_target");
  PowerTcpParams& w = fp.powertcp_params;
  w.gamma = k.num("powertcp.gamma");
  w.beta_mbps = k.num("powertcp.beta_mbps");
  w.target_util = k.num("powertcp.target_util");
  w.min_rate_mbps = k.num("powertcp.min_rate_mbps");
  w.current_floor = k.num("powertcp.current_floor");
  fp.ack_bytes = k.u64("powertcp.ack_bytes");
  fp.packet_bytes = k.u64("traffic.packet_bytes");
  w.base_rtt_us = k.num("powertcp.base_rtt_us");
  if (w.base_rtt_us == 0) w.base_rtt_us = max_base_rtt_us(*s.topo, fp.packet_bytes);
  if (w.base_rtt_us <= 0) k.refuse("powertcp.base_rtt_us", "0 (auto) but no two hosts are connected");
  fp.seed = k.u64("run.seed");
  fp.full_compare = k.flag("run.full_compare");
  fp.rtl_fault = unsigned(k.u64("run.rtl_fault"));
  fp.mismatch_dir = k.text("run.mismatch_dir");
  return s;
}

void configure_run(NetSetup& s, const KeyStore& k, Scheme scheme, const std::string& cc) {
  const Topology& t = *s.topo;
  s.chips.clear();
  s.fp.dcqcn = cc == "dcqcn";
  s.fp.powertcp = cc == "powertcp";
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
      if (name != "scheme" && name != "port_headroom_cells" && name != "headroom_cells")
        m.set(name, field(name));
    }
    c.cell_bytes = std::stoull(field("cell_bytes"));  // checked by the key's declaration
    c.mmu_clock_ghz = std::stod(field("mmu_clock_ghz"));
    LinkParams lp;
    lp.mtu_bytes = s.fp.mtu_bytes;
    lp.processing_bytes = s.fp.processing_bytes;
    lp.cell_bytes = c.cell_bytes;
    lp.pkt_bytes = s.fp.packet_bytes;
    lp.link_gbps = k.num("link.rate_gbps");  // a port without a link: the default link
    lp.prop_delay_ns = k.num("link.prop_delay_ns");
    const std::string h = field("headroom_cells");
    if (h == "auto") {  // per port; one eta when every port needs the same
      const auto etas = port_headroom_cells(t, int(sw), m.n_ports, m.lanes, lp, c.mmu_clock_ghz);
      m.headroom_cells = *std::max_element(etas.begin(), etas.end());
      if (std::any_of(etas.begin(), etas.end(), [&](uint64_t e) { return e != etas[0]; })) m.port_headroom_cells = etas;
    } else {
      m.headroom_cells = std::stoull(h);  // checked by the key's declaration
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
