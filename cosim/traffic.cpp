// SPDX-License-Identifier: Apache-2.0
#include "traffic.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

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

uint32_t Traffic::port_of_lane(uint32_t lane) {
  const uint32_t per_lane = cfg_.n_ports / cfg_.lanes;
  return lane + cfg_.lanes * std::uniform_int_distribution<uint32_t>(0, per_lane - 1)(rng_);
}

LaneCycleIn Traffic::next_lanes(const MmuModel& state) {
  if (left_ == 0) {
    new_phase();
    left_ = std::min<uint64_t>(left_, 600);  // phases short enough to fill and drain often
  }
  --left_;
  LaneCycleIn in;
  std::uniform_real_distribution<double> u(0, 1);
  const unsigned lanes = cfg_.lanes, slots = cfg_.deq_per_cycle;
  // Full load: every slot in Uniform and the adversarial phases; Fill
  // enqueues everywhere and dequeues little, Drain the reverse.
  double pe = 1.0, pd = 1.0;
  if (phase_ == Fill) pd = 0.2;
  if (phase_ == Drain) pe = 0.15;
  if (phase_ == Idle) pe = pd = 0.02;
  const bool focus = phase_ == Fill || phase_ == SameQueue || phase_ == BackToBack;
  // Errors are rare and independent, so a cycle almost never has more than
  // two: now and then (error_rate of the cycles) every slot errs at once.
  const double err = opt_.error_rate > 0 && u(rng_) < opt_.error_rate ? 1.0 : opt_.error_rate;
  for (unsigned l = 0; l < lanes; ++l) {
    if (u(rng_) >= pe) continue;
    uint32_t p = port_of_lane(l), q = std::uniform_int_distribution<uint32_t>(0, cfg_.n_queues - 1)(rng_);
    if (focus && u(rng_) < 0.5)
      for (const auto& h : hot_)
        if (h.first % lanes == l) std::tie(p, q) = h;
    in.enq[l] = Op{true, p, q, cells()};
    if (u(rng_) < err) {
      if (lanes > 1 && u(rng_) < 0.3) in.enq[l].port = (p + 1) % cfg_.n_ports;  // a port of another lane
      else corrupt(in.enq[l], 0);
    }
  }
  // What this cycle's dequeue slots already claim of each queue, so that
  // a group fits what its queue holds unless an error is meant.
  std::unordered_map<uint64_t, uint64_t> claimed;
  auto key = [&](uint32_t p, uint32_t q) { return uint64_t(p) * cfg_.n_queues + q; };
  auto avail = [&](uint32_t p, uint32_t q) {
    const uint64_t held = state.queue(p, q).total(), c = claimed[key(p, q)];
    return held > c ? held - c : 0;
  };
  for (unsigned k = 0; k < slots; ++k) {
    if (u(rng_) >= pd) continue;
    uint32_t p = 0, q = 0;
    uint64_t a = 0;
    const double r = u(rng_);
    if (k > 0 && r < 0.15 && in.deq[k - 1].valid && in.deq[k - 1].port < cfg_.n_ports &&
        in.deq[k - 1].queue < cfg_.n_queues) {
      p = in.deq[k - 1].port;  // merges into the group of the slot before
      q = in.deq[k - 1].queue;
      a = avail(p, q);
    } else {
      // Mostly a queue of lane k mod lanes; sometimes (r < 0.25) any lane,
      // which may collide with a lane already served (not taken).
      const uint32_t lane = r < 0.25 ? std::uniform_int_distribution<uint32_t>(0, lanes - 1)(rng_) : k % lanes;
      for (int tries = 0; tries < 8 && a == 0; ++tries) {
        p = port_of_lane(lane);
        q = std::uniform_int_distribution<uint32_t>(0, cfg_.n_queues - 1)(rng_);
        if ((focus || phase_ == Drain) && tries < 4)
          for (const auto& h : hot_)
            if (h.first % lanes == lane) std::tie(p, q) = h;
        a = avail(p, q);
      }
    }
    if (a > 0) {
      in.deq[k] = Op{true, p, q, uint32_t(std::min<uint64_t>(a, cells()))};
      claimed[key(p, q)] += in.deq[k].cells;
      if (u(rng_) < err) corrupt(in.deq[k], a);
    } else if (u(rng_) < err) {
      in.deq[k] = Op{true, p, q, 1};  // from an empty queue
    }
  }
  return in;
}

}  // namespace dsh
