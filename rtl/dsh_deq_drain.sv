// SPDX-License-Identifier: Apache-2.0
// Dequeue of one packet from one queue (spec §4): cells leave the
// headroom first, then the shared part, then the private part.
// The queue's occupancy comes as prefix sums in that drain order: h (the
// headroom part), hs (headroom + shared), hsp (the total). A dequeue of c
// cells subtracts c from each and saturates at 0, so each new value is one
// subtraction whose sign is also the drain case:
//   case 0  h >= c              only headroom drains
//   case 1  h < c <= hs         headroom empties, shared drains
//   case 2  hs < c (<= hsp)     both empty, private drains
//   go_o = 0 when !ok_i or hsp < c: the dequeue is an error and changes
//   nothing; the other outputs are then meaningless (the user keeps the
//   record it had).
// dh_o and dw_o are the cells drained from the headroom and the shared part
// (at most c), for the port's sums and S (dsh_mmu applies them in stage E).
// dsh_mmu runs this in stage D, in the same cycle as stage E's enqueue of
// the previous cycle, which spec §4.1 applies first. The inputs are the
// counts before that enqueue; where it went (region_i) is known only late
// in the cycle. So the dequeue is computed for every region the enqueue may
// take, each adding its cells (add_i: the enqueue's cells when it is to this
// queue, else 0) to the counts it fills, and region_i picks one outcome at
// the very end. The caller registers k = a + 2^SizeW - c beside c: a
// prefix sum plus a less c is then p + k - 2^SizeW, two operands and a
// constant (k is never negative, so no sign bit fans out to a whole sum).
`include "dsh_assert.svh"
`default_nettype none

