// SPDX-License-Identifier: Apache-2.0
// Driving a Verilated frame-mode block: an asynchronous reset pulse with the
// clock low (the blocks' registers take their reset values, no edge), then
// one rising and falling edge per clock() call.
#pragma once

template <class M>
void reset(M& dut) {
  dut.clk_i = 0;
  dut.rst_ni = 1;
  dut.eval();
  dut.rst_ni = 0;
  dut.eval();
  dut.rst_ni = 1;
  dut.eval();
}

template <class M>
void clock(M& dut) {
  dut.clk_i = 1;
  dut.eval();
  dut.clk_i = 0;
  dut.eval();
}
