// Port flow-control state machine of DSH, next state (contract §4),
// evaluated once a cycle for a port that the cycle touched, after the
// dequeue and the enqueue. region_i says where an enqueue to this port went
// this cycle (0 when it had none, or dropped); the compares are made on the
// counts before it (see dsh_queue_fsm).
//   PORT_PAUSE:  !poff & region insurance (headroom)
//   PORT_RESUME: poff & port_hdrm == 0 & port_shared <= X_pon
// A shared admission needs PON, so a resume never follows one.
// Combinational.
`default_nettype none

module dsh_port_fsm #(
  parameter int unsigned CellW = 20,
  localparam int unsigned LimW = CellW + 9
) (
  input  logic                   poff_i,
  input  logic [CellW-1:0]       shared_i,
  input  logic [CellW-1:0]       hdrm_i,
  input  logic [2:0]             region_i,   // one-hot {headroom, shared, private}, or 0
  input  logic signed [LimW-1:0] pon_lim_i,  // (T << m) - dp
  output logic                   poff_o,
  output logic                   pause_o,
  output logic                   resume_o
);
  logic in_hdrm;
  assign in_hdrm  = region_i[2];
  assign pause_o  = !poff_i && in_hdrm;
  assign resume_o = poff_i && !in_hdrm && hdrm_i == '0
                 && ($signed(LimW'(shared_i)) <= pon_lim_i || shared_i == '0);
  assign poff_o   = (poff_i || pause_o) && !resume_o;
  logic unused_region;
  assign unused_region = ^region_i[1:0];
endmodule

`default_nettype wire
