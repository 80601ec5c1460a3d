// SPDX-License-Identifier: Apache-2.0
#include "theory.h"

#include <algorithm>

namespace dsh {

double model_shared(const AbsorptionModel& m, Scheme s) {
  const double np = m.n_ports, nq = m.n_queues;
  const double hdrm = (s == Scheme::DSH) ? np * m.eta : np * nq * m.eta;
  return m.buffer - np * nq * m.private_per_queue - hdrm;
}

double max_pause_free_duration(const AbsorptionModel& m, Scheme s) {
  const double a = m.alpha, n = m.congested, mm = m.bursty, r = m.load;
  // Theorem 2 is Theorem 1 with eta = 0 in the pause threshold.
  const double eta_q = (s == Scheme::DSH) ? m.eta : 0.0;
  const double num = a * model_shared(m, s) - eta_q;
  if (num <= 0 || r <= 1) return 0;
  // Case split of eq. (7): do the congested queues drain as fast as T falls?
  // From eq. (13), T'(0+) >= -1 iff alpha*M*(R-1) <= 1 + alpha*N; the paper
  // prints 1 - alpha*N, which leaves a jump between the two cases
  // (spec §10.2). With 1 + alpha*N both cases meet.
  if (a * mm * (r - 1) <= 1 + a * n) return num / ((1 + a * (n + mm)) * (r - 1));
  return num / ((1 + a * n) * ((1 + a * mm) * (r - 1) - a * n));
}

double max_pause_free_burst(const AbsorptionModel& m, Scheme s) {
  const double d = max_pause_free_duration(m, s);
  if (m.load <= 1) return 0;
  return m.bursty * m.load * d + m.bursty * m.load / (m.load - 1) * m.private_per_queue;
}

}  // namespace dsh
