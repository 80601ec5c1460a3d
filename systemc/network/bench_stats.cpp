// SPDX-License-Identifier: Apache-2.0
// The benchmark's statistics: FCT histograms, their figures, the DSH/SIH
// ratios over seeds, the ideal FCT (benchmark.h).
#include <algorithm>
#include <cmath>

#include "benchmark.h"
#include "stats.h"

namespace dsh::net {

int FctStats::bin(double v) { return int(std::floor(std::log(std::max(v, 1e-9)) / std::log(1.01))); }

void FctStats::add(double fct_us, double slowdown) {
  ++n;
  sum_fct_us += fct_us;
  sum_slowdown += slowdown;
  ++fct_bins[bin(fct_us)];
  ++slowdown_bins[bin(slowdown)];
}

void FctStats::merge(const FctStats& o) {
  n += o.n;
  sum_fct_us += o.sum_fct_us;
  sum_slowdown += o.sum_slowdown;
  for (const auto& [b, c] : o.fct_bins) fct_bins[b] += c;
  for (const auto& [b, c] : o.slowdown_bins) slowdown_bins[b] += c;
}

double FctStats::quantile(const std::map<int, uint64_t>& bins, uint64_t n, double q) {
  if (n == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(n) - 1e-9)));
  uint64_t seen = 0;
  for (const auto& [b, c] : bins) {
    seen += c;
    if (seen >= rank) return std::pow(1.01, double(b) + 0.5);
  }
  return std::pow(1.01, double(bins.rbegin()->first) + 0.5);
}

nlohmann::ordered_json FctStats::to_json() const {
  nlohmann::ordered_json j{{"n", n}, {"sum_fct_us", sum_fct_us}, {"sum_slowdown", sum_slowdown}};
  j["fct_bins"] = nlohmann::ordered_json::object();
  j["slowdown_bins"] = nlohmann::ordered_json::object();
  for (const auto& [b, c] : fct_bins) j["fct_bins"][std::to_string(b)] = c;
  for (const auto& [b, c] : slowdown_bins) j["slowdown_bins"][std::to_string(b)] = c;
  return j;
}

FctStats FctStats::from_json(const nlohmann::json& j) {
  FctStats s;
  s.n = j.at("n");
  s.sum_fct_us = j.at("sum_fct_us");
  s.sum_slowdown = j.at("sum_slowdown");
  for (const auto& [b, c] : j.at("fct_bins").items()) s.fct_bins[std::stoi(b)] = c.get<uint64_t>();
  for (const auto& [b, c] : j.at("slowdown_bins").items()) s.slowdown_bins[std::stoi(b)] = c.get<uint64_t>();
  return s;
}

nlohmann::ordered_json fct_figures(const FctStats& s) {
  auto r = [](double x) { return std::round(x * 1000) / 1000; };
  if (s.n == 0) return {{"n", 0}};
  return {{"n", s.n},
          {"mean_fct_us", r(s.sum_fct_us / double(s.n))},
          {"p50_fct_us", r(FctStats::quantile(s.fct_bins, s.n, 0.5))},
          {"p95_fct_us", r(FctStats::quantile(s.fct_bins, s.n, 0.95))},
          {"p99_fct_us", r(FctStats::quantile(s.fct_bins, s.n, 0.99))},
          {"mean_slowdown", r(s.sum_slowdown / double(s.n))},
          {"p50_slowdown", r(FctStats::quantile(s.slowdown_bins, s.n, 0.5))},
          {"p95_slowdown", r(FctStats::quantile(s.slowdown_bins, s.n, 0.95))},
          {"p99_slowdown", r(FctStats::quantile(s.slowdown_bins, s.n, 0.99))}};
}

FctStats counting_unfinished(const FctStats& finished, const FctStats& censored) {
  FctStats s = finished;
  s.merge(censored);
  return s;
}


