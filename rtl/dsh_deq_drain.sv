// Dequeue of one packet from one queue (contract §4): cells leave the
// headroom first, then the shared part, then the private part; the port's
// sums lose what the queue's headroom and shared parts lose, and S what the
// shared part loses.
//   case 0  hdrm >= cells            only headroom drains
//   case 1  hdrm + shared >= cells   headroom empties, shared drains
//   case 2  otherwise                both empty, private drains
//   go_o = 0 (nothing changes) when !ok_i or the queue holds fewer cells.
// dsh_mmu runs this in stage D, in the same cycle as stage E's enqueue of
// the previous cycle, which the contract applies first. The inputs are the
// counts before that enqueue; where it went (region_i) is known only late
// in the cycle. So the dequeue is computed for every region it may take,
// each adding its cells to the counts it fills (the queue's when
// enq_queue_i, the port's when enq_port_i, and S always), and region_i
// picks one outcome at the very end. Each value is one multi-operand sum.
`default_nettype none

module dsh_deq_drain #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8
) (
  input  logic              ok_i,           // valid, in range, cells != 0
  input  logic [SizeW-1:0]  cells_i,
  input  logic [CellW-1:0]  priv_i,
  input  logic [CellW-1:0]  shared_i,
  input  logic [CellW-1:0]  hdrm_i,
  input  logic [CellW-1:0]  port_shared_i,
  input  logic [CellW-1:0]  port_hdrm_i,
  input  logic [CellW-1:0]  s_i,            // S
  input  logic [SizeW-1:0]  enq_cells_i,    // the enqueue applied first
  input  logic              enq_queue_i,    // ... is to this queue
  input  logic              enq_port_i,     // ... is to this port
  input  logic [2:0]        region_i,       // ... went to {headroom, shared, private}; 0 none or drop (late)
  output logic              go_o,
  output logic [CellW-1:0]  priv_o,
  output logic [CellW-1:0]  shared_o,
  output logic [CellW-1:0]  hdrm_o,
  output logic [CellW-1:0]  port_shared_o,
  output logic [CellW-1:0]  port_hdrm_o,
  output logic [CellW-1:0]  s_o
);
  localparam int unsigned W = CellW + 3;  // signed: sums of three counts and two sizes
  logic [W-1:0] p, h, w, ps, ph, sum, c, s, sq, sp;
  assign p  = W'(priv_i);
  assign ps = W'(port_shared_i);
  assign ph = W'(port_hdrm_i);
  assign sum = W'(s_i);
  assign c  = W'(cells_i);
  assign s  = W'(enq_cells_i);
  assign sq = enq_queue_i ? s : '0;
  assign sp = enq_port_i ? s : '0;
`ifndef DSH_PLANTED_FAULT
  assign h  = W'(hdrm_i);
  assign w  = W'(shared_i);
`else
  // Test-only mutation (tb/lockstep): the headroom and shared counts swapped
  // at the drain's input. The lockstep checker must catch it.
  assign h  = W'(shared_i);
  assign w  = W'(hdrm_i);
`endif

  // Outcome r of the enqueue: 0 none or drop, 1 private, 2 shared, 3 headroom.
  logic [4*(1+6*CellW)-1:0] outcome;
  for (genvar r = 0; r < 4; r++) begin : g_r
    // What the enqueue added: to the queue's private/shared/headroom count,
    // to the port's shared/headroom count, and to S.
    logic [W-1:0] ap, as, ah, bs, bh, gs;
    assign ap = r == 1 ? sq : '0;
    assign as = r == 2 ? sq : '0;
    assign ah = r == 3 ? sq : '0;
    assign bs = r == 2 ? sp : '0;
    assign bh = r == 3 ? sp : '0;
    assign gs = r == 2 ? s : '0;

    logic [W-1:0] x0, x1, x2;  // cells left after draining hdrm, then shared, then priv
    logic         go, c0, c1;
    assign x0 = h + ah - c;
    assign x1 = h + ah + w + as - c;
    assign x2 = h + ah + w + as + p + ap - c;
    assign go = ok_i && !x2[W-1];
    assign c0 = !x0[W-1];
    assign c1 = !c0 && !x1[W-1];

    logic [W-1:0] vp, vw, vh, vps, vph, vs;
    always_comb begin
      if (!go) begin                // nothing drains
        {vh, vw, vp} = {h + ah, w + as, p + ap};
        {vps, vph, vs} = {ps + bs, ph + bh, sum + gs};
      end else if (c0) begin
        {vh, vw, vp} = {x0, w + as, p + ap};
        {vps, vph, vs} = {ps + bs, ph + bh - c, sum + gs};
      end else if (c1) begin
        {vh, vw, vp} = {W'(0), x1, p + ap};
        {vps, vph, vs} = {ps + bs + h + ah - c, ph + bh - h - ah, sum + gs + h + ah - c};
      end else begin
        {vh, vw, vp} = {W'(0), W'(0), x2};
        {vps, vph, vs} = {ps + bs - w - as, ph + bh - h - ah, sum + gs - w - as};
      end
    end
    assign outcome[r*(1+6*CellW) +: 1+6*CellW] =
        {go, vp[CellW-1:0], vw[CellW-1:0], vh[CellW-1:0], vps[CellW-1:0], vph[CellW-1:0], vs[CellW-1:0]};
    logic unused_top;  // the outcome that holds is never negative nor above CellW bits
    assign unused_top = ^{vp[W-1:CellW], vw[W-1:CellW], vh[W-1:CellW], vps[W-1:CellW], vph[W-1:CellW],
                          vs[W-1:CellW], x2[W-2:0]};
  end

  // The late select: one AND-OR level.
  logic [3:0]          pick;
  logic [1+6*CellW-1:0] picked;
  assign pick = {region_i, region_i == '0};
  always_comb begin
    picked = '0;
    for (int r = 0; r < 4; r++) picked |= outcome[r*(1+6*CellW) +: 1+6*CellW] & {(1+6*CellW){pick[r]}};
  end
  assign {go_o, priv_o, shared_o, hdrm_o, port_shared_o, port_hdrm_o, s_o} = picked;
endmodule

`default_nettype wire
