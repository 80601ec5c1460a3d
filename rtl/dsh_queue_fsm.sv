// SPDX-License-Identifier: Apache-2.0
// Queue flow-control state machine, next state (spec §4), evaluated once
// a cycle for a queue that the cycle's dequeue or enqueue touched, after
// both. region_i says where an enqueue of cells_i cells to this queue went
// this cycle (0 when it had none, or when the packet was dropped): the
// compares are made on the counts before the enqueue, with and without its
// cells, and the region picks, so that they need not wait for it. The queue
// comes as prefix sums (dsh_deq_drain): w = hs - h.
//   SIH: PAUSE on entering the headroom: !qoff & region headroom
//        RESUME: qoff & hdrm == 0 & w <= X_on         (after the enqueue)
//   DSH: PAUSE:  !qoff & w > X_qoff                   (after the enqueue)
//        RESUME: qoff & w <= X_qon
// The limits are X_qoff and X_qon unsaturated (dsh_limits). Combinational;
// the state bit lives with the queue's record.
`include "dsh_assert.svh"
`default_nettype none

module dsh_queue_fsm #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW)
) (
  input  logic                   qoff_i,
  input  logic [CellW-1:0]       h_i,          // headroom part
  input  logic [CellW-1:0]       hs_i,         // headroom + shared
  input  logic [2:0]             region_i,     // one-hot {headroom, shared, private}, or 0
  input  logic [SizeW-1:0]       cells_i,      // the enqueue's cells
  input  logic signed [LimW-1:0] qoff_lim_i,   // DSH: T - eta
  input  logic signed [LimW-1:0] qon_lim_i,    // DSH: T - eta - dq; SIH: T - dq
  output logic                   qoff_o,
  output logic                   pause_o,
  output logic                   resume_o
);
  logic w_zero, le_qon;
  assign w_zero = hs_i == h_i;
  dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_qon (
    .a_i(hs_i), .b_i(h_i), .add_i(SizeW'(0)), .lim_i(qon_lim_i), .le_o(le_qon));

  if (Dsh) begin : gen_dsh
    logic le_qoff, le_qoff_s, le_qon_s, in_shared;  // _s: with the enqueue's cells
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_qoff (
      .a_i(hs_i), .b_i(h_i), .add_i(SizeW'(0)), .lim_i(qoff_lim_i), .le_o(le_qoff));
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_qoff_s (
      .a_i(hs_i), .b_i(h_i), .add_i(cells_i), .lim_i(qoff_lim_i), .le_o(le_qoff_s));
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_qon_s (
      .a_i(hs_i), .b_i(h_i), .add_i(cells_i), .lim_i(qon_lim_i), .le_o(le_qon_s));
    assign in_shared = region_i[1];
    // w + s > 0 always, so X_qoff's sat0 needs no w == 0 test after a shared admission.
    assign pause_o   = !qoff_i && (in_shared ? !le_qoff_s : !le_qoff && !w_zero);
    assign resume_o  = qoff_i && (in_shared ? le_qon_s : le_qon || w_zero);
    logic unused_sih;  // a DSH queue decides on its shared count alone
    assign unused_sih = ^{region_i[2], region_i[0]};
  end else begin : gen_sih
    logic in_hdrm;
    assign in_hdrm  = region_i[2];
    assign pause_o  = !qoff_i && in_hdrm;
    // A shared admission needs QON, so a resume never follows one.
    assign resume_o = qoff_i && !in_hdrm && h_i == '0 && (le_qon || w_zero);
    logic unused_dsh;
    assign unused_dsh = ^{qoff_lim_i, cells_i, region_i[1:0]};
  end
  assign qoff_o = (qoff_i || pause_o) && !resume_o;
  // Contract: an enqueue went to one region; a PAUSE only from QON, a
  // RESUME only from QOFF, and the state follows the events.
  `ASSUME_COMB(RegionOneHot0_M, $onehot0(region_i))
  `ASSERT_COMB(PauseFromQon_A, !pause_o || !qoff_i)
  `ASSERT_COMB(ResumeFromQoff_A, !resume_o || qoff_i)
  `ASSERT_COMB(StateFollowsEvents_A, qoff_o == (pause_o || (qoff_i && !resume_o)))
  if (!Dsh) begin : gen_sih_check
    `ASSUME_COMB(SihSharedOnlyInQon_M, !(qoff_i && region_i[1]))
    `ASSERT_COMB(SihResumeWithEmptyHeadroom_A, !resume_o || (h_i == '0 && !region_i[2]))
  end
  // Cover: every transition and the event it emits (evaluations; the MMU
  // keeps those of a cycle with an event to this queue).
  if (Dsh) begin : gen_dsh_cover
    `COVER_COMB(DshPauseOnShared_C, pause_o && region_i[1])
    `COVER_COMB(DshPauseNoEnqueue_C, pause_o && region_i == '0)
    `COVER_COMB(DshPauseOtherRegion_C, pause_o && (region_i[0] || region_i[2]))
    `COVER_COMB(DshResume_C, resume_o && region_i == '0)
    `COVER_COMB(DshResumeAfterEnqueue_C, resume_o && region_i != '0)
    `COVER_COMB(DshStayQoff_C, qoff_i && qoff_o)
    `COVER_COMB(DshStayQon_C, !qoff_i && !qoff_o && region_i[1])
  end else begin : gen_sih_cover
    `COVER_COMB(SihPauseOnHeadroom_C, pause_o)
    `COVER_COMB(SihResume_C, resume_o && region_i == '0)
    `COVER_COMB(SihResumeAfterPrivate_C, resume_o && region_i[0])
    `COVER_COMB(SihStayQoffHeadroom_C, qoff_i && region_i[2])
    `COVER_COMB(SihStayQoffNotEmpty_C, qoff_i && qoff_o && h_i == '0)
  end
endmodule

`default_nettype wire
