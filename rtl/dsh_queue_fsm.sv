// Queue flow-control state machine, next state (contract §4), evaluated once
// a cycle for a queue that the cycle's dequeue or enqueue touched.
//   SIH: qoff & hdrm == 0 & w <= X_on   -> QON,  RESUME   (PAUSE comes from admission)
//   DSH: !qoff & w > X_qoff             -> QOFF, PAUSE
//        qoff & w <= X_qon              -> QON,  RESUME
// w = shared_i + shared_add_i and hdrm = hdrm_i + hdrm_add_i, the values in
// linear form (dsh_lin_cmp) so that each comparison is one sum.
// Combinational; the state register lives with the queue's counters.
`default_nettype none

module dsh_queue_fsm #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = CellW + 3,
  localparam int unsigned LinW = 4 * CellW
) (
  input  logic             qoff_i,
  input  logic [LinW-1:0]  shared_i,
  input  logic [SizeW-1:0] shared_add_i,
  input  logic [LinW-1:0]  hdrm_i,
  input  logic [SizeW-1:0] hdrm_add_i,
  input  logic [ThrW-1:0]  x_qoff_i,
  input  logic [ThrW-1:0]  x_qon_i,
  output logic             qoff_o,
  output logic             pause_o,
  output logic             resume_o
);
  logic le_qon;
  dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(ThrW)) u_qon (
    .v_i(shared_i), .add_i(shared_add_i), .k_i(x_qon_i), .le_o(le_qon)
  );

  if (Dsh) begin : g_dsh
    logic le_qoff;
    dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(ThrW)) u_qoff (
      .v_i(shared_i), .add_i(shared_add_i), .k_i(x_qoff_i), .le_o(le_qoff)
    );
    assign pause_o  = !qoff_i && !le_qoff;
    assign resume_o = qoff_i && le_qon;
    logic unused_hdrm;  // a DSH queue resumes on its shared occupancy alone
    assign unused_hdrm = ^{hdrm_i, hdrm_add_i};
  end else begin : g_sih
    logic hdrm_zero;
    dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(1)) u_hdrm_zero (
      .v_i(hdrm_i), .add_i(hdrm_add_i), .k_i(1'b0), .le_o(hdrm_zero)
    );
    assign pause_o  = 1'b0;
    assign resume_o = qoff_i && hdrm_zero && le_qon;
    logic unused_xqoff;
    assign unused_xqoff = ^x_qoff_i;
  end
  assign qoff_o = (qoff_i | pause_o) & ~resume_o;
endmodule

`default_nettype wire
