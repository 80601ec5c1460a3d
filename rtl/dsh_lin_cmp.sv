// v + add <= k for a value in linear form v = a + b + c - d, the form in
// which dsh_mmu's execute stage carries every candidate outcome (see
// dsh_deq_drain). The whole comparison is one signed multi-operand sum whose
// sign decides: synthesis maps it to one carry-save tree and one carry
// chain, where v's own sum and then a compare would be two chains in series.
// With k = 0 and add = 0 it tests v == 0 (a candidate value is never
// negative). Combinational.
`default_nettype none

module dsh_lin_cmp #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter int unsigned KW    = 28,   // width of k
  localparam int unsigned LinW = 4 * CellW
) (
  input  logic [LinW-1:0]  v_i,        // {d, c, b, a}
  input  logic [SizeW-1:0] add_i,
  input  logic [KW-1:0]    k_i,
  output logic             le_o
);
  localparam int unsigned W = ((KW > CellW) ? KW : CellW) + 4;
  logic [W-1:0] x;  // k - v - add, two's complement
  assign x = W'(k_i) - W'(v_i[0 +: CellW]) - W'(v_i[CellW +: CellW]) - W'(v_i[2*CellW +: CellW])
           + W'(v_i[3*CellW +: CellW]) - W'(add_i);
  assign le_o = !x[W-1];
endmodule

`default_nettype wire
