// Queue flow-control state machine, next state (contract §4), evaluated once
// a cycle for a queue that the cycle's dequeue or enqueue touched.
//   SIH: qoff & hdrm == 0 & w <= X_on   -> QON,  RESUME   (PAUSE comes from admission)
//   DSH: !qoff & w > X_qoff             -> QOFF, PAUSE
//        qoff & w <= X_qon              -> QON,  RESUME
// Combinational; the state register lives with the queue's counters.
`default_nettype none

module dsh_queue_fsm #(
  parameter int unsigned CellW = 20,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = CellW + 3
) (
  input  logic             qoff_i,
  input  logic [CellW-1:0] shared_i,
  input  logic [CellW-1:0] hdrm_i,
  input  logic [ThrW-1:0]  x_qoff_i,
  input  logic [ThrW-1:0]  x_qon_i,
  output logic             qoff_o,
  output logic             pause_o,
  output logic             resume_o
);
  if (Dsh) begin : g_dsh
    assign pause_o  = !qoff_i && ThrW'(shared_i) > x_qoff_i;
    assign resume_o = qoff_i && ThrW'(shared_i) <= x_qon_i;
    logic unused_hdrm;  // a DSH queue resumes on its shared occupancy alone
    assign unused_hdrm = ^hdrm_i;
  end else begin : g_sih
    assign pause_o  = 1'b0;
    assign resume_o = qoff_i && hdrm_i == '0 && ThrW'(shared_i) <= x_qon_i;
    logic unused_xqoff;
    assign unused_xqoff = ^x_qoff_i;
  end
  assign qoff_o = (qoff_i | pause_o) & ~resume_o;
endmodule

`default_nettype wire
