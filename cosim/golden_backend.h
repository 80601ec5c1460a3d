// SPDX-License-Identifier: Apache-2.0
// The golden model as a backend (make_golden); the lockstep holds two, one
// for its caller and one behind the RTL.
#pragma once

#include "mmu_model.h"

namespace dsh {

class GoldenModel final : public MmuModel {
 public:
  GoldenModel(const Config& c, const RtlWidths& w) : m_(c, w), one_lane_(c.lanes == 1 && c.deq_per_cycle == 1) {}
  const CycleOut& step(const CycleIn& in) override { return m_.step(in); }
  // One lane and one dequeue slot: the cycle of step() (spec §4.7), as the
  // base takes it, at a tenth of the multi-event step's cost.
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override {
    if (!one_lane_) return m_.step(in);
    to_lane_out(m_.step(CycleIn{in.deq[0], in.enq[0]}), in.deq[0].valid, lane_out_);
    return lane_out_;
  }
  bool quiet() const override { return m_.quiet(); }
  const CycleOut& skip_idle(uint64_t n) override { return m_.skip_idle(n); }
  const Config& config() const override { return m_.config(); }
  uint64_t cycle() const override { return m_.cycle(); }
  uint64_t s() const override { return m_.s(); }
  uint64_t errors() const override { return m_.errors(); }
  bool error_sticky() const override { return m_.error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override { return m_.queue(p, q); }
  PortState port(uint32_t p) const override { return m_.port(p); }
  const char* name() const override { return "golden"; }
  const Mmu& mmu() const { return m_; }

 private:
  Mmu m_;
  bool one_lane_;
};

}  // namespace dsh