module dsh_deq_drain #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8
) (
  input  logic                    ok_i,            // valid, in range, cells != 0
  input  logic [SizeW-1:0]        cells_i,         // c
  input  logic [SizeW-1:0]        add_i,           // a: what the enqueue adds to this queue
  input  logic [SizeW:0]          add_less_cells_i,  // k = a + 2^SizeW - c
  input  logic [CellW-1:0]        h_i,             // headroom part
  input  logic [CellW-1:0]        hs_i,            // headroom + shared
  input  logic [CellW-1:0]        hsp_i,           // headroom + shared + private
  input  logic [2:0]              region_i,        // the enqueue went to {headroom, shared, private}; 0 none or drop (late)
  output logic                    go_o,
  output logic [CellW-1:0]        h_o,
  output logic [CellW-1:0]        hs_o,
  output logic [CellW-1:0]        hsp_o,
  output logic [SizeW-1:0]        dh_o,            // drained from the headroom part
  output logic [SizeW-1:0]        dw_o             // drained from the shared part
);
  localparam int unsigned W = dsh_pkg::term_w(CellW);  // signed: a count minus a size
  localparam int unsigned OutW = 1 + 3 * CellW + 2 * SizeW;
  logic [W-1:0]     h, hs, hsp, c, k;
  logic [SizeW-1:0] h8, w8;  // headroom and shared parts, modulo 2^SizeW
  always_comb begin  // the operands, widened
    h   = W'(h_i);
    hs  = W'(hs_i);
    hsp = W'(hsp_i);
    c   = W'(cells_i);
    k   = W'(add_less_cells_i);
  end
  assign h8  = h[SizeW-1:0];
  // p + k - 2^SizeW >= 0 for the low SizeW bits p of a prefix sum.
  function automatic logic low_k(input logic [SizeW-1:0] p);
    low_k = (SizeW+2)'(p) + (SizeW+2)'(add_less_cells_i) >= (SizeW+2)'(1) << SizeW;
  endfunction
  assign w8  = hs_i[SizeW-1:0] - h8;

  // Outcome r of the enqueue: 0 none or drop, 1 private, 2 shared, 3
  // headroom. A headroom admission adds to h, hs and hsp; shared to hs and
  // hsp; private to hsp.
  logic [4*OutW-1:0] outcome;
  for (genvar r = 0; r < 4; r++) begin : gen_r
    localparam logic [W-1:0] Off = W'(1) << SizeW;
    logic [W-1:0] x0, x1, x2;  // each prefix sum (with the enqueue's cells) less c
    assign x0 = r == 3 ? h + k - Off : h - c;
    assign x1 = r >= 2 ? hs + k - Off : hs - c;
    assign x2 = r >= 1 ? hsp + k - Off : hsp - c;

    // Their signs, fast: c and k are SizeW bits wide, so a prefix sum with
    // any bit set above them covers c; else its low bits decide.
    logic go, c0, c01;
    assign c0  = (h >> SizeW) != '0 || (r == 3 ? low_k(h8) : h8 >= cells_i);
    assign c01 = (hs_i >> SizeW) != '0 || (r >= 2 ? low_k(hs_i[SizeW-1:0]) : hs_i[SizeW-1:0] >= cells_i);
    assign go  = ok_i && ((hsp_i >> SizeW) != '0
                          || (r >= 1 ? low_k(hsp_i[SizeW-1:0]) : hsp_i[SizeW-1:0] >= cells_i));

    // Drained amounts: c from the headroom (case 0); else the headroom
    // h + a_h, and the rest from shared: c - h - a_h (case 1) or all of
    // the shared part w + a_w (case 2). Each is at most c: SizeW bits.
    logic [SizeW-1:0] hr, wr, dh, dw;
    assign hr = h8 + (r == 3 ? add_i : '0);
    assign wr = w8 + (r == 2 ? add_i : '0);
    assign dh = c0 ? cells_i : hr;
    assign dw = c0 ? '0 : c01 ? -x0[SizeW-1:0] : wr;

    assign outcome[r*OutW +: OutW] = {go, c0 ? x0[CellW-1:0] : '0, c01 ? x1[CellW-1:0] : '0, x2[CellW-1:0],
                                      dh, dw};
    logic unused_top;  // the outcome that holds fits in CellW bits
    assign unused_top = ^{x0[W-1:CellW], x1[W-1:CellW], x2[W-1:CellW]};
  end

  // The late select: one AND-OR level.
  logic [3:0]      pick;
  logic [OutW-1:0] picked;
  assign pick = {region_i, region_i == '0};
  always_comb begin
    picked = '0;
    for (int r = 0; r < 4; r++) picked |= outcome[r*OutW +: OutW] & {OutW{pick[r]}};
  end
  assign {go_o, h_o, hs_o, hsp_o, dh_o, dw_o} = picked;
  // Contract: the enqueue went to one region; the queue's parts are not
  // negative. When the dequeue goes, c cells leave in drain order (spec §4):
  // each part keeps what it had (with the enqueue's cells) less what drained
  // from it, the shared part drains only once the headroom is empty, the
  // private part only once both are.
  `ASSUME_COMB(RegionOneHot0_M, $onehot0(region_i))
  `ASSUME_COMB(QueuePrefixSums_M, !ok_i || (h_i <= hs_i && hs_i <= hsp_i))
  localparam int unsigned CW = CellW + 2;
  logic [CW-1:0] add_h, add_w, add_p;  // the enqueue's cells in each part
  assign add_h = region_i[2] ? CW'(add_i) : '0;
  assign add_w = region_i[1] ? CW'(add_i) : '0;
  assign add_p = region_i[0] ? CW'(add_i) : '0;
  `ASSERT_COMB(DrainTotal_A, !go_o || CW'(hsp_o) + CW'(cells_i) == CW'(hsp_i) + add_h + add_w + add_p)
  `ASSERT_COMB(DrainHeadroom_A, !go_o || CW'(h_o) + CW'(dh_o) == CW'(h_i) + add_h)
  `ASSERT_COMB(DrainShared_A, !go_o || CW'(hs_o) - CW'(h_o) + CW'(dw_o) == CW'(hs_i) - CW'(h_i) + add_w)
  `ASSERT_COMB(DrainHeadroomFirst_A, !go_o || dw_o == '0 || h_o == '0)
  `ASSERT_COMB(DrainPrivateLast_A, !go_o || CW'(dh_o) + CW'(dw_o) == CW'(cells_i) || hs_o == '0)
  // Cover: each drain case of a dequeue that goes, each with the enqueue's
  // cells added to the queue in the same cycle (per region), and the
  // dequeue of more cells than the queue holds (a protocol error).
  logic drained_all;  // headroom and shared gave all c cells
  assign drained_all = CW'(dh_o) + CW'(dw_o) == CW'(cells_i);
  `COVER_COMB(DrainCase0Headroom_C, go_o && dh_o == cells_i)
  `COVER_COMB(DrainCase1Shared_C, go_o && dh_o != cells_i && drained_all)
  `COVER_COMB(DrainCase2Private_C, go_o && !drained_all)
  `COVER_COMB(DrainWithEnqHeadroom_C, go_o && add_h != '0)
  `COVER_COMB(DrainWithEnqShared_C, go_o && add_w != '0)
  `COVER_COMB(DrainWithEnqPrivate_C, go_o && add_p != '0)
  `COVER_COMB(DrainTakesEnqueuedHeadroom_C, go_o && add_h != '0 && CW'(dh_o) > CW'(h_i))
  `COVER_COMB(DeqMoreThanQueue_C, ok_i && !go_o)
endmodule

`default_nettype wire
