// SPDX-License-Identifier: Apache-2.0
#include "switch_mmu.h"

#include <cmath>

namespace dsh::net {

std::unique_ptr<MmuModel> make_switch_mmu(const SwitchMmuSpec& s) {
  if (s.backend == Backend::Golden) return make_golden(s.mmu);
  RtlOptions ro;
  ro.fault = s.rtl_fault;
  ro.light = true;  // the switch's runs need speed, not the RTL's own assertions
  const RtlVariant* v = nullptr;
  if (s.rtl_variant.empty()) v = &find_rtl_variant(s.mmu, ro);
  for (const auto& x : rtl_variants())
    if (!v && s.rtl_variant == x.name) v = &x;
  if (!v) throw ConfigError("run.rtl_variant = '" + s.rtl_variant + "' is not built");
  return s.backend == Backend::Rtl ? v->make(s.mmu, ro) : make_lockstep(*v, s.mmu, s.lockstep, ro);
}

uint64_t auto_headroom_cells(LinkParams link, size_t switch_ports, unsigned lanes, double mmu_clock_ghz) {
  const size_t lane_ports = (switch_ports + lanes - 1) / lanes;
  const double wait_ns = double(kRtlLatency + 1 + lane_ports) / mmu_clock_ghz;
  link.processing_bytes += uint64_t(std::ceil(wait_ns * link.link_gbps / 8.0));
  return headroom_cells(link);
}

}  // namespace dsh::net
