// Threshold pipeline (contract §3): thresholds in effect during cycle c are
// derived from S at the end of cycle c-L, for L = ThreshLatency in 1..3.
// free_i is B_s - S_{c-1}, registered beside S in dsh_mmu.
//   L = 1: DT calculator and threshold stage are combinational from free_i;
//   L = 2: both registered once: the decision logic starts at flops;
//   L = 3: T registered, then the thresholds registered.
// The pipeline registers have no reset: they load from free_i every cycle,
// and free_i is B_s while the MMU is held in reset (one edge after reset
// asserts), so holding rst_ni low for at least three clock edges (with cfg_*
// stable) fills them with the thresholds of S = 0, as the contract's S_c = 0
// for c < 0 requires.
`default_nettype none

module dsh_thresh_pipe #(
  parameter int unsigned CellW         = 20,
  parameter bit          Dsh           = 1'b1,
  parameter int unsigned ThreshLatency = 2,
  localparam int unsigned ThrW = CellW + 3,
  localparam int unsigned XpW  = ThrW + 5
) (
  input  logic              clk_i,
  input  logic [CellW-1:0]  free_i,
  input  logic signed [4:0] cfg_alpha_log2_i,
  input  logic [CellW-1:0]  cfg_headroom_cells_i,
  input  logic [CellW-1:0]  cfg_delta_q_i,
  input  logic [CellW-1:0]  cfg_delta_p_i,
  input  logic [2:0]        cfg_port_mult_log2_i,
  output logic [ThrW-1:0]   t_o,
  output logic [ThrW-1:0]   x_qoff_o,
  output logic [ThrW-1:0]   x_qon_o,
  output logic [XpW-1:0]    x_poff_o,
  output logic [XpW-1:0]    x_pon_o
);
  logic [ThrW-1:0] t_now;   // T of free_i
  logic [ThrW-1:0] t_thr;   // T fed to the threshold stage
  logic [ThrW-1:0] x_qoff, x_qon;
  logic [XpW-1:0]  x_poff, x_pon;

  dsh_dt_calc #(.CellW(CellW)) u_dt_calc (
    .cfg_alpha_log2_i, .free_i, .t_o(t_now)
  );

  if (ThreshLatency >= 3) begin : g_t_reg
    logic [ThrW-1:0] t_q;
    always_ff @(posedge clk_i) t_q <= t_now;
    assign t_thr = t_q;
  end else begin : g_t_comb
    assign t_thr = t_now;
  end

  dsh_thresholds #(.CellW(CellW), .Dsh(Dsh)) u_thresholds (
    .t_i(t_thr), .cfg_headroom_cells_i, .cfg_delta_q_i, .cfg_delta_p_i, .cfg_port_mult_log2_i,
    .x_qoff_o(x_qoff), .x_qon_o(x_qon), .x_poff_o(x_poff), .x_pon_o(x_pon)
  );

  if (ThreshLatency >= 2) begin : g_x_reg
    logic [ThrW-1:0] t_q, x_qoff_q, x_qon_q;
    logic [XpW-1:0]  x_poff_q, x_pon_q;
    always_ff @(posedge clk_i) begin
      t_q      <= t_thr;
      x_qoff_q <= x_qoff;
      x_qon_q  <= x_qon;
      x_poff_q <= x_poff;
      x_pon_q  <= x_pon;
    end
    assign t_o      = t_q;
    assign x_qoff_o = x_qoff_q;
    assign x_qon_o  = x_qon_q;
    assign x_poff_o = x_poff_q;
    assign x_pon_o  = x_pon_q;
  end else begin : g_x_comb
    logic unused_clk;  // L = 1 has no pipeline register
    assign unused_clk = clk_i;
    assign t_o      = t_thr;
    assign x_qoff_o = x_qoff;
    assign x_qon_o  = x_qon;
    assign x_poff_o = x_poff;
    assign x_pon_o  = x_pon;
  end
endmodule

`default_nettype wire
