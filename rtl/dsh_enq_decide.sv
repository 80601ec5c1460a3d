// Admission of one enqueue (contract §4): the first row of the table that
// fits wins.
//            SIH                                  DSH
//   private  priv+s <= phi                        priv+s <= phi
//   shared   !qoff & w+s <= X_off & S+s <= B_s    !poff & port_shared+s <= X_poff & S+s <= B_s
//   headroom hdrm+s <= eta                        port_hdrm+s <= eta   (insurance)
//   drop     otherwise                            otherwise
// Combinational. Region codes are those of stat_region_o.
`default_nettype none

module dsh_enq_decide #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned ThrW = CellW + 3,
  localparam int unsigned XpW  = ThrW + 5
) (
  input  logic [SizeW-1:0] cells_i,
  input  logic [CellW-1:0] priv_i,
  input  logic [CellW-1:0] shared_i,
  input  logic [CellW-1:0] hdrm_i,
  input  logic             qoff_i,
  input  logic [CellW-1:0] port_shared_i,
  input  logic [CellW-1:0] port_hdrm_i,
  input  logic             poff_i,
  input  logic [CellW-1:0] s_i,            // S after this cycle's dequeue
  input  logic [ThrW-1:0]  x_qoff_i,       // SIH: X_off
  input  logic [XpW-1:0]   x_poff_i,       // DSH only
  input  logic [CellW-1:0] cfg_private_cells_i,
  input  logic [CellW-1:0] cfg_headroom_cells_i,
  input  logic [CellW-1:0] cfg_shared_cells_i,
  output logic [2:0]       region_o        // 1 private, 2 shared, 3 headroom, 4 drop
);
  localparam int unsigned SumW = CellW + 1;
  logic fits_priv, fits_pool, fits_shared, fits_hdrm;

  assign fits_priv = SumW'(priv_i) + SumW'(cells_i) <= SumW'(cfg_private_cells_i);
  assign fits_pool = SumW'(s_i) + SumW'(cells_i) <= SumW'(cfg_shared_cells_i);

  if (Dsh) begin : g_dsh
    assign fits_shared = !poff_i && fits_pool && (XpW'(port_shared_i) + XpW'(cells_i) <= x_poff_i);
    assign fits_hdrm   = SumW'(port_hdrm_i) + SumW'(cells_i) <= SumW'(cfg_headroom_cells_i);
    logic unused_sih;  // the queue's own shared/headroom counts do not decide under DSH
    assign unused_sih = ^{shared_i, hdrm_i, qoff_i, x_qoff_i};
  end else begin : g_sih
    assign fits_shared = !qoff_i && fits_pool && (ThrW'(shared_i) + ThrW'(cells_i) <= x_qoff_i);
    assign fits_hdrm   = SumW'(hdrm_i) + SumW'(cells_i) <= SumW'(cfg_headroom_cells_i);
    logic unused_dsh;
    assign unused_dsh = ^{port_shared_i, port_hdrm_i, poff_i, x_poff_i};
  end

  always_comb begin
    if (fits_priv)        region_o = 3'd1;
    else if (fits_shared) region_o = 3'd2;
    else if (fits_hdrm)   region_o = 3'd3;
    else                  region_o = 3'd4;
  end
endmodule

`default_nettype wire
