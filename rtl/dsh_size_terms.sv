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
// bit 0. Combinational.
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
  logic signed [LimW-1:0] s, eta;
  assign s   = LimW'(cells_i);
  assign eta = LimW'(cfg_headroom_cells_i);
  assign terms_o = {eta + LimW'(cfg_delta_q_i) + s, eta + s, eta - s,
                    LimW'(cfg_private_cells_i) - s, LimW'(cfg_shared_cells_i) - s};
endmodule

`default_nettype wire
