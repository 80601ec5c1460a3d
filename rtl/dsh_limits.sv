// SPDX-License-Identifier: Apache-2.0
// Comparison limits of stage E (spec §3 and §4). Every admission row and
// state-machine condition `value + add <= X` is decided in stage E as one
// compare against a limit X - add, or against X with the add as an operand
// (the state machines'); this module computes the limits from T (dsh_dt_calc)
// and the cells s of the enqueue they serve, a cycle early (dsh_thresh_pipe
// registers them), with the terms of s alone formed earlier still
// (dsh_size_terms):
//                DSH (m = port_mult_log2)               SIH
//   pool   S + s <= B_s                  B_s - s                 B_s - s
//   priv   priv + s <= phi               phi - s                 phi - s
//   hdrm   hdrm + s <= eta               eta - s (insurance)     eta - s
//   shared w/port_shared + s <= X        (T << m) - s (X_poff)   T - s (X_off = T)
//   qoff   X_qoff = sat0(T - eta)        T - eta                 -
//   qon    X_qon = sat0(T - eta - dq)    T - eta - dq            T - dq (X_on)
//   pon    X_pon = sat0(X_poff - dp)     (T << m) - dp           -
// eta is the port's own (spec §3.1): qoff and qon come twice, for the
// enqueue's port (slot 1) and for the dequeue's (slot 0, qoff_deq_o and
// qon_deq_o), from eta and eta + dq registered for each slot (dsh_mmu).
// sat0() needs no subtractor of its own, since
//   v + s <= sat0(K) <=> v + s <= K           (v + s >= s >= 1)
//   v     <= sat0(K) <=> v <= K or v == 0
//   v     >  sat0(K) <=> v > K and v != 0
// Limits are signed and full width (LimW = the width of T << 5, plus a
// sign): no saturation. A clamp to the counts' width would narrow stage E's
// compares by 8 bits but put ~1 ns of logic after the shifter, on the
// threshold path that ABC sizes the whole netlist to (docs/design/synthesis.md).
// DSH's cost over SIH: the X_poff shifter (dsh_dt_calc) and four
// subtractors, X_qoff's and X_qon's of the dequeue's port, X_pon's and the
// enqueue port's X_qoff. Combinational.
`include "dsh_assert.svh"
`default_nettype none

module dsh_limits #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = dsh_pkg::thr_w(CellW),  // T
  localparam int unsigned XpW  = dsh_pkg::xp_w(CellW),   // T << 5
  localparam int unsigned TW   = dsh_pkg::term_w(CellW),  // dsh_size_terms
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW),    // signed (= CellW + 9)
  localparam int unsigned NumTerms = 3
) (
  input  logic [ThrW-1:0]          t_i,
  input  logic [XpW-1:0]           t_m_i,     // T << port_mult_log2 (X_poff)
  input  logic [SizeW-1:0]         cells_i,
  input  logic [NumTerms*TW-1:0]   terms_i,   // dsh_size_terms of cells_i
  input  logic [2*CellW-1:0]       eta_i,     // {dequeue's port, enqueue's port}
  input  logic [2*CellW+1:0]       eta_dq_i,  // eta + dq of each, CellW + 1 bits
  input  logic [CellW-1:0]         cfg_delta_q_i,
  input  logic [CellW-1:0]         cfg_delta_p_i,
  output logic signed [LimW-1:0]   pool_o,
  output logic signed [LimW-1:0]   priv_o,
  output logic signed [LimW-1:0]   hdrm_o,
  output logic signed [LimW-1:0]   shared_o,
  output logic signed [LimW-1:0]   qoff_o,
  output logic signed [LimW-1:0]   qon_o,
  output logic signed [LimW-1:0]   qoff_deq_o,
  output logic signed [LimW-1:0]   qon_deq_o,
  output logic signed [LimW-1:0]   pon_o
);
  logic signed [LimW-1:0] t, s, eta, eta_deq, eta_dq, eta_dq_deq, dq;
  logic signed [TW-1:0] v_pool, v_priv, v_hdrm;
  assign t   = LimW'(t_i);
  assign s   = LimW'(cells_i);
  assign eta        = LimW'(eta_i[0 +: CellW]);
  assign eta_deq    = LimW'(eta_i[CellW +: CellW]);
  assign eta_dq     = LimW'(eta_dq_i[0 +: CellW+1]);
  assign eta_dq_deq = LimW'(eta_dq_i[CellW+1 +: CellW+1]);
  assign dq  = LimW'(cfg_delta_q_i);
  assign {v_hdrm, v_priv, v_pool} = terms_i;

  assign pool_o = LimW'(v_pool);  // sign-extended
  assign priv_o = LimW'(v_priv);
  assign hdrm_o = LimW'(v_hdrm);
  if (Dsh) begin : gen_dsh
    logic signed [LimW-1:0] tm;  // X_poff
    assign tm       = LimW'(t_m_i);
    assign shared_o = tm - s;
    assign qoff_o     = t - eta;
    assign qon_o      = t - eta_dq;
    assign qoff_deq_o = t - eta_deq;
    assign qon_deq_o  = t - eta_dq_deq;
    assign pon_o      = tm - LimW'(cfg_delta_p_i);
    logic unused_dq;  // dq comes added to eta
    assign unused_dq = ^dq;
  end else begin : gen_sih
    assign shared_o = t - s;
    assign qon_o      = t - dq;
    assign qon_deq_o  = qon_o;  // X_on does not use eta
    assign qoff_o     = '0;
    assign qoff_deq_o = '0;
    assign pon_o      = '0;
    logic unused_dsh;  // X_poff, eta and delta_p only decide under DSH
    assign unused_dsh = ^{t_m_i, cfg_delta_p_i, eta, eta_deq, eta_dq, eta_dq_deq};
  end
  // eta + dq is at least eta, so X_qon is never above X_qoff (DSH).
  if (Dsh) begin : gen_check
    `ASSUME_COMB(EtaDqAtLeastEta_M, eta_dq_i[0 +: CellW+1] >= (CellW+1)'(eta_i[0 +: CellW])
                                  && eta_dq_i[CellW+1 +: CellW+1] >= (CellW+1)'(eta_i[CellW +: CellW]))
    `ASSERT_COMB(QonNotAboveQoff_A, qon_o <= qoff_o && qon_deq_o <= qoff_deq_o)
  end
  // Cover: limits below zero (T below eta, eta + dq, dq or dp: sat0 at work).
  if (Dsh) begin : gen_dsh_cover
    `COVER_COMB(QoffBelowZero_C, qoff_o < 0)
    `COVER_COMB(QonBelowZero_C, qon_o < 0 && qoff_o >= 0)
    `COVER_COMB(PonBelowZero_C, pon_o < 0)
  end else begin : gen_sih_cover
    `COVER_COMB(SihQonBelowZero_C, qon_o < 0)
  end
endmodule

`default_nettype wire
