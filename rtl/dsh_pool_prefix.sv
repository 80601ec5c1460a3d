// SPDX-License-Identifier: Apache-2.0
// The pool rule's prefix sums of dsh_mmu (spec §4.9): for lane l, P_l + s,
// where P_l is the sum of the sizes of the enqueue slots of lanes 0..l-1
// that are valid and not protocol errors, and s is lane l's own size.
// Stage A registers each lane's size when its slot is valid and not an
// error (0 otherwise; ok_i says which), forms the sums from those
// registers, and stage R's register holds them beside the lanes' stage R
// enqueues (dsh_stage_in's pool term B_s - (P_l + s)). Sums at full width
// (SizeW + log2 NumLanes bits), never wrapped.
// Latency: inputs to sum_o two clock edges, as the lanes' enqueues to
// stage R.
// Reset (rst_ni, asynchronous): stage A's sizes 0; sum_o has none (no
// valid enqueue reads it before two edges have loaded it).
`include "dsh_assert.svh"
`default_nettype none

module dsh_pool_prefix #(
  parameter int unsigned NumLanes = 2,
  parameter int unsigned SizeW    = 8,
  localparam int unsigned PoolW   = SizeW + $clog2(NumLanes)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumLanes-1:0]       ok_i,     // enqueue slot l valid and not an error
  input  logic [NumLanes*SizeW-1:0] cells_i,
  output logic [NumLanes*PoolW-1:0] sum_o     // stage R: P_l + s of lane l at [l*PoolW +: PoolW]
);
  logic [NumLanes*SizeW-1:0] a_cells_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_cells_q <= '0;
    else for (int l = 0; l < NumLanes; l++)
      a_cells_q[l*SizeW +: SizeW] <= ok_i[l] ? cells_i[l*SizeW +: SizeW] : '0;
  end

  // P_l, the lanes before l (a running sum: synthesis balances it), then
  // with lane l's own size.
  logic [NumLanes*PoolW-1:0] p_before;
  logic [PoolW-1:0]          acc;
  always_comb begin
    acc = '0;
    for (int l = 0; l < NumLanes; l++) begin
      p_before[l*PoolW +: PoolW] = acc;
      acc = acc + PoolW'(a_cells_q[l*SizeW +: SizeW]);
    end
  end
  always_ff @(posedge clk_i) begin
    for (int l = 0; l < NumLanes; l++)
      sum_o[l*PoolW +: PoolW] <= p_before[l*PoolW +: PoolW] + PoolW'(a_cells_q[l*SizeW +: SizeW]);
  end

  // Lane 0 has nothing before it; the sums never fall along the lanes.
  `ASSERT(PrefixLane0Own_A, p_before[0 +: PoolW] == '0)
  for (genvar l = 1; l < NumLanes; l++) begin : g_check
    `ASSERT(PrefixGrows_A, sum_o[l*PoolW +: PoolW] >= sum_o[(l-1)*PoolW +: PoolW])
  end
  // Cover: every lane with a packet in one cycle.
  `COVER(PrefixAllLanes_C, &ok_i)
endmodule

`default_nettype wire
