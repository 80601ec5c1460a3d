// SPDX-License-Identifier: Apache-2.0
// The pool rule's sums of dsh_mmu (spec §4.9): for lane l of cycle c,
// A_{c-1} + P_l + s, where P_l is the sum of the sizes of the enqueue
// slots of lanes 0..l-1 that are valid and not protocol errors, s is lane
// l's own size, and A_{c-1} the sum of all such sizes of the cycle before.
// Stage A registers each lane's size when its slot is valid and not an
// error (0 otherwise; ok_i says which), forms the sums from those
// registers, and stage R's register holds them beside the lanes' stage R
// enqueues (dsh_stage_in's pool term B_s - (A_{c-1} + P_l + s)). Sums at
// full width (SizeW + log2 NumLanes + 1 bits), never wrapped, in
// log2 NumLanes adder levels and one more.
// Latency: inputs to sum_o two clock edges, as the lanes' enqueues to
// stage R.
// Reset (rst_ni, asynchronous): stage A's sizes and A_{c-1} 0 (A_{-1} = 0);
// sum_o has none (no valid enqueue reads it before two edges have loaded
// it).
`include "dsh_assert.svh"
`default_nettype none

module dsh_pool_prefix #(
  parameter int unsigned NumLanes = 2,
  parameter int unsigned SizeW    = 8,
  localparam int unsigned PoolW   = SizeW + $clog2(NumLanes) + 1
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic [NumLanes-1:0]       ok_i,     // enqueue slot l valid and not an error
  input  logic [NumLanes*SizeW-1:0] cells_i,
  output logic [NumLanes*PoolW-1:0] sum_o     // stage R: A_{c-1} + P_l + s of lane l at [l*PoolW +: PoolW]
);
  logic [NumLanes*SizeW-1:0] a_cells_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_cells_q <= '0;
    else for (int l = 0; l < NumLanes; l++)
      a_cells_q[l*SizeW +: SizeW] <= ok_i[l] ? cells_i[l*SizeW +: SizeW] : '0;
  end

  // P_l as a Sklansky network over the sizes shifted up one lane (lane l
  // gets lane l - 1's, lane 0 none): log2 NumLanes adder levels, where a
  // running sum is NumLanes - 1 adders in a row. Level k adds, to every
  // lane whose bit k - 1 is set, the sum of the block of 2^(k-1) lanes
  // just below its own block. Level k's sum of lane l is at
  // [(k*NumLanes + l)*PoolW +: PoolW].
  localparam int unsigned Levels = $clog2(NumLanes);
  logic [(Levels+1)*NumLanes*PoolW-1:0] level /*verilator split_var*/;
  assign level[0 +: PoolW] = '0;
  for (genvar l = 1; l < NumLanes; l++) begin : gen_leaf
    assign level[l*PoolW +: PoolW] = PoolW'(a_cells_q[(l-1)*SizeW +: SizeW]);
  end
  for (genvar k = 1; k <= Levels; k++) begin : gen_level
    for (genvar l = 0; l < NumLanes; l++) begin : gen_lane
      localparam int unsigned Half = 1 << (k - 1);
      localparam int unsigned Here = (k*NumLanes + l)*PoolW;
      localparam int unsigned Prev = ((k-1)*NumLanes + l)*PoolW;
      if ((l / Half) % 2 == 1) begin : gen_add
        localparam int unsigned Below = ((k-1)*NumLanes + (l / Half) * Half - 1)*PoolW;  // top of the block below
        assign level[Here +: PoolW] = level[Prev +: PoolW] + level[Below +: PoolW];
      end else begin : gen_keep
        assign level[Here +: PoolW] = level[Prev +: PoolW];
      end
    end
  end
  logic [NumLanes*PoolW-1:0] p_before;  // P_l of lane l at [l*PoolW +: PoolW]
  assign p_before = level[Levels*NumLanes*PoolW +: NumLanes*PoolW];
  // A_c, the cycle's total, registered as the next cycle's A_{c-1}.
  logic [PoolW-1:0] total, a_last_q;
  assign total = p_before[(NumLanes-1)*PoolW +: PoolW] + PoolW'(a_cells_q[(NumLanes-1)*SizeW +: SizeW]);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_last_q <= '0;
    else         a_last_q <= total;
  end
  always_ff @(posedge clk_i) begin
    for (int l = 0; l < NumLanes; l++)
      sum_o[l*PoolW +: PoolW] <= a_last_q + p_before[l*PoolW +: PoolW] + PoolW'(a_cells_q[l*SizeW +: SizeW]);
  end

  // The network against the running sum's definition: lane 0 has nothing
  // before it, each other lane the one before and its size.
  `ASSERT(PrefixLane0Own_A, p_before[0 +: PoolW] == '0)
  for (genvar l = 1; l < NumLanes; l++) begin : gen_check
    `ASSERT(PrefixGrows_A, p_before[l*PoolW +: PoolW] == p_before[(l-1)*PoolW +: PoolW] + PoolW'(a_cells_q[(l-1)*SizeW +: SizeW]))
  end
  // Cover: every lane with a packet in one cycle.
  `COVER(PrefixAllLanes_C, &ok_i)
endmodule

`default_nettype wire
