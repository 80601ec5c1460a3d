// SPDX-License-Identifier: Apache-2.0
// The planted faults (tb/faults/dsh_faults.sv) cut what they name in the
// models the lockstep runs. Each is a Verilator force, and the DFG optimiser
// of Verilator 5.006 can hand a reader of a forced signal the signal's
// driver instead, so that the force misses that reader (where the signal
// and its reader are continuous assignments it takes apart; fixed in
// Verilator 5.024, #4942). No optimiser pass does that with -fno-dfg. So:
// under each fault, the built-in model p3q3_dsh_l1 against the same RTL
// verilated with -fno-dfg, on the lockstep's traffic: every cycle's outputs,
// all state and each failed assertion (its cycle and text) the same.
#include <gtest/gtest.h>

#include <string>

#include "Vfaults_nodfg.h"
#include "Vfaults_nodfg___024root.h"
#include "configs.h"
#include "rtl_model.h"
#include "traffic.h"

namespace dsh {
namespace {

const char* const kFaults[] = {"None", "WQueue", "WPort", "DDeq", "DEnq", "DPort", "E0Queue",
                               "E1Queue", "E0Port", "E1Port", "CntBypass", "DrainOrder", "Merge",
                               "PoolPrefix"};
static_assert(std::size(kFaults) == kRtlFaults + 1, "a planted fault of tb/faults/dsh_faults.sv without a test");
constexpr uint64_t kCycles = 20000;

class Fault : public ::testing::TestWithParam<unsigned> {};

TEST_P(Fault, SameWithoutDfg) {
  const unsigned fault = GetParam();
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_dsh_l1") v = &x;
  ASSERT_NE(v, nullptr);
  for (uint64_t seed : {3, 5}) {
    const Config c = config_for(*v, seed);
    RtlOptions ro;
    ro.fault = fault;
    const std::string tag = "fault=" + std::to_string(fault) + " seed=" + std::to_string(seed);
    testing::internal::CaptureStdout();  // Verilator's line for every failed assertion
    auto built = v->make(c, ro);
    RtlModel<Vfaults_nodfg> ref(c, v->widths, ro, "p3q3_dsh_l1 -fno-dfg");
    auto gold = make_golden(c, v->widths);  // what the traffic reads to choose dequeues
    TrafficOptions to;
    to.seed = seed;
    Traffic t(c, v->widths, to);
    std::vector<std::string> diff;
    unsigned asserted = 0;
    for (uint64_t i = 0; i < kCycles && diff.empty(); ++i) {
      const CycleIn in = t.next(*gold);
      gold->step(in);
      CycleOut out[2];
      std::string failed[2];
      MmuModel* m[2] = {built.get(), &ref};
      for (int k = 0; k < 2; ++k) {
        try {
          out[k] = m[k]->step(in);
        } catch (const RtlAssertionError& e) {  // once per model; it steps on
          failed[k] = e.what();
        }
      }
      if (failed[0] != failed[1])
        diff.push_back("cycle " + std::to_string(i) + " assertion: built='" + failed[0] + "' -fno-dfg='" + failed[1] +
                       "' " + tag);
      asserted += !failed[0].empty();
      if (!failed[0].empty()) out[0] = out[1] = CycleOut{};  // the outputs of that step are not returned
      for (auto& l : compare(*built, out[0], ref, out[1], in, true, tag)) diff.push_back(l);
    }
    const std::string output = testing::internal::GetCapturedStdout();
    EXPECT_TRUE(diff.empty()) << "fault " << fault << " (" << kFaults[fault]
                              << "): the built-in model ('rtl') and the one without DFG ('golden') differ:\n"
                              << diff[0] << (diff.size() > 1 ? "\n" + diff[1] : "");
    EXPECT_LE(asserted, 1u);
    if (fault == 0) EXPECT_EQ(asserted, 0u) << output.substr(0, 2000);
  }
}

INSTANTIATE_TEST_SUITE_P(Faults, Fault, ::testing::Range(0u, unsigned(std::size(kFaults))),
                         [](const auto& info) { return std::string(kFaults[info.param]); });

}  // namespace
}  // namespace dsh
