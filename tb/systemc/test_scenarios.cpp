// SPDX-License-Identifier: Apache-2.0
// The switch model against the analytic model and the headroom formula.
//
// Burst sizes are set in bytes (% of the buffer); the theorems count buffer
// cells. A 1500 B packet takes 6 cells = 1536 B, so a burst that occupies c%
// of the buffer's cells is c * 1500/1536 % of its bytes: bytes_pct() below.
// Expectations:
//   - pause-free iff the burst is below Theorem 1 (DSH) / Theorem 2 (SIH)
//     (dsh::max_pause_free_burst, N = 2, M = R = 16, private_per_queue = phi),
//     to within 3 % of the buffer either way (the acceptance band);
//   - eta from spec §1.3 (228 cells) loses nothing even when every part of
//     the spec §7.1 delay is at its maximum; 56840 B rounded up to 223 cells
//     does (scenarios §S4).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "mmu_model.h"
#include "sim.h"

namespace dsh::sc {
namespace {

// DSH_TEST_BACKEND=golden (scripts/test-sanitize.sh): the switch model on the
// golden MMU, for a build that has no 32x7 RTL.
Params scenario(const std::string& file) {
  Params p;
  p.load_toml(std::string(DSH_SCENARIO_DIR) + "/" + file);
  if (const char* b = std::getenv("DSH_TEST_BACKEND")) p.set("run.backend", b);
  return p;
}

Metrics run(const Params& p, Scheme s, double burst_pct = 0) {
  PointSpec spec;
  spec.scheme = s;
  spec.burst_pct = burst_pct;
  const PointResult r = run_point_isolated(p, spec);
  EXPECT_TRUE(r.ok()) << r.error;
  if (p.kind == Kind::PfcAvoidance) {  // the whole burst got in: burst / M bytes from each of the M flows
    const uint64_t m = p.fanin_srcs.size() * p.fanin_classes.size();
    EXPECT_EQ(r.m.fanin_bytes_admitted, r.m.burst_bytes / m * m);
  }
  return r.m;
}

// Theorem 1/2 limit as % of the buffer's cells.
double theorem_pct(const Params& p, Scheme s) {
  return 100.0 * max_pause_free_burst(p.absorption_model(), s) / double(p.mmu.buffer_cells);
}

double bytes_pct(const Params& p, double cells_pct) {
  return cells_pct * double(p.packet_bytes) / double(p.cells_per_packet() * p.cell_bytes);
}

void expect_pause_free(const Metrics& m) {
  EXPECT_EQ(m.fanin_pause_frames, 0u) << to_string(Scheme(m.scheme)) << " at " << m.burst_pct << "%";
  EXPECT_EQ(m.fanin_pause_us, 0.0);
  EXPECT_EQ(m.drops, 0u);
}

void expect_paused(const Metrics& m) {
  EXPECT_GT(m.fanin_pause_frames, 0u) << to_string(Scheme(m.scheme)) << " at " << m.burst_pct << "%";
  EXPECT_GT(m.fanin_pause_us, 0.0);
  EXPECT_EQ(m.drops, 0u);
}

// Theorem 1 ~ 38.0 %, Theorem 2 ~ 8.9 % of the buffer: halfway, ~23 %, only SIH pauses.
TEST(PfcAvoidance, BetweenTheoremsOnlySihPauses) {
  const Params p = scenario("pfc-avoidance.toml");
  const double mid = bytes_pct(p, (theorem_pct(p, Scheme::DSH) + theorem_pct(p, Scheme::SIH)) / 2);
  expect_pause_free(run(p, Scheme::DSH, mid));
  expect_paused(run(p, Scheme::SIH, mid));
}

TEST(PfcAvoidance, HalfOfTheoremTwoNeverPauses) {
  const Params p = scenario("pfc-avoidance.toml");
  const double b = bytes_pct(p, theorem_pct(p, Scheme::SIH) / 2);
  expect_pause_free(run(p, Scheme::DSH, b));
  expect_pause_free(run(p, Scheme::SIH, b));
}

TEST(PfcAvoidance, AboveTheoremOneBothPauseLosslessly) {
  const Params p = scenario("pfc-avoidance.toml");
  const double b = bytes_pct(p, theorem_pct(p, Scheme::DSH) * 1.3);
  expect_paused(run(p, Scheme::DSH, b));
  expect_paused(run(p, Scheme::SIH, b));
}

// The acceptance band: pause-free 3 % of the buffer below the theorem, paused 3 % above.
void expect_edge_within_3pct(const Params& p) {
  for (Scheme s : {Scheme::DSH, Scheme::SIH}) {
    const double t = theorem_pct(p, s);
    SCOPED_TRACE(std::string(to_string(s)) + " theorem " + std::to_string(t) + "% of the buffer");
    expect_pause_free(run(p, s, bytes_pct(p, t - 3)));
    expect_paused(run(p, s, bytes_pct(p, t + 3)));
  }
}

TEST(PfcAvoidance, EdgeWithin3PercentOfTheorems) { expect_edge_within_3pct(scenario("pfc-avoidance.toml")); }

// The same on other chips (the RTL is built for 32 x 7, so other port counts run golden).
std::string chip_name(size_t i) {
  static const char* names[] = {"Alpha1_8", "Alpha1_32", "Link40G", "Buffer24MiB", "Ports16", "Link400G_64MiB", "Ports64_64MiB"};
  return names[i];
}

class OtherChip : public ::testing::TestWithParam<std::vector<std::pair<std::string, std::string>>> {};

TEST_P(OtherChip, EdgeWithin3PercentOfTheorems) {
  Params p = scenario("pfc-avoidance.toml");
  for (const auto& [k, v] : GetParam()) p.set(k, v);
  p.validate();
  expect_edge_within_3pct(p);
}

INSTANTIATE_TEST_SUITE_P(
    Chips, OtherChip,
    ::testing::Values(
        std::vector<std::pair<std::string, std::string>>{{"chip.alpha_log2", "-3"}},
        std::vector<std::pair<std::string, std::string>>{{"chip.alpha_log2", "-5"}},
        std::vector<std::pair<std::string, std::string>>{{"link.rate_gbps", "40"}},
        std::vector<std::pair<std::string, std::string>>{{"chip.buffer_cells", "98304"}},
        std::vector<std::pair<std::string, std::string>>{
            {"run.backend", "golden"}, {"chip.n_ports", "16"}, {"chip.lanes", "16"},
            {"chip.deq_per_cycle", "16"}, {"traffic.fanin_srcs", "2..13"}},
        std::vector<std::pair<std::string, std::string>>{{"link.rate_gbps", "400"}, {"chip.buffer_cells", "262144"}},
        std::vector<std::pair<std::string, std::string>>{{"run.backend", "golden"},
                                                         {"chip.n_ports", "64"},
                                                         {"chip.buffer_cells", "262144"},
                                                         {"traffic.fanin_srcs", "2..33"}}),
    [](const auto& info) { return chip_name(info.index); });

// Every delay part at its maximum (scenarios/worst-case*.toml): the peak
// headroom (SIH, per queue) or insurance (DSH, per port) stays within eta and
// nothing is lost.
TEST(WorstCase, QueueHeadroomWithinEta) {
  const Params p = scenario("worst-case.toml");
  for (Scheme s : {Scheme::SIH, Scheme::DSH}) {
    const Metrics m = run(p, s);
    EXPECT_EQ(m.drops, 0u) << to_string(s);
    EXPECT_LE(m.peak_queue_hdrm_cells, p.headroom_cells()) << to_string(s);
    if (s == Scheme::DSH) {
      EXPECT_LE(m.peak_port_hdrm_cells, p.headroom_cells());
    }
    EXPECT_GT(m.pause_frames, 0u) << "the worst case must pause";
  }
}

TEST(WorstCase, PortInsuranceWithinEta) {
  const Params p = scenario("worst-case-port.toml");
  const Metrics m = run(p, Scheme::DSH);
  EXPECT_EQ(m.drops, 0u);
  EXPECT_LE(m.peak_port_hdrm_cells, p.headroom_cells());
  EXPECT_GT(m.peak_port_hdrm_cells, 0u) << "the insurance must be used";
}

// spec §1.3: 56840 B simply rounded up to cells is 223, too small for 38 packets of 6 cells.
TEST(WorstCase, NaiveEtaDrops) {
  const uint64_t naive = cells_of(56840, 256);
  ASSERT_EQ(naive, 223u);
  Params q = scenario("worst-case.toml");
  q.set("chip.headroom_cells", std::to_string(naive));
  EXPECT_GT(run(q, Scheme::SIH).drops, 0u) << "per-queue headroom of 223 cells";
  Params port = scenario("worst-case-port.toml");
  port.set("chip.headroom_cells", std::to_string(naive));
  EXPECT_GT(run(port, Scheme::DSH).drops, 0u) << "per-port insurance of 223 cells";
}

// A short S1 point with golden and RTL compared on every queue and port
// every cycle; then each backend alone gives the same switch-level results.
TEST(Lockstep, FullShortScenario) {
  Params p = scenario("pfc-avoidance.toml");
  p.settle_us = 30;
  p.settle_after_pause_us = 10;
  p.full_compare = true;
  for (Scheme s : {Scheme::DSH, Scheme::SIH}) {
    const double b = bytes_pct(p, theorem_pct(p, Scheme::SIH) * 1.5);  // SIH pauses, DSH not
    p.backend = Backend::Lockstep;
    const Metrics l = run(p, s, b);
    EXPECT_GT(l.mmu_cycles / p.mmu_clock_ghz, 50e3) << "less than 50 us of MMU cycles compared";
    EXPECT_EQ(l.drops, 0u);
    p.backend = Backend::Golden;
    const Metrics g = run(p, s, b);
    p.backend = Backend::Rtl;
    const Metrics r = run(p, s, b);
    for (const Metrics* m : {&g, &r}) {
      EXPECT_EQ(m->fanin_pause_frames, l.fanin_pause_frames);
      EXPECT_EQ(m->pause_frames, l.pause_frames);
      EXPECT_EQ(m->resume_frames, l.resume_frames);
      EXPECT_EQ(m->peak_shared_cells, l.peak_shared_cells);
      EXPECT_EQ(m->mmu_cycles, l.mmu_cycles);
      EXPECT_EQ(m->fanin_pause_us, l.fanin_pause_us);
    }
    if (s == Scheme::SIH) {
      EXPECT_GT(l.fanin_pause_frames, 0u);
    } else {
      EXPECT_EQ(l.fanin_pause_frames, 0u);
    }
  }
}

// A lockstep mismatch stops the run with the one-line-per-field report and an
// FST: the RTL with a planted fault (shared drains before headroom,
// FaultDrainOrder of tb/faults/dsh_faults.sv) on a 3-port switch whose
// shared pool fills.
TEST(Lockstep, MismatchStopsTheRun) {
  Params p;
  for (const auto& [k, v] : std::vector<std::pair<std::string, std::string>>{
           {"scenario.kind", "saturate"}, {"traffic.run_us", "100"}, {"chip.n_ports", "3"},
           {"chip.lanes", "1"}, {"chip.deq_per_cycle", "1"}, {"chip.n_queues", "3"}, {"chip.buffer_cells", "2000"}, {"chip.private_cells", "0"},
           {"chip.alpha_log2", "3"}, {"traffic.background_srcs", "0"}, {"traffic.background_dst", "-1"},
           {"traffic.fanin_srcs", "1"}, {"traffic.fanin_dst", "-1"}, {"sweep.schemes", "dsh"},
           {"chip.thresh_latency", "1"}, {"run.backend", "lockstep"}, {"run.rtl_fault", "11"}})
    p.set(k, v);
  PointSpec spec;
  spec.scheme = Scheme::DSH;
  const PointResult r = run_point_isolated(p, spec);
  ASSERT_FALSE(r.ok()) << "the planted fault went unnoticed";
  EXPECT_EQ(r.m.mismatch, 1);
  EXPECT_LT(r.m.sim_us, 100.0) << "the run must stop at the mismatch";
  size_t lines = 0;
  std::istringstream in(r.error);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("mismatch after", 0) == 0) {
      EXPECT_NE(l.find(".fst"), std::string::npos) << l;
      continue;
    }
    ++lines;
    EXPECT_EQ(l.rfind("cycle ", 0), 0u) << l;
    // A difference of one field, or an RTL assertion (fault 11 breaks
    // dsh_deq_drain's DrainHeadroom_A before the outputs differ).
    EXPECT_TRUE(dsh::is_lockstep_report(l)) << l;
  }
  EXPECT_GT(lines, 0u) << r.error;
}

}  // namespace
}  // namespace dsh::sc
