// Port flow-control state machine of DSH, next state (contract §4),
// evaluated once a cycle for a port that the cycle touched:
//   poff & port_hdrm == 0 & port_shared <= X_pon -> PON, PORT_RESUME
// (PORT_PAUSE comes from admission into the insurance headroom.)
// Combinational.
`default_nettype none

module dsh_port_fsm #(
  parameter int unsigned CellW = 20,
  localparam int unsigned XpW  = CellW + 8
) (
  input  logic             poff_i,
  input  logic [CellW-1:0] port_shared_i,
  input  logic [CellW-1:0] port_hdrm_i,
  input  logic [XpW-1:0]   x_pon_i,
  output logic             poff_o,
  output logic             resume_o
);
  assign resume_o = poff_i && port_hdrm_i == '0 && XpW'(port_shared_i) <= x_pon_i;
  assign poff_o   = poff_i & ~resume_o;
endmodule

`default_nettype wire
