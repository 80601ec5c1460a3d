// Comparison limits of stage E (contract §3 and §4). Every admission row and
// state-machine condition `value + add <= X` is decided in stage E as one
// compare `value <= X - add`; this module computes the limits X - add from T
// and the cells s of the enqueue they serve, a cycle early (dsh_thresh_pipe
// registers them), with the terms of s alone formed earlier still
// (dsh_size_terms). Limits are signed: a negative limit admits nothing.
// sat0() needs no subtractor of its own, since
//   v + s <= sat0(K) <=> v + s <= K           (v + s >= s >= 1)
//   v     <= sat0(K) <=> v <= K or v == 0
//   v     >  sat0(K) <=> v > K and v != 0
// DSH (m = port_mult_log2)                  SIH
//   pool   B_s - s      (S + s <= B_s)        B_s - s
//   priv   phi - s                            phi - s
//   hdrm   eta - s      (port insurance)      eta - s   (queue headroom)
//   shared (T << m) - s (X_poff)              T - s     (X_off = T)
//   qoff   T - eta      (X_qoff)              -
//   qoff_s T - eta - s  (after a shared admission: w + s)
//   qon    T - eta - dq (X_qon)               T - dq    (X_on)
//   qon_s  T - eta - dq - s                   -
//   pon    (T << m) - dp (X_pon)              -
// DSH's cost over SIH: the shift and five subtractors. Combinational.
`default_nettype none

module dsh_limits #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = CellW + 3,  // T
  localparam int unsigned LimW = CellW + 9,  // T << 5 and a sign
  localparam int unsigned NumTerms = 5
) (
  input  logic [ThrW-1:0]          t_i,
  input  logic [ThrW+4:0]          t_m_i,     // T << port_mult_log2 (X_poff)
  input  logic [SizeW-1:0]         cells_i,
  input  logic [NumTerms*LimW-1:0] terms_i,   // dsh_size_terms of cells_i
  input  logic [CellW-1:0]         cfg_headroom_cells_i,
  input  logic [CellW-1:0]         cfg_delta_q_i,
  input  logic [CellW-1:0]         cfg_delta_p_i,
  output logic signed [LimW-1:0]   pool_o,
  output logic signed [LimW-1:0]   priv_o,
  output logic signed [LimW-1:0]   hdrm_o,
  output logic signed [LimW-1:0]   shared_o,
  output logic signed [LimW-1:0]   qoff_o,
  output logic signed [LimW-1:0]   qoff_s_o,
  output logic signed [LimW-1:0]   qon_o,
  output logic signed [LimW-1:0]   qon_s_o,
  output logic signed [LimW-1:0]   pon_o
);
  logic signed [LimW-1:0] t, s, eta, dq, eta_s, eta_dq_s;
  assign t = LimW'(t_i);
  assign s = LimW'(cells_i);
  assign eta = LimW'(cfg_headroom_cells_i);
  assign dq  = LimW'(cfg_delta_q_i);
  assign {eta_dq_s, eta_s, hdrm_o, priv_o, pool_o} = terms_i;

  if (Dsh) begin : g_dsh
    logic signed [LimW-1:0] tm;  // X_poff
    assign tm       = LimW'(t_m_i);
    assign shared_o = tm - s;
    assign qoff_o   = t - eta;
    assign qoff_s_o = t - eta_s;
    assign qon_o    = t - (eta + dq);  // eta + dq: configuration alone
    assign qon_s_o  = t - eta_dq_s;
    assign pon_o    = tm - LimW'(cfg_delta_p_i);
  end else begin : g_sih
    assign shared_o = t - s;
    assign qon_o    = t - dq;
    assign qoff_o   = '0;
    assign qoff_s_o = '0;
    assign qon_s_o  = '0;
    assign pon_o    = '0;
    logic unused_dsh;  // X_poff, eta's terms and delta_p only matter for DSH
    assign unused_dsh = ^{t_m_i, cfg_delta_p_i, eta, eta_s, eta_dq_s};
  end
endmodule

`default_nettype wire
