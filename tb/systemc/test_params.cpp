// SPDX-License-Identifier: Apache-2.0
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
// 3 KiB private; eta 'auto' (spec §7.2): 56840 B of spec §1.3 plus the
// admission wait and decision latency of 32 lanes at 80 MHz, (4 + 1 + 1)
// cycles = 75 ns = 938 B at 100 Gb/s: ceil(57778 / 1500) * ceil(1500 / 256)
// = 39 * 6 = 234.
TEST(Params, PfcAvoidanceFileIsS1) {
  const Params p = s1();
  EXPECT_EQ(p.kind, Kind::PfcAvoidance);
  EXPECT_EQ(p.mmu.n_ports, 32u);
  EXPECT_EQ(p.mmu.n_queues, 7u);
  EXPECT_EQ(p.buffer_bytes(), 16u << 20);
  EXPECT_EQ(p.mmu.private_cells * p.cell_bytes, 3072u);
  EXPECT_EQ(p.headroom_cells(), 234u);
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

// dsh-sim without a file runs S1: the same values, and the name defaults to
// the kind, which the file gives as its name.
TEST(Params, DefaultsAreTheS1File) {
  Params d;
  EXPECT_EQ(d.name, s1().name);
  d.set("scenario.name", "pfc-avoidance");
  EXPECT_EQ(d.dump(), s1().dump());
}

TEST(Params, OverridesByKeyAndUniqueName) {
  Params p = s1();
  p.set("burst_pct", "10,20");
  EXPECT_EQ(p.burst_pct, (std::vector<double>{10, 20}));
  p.set("sweep.burst_pct", "5:60:5");
  EXPECT_EQ(p.burst_pct.size(), 12u);
  p.set("chip.alpha_log2", "-3");
  EXPECT_EQ(p.mmu.alpha_log2, -3);
  p.set("link.rate_gbps", "40");
  // 2*(5*2000 + 1500) + 3840 = 26840 B, plus 75 ns at 40 Gb/s = 375 B: 27215 B -> 19 packets * 6
  EXPECT_EQ(p.headroom_cells(), 114u);
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
  EXPECT_NE(error_of([&] { p.set("srcs", "1"); }).find("unknown key 'srcs'"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("chip.n_port", "1"); }).find("did you mean chip.n_ports"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("chip.alpha_log2", "x"); }).find("chip.alpha_log2"), std::string::npos);
  p.set("traffic.fanin_dst", "40");
  const std::string e = error_of([&] { p.validate(); });
  EXPECT_NE(e.find("traffic.fanin_dst"), std::string::npos) << e;
  EXPECT_NE(e.find("0..31"), std::string::npos) << e;
  // SIH headroom alone is 32*7*234 = 52416 cells: SIH cannot be configured
  // on this chip. With both schemes asked for, SIH is reported infeasible and
  // DSH runs; asking for SIH alone is refused.
  Params q = s1();
  q.set("chip.buffer_cells", "32768");
  EXPECT_EQ(error_of([&] { q.validate(); }), "");
  const auto bad = q.infeasible();
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_EQ(bad[0].first, "sih");
  EXPECT_NE(bad[0].second.find("buffer_cells = 32768"), std::string::npos) << bad[0].second;
  q.set("sweep.schemes", "sih");
  const std::string e2 = error_of([&] { q.validate(); });
  EXPECT_NE(e2.find("buffer_cells"), std::string::npos) << e2;
}

// Numbers are parsed strictly; each refusal names the key, the
// value and the accepted range.
TEST(Params, StrictNumbers) {
  Params p = s1();
  EXPECT_NE(error_of([&] { p.set("run.jobs", "0"); }).find("run.jobs = 0 is out of range 1..256"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("link.rate_gbps", "nan"); }).find("link.rate_gbps = 'nan'"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("link.rate_gbps", "0"); }).find("out of range (0, 100000]"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("chip.cell_bytes", "18446744073709551616"); }).find("out of range 16..65536"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.set("chip.n_ports", "true"); }).find("expected an integer"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("traffic.background_dst", "-1.0"); }).find("expected an integer"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("run.full_compare", "1"); }).find("expected true or false"), std::string::npos);
  EXPECT_NE(error_of([&] { p.set("sweep.burst_pct", "5:60"); }).find("'5:60'"), std::string::npos);
  EXPECT_EQ(p.jobs, 2u) << "a refused value leaves the key as it was";
}

