// SPDX-License-Identifier: Apache-2.0
// Analytic burst absorption (spec §10) after the DSH paper (§IV-C): Theorem 1
// (DSH) and Theorem 2 (SIH). Any consistent unit of size (cells or bytes); time is
// normalized so that one queue drains one unit per unit of time.
#pragma once

#include "config.h"

namespace dsh {

struct AbsorptionModel {
  double alpha = 1.0 / 16;   // DT factor
  double buffer = 65536;     // B
  double eta = 228;          // headroom eta
  double private_per_queue = 0;  // phi; the paper's theorems assume 0
  unsigned n_ports = 32;     // N_p
  unsigned n_queues = 7;     // N_q
  unsigned congested = 2;    // N: queues already at their pause threshold
  unsigned bursty = 16;      // M: queues that start the burst together
  double load = 16;          // R > 1: offered load of each queue, per drain rate
};

// B_s of the model: B - N_p*N_q*phi - (N_p*eta for DSH, N_p*N_q*eta for SIH).
double model_shared(const AbsorptionModel& m, Scheme s);

// Largest burst duration d that triggers no PAUSE: eq. (7) for DSH, eq. (20)
// for SIH, with B_s as above (the paper's formula exactly when phi = 0).
// Returns 0 when the pool cannot hold even the congested queues.
double max_pause_free_duration(const AbsorptionModel& m, Scheme s);

// The same as a total burst size: what the M bursty queues receive before the
// first of them pauses, M*R*d, plus the private buffer each fills first
// (M*R/(R-1)*phi).
double max_pause_free_burst(const AbsorptionModel& m, Scheme s);

}  // namespace dsh
