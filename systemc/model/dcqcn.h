// SPDX-License-Identifier: Apache-2.0
// DCQCN's reaction point (sender rate control), as the HPCC ns-3 simulator's
// Mellanox mode (rdma-hw.cc) runs it; the DSH paper used that simulator's
// defaults. Plain C++: the owner calls the events at their times.
//
//   CNP:  the first one sets alpha = 1; a rate cut comes at once when none
//         happened in the last decrease_interval, else at the next
//         decrease-interval boundary: target = rate (when clamp_target or
//         after an increase), rate = max(min_rate, rate * (1 - alpha/2)),
//         the increase stage restarts and the increase timer is re-armed.
//   alpha: every alpha_interval, alpha = (1-g)*alpha + g if a CNP came in
//         that interval, else (1-g)*alpha.
//   increase: every increase_timer (and every byte_counter bytes sent when
//         that is on): stage < fast_recovery_steps: rate = (rate+target)/2;
//         stage == fast_recovery_steps: target += ai, then the same average;
//         later: target += hai, then the average; target capped at line rate.
#pragma once

#include <cstdint>

namespace dsh::net {

struct DcqcnParams {
  double line_gbps = 100;
  double ai_gbps = 0.02, hai_gbps = 0.2, min_gbps = 1;
  double g = 1.0 / 256;
  double alpha_interval_us = 1, decrease_interval_us = 4, increase_timer_us = 300;
  uint64_t byte_counter = 0;  // 0: off (HPCC's Mellanox mode has none)
  unsigned fast_recovery_steps = 1;
  bool clamp_target = false;
};

class Dcqcn {
 public:
  explicit Dcqcn(const DcqcnParams& p) : p_(p), rate_(p.line_gbps), target_(p.line_gbps) {}
  double rate_gbps() const { return rate_; }
  double target_gbps() const { return target_; }
  double alpha_at(uint64_t now_ps);  // alpha brought up to now
  unsigned stage() const { return stage_; }

  // A CNP at now. Returns true when the rate was cut now; else a cut is
  // pending and decrease_due_ps() says when.
  bool on_cnp(uint64_t now_ps);
  uint64_t decrease_due_ps() const { return decrease_due_; }  // ~0: none pending
  void on_decrease_due(uint64_t now_ps);                      // the pending cut
  // The increase timer: when it is due (~0: off) and its expiry.
  uint64_t increase_due_ps() const { return increase_due_; }
  void on_increase_timer(uint64_t now_ps);
  // Bytes sent; true when the byte counter triggered an increase.
  bool on_sent(uint64_t bytes);
  bool active() const { return !first_cnp_; }

 private:
  void cut(uint64_t now_ps);
  void increase();
  uint64_t ps(double us) const { return uint64_t(us * 1e6 + 0.5); }

  DcqcnParams p_;
  double rate_, target_;
  double alpha_ = 1;
  bool first_cnp_ = true;
  bool alpha_cnp_ = false;          // a CNP in the current alpha interval
  uint64_t alpha_next_ = 0;         // end of the current alpha interval
  uint64_t last_cut_ = 0;
  uint64_t decrease_due_ = ~uint64_t(0), increase_due_ = ~uint64_t(0);
  unsigned stage_ = 0;
  uint64_t bytes_ = 0;
};

// RED-like ECN marking of an egress queue (HPCC switch-mmu.cc ShouldSendCN):
// above kmax always, above kmin with probability pmax*(q-kmin)/(kmax-kmin).
double ecn_mark_probability(uint64_t queue_bytes, uint64_t kmin_bytes, uint64_t kmax_bytes, double pmax);

}  // namespace dsh::net
