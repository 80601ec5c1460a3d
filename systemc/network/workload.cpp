// SPDX-License-Identifier: Apache-2.0
#include "workload.h"

#include <sstream>

#include "input.h"

namespace dsh::net {

SizeCdf::SizeCdf(std::vector<std::pair<double, double>> points, const std::string& what) : pts_(std::move(points)) {
  if (pts_.size() < 2) throw InputError(what + ": a CDF needs at least 2 points, has " + std::to_string(pts_.size()));
  for (size_t i = 0; i < pts_.size(); ++i) {
    const auto [s, p] = pts_[i];
    if (s < 0 || p < 0 || p > 1) throw InputError(what + ": point " + std::to_string(i + 1) + " out of range (bytes >= 0, probability 0..1)");
    if (i && (s < pts_[i - 1].first || p < pts_[i - 1].second))
      throw InputError(what + ": point " + std::to_string(i + 1) + " decreases (sizes and probabilities must not)");
  }
  if (pts_.back().second != 1) throw InputError(what + ": the last point's probability must be 1 (100 %)");
}

SizeCdf SizeCdf::load(const std::string& path) {
  std::istringstream in(read_text_file("CDF file", path));
  std::string line;
  std::vector<std::pair<double, double>> pts;
  int n = 0;
  while (get_line(in, line)) {
    ++n;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream ls(line);
    std::string a, b, extra;
    if (!(ls >> a)) continue;
    if (!(ls >> b) || (ls >> extra)) throw InputError(path + ":" + std::to_string(n) + ": expected 'bytes percent'");
    const std::string where = path + ":" + std::to_string(n);
    pts.emplace_back(parse_real(where + " bytes", a, 0, 1e13), parse_real(where + " percent", b, 0, 100) / 100.0);
  }
  return SizeCdf(std::move(pts), path);
}

uint64_t SizeCdf::at(double u) const {
  if (u <= pts_.front().second) return std::max<uint64_t>(1, uint64_t(pts_.front().first + 0.5));
  for (size_t i = 1; i < pts_.size(); ++i) {
    if (u > pts_[i].second) continue;
    const auto [s0, p0] = pts_[i - 1];
    const auto [s1, p1] = pts_[i];
    const double s = p1 == p0 ? s1 : s0 + (s1 - s0) * (u - p0) / (p1 - p0);
    return std::max<uint64_t>(1, uint64_t(s + 0.5));
  }
  return uint64_t(pts_.back().first + 0.5);
}

double SizeCdf::mean_bytes() const {
  double m = 0;
  for (size_t i = 1; i < pts_.size(); ++i)
    m += (pts_[i].second - pts_[i - 1].second) * (pts_[i].first + pts_[i - 1].first) / 2;
  return m;
}

double mean_whole_packets(const SizeCdf& cdf, uint64_t pkt, uint64_t seed) {
  std::mt19937_64 m(seed);
  double sum = 0;
  for (int i = 0; i < 200000; ++i) sum += double(whole_packets(cdf.sample(m), pkt));
  return sum / 200000;
}

}  // namespace dsh::net
