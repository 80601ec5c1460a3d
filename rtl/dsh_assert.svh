// SPDX-License-Identifier: Apache-2.0
// Named assertions, assumptions and cover points (OpenTitan's prim_assert
// style), in the one form both Verilator 5.006 and Yosys 0.23 read: a
// labelled immediate statement in a clocked block, checked while out of
// reset. Synthesis sees nothing; `yosys read_verilog -formal` (FORMAL)
// sees assert/assume/cover cells; Verilator with --assert checks them and
// --coverage-user counts the covers (coverage.dat names them).
//
//   `ASSERT(Name_A, expr)           expr holds at every rising edge out of reset
//   `ASSUME(Name_M, expr)           formal: constrains the inputs; simulation: checked as ASSERT
//   `COVER(Name_C, expr)            expr is seen at some rising edge out of reset
//   `ASSERT_KNOWN(Name_A, sig)      sig has no X or Z bit at every rising edge out of
//                                   reset: for 4-state simulators (Verilator is 2-state and
//                                   reads $isunknown as 0; formal has no X); not in formal
//   `ASSERT_CLK(Name_A, expr, clk, rst_n)   the same on another clock/reset
//   `ASSERT_COMB(Name_A, expr)      in a module without a clock: expr holds
//   `ASSUME_COMB(Name_M, expr)      whenever it is evaluated (an always_comb
//   `COVER_COMB(Name_C, expr)       block; a cover counts evaluations, not cycles)
// The _COMB forms have no reset: what they state holds in reset too (a
// combinational leaf's contract on its inputs and outputs).
// A failing assertion stops a Verilated simulation with
// "Assertion failed in TOP.<instance>.<Name_A>" and the time.
`ifndef DSH_ASSERT_SVH
`define DSH_ASSERT_SVH

`ifdef FORMAL
  `define ASSERT_COMB(name, expr) always_comb name: assert (expr);
  `define ASSUME_COMB(name, expr) always_comb name: assume (expr);
  `define COVER_COMB(name, expr)  always_comb name: cover (expr);
  `define ASSERT_CLK(name, expr, clk, rst_n) always @(posedge clk) if (rst_n) name: assert (expr);
  `define ASSUME_CLK(name, expr, clk, rst_n) always @(posedge clk) if (rst_n) name: assume (expr);
  `define COVER_CLK(name, expr, clk, rst_n)  always @(posedge clk) if (rst_n) name: cover (expr);
`elsif SYNTHESIS
  `define ASSERT_COMB(name, expr)
  `define ASSUME_COMB(name, expr)
  `define COVER_COMB(name, expr)
  `define ASSERT_CLK(name, expr, clk, rst_n)
  `define ASSUME_CLK(name, expr, clk, rst_n)
  `define COVER_CLK(name, expr, clk, rst_n)
`else
  `define ASSERT_COMB(name, expr) always_comb name: assert (expr);
  `define ASSUME_COMB(name, expr) always_comb name: assert (expr);
  `define COVER_COMB(name, expr)  always_comb name: cover (expr);
  `define ASSERT_CLK(name, expr, clk, rst_n) always @(posedge clk) if (rst_n) name: assert (expr);
  `define ASSUME_CLK(name, expr, clk, rst_n) always @(posedge clk) if (rst_n) name: assert (expr);
  `define COVER_CLK(name, expr, clk, rst_n)  always @(posedge clk) if (rst_n) name: cover (expr);
`endif

`define ASSERT(name, expr) `ASSERT_CLK(name, expr, clk_i, rst_ni)
`ifdef FORMAL
  `define ASSERT_KNOWN(name, sig)
`else
  `define ASSERT_KNOWN(name, sig) `ASSERT(name, !$isunknown(sig))
`endif
`define ASSUME(name, expr) `ASSUME_CLK(name, expr, clk_i, rst_ni)
`define COVER(name, expr)  `COVER_CLK(name, expr, clk_i, rst_ni)

`endif  // DSH_ASSERT_SVH
