// SPDX-License-Identifier: Apache-2.0
// Pause quanta elapsed per clock cycle (spec §6.4): one quantum is 512 bit
// times of the link, so a link of R bit/s clocked at f Hz passes R/(512 f)
// quanta a cycle. cfg_quanta_per_cycle_i is that number in fixed point,
// IntW.FracW bits (100 Gb/s at 1 GHz: 0.1953125 = 12800 / 2^16). A
// fraction accumulator carries the remainder from cycle to cycle, so over
// any n cycles the quanta counted are within one of n times the rate.
//   quanta_o = (acc + cfg) >> FracW    (this cycle's whole quanta)
//   acc     <= (acc + cfg) mod 2^FracW
// quanta_o is combinational from the accumulator and the configuration;
// one instance serves every port of a link rate. Reset: accumulator 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_quanta_tick #(
  parameter int unsigned IntW  = 8,
  parameter int unsigned FracW = 16,
  localparam int unsigned QuantaW = IntW + 1  // (acc + cfg) < 2^(IntW+FracW) + 2^FracW
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [IntW+FracW-1:0]   cfg_quanta_per_cycle_i,
  output logic [QuantaW-1:0]      quanta_o
);
  if (IntW < 1 || IntW > 16) begin : gen_bad_int_w
    $error("dsh_quanta_tick: IntW must be in 1..16");
  end
  if (FracW < 1 || FracW > 32) begin : gen_bad_frac_w
    $error("dsh_quanta_tick: FracW must be in 1..32");
  end

  logic [FracW-1:0]         acc_d, acc_q;
  logic [IntW+FracW:0]      sum;
  assign sum      = (IntW+FracW+1)'(acc_q) + (IntW+FracW+1)'(cfg_quanta_per_cycle_i);
  assign quanta_o = sum[IntW+FracW:FracW];
  assign acc_d    = sum[FracW-1:0];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) acc_q <= '0;
    else         acc_q <= acc_d;
  end

  // At most one quantum more than the integer part of the rate.
  logic [QuantaW-1:0] whole;
  assign whole = QuantaW'(cfg_quanta_per_cycle_i >> FracW);
  `ASSERT(QuantaWithinRate_A, quanta_o == whole || quanta_o == whole + 1'b1)
  `COVER(CarryOut_C, quanta_o != whole)
  `COVER(NoQuantum_C, quanta_o == '0 && cfg_quanta_per_cycle_i != '0)
endmodule

`default_nettype wire
