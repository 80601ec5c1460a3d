// SPDX-License-Identifier: Apache-2.0
// The parts of stage E's limits (dsh_limits) that depend only on the
// configuration and the cells s of one enqueue, formed in stage R of
// dsh_mmu (where the eta of its port is a register):
//   pool  = B_s - c      (S + c <= B_s; c = pool_cells_i: s with one lane,
//                         P_l + s in lane l, spec §4.9)
//   priv  = phi - s      (priv + s <= phi)
//   hdrm  = eta - s      (hdrm + s <= eta, eta of the enqueue's port)
// Packed into terms_o, each KW bits, signed, in the order above from bit 0.
// Each is a value that holds for the whole cycle (configuration, or eta as
// read from the table a stage earlier) minus s: a SizeW + 1-bit difference
// whose borrow picks the upper part or that part less one (computed beside
// it), so no borrow runs through the upper bits. Combinational.
`include "dsh_assert.svh"
`default_nettype none

module dsh_size_terms #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter int unsigned PoolW = SizeW,  // pool_cells_i, <= CellW
  localparam int unsigned KW = dsh_pkg::term_w(CellW),  // signed
  localparam int unsigned NumTerms = 3
) (
  input  logic [SizeW-1:0]       cells_i,
  input  logic [PoolW-1:0]       pool_cells_i,
  input  logic [CellW-1:0]       cfg_shared_cells_i,
  input  logic [CellW-1:0]       cfg_private_cells_i,
  input  logic [CellW-1:0]       eta_i,  // eta of the enqueue's port
  output logic [NumTerms*KW-1:0] terms_o
);
  // c - s for a c that does not depend on s.
  function automatic [KW-1:0] less_cells(input logic [CellW-1:0] c);
    logic [SizeW:0]      lo;
    logic [KW-SizeW-1:0] hi;
    lo = {1'b1, c[SizeW-1:0]} - {1'b0, cells_i};
    hi = (KW-SizeW)'(c >> SizeW);
    less_cells = {lo[SizeW] ? hi : hi - 1'b1, lo[SizeW-1:0]};
  endfunction

  // The same for the pool's term, with its own width.
  function automatic [KW-1:0] less_pool(input logic [CellW-1:0] c);
    logic [PoolW:0]      lo;
    logic [KW-PoolW-1:0] hi;
    lo = {1'b1, c[PoolW-1:0]} - {1'b0, pool_cells_i};
    hi = (KW-PoolW)'(c >> PoolW);
    less_pool = {lo[PoolW] ? hi : hi - 1'b1, lo[PoolW-1:0]};
  endfunction

  assign terms_o = {less_cells(eta_i), less_cells(cfg_private_cells_i),
                    less_pool(cfg_shared_cells_i)};
  // The borrow-select subtraction equals the plain one.
  `ASSERT_COMB(PoolTermExact_A, terms_o[0 +: KW] == KW'(cfg_shared_cells_i) - KW'(pool_cells_i))
  `ASSERT_COMB(PrivTermExact_A, terms_o[KW +: KW] == KW'(cfg_private_cells_i) - KW'(cells_i))
  `ASSERT_COMB(HdrmTermExact_A, terms_o[2*KW +: KW] == KW'(eta_i) - KW'(cells_i))
  // Cover: a term below zero (s above B_s, phi or eta).
  `COVER_COMB(PrivTermNegative_C, terms_o[2*KW-1])
  `COVER_COMB(HdrmTermNegative_C, terms_o[3*KW-1])
endmodule

`default_nettype wire
