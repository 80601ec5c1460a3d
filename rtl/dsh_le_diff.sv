// a - b <= lim for two counts and a signed limit, as the sign of one sum
// lim - a + b: synthesis maps it to one carry-save level and one carry chain,
// where a - b and then a compare would be two chains in series. dsh_mmu
// keeps a queue's occupancy as prefix sums (dsh_deq_drain), so its shared
// part is hs - h and its private part hsp - hs. Combinational.
`default_nettype none

module dsh_le_diff #(
  parameter int unsigned CellW = 20,
  localparam int unsigned LimW = CellW + 9
) (
  input  logic [CellW-1:0]       a_i,
  input  logic [CellW-1:0]       b_i,
  input  logic signed [LimW-1:0] lim_i,
  output logic                   le_o
);
  logic [LimW:0] x;
  assign x    = {lim_i[LimW-1], lim_i} - (LimW+1)'(a_i) + (LimW+1)'(b_i);
  assign le_o = !x[LimW];
endmodule

`default_nettype wire
