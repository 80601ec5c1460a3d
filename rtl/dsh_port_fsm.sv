// SPDX-License-Identifier: Apache-2.0
// Port flow-control state machine of DSH, next state (spec §4),
// evaluated once a cycle for a port that the cycle touched, after the
// dequeue and the enqueue. The port's counts come as they were before the
// cycle, with what the cycle's dequeue drained from them (0 when it was not
// from this port); region_i says where an enqueue to this port went (0 when
// it had none, or dropped). The compares are made on these, so that they
// need not wait for the region (see dsh_queue_fsm).
//   PORT_PAUSE:  !poff & region insurance (headroom)
//   PORT_RESUME: poff & port_hdrm == 0 & port_shared <= X_pon
// A shared admission needs PON, so a resume never follows one.
// Combinational.
`include "dsh_assert.svh"
`default_nettype none

module dsh_port_fsm #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW)
) (
  input  logic                   poff_i,
  input  logic [CellW-1:0]       shared_i,
  input  logic [CellW-1:0]       hdrm_i,
  input  logic [SizeW-1:0]       deq_shared_i,  // drained from shared this cycle
  input  logic [SizeW-1:0]       deq_hdrm_i,    // drained from the insurance this cycle
  input  logic [2:0]             region_i,      // one-hot {headroom, shared, private}, or 0
  input  logic signed [LimW-1:0] pon_lim_i,     // (T << m) - dp
  output logic                   poff_o,
  output logic                   pause_o,
  output logic                   resume_o
);
  logic in_hdrm, le_pon;
  dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_pon (
    .a_i(shared_i), .b_i(CellW'(deq_shared_i)), .add_i(SizeW'(0)), .lim_i(pon_lim_i), .le_o(le_pon));
  assign in_hdrm  = region_i[2];
  assign pause_o  = !poff_i && in_hdrm;
  assign resume_o = poff_i && !in_hdrm && hdrm_i == CellW'(deq_hdrm_i)
                 && (le_pon || shared_i == CellW'(deq_shared_i));
  assign poff_o   = (poff_i || pause_o) && !resume_o;
  logic unused_region;
  assign unused_region = ^region_i[1:0];
  // Contract: an enqueue went to one region, shared only in PON; a dequeue
  // drains no more than the port holds. A PORT_PAUSE only from PON, a
  // PORT_RESUME only from POFF with the insurance empty; the state follows.
  `ASSUME_COMB(RegionOneHot0_M, $onehot0(region_i))
  `ASSUME_COMB(SharedOnlyInPon_M, !(poff_i && region_i[1]))
  `ASSUME_COMB(DeqFromPort_M, CellW'(deq_shared_i) <= shared_i && CellW'(deq_hdrm_i) <= hdrm_i)
  `ASSERT_COMB(PauseFromPon_A, !pause_o || !poff_i)
  `ASSERT_COMB(ResumeFromPoff_A, !resume_o || poff_i)
  `ASSERT_COMB(ResumeWithEmptyInsurance_A, !resume_o || (hdrm_i == CellW'(deq_hdrm_i) && !region_i[2]))
  `ASSERT_COMB(StateFollowsEvents_A, poff_o == (pause_o || (poff_i && !resume_o)))
  // Cover: PON -> POFF on an insurance admission, POFF -> PON with and
  // without the dequeue that emptied the insurance, staying POFF.
  `COVER_COMB(PortPause_C, pause_o)
  `COVER_COMB(PortResume_C, resume_o && deq_hdrm_i == '0)
  `COVER_COMB(PortResumeByDrain_C, resume_o && deq_hdrm_i != '0)
  `COVER_COMB(PortStayPoffInsurance_C, poff_i && region_i[2])
  `COVER_COMB(PortStayPoffAboveXpon_C, poff_i && poff_o && hdrm_i == CellW'(deq_hdrm_i) && !region_i[2])
endmodule

`default_nettype wire
