// Port flow-control state machine of DSH, next state (contract §4),
// evaluated once a cycle for a port that the cycle touched:
//   poff & port_hdrm == 0 & port_shared <= X_pon -> PON, PORT_RESUME
// (PORT_PAUSE comes from admission into the insurance headroom.)
// port_shared = port_shared_i + shared_add_i and port_hdrm = port_hdrm_i +
// hdrm_add_i, in linear form (dsh_lin_cmp). Combinational.
`default_nettype none

module dsh_port_fsm #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  localparam int unsigned XpW  = CellW + 8,
  localparam int unsigned LinW = 4 * CellW
) (
  input  logic             poff_i,
  input  logic [LinW-1:0]  port_shared_i,
  input  logic [SizeW-1:0] shared_add_i,
  input  logic [LinW-1:0]  port_hdrm_i,
  input  logic [SizeW-1:0] hdrm_add_i,
  input  logic [XpW-1:0]   x_pon_i,
  output logic             poff_o,
  output logic             resume_o
);
  logic le_pon, hdrm_zero;
  dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(XpW)) u_pon (
    .v_i(port_shared_i), .add_i(shared_add_i), .k_i(x_pon_i), .le_o(le_pon)
  );
  dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(1)) u_hdrm_zero (
    .v_i(port_hdrm_i), .add_i(hdrm_add_i), .k_i(1'b0), .le_o(hdrm_zero)
  );
  assign resume_o = poff_i && hdrm_zero && le_pon;
  assign poff_o   = poff_i & ~resume_o;
endmodule

`default_nettype wire
