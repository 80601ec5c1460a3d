// SPDX-License-Identifier: Apache-2.0
// Threshold pipeline (spec §3): the limits in effect during cycle c (see
// dsh_limits) derive from S at the end of cycle c-L, L = ThreshLatency in
// 1..3. free_i is B_s - S after the cycle that stage E finished last
// (registered in dsh_mmu), so while cycle c is in stage E free_i holds
// B_s - S_{c-1}.
//   L = 1: T and the limits are combinational from free_i (in the loop of
//          stage E, so this latency does not reach the 4 ns clock);
//   L = 2: T and the limits of the enqueue entering stage E at the next
//          edge are registered: stage E starts at flops;
//   L = 3: T registered once more before the limits.
// The limits X_qoff and X_qon use the eta of a port: they come for the
// enqueue's port (slot 1) and the dequeue's (slot 0), from the eta and
// eta + dq registered with each (dsh_mmu), "now" for the events in stage E
// and "next" for those entering it at the next edge.
// The registers have no reset: they load every cycle, and free_i holds B_s
// from the first clock edge of reset (dsh_mmu), so holding rst_ni low for at
// least three clock edges fills them with the limits of S = 0, as the
// specification's S_c = 0 for c < 0 requires (spec §3.2).
`include "dsh_assert.svh"
`default_nettype none

