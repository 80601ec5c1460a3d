// Admission of one enqueue (contract §4): the first row of the table that
// fits wins.
//            SIH                                  DSH
//   private  priv+s <= phi                        priv+s <= phi
//   shared   !qoff & w+s <= X_off & S+s <= B_s    !poff & port_shared+s <= X_poff & S+s <= B_s
//   headroom hdrm+s <= eta                        port_hdrm+s <= eta   (insurance)
//   drop     otherwise                            otherwise
// The queue's, the port's and S's values each come as NumCand candidates in
// linear form (dsh_lin_cmp; candidate k in bits [k*LinW +: LinW]) with a
// one-hot select: every candidate is compared while the select is still
// being computed, and the select only picks a result. Combinational. Region
// codes are those of stat_region_o.
`default_nettype none

module dsh_enq_decide #(
  parameter int unsigned CellW   = 20,
  parameter int unsigned SizeW   = 8,
  parameter bit          Dsh     = 1'b1,
  parameter int unsigned NumCand = 4,
  localparam int unsigned ThrW = CellW + 3,
  localparam int unsigned XpW  = ThrW + 5,
  localparam int unsigned LinW = 4 * CellW
) (
  input  logic [SizeW-1:0]         cells_i,
  input  logic [NumCand-1:0]       qsel_i,   // which queue candidate holds
  input  logic [NumCand-1:0]       psel_i,   // which port candidate holds
  input  logic [NumCand-1:0]       ssel_i,   // which S candidate holds
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
  output logic [2:0]               region_o   // 1 private, 2 shared, 3 headroom, 4 drop
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

  logic fits_priv, fits_shared, fits_hdrm;
  assign fits_priv = |(qsel_i & priv_ok);
  if (Dsh) begin : g_dsh
    assign fits_shared = !poff_i && |(ssel_i & pool_ok) && |(psel_i & shared_ok);
    assign fits_hdrm   = |(psel_i & hdrm_ok);
    logic unused_sih;
    assign unused_sih = ^{qoff_i, x_qoff_i};
  end else begin : g_sih
    assign fits_shared = !qoff_i && |(ssel_i & pool_ok) && |(qsel_i & shared_ok);
    assign fits_hdrm   = |(qsel_i & hdrm_ok);
    logic unused_dsh;
    assign unused_dsh = ^{poff_i, psel_i, x_poff_i};
  end

  always_comb begin
    if (fits_priv)        region_o = 3'd1;
    else if (fits_shared) region_o = 3'd2;
    else if (fits_hdrm)   region_o = 3'd3;
    else                  region_o = 3'd4;
  end
endmodule

`default_nettype wire