// A TOML boolean or float where an integer is meant is refused, with the
// file's line; a byte-order mark and CRLF line ends are read.
TEST(Params, TomlTypesAndLineEnds) {
  Params p;
  EXPECT_NE(error_of([&] { p.load_toml_text("[chip]\nn_ports = 2\nn_queues = true\n", "x.toml"); })
                .find("x.toml:3: chip.n_queues"),
            std::string::npos);
  EXPECT_NE(error_of([&] { p.load_toml_text("[chip]\nbuffer_cells = 100.0\n", "x.toml"); }).find("'100.0'"),
            std::string::npos);
  Params q;
  q.load_toml_text("\xEF\xBB\xBF[chip]\r\nn_ports = 16\r\n\r\n", "bom.toml");
  EXPECT_EQ(q.mmu.n_ports, 16u);
}

// Preconditions known before a run: a headroom below the link's need is
// refused unless run.allow_lossy; a destination among its sources is refused.
TEST(Params, Preconditions) {
  Params p = s1();
  p.set("chip.headroom_cells", "0");
  const std::string e = error_of([&] { p.validate(); });
  EXPECT_NE(e.find("chip.headroom_cells = 0 is below what the link needs, 234 cells"), std::string::npos) << e;
  p.set("run.allow_lossy", "true");
  EXPECT_EQ(error_of([&] { p.validate(); }), "");
  EXPECT_TRUE(p.lossy());
  Params a = s1();
  a.set("chip.headroom_cells", "234");  // exactly the need: lossless
  EXPECT_FALSE(a.lossy());
  a.set("chip.headroom_cells", "233");
  EXPECT_TRUE(a.lossy());
  Params r = s1();
  r.set("traffic.reverse_srcs", "2");  // fanin_srcs[0] = 2
  EXPECT_NE(error_of([&] { r.validate(); }).find("traffic.reverse_srcs[0] = 2 sends to itself"), std::string::npos);
  Params b = s1();
  EXPECT_NE(error_of([&] { check_burst_pct("burst", -3); }).find("burst = -3 is out of range (0, 1000]"),
            std::string::npos);
  EXPECT_NE(error_of([&] { b.set("sweep.burst_pct", "0"); }).find("sweep.burst_pct = 0 is out of range"), std::string::npos);
}

// The counters' planted fault (10) on the RTL built without them is
// refused before any point runs, naming the fault and the parameter set.
TEST(Params, CounterFaultNeedsCounters) {
  bool built = false;
  for (const auto& v : rtl_variants()) built |= std::string(v.name) == "p3q3_dsh_l1_nostats";
  if (!built) GTEST_SKIP() << "p3q3_dsh_l1_nostats is not built (DSH_RTL_VARIANT_FILTER)";
  Params p = s1();
  p.set("run.backend", "lockstep");
  p.set("run.rtl_variant", "p3q3_dsh_l1_nostats");
  p.set("run.rtl_fault", "10");
  const std::string e = error_of([&] { p.validate(); });
  EXPECT_NE(e.find("run.rtl_fault = 10 (FaultCntBypass)"), std::string::npos) << e;
  EXPECT_NE(e.find("'p3q3_dsh_l1_nostats' is built without them (Stats = 0)"), std::string::npos) << e;
  p.set("run.rtl_fault", "9");
  EXPECT_EQ(error_of([&] { p.validate(); }).find("FaultCntBypass"), std::string::npos);
}

}  // namespace
}  // namespace dsh::sc
