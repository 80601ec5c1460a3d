// SPDX-License-Identifier: Apache-2.0
// The named assertions stop a Verilated simulation with their name, their
// instance and the time: dsh_stage_in's forwarding picks are driven with a
// select that is not one-hot (two sources at once), which
// InWDeqQselOneHot_A forbids; with one-hot selects the same run is clean.
#include <gtest/gtest.h>
#include <verilated.h>

#include <string>

#include "Vstage_in.h"

namespace {

struct Outcome {
  bool error;          // the context saw $error / a failed assertion
  std::string output;  // what Verilator printed
  int cycle;           // the cycle at whose rising edge it failed, -1 none
};

// Clocks 8 cycles out of reset; from cycle 5 on, w_deq_qsel_i = bad_sel.
Outcome run(unsigned bad_sel) {
  VerilatedContext ctx;
  ctx.fatalOnError(false);  // report, do not abort: the test reads the message
  Vstage_in dut(&ctx, "tb");
  dut.w_deq_qsel_i = dut.w_enq_qsel_i = dut.w_deq_psel_i = dut.w_enq_psel_i = 4;  // {memory, W0, W1}: memory
  dut.rst_ni = 0;
  dut.clk_i = 0;
  dut.eval();
  dut.rst_ni = 1;
  dut.eval();
  Outcome r{false, "", -1};
  testing::internal::CaptureStdout();
  for (int c = 0; c < 8 && !r.error; ++c) {
    if (c == 5) dut.w_deq_qsel_i = bad_sel;
    ctx.time(uint64_t(c) * 1000);
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
    dut.eval();
    if (ctx.gotError()) r = {true, "", c};
  }
  r.output = testing::internal::GetCapturedStdout();
  return r;
}

TEST(Assertions, NonOneHotSelectStopsWithNameInstanceAndTime) {
  const Outcome r = run(3);  // W slot 0 and W slot 1 at once
  ASSERT_TRUE(r.error) << r.output;
  EXPECT_EQ(r.cycle, 5);
  EXPECT_NE(r.output.find("[5000] %Error: dsh_stage_in.sv:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("Assertion failed in tb.dsh_stage_in.InWDeqQselOneHot_A"), std::string::npos) << r.output;
}

TEST(Assertions, OneHotSelectsPass) {
  for (unsigned sel : {1u, 2u, 4u}) {
    const Outcome r = run(sel);
    EXPECT_FALSE(r.error) << "select " << sel << ": " << r.output;
  }
}

}  // namespace
