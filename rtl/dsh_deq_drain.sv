// Dequeue of one packet from one queue (contract §4): cells leave the
// headroom first, then the shared part, then the private part; the port's
// sums and S lose what the queue's headroom and shared parts lose.
// Combinational and flat: the three possible outcomes are given in parallel
// and case_o says which one holds, so that a user can compare each outcome
// before it knows the case (dsh_mmu's admission does).
//   case 0  hdrm >= cells            only headroom drains
//   case 1  hdrm + shared >= cells   headroom empties, shared drains
//   case 2  otherwise                both empty, private drains
// Each outcome is in linear form a + b + c - d ({d, c, b, a}, LinW bits;
// see dsh_lin_cmp), case k in bits [k*LinW +: LinW]. The outcomes of the
// cases that do not hold are meaningless. ok_o = 0 when the queue holds
// fewer than cells_i cells; nothing may be written back then.
`default_nettype none

module dsh_deq_drain #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  localparam int unsigned LinW = 4 * CellW
) (
  input  logic [CellW-1:0]  priv_i,
  input  logic [CellW-1:0]  shared_i,
  input  logic [CellW-1:0]  hdrm_i,
  input  logic [CellW-1:0]  port_shared_i,
  input  logic [CellW-1:0]  port_hdrm_i,
  input  logic [CellW-1:0]  s_i,
  input  logic [SizeW-1:0]  cells_i,
  output logic              ok_o,
  output logic [2:0]        case_o,          // one-hot
  output logic [3*LinW-1:0] priv_o,
  output logic [3*LinW-1:0] shared_o,
  output logic [3*LinW-1:0] hdrm_o,
  output logic [3*LinW-1:0] port_shared_o,
  output logic [3*LinW-1:0] port_hdrm_o,
  output logic [3*LinW-1:0] s_o
);
  localparam logic [CellW-1:0] Z = '0;
  logic [CellW-1:0] p, w, h, ps, ph, s, c;
  assign p  = priv_i;
  assign w  = shared_i;
  assign h  = hdrm_i;
  assign ps = port_shared_i;
  assign ph = port_hdrm_i;
  assign s  = s_i;
  assign c  = CellW'(cells_i);

  // cells <= sums of parts, each one signed sum (sign bit only).
  localparam int unsigned W = CellW + 3;
  logic [W-1:0] all_left, h_left, wh_left;
  logic         ge_h, ge_wh;
  assign all_left = W'(p) + W'(w) + W'(h) - W'(c);
  assign ok_o     = !all_left[W-1];

`ifndef DSH_PLANTED_FAULT
  assign h_left  = W'(h) - W'(c);
  assign wh_left = W'(h) + W'(w) - W'(c);
  assign ge_h    = !h_left[W-1];
  assign ge_wh   = !wh_left[W-1];
  assign case_o  = {!ge_wh, ge_wh && !ge_h, ge_h};
  //                     case 2           case 1           case 0
  assign priv_o        = {{c, h, w, p},   {Z, Z, Z, p},    {Z, Z, Z, p}};
  assign shared_o      = {{Z, Z, Z, Z},   {c, Z, h, w},    {Z, Z, Z, w}};
  assign hdrm_o        = {{Z, Z, Z, Z},   {Z, Z, Z, Z},    {c, Z, Z, h}};
  assign port_shared_o = {{w, Z, Z, ps},  {c, Z, h, ps},   {Z, Z, Z, ps}};
  assign port_hdrm_o   = {{h, Z, Z, ph},  {h, Z, Z, ph},   {c, Z, Z, ph}};
  assign s_o           = {{w, Z, Z, s},   {c, Z, h, s},    {Z, Z, Z, s}};
`else
  // Test-only mutation (tb/lockstep): shared drains before headroom. The
  // lockstep checker must catch it.
  assign h_left  = W'(w) - W'(c);
  assign wh_left = W'(w) + W'(h) - W'(c);
  assign ge_h    = !h_left[W-1];
  assign ge_wh   = !wh_left[W-1];
  assign case_o  = {!ge_wh, ge_wh && !ge_h, ge_h};
  assign priv_o        = {{c, h, w, p},   {Z, Z, Z, p},    {Z, Z, Z, p}};
  assign shared_o      = {{Z, Z, Z, Z},   {Z, Z, Z, Z},    {c, Z, Z, w}};
  assign hdrm_o        = {{Z, Z, Z, Z},   {c, Z, w, h},    {Z, Z, Z, h}};
  assign port_shared_o = {{w, Z, Z, ps},  {w, Z, Z, ps},   {c, Z, Z, ps}};
  assign port_hdrm_o   = {{h, Z, Z, ph},  {c, Z, w, ph},   {Z, Z, Z, ph}};
  assign s_o           = {{w, Z, Z, s},   {w, Z, Z, s},    {c, Z, Z, s}};
`endif
endmodule

`default_nettype wire
