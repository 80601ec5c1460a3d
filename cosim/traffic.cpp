// SPDX-License-Identifier: Apache-2.0
#include "traffic.h"

#include <algorithm>

namespace dsh {

Traffic::Traffic(const Config& cfg, const RtlWidths& w, const TrafficOptions& o)
    : cfg_(cfg), opt_(o), rng_(o.seed) {
  max_cells_ = uint32_t(std::min<uint64_t>((uint64_t(1) << w.size_w) - 1, 48));
  port_span_ = 1u << rtl_index_bits(cfg.n_ports);  // values the RTL's index can carry
  queue_span_ = 1u << rtl_index_bits(cfg.n_queues);
}

void Traffic::new_phase() {
  static const double weights[NumPhases] = {3, 3, 2, 1, 1, 1};
  std::discrete_distribution<int> d(std::begin(weights), std::end(weights));
  phase_ = opt_.every_cycle ? Phase(std::uniform_int_distribution<int>(0, 2)(rng_)) : Phase(d(rng_));
  left_ = std::uniform_int_distribution<uint64_t>(8, phase_ == Idle ? 64 : 3000)(rng_);
  hot_.clear();
  const int n_hot = std::uniform_int_distribution<int>(1, 3)(rng_);
  for (int i = 0; i < n_hot; ++i) hot_.push_back(pick_queue(false));
  switch (phase_) {
    case Uniform: p_enq_ = 0.6; p_deq_ = 0.55; break;
    case Fill: p_enq_ = 0.95; p_deq_ = 0.25; break;
    case Drain: p_enq_ = 0.2; p_deq_ = 0.95; break;
    case Idle: p_enq_ = 0; p_deq_ = 0; break;
    default: p_enq_ = 0.9; p_deq_ = 0.85; break;
  }
  if (opt_.every_cycle) p_enq_ = p_deq_ = 1.0;
}

uint32_t Traffic::cells() {
  std::uniform_real_distribution<double> u(0, 1);
  if (u(rng_) < 0.5) return std::min<uint32_t>(6, max_cells_);  // an MTU in 256 B cells
  return std::uniform_int_distribution<uint32_t>(1, max_cells_)(rng_);
}

std::pair<uint32_t, uint32_t> Traffic::pick_queue(bool hot) {
  if (hot && !hot_.empty()) return hot_[std::uniform_int_distribution<size_t>(0, hot_.size() - 1)(rng_)];
  return {std::uniform_int_distribution<uint32_t>(0, cfg_.n_ports - 1)(rng_),
          std::uniform_int_distribution<uint32_t>(0, cfg_.n_queues - 1)(rng_)};
}

void Traffic::corrupt(Op& op, uint64_t held) {
  switch (std::uniform_int_distribution<int>(0, 3)(rng_)) {
    case 0: op.cells = 0; break;
    case 1:
      if (port_span_ > cfg_.n_ports) { op.port = std::uniform_int_distribution<uint32_t>(cfg_.n_ports, port_span_ - 1)(rng_); break; }
      [[fallthrough]];
    case 2:
      if (queue_span_ > cfg_.n_queues) { op.queue = std::uniform_int_distribution<uint32_t>(cfg_.n_queues, queue_span_ - 1)(rng_); break; }
      [[fallthrough]];
    default:
      if (held + 1 <= max_cells_) op.cells = uint32_t(held + 1);  // more than the queue holds
      else op.cells = 0;
      break;
  }
}

CycleIn Traffic::next(const MmuModel& state) {
  if (left_ == 0) new_phase();
  --left_;
  CycleIn in;
  std::uniform_real_distribution<double> u(0, 1);
  const bool focus = phase_ == Fill || phase_ == SameQueue || phase_ == BackToBack;
  if (u(rng_) < p_enq_) {
    auto [p, q] = pick_queue(focus && u(rng_) < 0.85);
    in.enq = Op{true, p, q, cells()};
    if (u(rng_) < opt_.error_rate) corrupt(in.enq, 0);
  }
  if (u(rng_) < p_deq_) {
    std::pair<uint32_t, uint32_t> pq;
    uint64_t held = 0;
    if (phase_ == SameQueue && in.enq.valid && in.enq.port < cfg_.n_ports && in.enq.queue < cfg_.n_queues) {
      pq = {in.enq.port, in.enq.queue};
      held = state.queue(pq.first, pq.second).total();
    } else {
      for (int tries = 0; tries < 8 && held == 0; ++tries) {
        pq = pick_queue((focus || phase_ == Drain) && tries < 4);
        held = state.queue(pq.first, pq.second).total();
      }
    }
    if (held > 0) {
      in.deq = Op{true, pq.first, pq.second, uint32_t(std::min<uint64_t>(held, cells()))};
      if (u(rng_) < opt_.error_rate) corrupt(in.deq, held);
    } else if (u(rng_) < opt_.error_rate) {
      in.deq = Op{true, pq.first, pq.second, 1};  // dequeue from an empty queue
    }
  }
  return in;
}

}  // namespace dsh
