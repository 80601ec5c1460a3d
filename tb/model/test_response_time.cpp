// SPDX-License-Identifier: Apache-2.0
// η (spec §1.3, §7.1, §7.2) against the standard's response time of a PAUSE
// or PFC receiver (IEEE 802.3 31B.3.7, in quanta of 512 bit times, as
// SONiC's headroom calculation uses it) at each rate of the link-speed sweep
// (scenarios/link-speeds.toml; spec §6.10 has the table). The bytes η holds
// (whole packets) must cover 2 (C D_prop + MTU) + response + the switch's
// admission wait (spec §7.2) at that rate, the PAUSE reaction term taken
// as the standard's response time. The default reaction, 3840 B, is 60
// quanta: the test also records by how much it falls short at each rate.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include <toml++/toml.h>

#include "rtl_facts.h"
#include "switch_mmu.h"

namespace dsh::net {
namespace {

// 802.3 31B.3.7 response time, quanta, per Gb/s (SONiC).
const std::map<int, unsigned> kResponseQuanta = {{10, 67},  {25, 80},   {40, 118}, {50, 147},
                                                 {100, 394}, {200, 453}, {400, 905}};

struct Rates {
  std::vector<int> gbps;
  double ghz_per_100g = 0;
};

Rates link_speed_rates() {
  const toml::table t = toml::parse_file(std::string(DSH_SCENARIO_DIR) + "/link-speeds.toml");
  Rates r;
  for (const auto& g : *t["generation"].as_array()) r.gbps.push_back(int(*g.as_table()->get("rate_gbps")->value<int64_t>()));
  r.ghz_per_100g = t["sweep"]["mmu_ghz_per_100gbps"].value_or(0.0);
  return r;
}

// Hand-worked from spec §1.3 and §7.2 with the standard's response: 32
// ports, 32 lanes (one port each), the MMU at 0.08 rate/100 GHz, so the
// wait (kRtlLatency + 1 + 1 cycles) is 6 cycles of 12.5 100/rate ns =
// 937.5 B at any rate, 938 B rounded up; 2 (C · 2 us + 1500) + response +
// 938 B, in 1500 B packets of 6 cells. 25G: 21,558 B -> 15 packets, 90
// cells; 40G: 31,490 -> 21, 126; 100G: 79,154 -> 53, 318; 200G: 132,930 ->
// 89, 534; 400G: 261,858 -> 175, 1050.
const std::map<int, uint64_t> kEtaWithResponse = {{25, 90}, {40, 126}, {100, 318}, {200, 534}, {400, 1050}};
// The default reaction (3840 B): 84, 114, 234, 432, 834 cells, short of
// the requirement above by 558, 2990, 20654, 24930, 53358 B.
const std::map<int, uint64_t> kEtaDefault = {{25, 84}, {40, 114}, {100, 234}, {200, 432}, {400, 834}};

double required_bytes(int gbps, uint64_t response_bytes) {
  const double c_bytes_per_ns = gbps / 8.0;
  const double wait = std::ceil(double(kRtlLatency + 1 + 1) / (0.08 * gbps / 100.0) * c_bytes_per_ns);
  return 2 * (c_bytes_per_ns * 2000 + 1500) + double(response_bytes) + wait;
}

TEST(ResponseTime, EtaWithTheStandardsResponseCoversItAtEachSweepRate) {
  const Rates r = link_speed_rates();
  ASSERT_EQ(r.ghz_per_100g, 0.08);
  unsigned checked = 0;
  for (int g : r.gbps) {
    if (!kResponseQuanta.count(g)) {
      EXPECT_EQ(g, 800) << "only 800 Gb/s has no figure in the table";
      continue;
    }
    LinkParams l;
    l.link_gbps = g;
    l.processing_bytes = kResponseQuanta.at(g) * 64;  // 512 bit times = 64 B
    const uint64_t eta = auto_headroom_cells(l, 32, 32, r.ghz_per_100g * g / 100);
    EXPECT_EQ(eta, kEtaWithResponse.at(g)) << g << " Gb/s";
    EXPECT_GE(double(eta / 6 * 1500), required_bytes(g, l.processing_bytes)) << g << " Gb/s";
    ++checked;
  }
  EXPECT_EQ(checked, 5u);
}

TEST(ResponseTime, DefaultReactionFallsShortOfTheStandardsAtEachSweepRate) {
  const Rates r = link_speed_rates();
  for (int g : r.gbps) {
    if (!kResponseQuanta.count(g)) continue;
    LinkParams l;
    l.link_gbps = g;
    const uint64_t eta = auto_headroom_cells(l, 32, 32, r.ghz_per_100g * g / 100);
    EXPECT_EQ(eta, kEtaDefault.at(g)) << g << " Gb/s";
    EXPECT_LT(double(eta / 6 * 1500), required_bytes(g, kResponseQuanta.at(g) * 64)) << g << " Gb/s";
    EXPECT_GE(double(eta / 6 * 1500), required_bytes(g, 3840)) << g << " Gb/s: the default covers its own 3840 B";
  }
}

}  // namespace
}  // namespace dsh::net