nlohmann::ordered_json interval_json(const MeanInterval& mi) {
  auto r = [](double x) { return std::round(x * 10000) / 10000; };
  nlohmann::ordered_json j{{"n", mi.n}, {"mean", r(mi.mean)}};
  if (mi.has_interval()) j.update({{"lo", r(mi.lo)}, {"hi", r(mi.hi)}});
  return j;
}

namespace {

const std::vector<std::string> kRatioMetrics = {"mean_fct", "mean_fct_with_unfinished", "p99_fct",
                                                "p99_fct_with_unfinished"};

// A metric of one kind in one point's result (see seed_ratios).
double point_metric(const nlohmann::json& kind, const std::string& metric) {
  const FctStats fin = FctStats::from_json(kind.at("all"));
  const bool lb = metric.size() > 16 && metric.compare(metric.size() - 16, 16, "_with_unfinished") == 0;
  const FctStats s = lb && kind.contains("censored") ? counting_unfinished(fin, FctStats::from_json(kind["censored"]["all"])) : fin;
  if (s.n == 0) return 0;
  if (metric.rfind("mean_fct", 0) == 0) return s.sum_fct_us / double(s.n);
  return FctStats::quantile(s.fct_bins, s.n, 0.99);
}

}  // namespace

nlohmann::ordered_json seed_ratios(const std::vector<nlohmann::json>& points) {
  // (workload, buffer, cc, load) -> seed -> scheme -> its result
  std::map<std::vector<std::string>, std::map<uint64_t, std::map<std::string, const nlohmann::json*>>> by;
  for (const auto& m : points) {
    if (!m.value("error", std::string()).empty()) continue;
    const std::string buf = m["buffer_mb"].get<std::string>();
    by[{m["workload"].get<std::string>(), buf.empty() ? "chip" : buf, m["cc"].get<std::string>(),
        m["load"].get<std::string>()}][m["seed"].get<uint64_t>()][m["scheme"].get<std::string>()] = &m;
  }
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [c, by_seed] : by)
    for (const char* kind : kBenchKinds)
      for (const auto& metric : kRatioMetrics) {
        std::vector<double> xs;
        nlohmann::ordered_json per_seed = nlohmann::ordered_json::object();
        for (const auto& [seed, by_scheme] : by_seed) {
          if (!by_scheme.count("dsh") || !by_scheme.count("sih")) continue;
          const double d = point_metric(by_scheme.at("dsh")->at("kinds").at(kind), metric);
          const double si = point_metric(by_scheme.at("sih")->at("kinds").at(kind), metric);
          if (d <= 0 || si <= 0) continue;  // a kind with no flow in one of them
          xs.push_back(d / si);
          per_seed[std::to_string(seed)] = std::round(d / si * 10000) / 10000;
        }
        if (xs.empty()) continue;
        auto& y = j[c[0]][c[1]][c[2]][c[3]][kind][metric];
        y = interval_json(t_interval(xs));
        y["per_seed"] = per_seed;
      }
  return j;
}

uint64_t ideal_fct_ps(const Topology& t, const std::vector<double>& mmu_clock_ghz, uint32_t src, uint32_t dst,
                      uint32_t flow, uint64_t bytes, uint64_t packet_bytes) {
  const auto path = t.path(int(src), int(dst), flow);
  const double first = double(std::min(bytes, packet_bytes));
  const PortSpec& nic = t.ports(t.host_node(int(src)))[0];
  double ps = nic.delay_ns * 1000 + first * 8000.0 / nic.gbps;
  double slowest = nic.gbps;
  for (const auto& [sw, port] : path) {
    const PortSpec& p = t.ports(sw)[size_t(port)];
    ps += p.delay_ns * 1000 + first * 8000.0 / p.gbps;
    ps += double(kRtlLatency + 1) * std::round(1000.0 / mmu_clock_ghz[size_t(sw)]);
    slowest = std::min(slowest, p.gbps);
  }
  ps += (double(bytes) - first) * 8000.0 / slowest;
  return uint64_t(ps + 0.5);
}

}  // namespace dsh::net
