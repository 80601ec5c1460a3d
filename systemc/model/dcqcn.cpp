// SPDX-License-Identifier: Apache-2.0
#include "dcqcn.h"

#include <algorithm>
#include <cmath>

namespace dsh::net {

double Dcqcn::alpha_at(uint64_t now_ps) {
  if (first_cnp_) return alpha_;
  const uint64_t step = ps(p_.alpha_interval_us);
  if (now_ps < alpha_next_) return alpha_;
  // The interval that ends at alpha_next_ saw alpha_cnp_; the ones after it none.
  alpha_ = alpha_cnp_ ? (1 - p_.g) * alpha_ + p_.g : (1 - p_.g) * alpha_;
  alpha_cnp_ = false;
  const uint64_t more = (now_ps - alpha_next_) / step;
  if (more) alpha_ *= std::pow(1 - p_.g, double(more));
  alpha_next_ += (more + 1) * step;
  return alpha_;
}

bool Dcqcn::on_cnp(uint64_t now_ps) {
  if (first_cnp_) {
    first_cnp_ = false;
    alpha_ = 1;
    alpha_next_ = now_ps + ps(p_.alpha_interval_us);
    alpha_cnp_ = true;
    cut(now_ps);
    return true;
  }
  alpha_at(now_ps);
  alpha_cnp_ = true;
  if (decrease_due_ != ~uint64_t(0)) return false;
  const uint64_t gap = ps(p_.decrease_interval_us);
  if (now_ps >= last_cut_ + gap) {
    cut(now_ps);
    return true;
  }
  decrease_due_ = last_cut_ + gap;
  return false;
}

void Dcqcn::on_decrease_due(uint64_t now_ps) {
  decrease_due_ = ~uint64_t(0);
  cut(now_ps);
}

void Dcqcn::cut(uint64_t now_ps) {
  const double a = alpha_at(now_ps);
  if (p_.clamp_target || stage_ != 0) target_ = rate_;
  rate_ = std::max(p_.min_gbps, rate_ * (1 - a / 2));
  stage_ = 0;
  bytes_ = 0;
  last_cut_ = now_ps;
  increase_due_ = now_ps + ps(p_.increase_timer_us);
}

void Dcqcn::increase() {
  if (stage_ < p_.fast_recovery_steps) {
  } else if (stage_ == p_.fast_recovery_steps) {
    target_ = std::min(p_.line_gbps, target_ + p_.ai_gbps);
  } else {
    target_ = std::min(p_.line_gbps, target_ + p_.hai_gbps);
  }
  rate_ = (rate_ + target_) / 2;
  ++stage_;
}

void Dcqcn::on_increase_timer(uint64_t now_ps) {
  increase();
  // Nothing left to recover: the timer stops until the next cut.
  increase_due_ = rate_ >= p_.line_gbps * (1 - 1e-9) ? ~uint64_t(0) : now_ps + ps(p_.increase_timer_us);
}

bool Dcqcn::on_sent(uint64_t bytes) {
  if (!p_.byte_counter || first_cnp_ || rate_ >= p_.line_gbps) return false;
  bytes_ += bytes;
  if (bytes_ < p_.byte_counter) return false;
  bytes_ -= p_.byte_counter;
  increase();
  return true;
}

double ecn_mark_probability(uint64_t q, uint64_t kmin, uint64_t kmax, double pmax) {
  if (q > kmax) return 1;
  if (q > kmin) return pmax * double(q - kmin) / double(kmax - kmin);
  return 0;
}

}  // namespace dsh::net
