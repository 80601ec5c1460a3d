// Dequeue of one packet from one queue (contract §4): cells leave the
// headroom first, then the shared part, then the private part.
// Combinational. ok_o = 0 when the queue holds fewer than cells_i cells; the
// other outputs are then meaningless and must not be written back.
`default_nettype none

module dsh_deq_drain #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8
) (
  input  logic [CellW-1:0] priv_i,
  input  logic [CellW-1:0] shared_i,
  input  logic [CellW-1:0] hdrm_i,
  input  logic [SizeW-1:0] cells_i,
  output logic             ok_o,
  output logic [CellW-1:0] priv_o,
  output logic [CellW-1:0] shared_o,
  output logic [CellW-1:0] hdrm_o,
  output logic [SizeW-1:0] from_shared_o,  // cells taken from the shared part
  output logic [SizeW-1:0] from_hdrm_o     // cells taken from the headroom
);
  logic [SizeW-1:0] left_h, left_s;  // still to take after headroom, after shared

  assign ok_o          = (CellW+2)'(priv_i) + (CellW+2)'(shared_i) + (CellW+2)'(hdrm_i)
                         >= (CellW+2)'(cells_i);
`ifndef DSH_PLANTED_FAULT
  assign from_hdrm_o   = (CellW'(cells_i) <= hdrm_i) ? cells_i : SizeW'(hdrm_i);
  assign left_h        = cells_i - from_hdrm_o;
  assign from_shared_o = (CellW'(left_h) <= shared_i) ? left_h : SizeW'(shared_i);
  assign left_s        = left_h - from_shared_o;
`else
  // Test-only mutation (tb/lockstep): shared drains before headroom. The
  // lockstep checker must catch it.
  logic [SizeW-1:0] left_x;
  assign from_shared_o = (CellW'(cells_i) <= shared_i) ? cells_i : SizeW'(shared_i);
  assign left_x        = cells_i - from_shared_o;
  assign from_hdrm_o   = (CellW'(left_x) <= hdrm_i) ? left_x : SizeW'(hdrm_i);
  assign left_h        = left_x;
  assign left_s        = left_x - from_hdrm_o;
`endif
  assign hdrm_o        = hdrm_i - CellW'(from_hdrm_o);
  assign shared_o      = shared_i - CellW'(from_shared_o);
  assign priv_o        = priv_i - CellW'(left_s);
endmodule

`default_nettype wire
