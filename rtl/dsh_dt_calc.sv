// SPDX-License-Identifier: Apache-2.0
// Dynamic Threshold calculator (spec §3), from the free shared space
// free_i = B_s - S (registered in dsh_mmu, so that the path starts at a
// register):
//   t_o   = T = floor(free_i * 2^alpha_log2),  alpha_log2 in -10..3
//   t_m_o = T << port_mult_log2                 (DSH's X_poff), 0..5
// T is one shifter: (free << 3) >> (3 - alpha_log2). T << m is a second
// shifter beside it rather than after it: (free << 3) shifted by
// m - (3 - alpha_log2) either way, with the low m bits cleared (they are
// the bits the floor of T drops). Combinational.
`include "dsh_assert.svh"
`default_nettype none

module dsh_dt_calc #(
  parameter int unsigned CellW = 20,
  localparam int unsigned ThrW = dsh_pkg::thr_w(CellW),  // T, up to B_s << 3
  localparam int unsigned XpW  = dsh_pkg::xp_w(CellW)   // T << 5
) (
  input  logic signed [4:0]      cfg_alpha_log2_i,
  input  logic [2:0]             cfg_port_mult_log2_i,
  input  logic [CellW-1:0]       free_i,
  output logic [ThrW-1:0]        t_o,
  output logic [XpW-1:0]         t_m_o
);
  logic [3:0]        rshift;  // 3 - alpha_log2 in 0..13 (modulo-16 arithmetic)
  logic [4:0]        mshift;  // 13 + rshift - m in 8..26: right shift of (free << 16)
  logic [ThrW-1:0]   f8;
  logic [ThrW+12:0]  wide;
  logic [XpW-1:0]    low_m;

  assign rshift = 4'd3 - cfg_alpha_log2_i[3:0];
  assign mshift = 5'd13 + 5'(rshift) - 5'(cfg_port_mult_log2_i);
  assign f8     = {free_i, 3'b000};
  assign t_o    = f8 >> rshift;
  assign wide   = {f8, 13'b0} >> mshift;
  assign low_m  = ~({XpW{1'b1}} << cfg_port_mult_log2_i);
  assign t_m_o  = wide[XpW-1:0] & ~low_m;

  logic unused;  // the shift amounts are exact modulo 16 / 32; wide's top bits are 0
  assign unused = ^{cfg_alpha_log2_i[4], wide[ThrW+12:XpW]};
  // Configuration in range (spec §3): alpha_log2 in -10..3, port_mult_log2 in 0..5;
  // X_poff = T << m is never below T.
  `ASSUME_COMB(AlphaInRange_M, $signed(cfg_alpha_log2_i) >= -5'sd10 && $signed(cfg_alpha_log2_i) <= 5'sd3)
  `ASSUME_COMB(PortMultInRange_M, cfg_port_mult_log2_i <= 3'd5)
  `ASSERT_COMB(PortLimitNotBelowT_A, t_m_o >= XpW'(t_o))
  // Cover: alpha below, at and above 1; a port multiplier; T = 0.
  `COVER_COMB(AlphaBelowOne_C, $signed(cfg_alpha_log2_i) < 0)
  `COVER_COMB(AlphaOne_C, cfg_alpha_log2_i == '0)
  `COVER_COMB(AlphaAboveOne_C, $signed(cfg_alpha_log2_i) > 0)
  `COVER_COMB(PortMult_C, cfg_port_mult_log2_i != '0)
  `COVER_COMB(ThresholdZero_C, t_o == '0)
endmodule

`default_nettype wire
