// Dequeue of one packet from one queue (contract §4): cells leave the
// headroom first, then the shared part, then the private part; the port's
// sums and S lose what the queue's headroom and shared parts lose.
// Combinational and flat: the three outcomes are computed in parallel and
// case_o says which one holds, so that a user can compare each candidate
// before it knows the case (dsh_mmu's admission does).
//   case 0  hdrm >= cells            only headroom drains
//   case 1  hdrm + shared >= cells   headroom empties, shared drains
//   case 2  otherwise                both empty, private drains
// Candidate k of a value is in bits [k*CellW +: CellW]; candidates of the
// cases that do not hold are meaningless (they may wrap). ok_o = 0 when the
// queue holds fewer than cells_i cells; nothing may be written back then.
`default_nettype none

module dsh_deq_drain #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8
) (
  input  logic [CellW-1:0]   priv_i,
  input  logic [CellW-1:0]   shared_i,
  input  logic [CellW-1:0]   hdrm_i,
  input  logic [CellW-1:0]   port_shared_i,
  input  logic [CellW-1:0]   port_hdrm_i,
  input  logic [CellW-1:0]   s_i,
  input  logic [SizeW-1:0]   cells_i,
  output logic               ok_o,
  output logic [2:0]         case_o,          // one-hot
  output logic [3*CellW-1:0] priv_o,
  output logic [3*CellW-1:0] shared_o,
  output logic [3*CellW-1:0] hdrm_o,
  output logic [3*CellW-1:0] port_shared_o,
  output logic [3*CellW-1:0] port_hdrm_o,
  output logic [3*CellW-1:0] s_o
);
  localparam int unsigned W = CellW + 2;
  logic [W-1:0] c, p, sh, h, ps, ph, s;
  assign c  = W'(cells_i);
  assign p  = W'(priv_i);
  assign sh = W'(shared_i);
  assign h  = W'(hdrm_i);
  assign ps = W'(port_shared_i);
  assign ph = W'(port_hdrm_i);
  assign s  = W'(s_i);

  assign ok_o = p + sh + h >= c;

`ifndef DSH_PLANTED_FAULT
  logic h_ge, hs_ge;
  assign h_ge   = h >= c;
  assign hs_ge  = h + sh >= c;
  assign case_o = {!hs_ge, hs_ge && !h_ge, h_ge};
  //                       case 2                case 1                 case 0
  assign priv_o        = {CellW'(p + sh + h - c), CellW'(p),            CellW'(p)};
  assign shared_o      = {CellW'(0),             CellW'(sh + h - c),   CellW'(sh)};
  assign hdrm_o        = {CellW'(0),             CellW'(0),            CellW'(h - c)};
  assign port_shared_o = {CellW'(ps - sh),       CellW'(ps + h - c),   CellW'(ps)};
  assign port_hdrm_o   = {CellW'(ph - h),        CellW'(ph - h),       CellW'(ph - c)};
  assign s_o           = {CellW'(s - sh),        CellW'(s + h - c),    CellW'(s)};
`else
  // Test-only mutation (tb/lockstep): shared drains before headroom. The
  // lockstep checker must catch it.
  logic s_ge, sh_ge;
  assign s_ge   = sh >= c;
  assign sh_ge  = sh + h >= c;
  assign case_o = {!sh_ge, sh_ge && !s_ge, s_ge};
  assign priv_o        = {CellW'(p + sh + h - c), CellW'(p),            CellW'(p)};
  assign shared_o      = {CellW'(0),             CellW'(0),            CellW'(sh - c)};
  assign hdrm_o        = {CellW'(0),             CellW'(sh + h - c),   CellW'(h)};
  assign port_shared_o = {CellW'(ps - sh),       CellW'(ps - sh),      CellW'(ps - c)};
  assign port_hdrm_o   = {CellW'(ph - h),        CellW'(ph + sh - c),  CellW'(ph)};
  assign s_o           = {CellW'(s - sh),        CellW'(s - sh),       CellW'(s - c)};
`endif
endmodule

`default_nettype wire
