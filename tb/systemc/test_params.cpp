// Scenario parameters: the S1 file, overrides by key, validation messages.
#include <gtest/gtest.h>

#include "params.h"

namespace dsh::sc {
namespace {

Params s1() {
  Params p;
  p.load_toml(std::string(DSH_SCENARIO_DIR) + "/pfc-avoidance.toml");
  return p;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// scenarios §S1.1 and spec §1.2, §1.3: 32 ports, 7 queues, 16 MiB of 256 B cells,
// 3 KiB private, eta = ceil(56840 / 1500) * ceil(1500 / 256) = 38 * 6 = 228.
TEST(Params, PfcAvoidanceFileIsS1) {
  const Params p = s1();
  EXPECT_EQ(p.kind, Kind::PfcAvoidance);
  EXPECT_EQ(p.mmu.n_ports, 32u);
  EXPECT_EQ(p.mmu.n_queues, 7u);
  EXPECT_EQ(p.buffer_bytes(), 16u << 20);
  EXPECT_EQ(p.mmu.private_cells * p.cell_bytes, 3072u);
  EXPECT_EQ(p.headroom_cells(), 228u);
  EXPECT_EQ(p.background_srcs, (std::vector<int>{0, 1}));
  EXPECT_EQ(p.port_of(p.background_dst), 31u);
  EXPECT_EQ(p.fanin_srcs.size(), 16u);
  EXPECT_EQ(p.fanin_srcs.front(), 2);
  EXPECT_EQ(p.fanin_srcs.back(), 17);
  EXPECT_EQ(p.port_of(p.fanin_dst), 30u);
  EXPECT_EQ(p.dwrr_quantum_bytes, 1600u);
  EXPECT_GE(p.burst_pct.size(), 12u);
  EXPECT_DOUBLE_EQ(p.burst_pct.front(), 5);
  EXPECT_DOUBLE_EQ(p.burst_pct.back(), 60);
  const AbsorptionModel m = p.absorption_model();
  EXPECT_EQ(m.congested, 2u);
  EXPECT_EQ(m.bursty, 16u);
  EXPECT_DOUBLE_EQ(m.load, 16.0);
  EXPECT_DOUBLE_EQ(m.alpha, 1.0 / 16);
  EXPECT_DOUBLE_EQ(m.private_per_queue, 12.0);
  EXPECT_NO_THROW(p.validate());
}

// dsh-sim without a file runs S1.
TEST(Params, DefaultsAreTheS1File) { EXPECT_EQ(Params{}.dump(), s1().dump()); }

TEST(Params, OverridesByKeyAndUniqueName) {
  Params p = s1();
  p.set("burst_pct", "10,20");
  EXPECT_EQ(p.burst_pct, (std::vector<double>{10, 20}));
  p.set("sweep.burst_pct", "5:60:5");
  EXPECT_EQ(p.burst_pct.size(), 12u);
  p.set("chip.alpha_log2", "-3");
  EXPECT_EQ(p.mmu.alpha_log2, -3);
  p.set("link.rate_gbps", "40");
  EXPECT_EQ(p.headroom_cells(), 108u);  // 2*(5*2000 + 1500) + 3840 = 26840 B -> 18 packets * 6
  p.set("chip.headroom_cells", "223");
  EXPECT_EQ(p.headroom_cells(), 223u);
  p.set("traffic.fanin_srcs", "2..5,9");
  EXPECT_EQ(p.fanin_srcs, (std::vector<int>{2, 3, 4, 5, 9}));
  p.set("schemes", "SIH");
  EXPECT_EQ(p.schemes, (std::vector<std::string>{"sih"}));
}

TEST(Params, ErrorsNameTheKey) {
  Params p = s1();
  EXPECT_NE(error_of([&] { p.set("chip.nope", "1"); }).find("'chip.nope'"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("srcs", "1"); }).find("ambiguous"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("chip.alpha_log2", "x"); }).find("chip.alpha_log2"), std::string::npos);
  p.set("traffic.fanin_dst", "40");
  const std::string e = error_of([&] { p.validate(); });
  EXPECT_NE(e.find("traffic.fanin_dst"), std::string::npos) << e;
  EXPECT_NE(e.find("0..31"), std::string::npos) << e;
  Params q = s1();
  q.set("chip.buffer_cells", "32768");  // SIH headroom alone is 32*7*228 = 51072 cells
  const std::string e2 = error_of([&] { q.validate(); });
  EXPECT_NE(e2.find("buffer_cells"), std::string::npos) << e2;
}

}  // namespace
}  // namespace dsh::sc
