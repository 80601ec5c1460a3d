// SPDX-License-Identifier: Apache-2.0
// The Wilson score interval of a binomial proportion (Wilson 1927; Brown,
// Cai and DasGupta, "Interval Estimation for a Binomial Proportion",
// Statistical Science 16(2), 2001, eq. 4): for k successes in n trials and
// the normal quantile z,
//   centre = (k + z^2/2) / (n + z^2),
//   half   = z * sqrt(n) / (n + z^2) * sqrt(p (1 - p) + z^2 / (4 n)),  p = k/n.
// Unlike p +- z sqrt(p(1-p)/n) it stays inside [0, 1] and is not empty at
// k = 0 or k = n, which is where S3's fractions sit.
#pragma once

#include <cmath>
#include <cstdint>

namespace dsh::net {

inline constexpr double kZ95 = 1.959963984540054;  // the two-sided 95 % normal quantile

struct Interval {
  double lo = 0, hi = 1;
};

inline Interval wilson_interval(uint64_t k, uint64_t n, double z = kZ95) {
  if (n == 0) return {0, 1};
  const double nn = double(n), p = double(k) / nn, z2 = z * z;
  const double centre = (double(k) + z2 / 2) / (nn + z2);
  const double half = z * std::sqrt(nn) / (nn + z2) * std::sqrt(p * (1 - p) + z2 / (4 * nn));
  Interval i{centre - half, centre + half};
  // The exact ends at k = 0 and k = n (rounding would leave 1e-17).
  if (k == 0) i.lo = 0;
  if (k == n) i.hi = 1;
  return i;
}

}  // namespace dsh::net
