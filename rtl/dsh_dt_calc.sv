// Dynamic Threshold calculator (contract §3).
//   t_o = floor((cfg_shared_cells_i - s_i) * 2^cfg_alpha_log2_i),  alpha_log2 in -10..3
// Combinational; one shifter: (free << 3) >> (3 - alpha_log2). Free space
// saturates at 0 (s_i never exceeds B_s when the MMU is used as specified).
`default_nettype none

module dsh_dt_calc #(
  parameter int unsigned CellW = 20
) (
  input  logic [CellW-1:0]       cfg_shared_cells_i,  // B_s
  input  logic signed [4:0]      cfg_alpha_log2_i,
  input  logic [CellW-1:0]       s_i,                 // shared occupancy S
  output logic [CellW+2:0]       t_o                  // T, up to B_s << 3
);
  logic [CellW-1:0] free;
  logic [3:0]       rshift;  // 3 - alpha_log2 in 0..13 (modulo-16 arithmetic)

  assign free   = (s_i < cfg_shared_cells_i) ? cfg_shared_cells_i - s_i : '0;
  assign rshift = 4'd3 - cfg_alpha_log2_i[3:0];
  assign t_o    = {free, 3'b000} >> rshift;

  logic unused_sign;  // the shift amount is exact modulo 16 without it
  assign unused_sign = cfg_alpha_log2_i[4];
endmodule

`default_nettype wire
