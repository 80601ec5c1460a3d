// Dynamic Threshold calculator (contract §3).
//   t_o = floor(free_i * 2^cfg_alpha_log2_i),  alpha_log2 in -10..3
// where free_i = B_s - S, the free shared space (dsh_mmu computes it with S
// in stage E, so that a threshold path starts at a register). Combinational;
// one shifter: (free << 3) >> (3 - alpha_log2).
`default_nettype none

module dsh_dt_calc #(
  parameter int unsigned CellW = 20
) (
  input  logic signed [4:0]      cfg_alpha_log2_i,
  input  logic [CellW-1:0]       free_i,              // B_s - S
  output logic [CellW+2:0]       t_o                  // T, up to B_s << 3
);
  logic [3:0] rshift;  // 3 - alpha_log2 in 0..13 (modulo-16 arithmetic)

  assign rshift = 4'd3 - cfg_alpha_log2_i[3:0];
  assign t_o    = {free_i, 3'b000} >> rshift;

  logic unused_sign;  // the shift amount is exact modulo 16 without it
  assign unused_sign = cfg_alpha_log2_i[4];
endmodule

`default_nettype wire
