// SPDX-License-Identifier: Apache-2.0
// Constrained-random MMU stimulus: bursty and adversarial phases (fill the
// buffer, drain it, idle gaps, enqueue and dequeue on one queue in one cycle,
// back-to-back events on one queue) and rare protocol errors.
#pragma once

#include <random>
#include <vector>

#include "mmu_model.h"

namespace dsh {

struct TrafficOptions {
  uint64_t seed = 1;
  double error_rate = 0.002;  // share of events turned into protocol errors
  bool every_cycle = false;   // an enqueue every cycle and a dequeue whenever possible
};

class Traffic {
 public:
  Traffic(const Config& cfg, const RtlWidths& w, const TrafficOptions& o);
  // The next cycle's input; `state` is read to choose dequeues that fit.
  CycleIn next(const MmuModel& state);
  // The next multi-event cycle (spec §4.7) at full load: every enqueue
  // slot a port of its lane and every dequeue slot in most cycles, the
  // dequeues mostly of queues that hold them (slot k mostly of lane
  // k mod lanes), some merging into one queue, some naming another queue of
  // a lane already served (not taken), rare errors; bursty phases that fill
  // and drain the pool.
  LaneCycleIn next_lanes(const MmuModel& state);

 private:
  enum Phase { Uniform, Fill, Drain, Idle, SameQueue, BackToBack, NumPhases };
  void new_phase();
  uint32_t cells();
  std::pair<uint32_t, uint32_t> pick_queue(bool hot);
  void corrupt(Op& op, uint64_t held);
  uint32_t port_of_lane(uint32_t lane);

  Config cfg_;
  TrafficOptions opt_;
  std::mt19937_64 rng_;
  uint32_t max_cells_, port_span_, queue_span_;  // index spans the RTL can carry
  Phase phase_ = Uniform;
  uint64_t left_ = 0;
  std::vector<std::pair<uint32_t, uint32_t>> hot_;
  double p_enq_ = 0.5, p_deq_ = 0.5;
};

}  // namespace dsh
