// Admission of one enqueue (contract §4): the first row that fits wins.
//            SIH                                 DSH
//   private  priv+s <= phi                       priv+s <= phi
//   shared   !qoff & w+s <= X_off & S+s <= B_s   !poff & port_shared+s <= X_poff & S+s <= B_s
//   headroom hdrm+s <= eta                       port_hdrm+s <= eta   (insurance)
//   drop     otherwise                           otherwise
// Each row is one two-operand compare against a limit from dsh_limits
// (value <= X - s). Combinational.
`default_nettype none

module dsh_enq_admit #(
  parameter int unsigned CellW = 20,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned LimW = CellW + 9
) (
  input  logic [CellW-1:0]       priv_i,         // the queue
  input  logic [CellW-1:0]       shared_i,
  input  logic [CellW-1:0]       hdrm_i,
  input  logic                   qoff_i,
  input  logic [CellW-1:0]       port_shared_i,  // its port
  input  logic [CellW-1:0]       port_hdrm_i,
  input  logic                   poff_i,
  input  logic [CellW-1:0]       s_i,            // S
  input  logic signed [LimW-1:0] pool_lim_i,
  input  logic signed [LimW-1:0] priv_lim_i,
  input  logic signed [LimW-1:0] shared_lim_i,
  input  logic signed [LimW-1:0] hdrm_lim_i,
  output logic [3:0]             region_o        // one-hot {drop, headroom, shared, private}
);
  logic fits_priv, fits_shared, fits_hdrm, fits_pool;
  logic [CellW-1:0] shared_v, hdrm_v;  // the shared and headroom counts that decide
  logic             off;

  assign shared_v = Dsh ? port_shared_i : shared_i;
  assign hdrm_v   = Dsh ? port_hdrm_i : hdrm_i;
  assign off      = Dsh ? poff_i : qoff_i;

  assign fits_priv   = $signed(LimW'(priv_i)) <= priv_lim_i;
  assign fits_pool   = $signed(LimW'(s_i)) <= pool_lim_i;
  assign fits_shared = !off && fits_pool && $signed(LimW'(shared_v)) <= shared_lim_i;
  assign fits_hdrm   = $signed(LimW'(hdrm_v)) <= hdrm_lim_i;

  assign region_o = {!fits_priv && !fits_shared && !fits_hdrm, !fits_priv && !fits_shared && fits_hdrm,
                     !fits_priv && fits_shared, fits_priv};
endmodule

`default_nettype wire
