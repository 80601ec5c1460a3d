// Admission of one enqueue (contract §4): the first row of the table that
// fits wins.
//            SIH                                  DSH
//   private  priv+s <= phi                        priv+s <= phi
//   shared   !qoff & w+s <= X_off & S+s <= B_s    !poff & port_shared+s <= X_poff & S+s <= B_s
//   headroom hdrm+s <= eta                        port_hdrm+s <= eta   (insurance)
//   drop     otherwise                            otherwise
// The queue's, the port's and S's values each come as NumCand candidates in
// linear form (dsh_lin_cmp; candidate k in bits [k*LinW +: LinW]). Each of
// NumScen scenarios (in dsh_mmu: no dequeue, or the dequeue in drain case
// 0..2) names its queue, port and S candidate with one-hot selects that are
// known early; every candidate is compared once, and each scenario's region
// follows from the compare results in a few gates. Combinational.
`default_nettype none

module dsh_enq_decide #(
  parameter int unsigned CellW   = 20,
  parameter int unsigned SizeW   = 8,
  parameter bit          Dsh     = 1'b1,
  parameter int unsigned NumCand = 4,
  parameter int unsigned NumScen = 4,
  localparam int unsigned ThrW = CellW + 3,
  localparam int unsigned XpW  = ThrW + 5,
  localparam int unsigned LinW = 4 * CellW
) (
  input  logic [SizeW-1:0]         cells_i,
  // Scenario j's selects in bits [j*NumCand +: NumCand].
  input  logic [NumScen*NumCand-1:0] qsel_i,   // which queue candidate holds
  input  logic [NumScen*NumCand-1:0] psel_i,   // which port candidate holds
  input  logic [NumScen*NumCand-1:0] ssel_i,   // which S candidate holds
  input  logic [NumCand*LinW-1:0]  priv_i,
  input  logic [NumCand*LinW-1:0]  shared_i,
  input  logic [NumCand*LinW-1:0]  hdrm_i,
  input  logic [NumCand*LinW-1:0]  port_shared_i,
  input  logic [NumCand*LinW-1:0]  port_hdrm_i,
  input  logic [NumCand*LinW-1:0]  s_i,
  input  logic                     qoff_i,
  input  logic                     poff_i,
  input  logic [ThrW-1:0]          x_qoff_i,  // SIH: X_off
  input  logic [XpW-1:0]           x_poff_i,  // DSH only
  input  logic [CellW-1:0]         cfg_private_cells_i,
  input  logic [CellW-1:0]         cfg_headroom_cells_i,
  input  logic [CellW-1:0]         cfg_shared_cells_i,
  // Scenario j's region, one-hot {drop, headroom, shared, private}, in
  // bits [j*4 +: 4].
  output logic [NumScen*4-1:0]     region_o
);
  logic [NumCand-1:0] priv_ok, pool_ok, shared_ok, hdrm_ok;

  for (genvar k = 0; k < NumCand; k++) begin : g_cand
    dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(CellW)) u_priv (
      .v_i(priv_i[k*LinW +: LinW]), .add_i(cells_i), .k_i(cfg_private_cells_i), .le_o(priv_ok[k])
    );
    dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(CellW)) u_pool (
      .v_i(s_i[k*LinW +: LinW]), .add_i(cells_i), .k_i(cfg_shared_cells_i), .le_o(pool_ok[k])
    );
    if (Dsh) begin : g_dsh
      dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(XpW)) u_shared (
        .v_i(port_shared_i[k*LinW +: LinW]), .add_i(cells_i), .k_i(x_poff_i), .le_o(shared_ok[k])
      );
      dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(CellW)) u_hdrm (
        .v_i(port_hdrm_i[k*LinW +: LinW]), .add_i(cells_i), .k_i(cfg_headroom_cells_i), .le_o(hdrm_ok[k])
      );
      logic unused_sih;  // the queue's own shared/headroom counts do not decide under DSH
      assign unused_sih = ^{shared_i[k*LinW +: LinW], hdrm_i[k*LinW +: LinW]};
    end else begin : g_sih
      dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(ThrW)) u_shared (
        .v_i(shared_i[k*LinW +: LinW]), .add_i(cells_i), .k_i(x_qoff_i), .le_o(shared_ok[k])
      );
      dsh_lin_cmp #(.CellW(CellW), .SizeW(SizeW), .KW(CellW)) u_hdrm (
        .v_i(hdrm_i[k*LinW +: LinW]), .add_i(cells_i), .k_i(cfg_headroom_cells_i), .le_o(hdrm_ok[k])
      );
      logic unused_dsh;
      assign unused_dsh = ^{port_shared_i[k*LinW +: LinW], port_hdrm_i[k*LinW +: LinW]};
    end
  end

  for (genvar j = 0; j < NumScen; j++) begin : g_scen
    logic [NumCand-1:0] qs, ss;
    logic fits_priv, fits_shared, fits_hdrm;
    assign qs = qsel_i[j*NumCand +: NumCand];
    assign ss = ssel_i[j*NumCand +: NumCand];
    assign fits_priv = |(qs & priv_ok);
    if (Dsh) begin : g_dsh
      logic [NumCand-1:0] ps;
      assign ps = psel_i[j*NumCand +: NumCand];
      assign fits_shared = !poff_i && |(ss & pool_ok) && |(ps & shared_ok);
      assign fits_hdrm   = |(ps & hdrm_ok);
    end else begin : g_sih
      assign fits_shared = !qoff_i && |(ss & pool_ok) && |(qs & shared_ok);
      assign fits_hdrm   = |(qs & hdrm_ok);
    end
    assign region_o[j*4 +: 4] = {!fits_priv && !fits_shared && !fits_hdrm, !fits_priv && !fits_shared && fits_hdrm,
                                 !fits_priv && fits_shared, fits_priv};
  end
  if (Dsh) begin : g_unused_dsh
    logic unused_sih;
    assign unused_sih = ^{qoff_i, x_qoff_i};
  end else begin : g_unused_sih
    logic unused_dsh;
    assign unused_dsh = ^{poff_i, psel_i, x_poff_i};
  end
endmodule

`default_nettype wire
