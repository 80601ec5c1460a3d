// SPDX-License-Identifier: Apache-2.0
// The RTL with lanes against the golden model's multi-event cycle
// (spec §4.7-§4.10), every output and every touched record each cycle, the whole
// state every kFullCompareEvery cycles, at full load (Traffic::next_lanes:
// every enqueue slot and, in most phases, every dequeue slot), for every
// lane parameter set built in (rtl_lane_variants()); the planted faults,
// the lanes' two among them, caught there.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "configs.h"
#include "mmu_model.h"
#include "traffic.h"

namespace dsh {
namespace {

uint64_t env_cycles(const char* name, uint64_t dflt) {
  const char* e = std::getenv(name);
  return e ? std::strtoull(e, nullptr, 10) : dflt;
}

Config lane_config(const RtlVariant& v, uint64_t seed) {
  Config c = config_for(v, seed);
  c.lanes = v.lanes;
  c.deq_per_cycle = v.deq;
  return c;
}

const RtlVariant* lane_variant(const std::string& name) {
  for (const auto& v : rtl_lane_variants())
    if (name == v.name) return &v;
  return nullptr;
}

struct LaneCoverage {
  uint64_t cycles = 0, regions[5] = {}, kinds[4] = {}, errors = 0;
  uint64_t enq = 0, deq_taken = 0, merged = 0, not_taken = 0;
  double seconds = 0;
};

LaneCoverage run_lanes(const RtlVariant& v, const Config& c, uint64_t seed, uint64_t cycles, unsigned fault = 0) {
  LockstepOptions lo;
  lo.tag = "seed=" + std::to_string(seed) + " variant=" + v.name + (fault ? " fault=" + std::to_string(fault) : "");
  RtlOptions ro;
  ro.fault = fault;
  auto m = make_lockstep(v, c, lo, ro);
  TrafficOptions to;
  to.seed = seed;
  to.error_rate = 0.001;
  Traffic t(c, v.widths, to);
  LaneCoverage cov;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < cycles; ++i) {
    const LaneCycleIn in = t.next_lanes(*m);
    const DeqRouting r = route_dequeues(c, in);
    const LaneCycleOut& o = m->step_lanes(in);
    for (unsigned l = 0; l < c.lanes; ++l) {
      ++cov.regions[int(o.region[l])];
      cov.enq += in.enq[l].valid;
    }
    for (unsigned k = 0; k < o.n_events; ++k) ++cov.kinds[o.events[k].kind];
    cov.errors += o.n_errors;
    for (unsigned k = 0; k < c.deq_per_cycle; ++k) {
      if (!in.deq[k].valid) continue;
      cov.deq_taken += r.taken[k];
      cov.not_taken += !r.taken[k];
      cov.merged += r.taken[k] && !r.own_error[k] && r.leader[k] != k;
    }
  }
  m->finish();
  cov.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  cov.cycles = cycles;
  return cov;
}

void print(const RtlVariant& v, uint64_t seed, const LaneCoverage& cov) {
  std::printf("%s seed=%llu: matched %llu cycles (%.0f cycles/s, lockstep); P/S/H/D %llu/%llu/%llu/%llu, "
              "PAUSE %llu RESUME %llu PORT_PAUSE %llu PORT_RESUME %llu, errors %llu; enqueues %llu, dequeues "
              "taken %llu (merged %llu), not taken %llu\n",
              v.name, (unsigned long long)seed, (unsigned long long)cov.cycles, cov.cycles / cov.seconds,
              (unsigned long long)cov.regions[1], (unsigned long long)cov.regions[2],
              (unsigned long long)cov.regions[3], (unsigned long long)cov.regions[4],
              (unsigned long long)cov.kinds[0], (unsigned long long)cov.kinds[1], (unsigned long long)cov.kinds[2],
              (unsigned long long)cov.kinds[3], (unsigned long long)cov.errors, (unsigned long long)cov.enq,
              (unsigned long long)cov.deq_taken, (unsigned long long)cov.merged, (unsigned long long)cov.not_taken);
}

// The stimulus reaches every row, every transition, errors, merges and
// slots not taken.
void expect_reached(const Config& c, const LaneCoverage& cov) {
  EXPECT_GT(cov.regions[1], 0u) << "no private admission";
  EXPECT_GT(cov.regions[2], 0u) << "no shared admission";
  EXPECT_GT(cov.regions[3], 0u) << "no headroom/insurance admission";
  EXPECT_GT(cov.regions[4], 0u) << "no drop";
  EXPECT_GT(cov.kinds[Event::Pause], 0u);
  EXPECT_GT(cov.kinds[Event::Resume], 0u);
  if (c.scheme == Scheme::DSH) {
    EXPECT_GT(cov.kinds[Event::PortPause], 0u);
    EXPECT_GT(cov.kinds[Event::PortResume], 0u);
  }
  EXPECT_GT(cov.errors, 0u) << "no protocol error exercised";
  if (c.deq_per_cycle > 1) {
    EXPECT_GT(cov.merged, 0u) << "no dequeue slots merged";
    EXPECT_GT(cov.not_taken, 0u) << "no dequeue slot left not taken";
  }
  // Full load: most enqueue slots filled.
  EXPECT_GT(cov.enq, cov.cycles * c.lanes / 2);
}

class LaneLockstep : public ::testing::TestWithParam<std::tuple<std::string, uint64_t>> {};

TEST_P(LaneLockstep, FullLoad) {
  const auto& [name, seed] = GetParam();
  const RtlVariant* v = lane_variant(name);
  ASSERT_NE(v, nullptr);
  const Config c = lane_config(*v, seed);
  SCOPED_TRACE(c.describe());
  // The 32-lane chips: 10^5 cycles here (DSH_LANE_CHIP_CYCLES; the `long`
  // test runs 10^6); the small ones 4 * 10^4.
  const bool chip = v->lanes >= 32;
  const uint64_t n = chip ? env_cycles("DSH_LANE_CHIP_CYCLES", 100000) : env_cycles("DSH_LOCKSTEP_CYCLES", 40000);
  try {
    const LaneCoverage cov = run_lanes(*v, c, seed, n);
    print(*v, seed, cov);
    expect_reached(c, cov);
  } catch (const MismatchError& e) {
    FAIL() << e.what();
  }
}

std::vector<std::tuple<std::string, uint64_t>> params() {
  std::vector<std::tuple<std::string, uint64_t>> p;
  for (const auto& v : rtl_lane_variants()) {
    if (v.lanes >= 32 && !v.light) continue;  // the chip at line rate: its light build here, checked below
    for (uint64_t seed : {1, 2}) p.emplace_back(v.name, seed);
  }
  return p;
}

INSTANTIATE_TEST_SUITE_P(Variants, LaneLockstep, ::testing::ValuesIn(params()),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_seed" + std::to_string(std::get<1>(info.param));
                         });

