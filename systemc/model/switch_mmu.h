// SPDX-License-Identifier: Apache-2.0
// A switch's chip and the one function that builds its MMU, for every
// backend and every scenario.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "config.h"
#include "mmu_model.h"

namespace dsh::net {

struct ChipSpec {
  Config mmu;                  // headroom_cells set per switch
  uint64_t cell_bytes = 256;
  double mmu_clock_ghz = 1.0;
  Backend backend = Backend::Golden;  // golden, rtl or lockstep for this switch
};

// How to build a switch's MMU model.
struct SwitchMmuSpec {
  Config mmu;
  Backend backend = Backend::Golden;
  std::string rtl_variant;   // rtl, lockstep: the built parameter set of this name; empty: the one matching `mmu`
  unsigned rtl_fault = 0;    // rtl, lockstep: a planted fault of tb/faults/dsh_faults.sv (the checker's self-test)
  LockstepOptions lockstep;  // lockstep: the mismatch report's tag and trace files
};

// The golden model (no decision latency: the MMU clock holds its results),
// or the built RTL (kRtlLatency), alone or in lockstep with the golden one.
std::unique_ptr<MmuModel> make_switch_mmu(const SwitchMmuSpec& spec);

// chip.headroom_cells = "auto" (spec §7.2): the spec §1.3 headroom of a
// link with the PAUSE reaction lengthened, at the link's rate, by the worst
// wait from a packet's last bit to its admission acting: one MMU cycle per
// port of its lane (its lane's ring, ceil(switch_ports / lanes) ports) and
// the decision latency (kRtlLatency + 1 cycles). Every scenario's eta.
uint64_t auto_headroom_cells(LinkParams link, size_t switch_ports, unsigned lanes, double mmu_clock_ghz);

// What the network needs of a switch: its cell size, MMU clock and MMU
// (with the decision latency kRtlLatency, or none).
struct SwitchChip {
  uint64_t cell_bytes = 256;
  double mmu_clock_ghz = 1.0;
  std::unique_ptr<MmuModel> mmu;
};

}  // namespace dsh::net
