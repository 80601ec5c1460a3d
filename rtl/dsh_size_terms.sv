// The parts of stage E's limits (dsh_limits) that depend only on the
// configuration and the cells s of one enqueue, formed while the enqueue
// waits in stage A of dsh_mmu, so that the cycle that computes the limits
// from T needs one two-operand subtraction each:
//   pool      = B_s - s              (S + s <= B_s)
//   priv      = phi - s              (priv + s <= phi)
//   hdrm      = eta - s              (hdrm + s <= eta)
//   eta_s     = eta + s              (DSH: X_qoff - s = T - eta_s)
//   eta_dq_s  = eta + delta_q + s    (DSH: X_qon - s = T - eta_dq_s)
// Packed into terms_o, each LimW bits, signed, in the order above from
// bit 0. Each is a static value plus or minus s: a SizeW + 1-bit sum whose
// carry picks the static upper part or that part plus or minus one (static
// too), so no carry runs through the upper bits. Combinational.
`default_nettype none

module dsh_size_terms #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  localparam int unsigned LimW = CellW + 9,
  localparam int unsigned NumTerms = 5
) (
  input  logic [SizeW-1:0]         cells_i,
  input  logic [CellW-1:0]         cfg_shared_cells_i,
  input  logic [CellW-1:0]         cfg_private_cells_i,
  input  logic [CellW-1:0]         cfg_headroom_cells_i,
  input  logic [CellW-1:0]         cfg_delta_q_i,
  output logic [NumTerms*LimW-1:0] terms_o
);
  localparam int unsigned HiW = LimW - SizeW;

  // c + s (add) or c - s (!add) for a static c, as a signed LimW-bit value.
  function automatic [LimW-1:0] add_small(input logic [LimW-1:0] c, input logic add);
    logic [SizeW:0]   lo;
    logic [HiW-1:0]   hi, hi_step;
    logic             carry;
    lo      = add ? {1'b0, c[SizeW-1:0]} + {1'b0, cells_i} : {1'b1, c[SizeW-1:0]} - {1'b0, cells_i};
    carry   = add ? lo[SizeW] : !lo[SizeW];  // carry out, or borrow
    hi      = c[LimW-1:SizeW];
    hi_step = add ? hi + 1'b1 : hi - 1'b1;
    add_small = {carry ? hi_step : hi, lo[SizeW-1:0]};
  endfunction

  logic [LimW-1:0] eta, eta_dq;
  assign eta    = LimW'(cfg_headroom_cells_i);
  assign eta_dq = eta + LimW'(cfg_delta_q_i);
  assign terms_o = {add_small(eta_dq, 1'b1), add_small(eta, 1'b1), add_small(eta, 1'b0),
                    add_small(LimW'(cfg_private_cells_i), 1'b0), add_small(LimW'(cfg_shared_cells_i), 1'b0)};
endmodule

`default_nettype wire