module dsh_thresh_pipe #(
  parameter int unsigned CellW         = 20,
  parameter int unsigned SizeW         = 8,
  parameter bit          Dsh           = 1'b1,
  parameter int unsigned ThreshLatency = 2,
  localparam int unsigned ThrW = dsh_pkg::thr_w(CellW),
  localparam int unsigned XpW  = dsh_pkg::xp_w(CellW),
  localparam int unsigned TW   = dsh_pkg::term_w(CellW),
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW),
  localparam int unsigned NumLim = 9,
  localparam int unsigned NumTerms = 3
) (
  input  logic                   clk_i,
  input  logic [CellW-1:0]       free_i,
  // The enqueue in stage E (L = 1) and the one entering it at the next
  // edge: cells and their dsh_size_terms.
  input  logic [SizeW-1:0]         cells_now_i,
  input  logic [NumTerms*TW-1:0]   terms_now_i,
  input  logic [SizeW-1:0]         cells_next_i,
  input  logic [NumTerms*TW-1:0]   terms_next_i,
  // eta and eta + dq of the ports of the events in E and entering it:
  // {dequeue's, enqueue's}.
  input  logic [2*CellW-1:0]     eta_now_i,
  input  logic [2*CellW+1:0]     eta_dq_now_i,
  input  logic [2*CellW-1:0]     eta_next_i,
  input  logic [2*CellW+1:0]     eta_dq_next_i,
  input  logic signed [4:0]      cfg_alpha_log2_i,
  input  logic [CellW-1:0]       cfg_delta_q_i,
  input  logic [CellW-1:0]       cfg_delta_p_i,
  input  logic [2:0]             cfg_port_mult_log2_i,
  output logic [ThrW-1:0]        t_o,       // T in effect in stage E
  output logic signed [LimW-1:0] pool_o,
  output logic signed [LimW-1:0] priv_o,
  output logic signed [LimW-1:0] hdrm_o,
  output logic signed [LimW-1:0] shared_o,
  output logic signed [LimW-1:0] qoff_o,
  output logic signed [LimW-1:0] qon_o,
  output logic signed [LimW-1:0] qoff_deq_o,
  output logic signed [LimW-1:0] qon_deq_o,
  output logic signed [LimW-1:0] pon_o
);
  logic [ThrW-1:0]        t_free;  // T of free_i
  logic [XpW-1:0]         tm_free; // T << port_mult_log2
  logic [ThrW-1:0]        t_lim;   // T the limits are computed from
  logic [XpW-1:0]         tm_lim;
  logic [NumLim*LimW-1:0] lim;

  dsh_dt_calc #(.CellW(CellW)) u_dt_calc (
    .cfg_alpha_log2_i, .cfg_port_mult_log2_i, .free_i, .t_o(t_free), .t_m_o(tm_free));

  if (ThreshLatency >= 3) begin : gen_t_reg
    logic [ThrW-1:0] t_q;
    logic [XpW-1:0]  tm_q;
    always_ff @(posedge clk_i) begin
      t_q  <= t_free;
      tm_q <= tm_free;
    end
    assign t_lim  = t_q;
    assign tm_lim = tm_q;
  end else begin : gen_t_comb
    assign t_lim  = t_free;
    assign tm_lim = tm_free;
  end

  dsh_limits #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_limits (
    .t_i(t_lim), .t_m_i(tm_lim),
    .cells_i(ThreshLatency >= 2 ? cells_next_i : cells_now_i),
    .terms_i(ThreshLatency >= 2 ? terms_next_i : terms_now_i),
    .eta_i(ThreshLatency >= 2 ? eta_next_i : eta_now_i),
    .eta_dq_i(ThreshLatency >= 2 ? eta_dq_next_i : eta_dq_now_i),
    .cfg_delta_q_i, .cfg_delta_p_i,
    .pool_o(lim[0*LimW +: LimW]), .priv_o(lim[1*LimW +: LimW]), .hdrm_o(lim[2*LimW +: LimW]),
    .shared_o(lim[3*LimW +: LimW]), .qoff_o(lim[4*LimW +: LimW]), .qon_o(lim[5*LimW +: LimW]),
    .pon_o(lim[6*LimW +: LimW]), .qoff_deq_o(lim[7*LimW +: LimW]), .qon_deq_o(lim[8*LimW +: LimW])
  );

  logic [ThrW-1:0]        t_e;    // as stage E sees them
  logic [NumLim*LimW-1:0] lim_e;
  if (ThreshLatency >= 2) begin : gen_lim_reg
    logic [ThrW-1:0]        t_q;
    logic [NumLim*LimW-1:0] lim_q;
    always_ff @(posedge clk_i) begin
      t_q   <= t_lim;
      lim_q <= lim;
    end
    assign t_e   = t_q;
    assign lim_e = lim_q;
    logic unused_now;
    assign unused_now = ^{cells_now_i, terms_now_i, eta_now_i, eta_dq_now_i};
  end else begin : gen_lim_comb
    assign t_e   = t_lim;
    assign lim_e = lim;
    logic unused_next;
    assign unused_next = ^{clk_i, cells_next_i, terms_next_i, eta_next_i, eta_dq_next_i};
  end

  assign t_o = t_e;
  assign {qon_deq_o, qoff_deq_o, pon_o, qon_o, qoff_o, shared_o, hdrm_o, priv_o, pool_o} = lim_e;
  // X_qon = sat0(T - eta - dq) never above X_qoff = sat0(T - eta), for each
  // slot's port (the hysteresis of spec §4). No reset: the limits of S = 0
  // fill the pipeline in reset.
  if (Dsh) begin : gen_check
    `ASSERT_CLK(QonNotAboveQoff_A, qon_o <= qoff_o && qon_deq_o <= qoff_deq_o, clk_i, 1'b1)
  end
  // Cover: the latency this build has (each build covers its own; the
  // regression's builds cover all three), and T moving from one cycle to
  // the next.
  if (ThreshLatency == 1) begin : gen_cover_l1
    `COVER_CLK(ThreshLatency1_C, 1'b1, clk_i, 1'b1)
  end
  if (ThreshLatency == 2) begin : gen_cover_l2
    `COVER_CLK(ThreshLatency2_C, 1'b1, clk_i, 1'b1)
  end
  if (ThreshLatency == 3) begin : gen_cover_l3
    `COVER_CLK(ThreshLatency3_C, 1'b1, clk_i, 1'b1)
  end
  logic [ThrW-1:0] t_last_q;
  always_ff @(posedge clk_i) t_last_q <= t_e;
  `COVER_CLK(ThresholdMoves_C, t_e != t_last_q, clk_i, 1'b1)
endmodule

`default_nettype wire