// The checked build of the 32-lane chip (its assertions): a shorter run.
class LaneChipChecked : public ::testing::TestWithParam<std::string> {};

TEST_P(LaneChipChecked, FullLoad) {
  const RtlVariant* v = lane_variant(GetParam());
  ASSERT_NE(v, nullptr);
  const Config c = lane_config(*v, 1);
  try {
    const LaneCoverage cov = run_lanes(*v, c, 1, env_cycles("DSH_LANE_CHECKED_CYCLES", 20000));
    print(*v, 1, cov);
  } catch (const MismatchError& e) {
    FAIL() << e.what();
  }
}

std::vector<std::string> checked_chips() {
  std::vector<std::string> n;
  for (const auto& v : rtl_lane_variants())
    if (v.lanes >= 32 && !v.light) n.emplace_back(v.name);
  return n;
}
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(LaneChipChecked);  // none with DSH_RTL_LANE_CHIPS_LIGHT_ONLY
INSTANTIATE_TEST_SUITE_P(Chips, LaneChipChecked, ::testing::ValuesIn(checked_chips()),
                         [](const auto& info) { return info.param; });

// One enqueue and one dequeue a cycle through a lane chip (the enqueue in
// its port's lane's slot, the dequeue in slot 0: MmuModel::step), on the
// one-lane traffic: the same results as the golden model's.
TEST(LaneLockstepOneEvent, MatchesGolden) {
  for (const char* name : {"p4q2_dsh_l2_n2d2", "p4q2_sih_l1_n4d4"}) {
    const RtlVariant* v = lane_variant(name);
    ASSERT_NE(v, nullptr);
    const Config c = lane_config(*v, 5);
    LockstepOptions lo;
    lo.tag = std::string("one event variant=") + name;
    auto m = make_lockstep(*v, c, lo);
    TrafficOptions to;
    to.seed = 5;
    Traffic t(c, v->widths, to);
    try {
      for (int i = 0; i < 20000; ++i) m->step(t.next(*m));
      m->finish();
    } catch (const MismatchError& e) {
      FAIL() << e.what();
    }
  }
}

// Every planted fault caught on every lane chip, the line-rate ones too,
// within 2 * 10^5 cycles of full load; the lanes' two (Merge, PoolPrefix)
// among them.
const char* const kFaults[] = {"", "WQueue", "WPort", "DDeq", "DEnq", "DPort", "E0Queue", "E1Queue",
                               "E0Port", "E1Port", "CntBypass", "DrainOrder", "Merge", "PoolPrefix"};
static_assert(std::size(kFaults) == kRtlFaults + 1, "a planted fault of tb/faults/dsh_faults.sv without a test");

class LaneFault : public ::testing::TestWithParam<std::tuple<std::string, unsigned>> {};

TEST_P(LaneFault, IsCaught) {
  const auto& [name, fault] = GetParam();
  const RtlVariant* v = lane_variant(name);
  ASSERT_NE(v, nullptr);
  if (fault == kRtlFaultPoolPrefix && v->lanes == 1) GTEST_SKIP() << "one lane: no prefix sums";
  if (fault == kRtlFaultMerge && v->deq == 1) GTEST_SKIP() << "one dequeue slot: nothing merges";
  Config c = lane_config(*v, 3);
  c.private_cells = 0;
  bool caught = false;
  try {
    run_lanes(*v, c, 3, 200000, fault);
  } catch (const MismatchError& e) {
    caught = true;
    ASSERT_FALSE(e.lines().empty());
    std::printf("planted fault %u (%s) on %s: caught at cycle %llu: %s\n", fault, kFaults[fault], v->name,
                (unsigned long long)e.cycle(), e.lines()[0].c_str());
  }
  EXPECT_TRUE(caught) << "planted fault " << fault << " (" << kFaults[fault] << ") went unnoticed on " << name;
}

std::vector<std::tuple<std::string, unsigned>> fault_params() {
  std::vector<std::tuple<std::string, unsigned>> p;
  for (const auto& v : rtl_lane_variants())
    for (unsigned f = 1; f <= kRtlFaults; ++f) p.emplace_back(v.name, f);
  return p;
}
INSTANTIATE_TEST_SUITE_P(Faults, LaneFault, ::testing::ValuesIn(fault_params()),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_" + kFaults[std::get<1>(info.param)];
                         });

}  // namespace
}  // namespace dsh
