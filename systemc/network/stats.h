// SPDX-License-Identifier: Apache-2.0
// The intervals every network results page states, in one place: the
// Wilson score interval of a fraction (S3's deadlocked runs) and Student's
// t interval of a mean over seeds (the benchmark's DSH/SIH ratios).
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace dsh::net {

inline constexpr double kZ95 = 1.959963984540054;  // the two-sided 95 % normal quantile

struct Interval {
  double lo = 0, hi = 1;
};

// The Wilson score interval of a binomial proportion (Wilson 1927; Brown,
// Cai and DasGupta, "Interval Estimation for a Binomial Proportion",
// Statistical Science 16(2), 2001, eq. 4): for k successes in n trials and
// the normal quantile z,
//   centre = (k + z^2/2) / (n + z^2),
//   half   = z * sqrt(n) / (n + z^2) * sqrt(p (1 - p) + z^2 / (4 n)),  p = k/n.
// Unlike p +- z sqrt(p(1-p)/n) it stays inside [0, 1] and is not empty at
// k = 0 or k = n, which is where S3's fractions sit.
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

// t_{0.975, df}, the two-sided 95 % quantile of Student's t: a table for
// df 1..30 to four decimals (the three-decimal tables, e.g. NIST/SEMATECH
// e-Handbook 1.3.6.7.2, round it: 12.706, 4.303, 3.182, 2.776, ...), and
// beyond it the Cornish-Fisher expansion in 1/df (Abramowitz and Stegun
// 26.7.5, two terms), within 1e-4 of the table at df = 30 and closer above.
inline double t95(uint64_t df) {
  static constexpr double kTable[30] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
                                        2.2622,  2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
                                        2.1098,  2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
                                        2.0595,  2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
  if (df == 0) return INFINITY;
  if (df <= 30) return kTable[df - 1];
  const double z = kZ95, z3 = z * z * z, z5 = z3 * z * z, v = double(df);
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v);
}

// The mean of n values (one per seed) and its 95 % t interval,
// mean +- t_{0.975, n-1} s / sqrt(n) with s the sample standard deviation;
// no interval (lo = hi = the mean, has_interval false) below two values.
struct MeanInterval {
  uint64_t n = 0;
  double mean = 0, lo = 0, hi = 0;
  bool has_interval() const { return n >= 2; }
};

inline MeanInterval t_interval(const std::vector<double>& xs) {
  MeanInterval r;
  r.n = xs.size();
  if (r.n == 0) return r;
  double sum = 0;
  for (double x : xs) sum += x;
  r.mean = r.lo = r.hi = sum / double(r.n);
  if (r.n < 2) return r;
  double ss = 0;
  for (double x : xs) ss += (x - r.mean) * (x - r.mean);
  const double half = t95(r.n - 1) * std::sqrt(ss / double(r.n - 1)) / std::sqrt(double(r.n));
  r.lo = r.mean - half;
  r.hi = r.mean + half;
  return r;
}

}  // namespace dsh::net
