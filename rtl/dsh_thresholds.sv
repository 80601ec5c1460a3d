// Threshold stage (contract §3): from T, the pause and resume thresholds.
//   DSH: X_qoff = sat0(T - eta)   X_qon = sat0(X_qoff - delta_q)
//        X_poff = T << port_mult_log2   X_pon = sat0(X_poff - delta_p)
//   SIH: X_off  = T               X_on  = sat0(T - delta_q);  port outputs 0
// Combinational: the two subtractors, the shift and the subtractor that DSH adds.
// X_qon is computed from T directly, as sat0(T - (eta + delta_q)), which is
// the same value: both subtractions then run in parallel, and the sum of the
// two static configuration values is off every timed path.
`default_nettype none

module dsh_thresholds #(
  parameter int unsigned CellW = 20,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = CellW + 3,  // T
  localparam int unsigned XpW  = ThrW + 5    // X_poff: port_mult_log2 up to 5
) (
  input  logic [ThrW-1:0]  t_i,
  input  logic [CellW-1:0] cfg_headroom_cells_i,
  input  logic [CellW-1:0] cfg_delta_q_i,
  input  logic [CellW-1:0] cfg_delta_p_i,
  input  logic [2:0]       cfg_port_mult_log2_i,
  output logic [ThrW-1:0]  x_qoff_o,
  output logic [ThrW-1:0]  x_qon_o,
  output logic [XpW-1:0]   x_poff_o,
  output logic [XpW-1:0]   x_pon_o
);
  if (Dsh) begin : g_dsh
    logic [ThrW-1:0] eta_dq;
    assign eta_dq   = ThrW'(cfg_headroom_cells_i) + ThrW'(cfg_delta_q_i);
    assign x_qoff_o = (t_i > ThrW'(cfg_headroom_cells_i)) ? t_i - ThrW'(cfg_headroom_cells_i) : '0;
    assign x_qon_o  = (t_i > eta_dq) ? t_i - eta_dq : '0;
    assign x_poff_o = XpW'(t_i) << cfg_port_mult_log2_i;
    assign x_pon_o  = (x_poff_o > XpW'(cfg_delta_p_i)) ? x_poff_o - XpW'(cfg_delta_p_i) : '0;
  end else begin : g_sih
    assign x_qoff_o = t_i;
    assign x_qon_o  = (t_i > ThrW'(cfg_delta_q_i)) ? t_i - ThrW'(cfg_delta_q_i) : '0;
    assign x_poff_o = '0;
    assign x_pon_o  = '0;
    logic unused_dsh_cfg;  // eta, delta_p and the port shift only matter for DSH
    assign unused_dsh_cfg = ^{cfg_headroom_cells_i, cfg_delta_p_i, cfg_port_mult_log2_i};
  end
endmodule

`default_nettype wire
