// Comparison limits of stage E (contract §3 and §4). Every admission row and
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
// sat0() needs no subtractor of its own, since
//   v + s <= sat0(K) <=> v + s <= K           (v + s >= s >= 1)
//   v     <= sat0(K) <=> v <= K or v == 0
//   v     >  sat0(K) <=> v > K and v != 0
// Limits are signed and clamped to [-2^CellW, 2^CellW - 1] (LimW bits),
// by bit tests: every value they meet lies within (a count, a count less
// what a dequeue drained, or a shared count plus the cells it admitted,
// at most B_s), so the compares in stage E are no wider than the counts.
// DSH's cost over SIH: the X_poff shifter (dsh_dt_calc) and two
// subtractors, X_qoff's and X_pon's. Combinational.
`default_nettype none

module dsh_limits #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = CellW + 3,  // T
  localparam int unsigned XpW  = ThrW + 5,   // T << 5
  localparam int unsigned KW   = XpW + 1,    // signed, before the clamp
  localparam int unsigned TW   = CellW + 2,  // dsh_size_terms
  localparam int unsigned LimW = CellW + 1,
  localparam int unsigned NumTerms = 3
) (
  input  logic [ThrW-1:0]          t_i,
  input  logic [XpW-1:0]           t_m_i,     // T << port_mult_log2 (X_poff)
  input  logic [SizeW-1:0]         cells_i,
  input  logic [NumTerms*TW-1:0]   terms_i,   // dsh_size_terms of cells_i
  input  logic [CellW-1:0]         cfg_headroom_cells_i,
  input  logic [CellW-1:0]         cfg_delta_q_i,
  input  logic [CellW-1:0]         cfg_delta_p_i,
  output logic signed [LimW-1:0]   pool_o,
  output logic signed [LimW-1:0]   priv_o,
  output logic signed [LimW-1:0]   hdrm_o,
  output logic signed [LimW-1:0]   shared_o,
  output logic signed [LimW-1:0]   qoff_o,
  output logic signed [LimW-1:0]   qon_o,
  output logic signed [LimW-1:0]   pon_o
);
  // x fits LimW bits when its bits from CellW up are all equal; else it
  // saturates by its sign.
  function automatic logic signed [LimW-1:0] clamp(input logic signed [KW-1:0] x);
    if (&x[KW-1:CellW] || !(|x[KW-1:CellW])) clamp = x[LimW-1:0];
    else clamp = x[KW-1] ? {1'b1, {CellW{1'b0}}} : {1'b0, {CellW{1'b1}}};
  endfunction

  logic signed [KW-1:0] t, s, eta, dq, t_pool, t_priv, t_hdrm;
  logic signed [TW-1:0] v_pool, v_priv, v_hdrm;
  assign t   = KW'(t_i);
  assign s   = KW'(cells_i);
  assign eta = KW'(cfg_headroom_cells_i);
  assign dq  = KW'(cfg_delta_q_i);
  assign {v_hdrm, v_priv, v_pool} = terms_i;
  assign {t_hdrm, t_priv, t_pool} = {KW'(v_hdrm), KW'(v_priv), KW'(v_pool)};  // sign-extended

  assign pool_o = clamp(t_pool);
  assign priv_o = clamp(t_priv);
  assign hdrm_o = clamp(t_hdrm);
  if (Dsh) begin : g_dsh
    logic signed [KW-1:0] tm;  // X_poff
    assign tm       = KW'(t_m_i);
    assign shared_o = clamp(tm - s);
    assign qoff_o   = clamp(t - eta);
    assign qon_o    = clamp(t - (eta + dq));  // eta + dq: configuration alone
    assign pon_o    = clamp(tm - KW'(cfg_delta_p_i));
  end else begin : g_sih
    assign shared_o = clamp(t - s);
    assign qon_o    = clamp(t - dq);
    assign qoff_o   = '0;
    assign pon_o    = '0;
    logic unused_dsh;  // X_poff, eta and delta_p only decide under DSH
    assign unused_dsh = ^{t_m_i, cfg_delta_p_i, eta};
  end
endmodule

`default_nettype wire
