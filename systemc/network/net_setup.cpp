// SPDX-License-Identifier: Apache-2.0
#include "net_setup.h"

#include <algorithm>
#include <cmath>

#include "input.h"
#include "tlm_netlist.h"
#include "watchdog_keys.h"

namespace dsh::net {

namespace {

// The shared keys (switch_keys.h) that fill the network's structs.
void bind_shared_keys(KeyStore& k) {
  k.fills("link.mtu_bytes", &FabricParams::mtu_bytes);
  k.fills("link.processing_bytes", &FabricParams::processing_bytes);
  k.fills("link.pause_frame_bytes", &FabricParams::pause_frame_bytes);
  k.fills("switch.dwrr_quantum_bytes", &FabricParams::dwrr_quantum_bytes);
  k.fills("traffic.packet_bytes", &FabricParams::packet_bytes);
  k.fills("run.full_compare", &FabricParams::full_compare);
  k.fills("run.rtl_fault", &FabricParams::rtl_fault);
  k.fills("run.backend", &NetSetup::backend, backend_from_string);
  k.fills("run.kernel", &NetSetup::kernel, [](const std::string& v) { return parse_kernel(v, "run.kernel"); });
  k.fills("chip.cell_bytes", &ChipSpec::cell_bytes);
  k.fills("chip.mmu_clock_ghz", &ChipSpec::mmu_clock_ghz);
  k.fills("link.rate_gbps", &NetKeys::rate_gbps);
  k.fills("link.prop_delay_ns", &NetKeys::prop_delay_ns);
  k.fills("link.rate_gbps", &LinkParams::link_gbps);
  k.fills("link.prop_delay_ns", &LinkParams::prop_delay_ns);
  k.fills("link.mtu_bytes", &LinkParams::mtu_bytes);
  k.fills("link.processing_bytes", &LinkParams::processing_bytes);
  k.fills("chip.cell_bytes", &LinkParams::cell_bytes);
  k.fills("traffic.packet_bytes", &LinkParams::pkt_bytes);
}

}  // namespace

void declare_network_keys(KeyStore& k) {
  declare_switch_keys(k);
  k.allow_per_switch_chip();  // chip.<SWITCH>.<field>
  const auto names = [](const std::string& what) {
    return [what](const std::string& v) { expand_list(v, what); };
  };
  k.bind(list_key("net.switches", "", "switch names", names("net.switches")), &NetKeys::switches);
  k.bind(list_key("net.hosts", "", "host names (ranges H2..H25)", names("net.hosts")), &NetKeys::hosts);
  k.bind(list_key("net.links", "", "links A-B[:gbps[:delay_ns]]; a node's ports are numbered in this order",
                  names("net.links")),
         &NetKeys::links);
  k.bind(list_key("net.failed_links", "", "links A-B that carry nothing (their ports stay)", names("net.failed_links")),
         &NetKeys::failed_links);
  k.bind(list_key("net.routes", "",
                  "pinned routes SWITCH:DEST:NEXT (DEST a host, or a switch = its hosts) instead of ECMP there; "
                  "a route that makes a loop is refused"),
         &NetKeys::routes);
  k.bind(uint_key("net.ecmp_seed", 0, ~uint32_t(0), "0",
                  "mixed into every switch's ECMP hash seed (0: switch s hashes with a seed from s alone)"),
         &NetKeys::ecmp_seed);
  k.bind(list_key("net.rtl_switches", "", "switches whose MMU is run.backend (rtl|lockstep); empty = every switch"),
         &NetSetup::rtl_switches);
  // DCQCN, HPCC ns-3 simulator defaults (see the scenario files for the sources).
  using F = FabricParams;
  using D = DcqcnParams;
  k.bind(real_key("dcqcn.kmin_kb", 0, 1e6, false, "400", "ECN Kmin at 100 Gb/s, KB = 1000 B; scaled with the link rate"),
         &F::kmin_kb_100g);
  k.bind(real_key("dcqcn.kmax_kb", 0, 1e6, true, "1600", "ECN Kmax at 100 Gb/s, KB; scaled with the link rate"),
         &F::kmax_kb_100g);
  k.bind(real_key("dcqcn.pmax", 0, 1, false, "0.2", "marking probability at Kmax"), &F::pmax);
  k.bind(real_key("dcqcn.g", 0, 1, true, "0.00390625", "alpha gain"), &D::g);
  k.bind(real_key("dcqcn.alpha_interval_us", 0, 1e6, true, "1", "alpha update period"), &D::alpha_interval_us);
  k.bind(real_key("dcqcn.decrease_interval_us", 0, 1e6, false, "4", "at most one rate cut per this"),
         &D::decrease_interval_us);
  k.bind(real_key("dcqcn.cnp_interval_us", 0, 1e6, false, "4", "receiver: at most one CNP per flow per this"),
         &F::cnp_interval_us);
  k.bind(real_key("dcqcn.increase_timer_us", 0, 1e6, true, "300", "rate-increase timer"), &D::increase_timer_us);
  k.bind(uint_key("dcqcn.byte_counter_bytes", 0, uint64_t(1) << 40, "0", "rate-increase byte counter, 0 = off"),
         &D::byte_counter);
  k.bind(uint_key("dcqcn.fast_recovery_steps", 0, 1000, "1", "increase events of fast recovery before additive increase"),
         &D::fast_recovery_steps);
  const auto gbps = [](const std::string& mbps) { return std::stod(mbps) / 1000; };
  k.bind(real_key("dcqcn.ai_mbps", 0, 1e6, false, "20", "additive increase at 100 Gb/s (scaled with the NIC rate)"),
         &D::ai_gbps, gbps);
  k.bind(real_key("dcqcn.hai_mbps", 0, 1e6, false, "200", "hyper increase at 100 Gb/s (scaled with the NIC rate)"),
         &D::hai_gbps, gbps);
  k.bind(real_key("dcqcn.min_rate_mbps", 0, 1e8, true, "1000", "rate floor"), &D::min_gbps, gbps);
  k.bind(bool_key("dcqcn.clamp_target", "false", "target = rate at every cut"), &D::clamp_target);
  k.bind(uint_key("dcqcn.cnp_bytes", 64, 1500, "64", "CNP frame size (class 7)"), &F::cnp_bytes);
  // PowerTCP, its authors' ns-3 simulation defaults (powertcp.h; the scenario files cite each line).
  using W = PowerTcpParams;
  k.bind(real_key("powertcp.gamma", 0, 1, true, "0.9", "EWMA weight of the window update"), &W::gamma);
  k.bind(real_key("powertcp.beta_mbps", 0, 1e6, false, "150", "additive increase as a rate: beta * base RTT bytes per update"),
         &W::beta_mbps);
  k.bind(real_key("powertcp.target_util", 0, 1, true, "0.95", "the normalised power is divided by this"), &W::target_util);
  k.bind(real_key("powertcp.min_rate_mbps", 0, 1e6, true, "100", "window floor, as a rate (window / base RTT)"),
         &W::min_rate_mbps);
  k.bind(real_key("powertcp.current_floor", 0, 1, false, "0.5",
                  "a hop's current (arrival rate) is at least this fraction of its link rate"),
         &W::current_floor);
  k.bind(real_key("powertcp.base_rtt_us", 0, 1e6, false, "0",
                  "base RTT tau; 0 = the largest over host pairs of 2 x propagation + one packet's serialisation per link"),
         &W::base_rtt_us);
  k.bind(uint_key("powertcp.ack_bytes", 64, 1500, "64", "ACK frame size (class 7), one per data packet"), &F::ack_bytes);
  k.bind(list_key("run.schemes", "dsh,sih", "schemes to run", nullptr, {"dsh", "sih"}), &NetSetup::schemes);
  k.bind(list_key("run.cc", "none,dcqcn", "congestion control", nullptr, {"none", "dcqcn", "powertcp"}), &NetSetup::ccs);
  k.bind(uint_key("run.seed", 0, ~uint64_t(0) >> 11, "1", "random seed (ECN marking, workloads)"), &F::seed);
  k.bind(text_key("run.mismatch_dir", ".", "lockstep: where a mismatch writes its FST window"), &F::mismatch_dir);
  declare_watchdog_keys(k);
  bind_shared_keys(k);
}

void declare_generator_keys(KeyStore& k) {
  k.bind(choice_key("net.generate", {"none", "leaf-spine", "fat-tree"}, "none",
                    "none = net.switches/hosts/links as listed; leaf-spine (net.leaves x net.spines, "
                    "net.hosts_per_leaf each) or fat-tree (net.fat_tree_k) generated, every link link.rate_gbps "
                    "and link.prop_delay_ns"),
         &NetKeys::generate);
  k.bind(uint_key("net.leaves", 1, 1024, "16", "leaf-spine: leaves L0.."), &NetKeys::leaves);
  k.bind(uint_key("net.spines", 1, 1024, "16", "leaf-spine: spines S0.., each linked to every leaf"), &NetKeys::spines);
  k.bind(uint_key("net.hosts_per_leaf", 1, 1024, "16", "leaf-spine: hosts per leaf (H0.. in leaf order)"),
         &NetKeys::hosts_per_leaf);
  k.bind(uint_key("net.fat_tree_k", 2, 64, "16", "fat-tree: k (even): k^3/4 hosts, 5k^2/4 switches"), &NetKeys::fat_tree_k);
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

namespace {

bool same_link(const LinkSpec& x, const LinkSpec& l) { return (x.a == l.a && x.b == l.b) || (x.a == l.b && x.b == l.a); }

// The listed network: net.links with net.failed_links marked.
std::vector<LinkSpec> listed_links(const NetKeys& n) {
  std::vector<LinkSpec> links, failed;
  for (const auto& f : n.failed_links) failed.push_back(parse_link(f, n.rate_gbps, n.prop_delay_ns, "net.failed_links"));
  for (const auto& item : n.links) {
    LinkSpec l = parse_link(item, n.rate_gbps, n.prop_delay_ns, "net.links");
    for (const auto& x : failed) l.failed |= same_link(x, l);
    links.push_back(l);
  }
  for (size_t i = 0; i < failed.size(); ++i)
    if (std::none_of(links.begin(), links.end(), [&](const LinkSpec& l) { return same_link(failed[i], l); }))
      throw ConfigError("net.failed_links: " + n.failed_links[i] + " is not in net.links");
  return links;
}

// net.generate's network, refusing a listed one beside it.
GeneratedNet generated_net(const KeyStore& k, const NetKeys& n) {
  const std::pair<const char*, const std::vector<std::string>*> listed[] = {
      {"net.switches", &n.switches}, {"net.hosts", &n.hosts}, {"net.links", &n.links}, {"net.failed_links", &n.failed_links}};
  for (const auto& [key, list] : listed)
    if (!list->empty())
      k.refuse(key, "a listed network and net.generate = " + n.generate + k.where("net.generate") + ": give one");
  if (n.generate == "leaf-spine") return leaf_spine(n.leaves, n.spines, n.hosts_per_leaf, n.rate_gbps, n.prop_delay_ns);
  if (n.fat_tree_k % 2) k.refuse("net.fat_tree_k", "odd: a fat-tree's k is even");
  return fat_tree(n.fat_tree_k, n.rate_gbps, n.prop_delay_ns);
}

std::unique_ptr<Topology> build_topology(const KeyStore& k) {
  NetKeys n;
  k.fill(n);
  std::vector<Route> routes;
  for (const auto& r : n.routes) routes.push_back(parse_route(r, "net.routes"));
  GeneratedNet g{n.switches, n.hosts, {}};
  if (n.generate == "none") g.links = listed_links(n);
  else g = generated_net(k, n);
  if (g.switches.empty()) throw ConfigError("net.switches: no switch");
  if (g.hosts.empty()) throw ConfigError("net.hosts: no host");
  try {
    return std::make_unique<Topology>(g.switches, g.hosts, g.links, routes, n.ecmp_seed);
  } catch (const ConfigError& e) {  // name where the refused value came from: "net.routes (--set): ..."
    std::string m = e.what();
    for (const std::string key : {"net.routes", "net.links", "net.failed_links", "net"})
      if (m.rfind(key + ":", 0) == 0) {
        if (k.declared(key)) m.insert(key.size(), k.where(key));
        break;
      }
    throw ConfigError(m);
  }
}

}  // namespace

NetSetup build_setup(const KeyStore& k) {
  NetSetup s;
  check_network_keys(k);
  s.topo = build_topology(k);
  k.fill(s);
  k.fill(s.fp);
  k.fill(s.fp.dcqcn_params);
  k.fill(s.fp.powertcp_params);
  for (const auto& n : s.rtl_switches)
    if (s.topo->node(n) < 0 || !s.topo->is_switch(s.topo->node(n)))
      throw ConfigError("net.rtl_switches: " + quoted(n) + " is not a switch");
  for (const auto& [sw, f] : k.chip_overrides())
    if (s.topo->node(sw) < 0 || !s.topo->is_switch(s.topo->node(sw)))
      throw ConfigError("chip." + sw + ".*: " + quoted(sw) + " is not a switch");
  if (s.schemes.empty()) k.refuse("run.schemes", "empty");
  if (s.ccs.empty()) k.refuse("run.cc", "empty");
  if (s.fp.kmax_kb_100g <= s.fp.kmin_kb_100g)
    k.refuse("dcqcn.kmax_kb", "must be above dcqcn.kmin_kb = " + k.text("dcqcn.kmin_kb"));
  const sc::WireKeys wire = sc::wire_keys(k);  // derived: the flow-control mode, its times, DSCPs, captures
  sc::set_wire(s.fp, wire);
  apply_watchdog_keys(k, *s.topo, s.fp);
  s.capture_links = wire.capture_links;
  PowerTcpParams& w = s.fp.powertcp_params;
  if (w.base_rtt_us == 0) w.base_rtt_us = max_base_rtt_us(*s.topo, s.fp.packet_bytes);  // "auto"
  if (w.base_rtt_us <= 0) k.refuse("powertcp.base_rtt_us", "0 (auto) but no two hosts are connected");
  return s;
}

void configure_run(NetSetup& s, const KeyStore& k, Scheme scheme, const std::string& cc) {
  const Topology& t = *s.topo;
  s.chips.clear();
  s.fp.dcqcn = cc == "dcqcn";
  s.fp.powertcp = cc == "powertcp";
  for (size_t sw = 0; sw < t.n_switches(); ++sw) {
    const std::string& name = t.name(int(sw));
    ChipSpec c;
    Config& m = c.mmu;
    k.fill(c, name);  // the switch's chip.<name>.<field> where given
    k.fill(m, name);
    LinkParams lp;  // a port without a link: the default link
    k.fill(lp, name);
    if (k.chip_text("chip.headroom_cells", name) == "auto") {  // per port; one eta when every port needs the same
      const auto etas = port_headroom_cells(t, int(sw), m.n_ports, m.lanes, lp, c.mmu_clock_ghz);
      m.headroom_cells = *std::max_element(etas.begin(), etas.end());
      if (std::any_of(etas.begin(), etas.end(), [&](uint64_t e) { return e != etas[0]; })) m.port_headroom_cells = etas;
    }
    m.scheme = scheme;
    if (t.ports(int(sw)).size() > m.n_ports)  // the chip against the topology, before any run
      throw ConfigError("chip.n_ports = " + std::to_string(m.n_ports) + k.where("chip.n_ports") + ": switch " + name +
                        " has " + std::to_string(t.ports(int(sw)).size()) + " links, one port each");
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

void check_class_queues(const KeyStore& k, const NetSetup& s, const std::string& key, uint64_t cls) {
  for (size_t sw = 0; sw < s.chips.size(); ++sw)
    if (cls >= s.chips[sw].mmu.n_queues)
      k.refuse(key, "switch " + s.topo->name(int(sw)) + "'s chip has no queue for it (chip.n_queues = " +
                        std::to_string(s.chips[sw].mmu.n_queues) + ": queues 0.." +
                        std::to_string(s.chips[sw].mmu.n_queues - 1) + ")");
}

namespace {
std::string& capture_file() {
  static std::string path;
  return path;
}
}  // namespace

void set_capture_file(const std::string& path) { capture_file() = path; }

RunFabric::RunFabric(const NetSetup& s)
    : fab(*s.topo, s.chips, s.fp),
      capture(capture_file().empty() ? nullptr : std::make_unique<Capture>(fab, capture_file(), s.capture_links)),
      netlist(s.kernel == Kernel::SystemC ? std::make_unique<tlmnet::Netlist>(fab) : nullptr) {}

RunFabric::~RunFabric() = default;

double RunFabric::wall_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double RunFabric::cpu_s() const { return double(std::clock() - cpu0) / CLOCKS_PER_SEC; }

std::string RunFabric::end_error() {
  std::string error = fab.error;
  if (error.empty())
    for (size_t sw = 0; sw < fab.topo().n_switches(); ++sw) try {
        fab.mmu(int(sw)).finish();
      } catch (const std::exception& e) {
        error = e.what();
      }
  return error;
}

}  // namespace dsh::net
