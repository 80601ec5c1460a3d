// SPDX-License-Identifier: Apache-2.0
// The keys every network scenario shares and the network they describe:
// topology, one chip per switch (the contract's chip unless a scenario
// overrides it, per switch with chip.<SWITCH>.<field>), each switch's MMU
// backend, the transport and DCQCN settings.
#pragma once

#include <chrono>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "capture.h"
#include "fabric.h"
#include "switch_keys.h"
#include "wire_params.h"
#include "topology.h"

namespace dsh::tlmnet {
class Netlist;
}

namespace dsh::net {

using sc::KeyStore;
using sc::bool_key, sc::choice_key, sc::expand_list, sc::list_key, sc::real_key, sc::text_key, sc::uint_key;

// Declares the keys of every network scenario: the switch model's
// (switch_keys.h), per-switch chip overrides, [net], [dcqcn] and the run's
// schemes, congestion controls and seed.
void declare_network_keys(KeyStore& k);
// net.generate and its sizes: a leaf-spine or a fat-tree made by a generator
// (topology.h) instead of listed switches, hosts and links. Declared by the
// scenarios that take it (benchmark); build_setup reads them when declared.
void declare_generator_keys(KeyStore& k);
// check_switch_keys and the network's combinations.
void check_network_keys(const KeyStore& k);

// The [net] keys of the topology, each filled by its declaration.
struct NetKeys {
  std::vector<std::string> switches, hosts, links, failed_links, routes;  // ranges expanded
  uint64_t ecmp_seed = 0;
  std::string generate = "none";  // net.generate, when the scenario declares it
  unsigned leaves = 0, spines = 0, hosts_per_leaf = 0, fat_tree_k = 0;
  double rate_gbps = 0, prop_delay_ns = 0;  // a link's default
};

struct NetSetup {
  std::unique_ptr<Topology> topo;
  std::vector<ChipSpec> chips;
  FabricParams fp;
  std::vector<std::string> schemes, ccs;
  Backend backend = Backend::Golden;
  Kernel kernel = Kernel::Events;
  std::vector<std::string> rtl_switches;
  std::string capture_links;  // capture.links
};

// Everything checked (exit 2 on a ConfigError naming the key). `scheme` and
// `cc` pick the MMU scheme and congestion control of one run.
NetSetup build_setup(const KeyStore& k);
void configure_run(NetSetup& s, const KeyStore& k, Scheme scheme, const std::string& cc);
// Refuses `key`, a lossless traffic class, when a switch's chip (s.chips,
// as configure_run left them) has no queue for it.
void check_class_queues(const KeyStore& k, const NetSetup& s, const std::string& key, uint64_t cls);

// dsh-sim --pcap: the file every run of this process captures into ("":
// none; dsh-sim asks it for one point, --point ID, so the file is that
// point's). Each RunFabric captures s.capture_links into it when one is set.
void set_capture_file(const std::string& path);

// One run's fabric, built from the setup as configure_run left it (the
// setup must outlive it), with its capture (set_capture_file) and, for
// run.kernel = systemc, its SystemC netlist (each run is its own process).
// The run's wall and CPU clocks start before the fabric is built.
struct RunFabric {
  explicit RunFabric(const NetSetup& s);
  ~RunFabric();
  double wall_s() const;  // since the clocks started
  double cpu_s() const;
  // The fabric's error, else the last a switch's MMU model raises at the
  // run's end (a lockstep model checks the cycles still in flight).
  std::string end_error();

  const std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
  const std::clock_t cpu0 = std::clock();
  Fabric fab;
  const std::unique_ptr<Capture> capture;
  const std::unique_ptr<tlmnet::Netlist> netlist;
};

// eta in cells of each of switch `sw`'s n_ports ports: the spec §1.3
// formula at the rate and delay of the port's link, plus the switch's
// admission wait in its lane and decision latency at that rate (spec §7.2). A port
// without a link is configured for the default link (`base`): every switch
// is the chip of spec §1 with all its ports, as the paper's switches are.
std::vector<uint64_t> port_headroom_cells(const Topology& t, int sw, unsigned n_ports, unsigned lanes, const LinkParams& base,
                                          double mmu_clock_ghz);

}  // namespace dsh::net
