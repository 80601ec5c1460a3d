// SPDX-License-Identifier: Apache-2.0
#include "fabric.h"

namespace dsh::net {

namespace {
std::vector<SwitchChip> switch_chips(const Topology& topo, const std::vector<ChipSpec>& chips, const FabricParams& p) {
  if (chips.size() != topo.n_switches()) throw std::logic_error("Fabric: one chip per switch");
  std::vector<SwitchChip> out;
  for (size_t s = 0; s < chips.size(); ++s) {
    const std::string name = topo.name(int(s));
    if (topo.ports(int(s)).size() > chips[s].mmu.n_ports)
      throw ConfigError("switch " + name + " has " + std::to_string(topo.ports(int(s)).size()) +
                        " links, its chip n_ports = " + std::to_string(chips[s].mmu.n_ports));
    SwitchMmuSpec m;
    m.mmu = chips[s].mmu;
    m.backend = chips[s].backend;
    m.rtl_fault = p.rtl_fault;
    m.lockstep.full_compare = p.full_compare;
    m.lockstep.fst_dir = p.mismatch_dir;
    m.lockstep.fst_stem = "mismatch_" + name;
    m.lockstep.tag = "switch=" + name;
    out.push_back(SwitchChip{chips[s].cell_bytes, chips[s].mmu_clock_ghz, make_switch_mmu(m)});
  }
  return out;
}
}  // namespace

Fabric::Fabric(const Topology& topo, const std::vector<ChipSpec>& chips, const FabricParams& p)
    : Fabric(topo, switch_chips(topo, chips, p), p) {}

Fabric::Fabric(const Topology& topo, std::vector<SwitchChip> chips, const FabricParams& p)
    : topo_(topo), p_(p), rng_(p.seed), ctx_{ev_, pool_, p_, topo_, flows_, *this, rng_, error} {
  if (chips.size() != topo.n_switches()) throw std::logic_error("Fabric: one chip per switch");
  for (size_t n = 0; n < topo.n_nodes(); ++n) {
    if (topo.is_switch(int(n))) {
      sw_.push_back(std::make_unique<Switch>(ctx_, int(n), std::move(chips[sw_.size()])));
      nodes_.push_back(sw_.back().get());
      node_ports_.push_back(&sw_.back()->ports());
    } else {
      hosts_.push_back(std::make_unique<Host>(ctx_, topo.node_host(int(n)), int(n)));
      nodes_.push_back(hosts_.back().get());
      node_ports_.push_back(&hosts_.back()->ports());
    }
  }
  for (auto* ports : node_ports_)
    for (Port& t : *ports) t.connect(t.connected() ? nodes_[size_t(t.peer)] : nullptr);
  start_lane_ = ev_.add_lane(
      [](void* fab, void* flow) { static_cast<Fabric*>(fab)->start_flow(int32_t(reinterpret_cast<intptr_t>(flow))); },
      this);
}

Fabric::~Fabric() = default;

void Fabric::run(uint64_t until_ps) {
  if (on_retire || on_mmu_out)
    for (auto& s : sw_) s->clock().read_state_in_step();
  if (kernel) kernel(until_ps);
  else ev_.run(until_ps);
}

uint64_t Fabric::forwarded() const {
  uint64_t n = 0;
  for (const auto& s : sw_) n += s->stats().forwarded;
  return n;
}

uint64_t Fabric::lossless_drops() const {
  uint64_t n = 0;
  for (const auto& s : sw_) n += s->stats().drops;
  return n;
}

uint64_t Fabric::reordered() const {
  uint64_t n = 0;
  for (const auto& f : flows_) n += f.reordered;
  return n;
}

int32_t Fabric::add_flow(uint32_t src, uint32_t dst, uint8_t cls, uint64_t bytes, uint64_t start_ps, int group) {
  if (src == dst) throw ConfigError("a flow from host " + topo_.name(topo_.host_node(int(src))) + " to itself");
  if (cls >= kControlClass) throw ConfigError("flow class " + std::to_string(cls) + ": lossless classes are 0..6");
  NetFlow f;
  f.src = src;
  f.dst = dst;
  f.cls = cls;
  f.bytes = bytes;
  f.start_ps = start_ps;
  f.group = group;
  const double line = topo_.ports(topo_.host_node(int(src)))[0].gbps;
  f.cc = make_congestion_control(p_.cc(), line, p_.dcqcn_params, p_.powertcp_params, ev_);
  flows_.push_back(std::move(f));
  const int32_t id = int32_t(flows_.size() - 1);
  if (start_ps != kNever) start_flow_at(id, start_ps);
  return id;
}

void Fabric::start_flow_at(int32_t id, uint64_t t_ps) {
  flows_[size_t(id)].start_ps = t_ps;
  ev_.lane_at(start_lane_, t_ps, reinterpret_cast<void*>(intptr_t(id)));
}

void Fabric::start_flow(int32_t f) { hosts_[flows_[size_t(f)].src]->start_flow(f); }

}  // namespace dsh::net
