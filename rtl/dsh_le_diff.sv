// SPDX-License-Identifier: Apache-2.0
// a - b + add <= lim for two counts, a packet size and a signed limit, as
// the sign of one sum lim - a + b - add: synthesis maps it to carry-save
// levels and one carry chain, where the operations one after another would
// be chains in series. dsh_mmu keeps a queue's occupancy as prefix sums
// (dsh_deq_drain), so its shared part is hs - h and its private part
// hsp - hs; a port's counts come with what the cycle's dequeue drained.
// Combinational.
`default_nettype none

module dsh_le_diff #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW)
) (
  input  logic [CellW-1:0]       a_i,
  input  logic [CellW-1:0]       b_i,
  input  logic [SizeW-1:0]       add_i,
  input  logic signed [LimW-1:0] lim_i,
  output logic                   le_o
);
  logic [LimW+1:0] x;
  assign x    = {{2{lim_i[LimW-1]}}, lim_i} - (LimW+2)'(a_i) + (LimW+2)'(b_i) - (LimW+2)'(add_i);
  assign le_o = !x[LimW+1];
endmodule

`default_nettype wire
