// SPDX-License-Identifier: Apache-2.0
// Facts of the RTL that C++ without the Verilated models needs (the scenario
// keys' ranges, the switch model's timing): constants only, so a library
// that includes this header links no RTL.
#pragma once

namespace dsh {

// dsh_mmu's pipeline depth: the results of the inputs presented before clock
// edge e are visible after edge e + kRtlLatency (spec §5.1 says after edge
// e; spec §9.2). The lockstep regression checks it.
inline constexpr unsigned kRtlLatency = 4;

// Planted faults of the test bench (tb/faults/dsh_faults.sv, Fault*),
// 1..kRtlFaults, bound into every RTL model. The last two are in blocks
// only a chip with lanes has (the dequeue merge, the pool rule's prefix
// sums): a one-lane model runs them as no fault.
inline constexpr unsigned kRtlFaults = 13;
inline constexpr unsigned kRtlFaultMerge = 12;
inline constexpr unsigned kRtlFaultPoolPrefix = 13;
// FaultCntBypass: in the statistics counters, so an RTL without them
// (Stats = 0) refuses it (ConfigError) rather than run without a fault.
inline constexpr unsigned kRtlFaultCntBypass = 10;

}  // namespace dsh
