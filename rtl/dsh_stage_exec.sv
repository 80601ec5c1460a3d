// SPDX-License-Identifier: Apache-2.0
// Stage E of dsh_mmu (spec §9.2): the enqueue's admission (private,
// shared, headroom/insurance or drop; dsh_enq_admit), S, the flow-control
// state machines of the queues and ports either event touched
// (dsh_queue_fsm, dsh_port_fsm), the events and the protocol errors.
// Slot 0 is the dequeue that stage D drained (its queue after it, its port
// before it, what it drained), slot 1 the enqueue (its queue after that
// dequeue, its port before it); S is registered here (s_q, after the cycle
// last in E). The limits compared with come registered from dsh_thresh_pipe.
// The records are registered from stage R's / D's with the newer results
// of D and E forwarded over them (selects from dsh_fwd, one-hot {R or D,
// E slot 0, E slot 1, D}).
// Latency: stage R's enqueue and stage D's dequeue to E's slots one clock
// edge; the slots' records and state bits after the cycle and the results
// (e_o, but its s) are combinational for stage W and for forwarding.
// Reset (rst_ni, asynchronous): valid, ok, go and drained amounts 0, S 0;
// B_s - S (stage W's free) has none: S and the drained amounts are 0 while in
// reset, so it holds B_s from the first clock edge.
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_rec.svh"
`include "dsh_slot.svh"

module dsh_stage_exec #(
`include "dsh_params.svh"
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  input  logic [CellW-1:0]  cfg_shared_cells_i,
  input  logic signed [4:0] cfg_alpha_log2_i,
  input  logic [2:0]        cfg_port_mult_log2_i,
  input  logic [CellW-1:0]  cfg_delta_q_i,
  input  logic [CellW-1:0]  cfg_delta_p_i,

  // Stage R's enqueue (dsh_stage_in) and its terms of its cells alone.
  input  logic [SlotW-1:0]  r_enq_i,
  input  logic [3*TW-1:0]   r_enq_terms_i,
  // Stage D's dequeue (dsh_stage_deq; go and qrec late) and what it drains.
  input  logic [SlotW-1:0]  d_i,
  input  logic [SizeW-1:0]  d_dh_i,
  input  logic [SizeW-1:0]  d_dw_i,
  // Forwarding (dsh_fwd): the records E's slots take, same_queue and
  // same_port of stage R's enqueue and D's dequeue.
  input  dsh_pkg::fwd_t     fwd_i,
  // Stage W's results (dsh_stage_wb): B_s - S after the cycle last in E.
  input  logic [WbW-1:0]    w_i,

  // E's slots (0 the dequeue, 1 the enqueue): v, ok, go (the dequeue
  // drained / the enqueue is ok), idx, p, port, queue; qrec and prec after
  // the cycle (the state bits after the state machines).
  output logic [SlotW-1:0]  e_deq_o,
  output logic [SlotW-1:0]  e_enq_o,
  // The results of the cycle (exec_t).
  output logic [ExecW-1:0]  e_o
);
  `DSH_REC_TYPES(CellW)
  `DSH_SLOT_TYPES
  slot_t r_enq, d, e_deq, e_enq;
  wb_t   w;
  exec_t e;
  assign r_enq = r_enq_i;
  assign d     = d_i;
  assign w     = w_i;
  logic unused_in;  // of W's results B_s - S; of the selects, E's
  assign unused_in = ^{w, fwd_i};
  // The slots' registers: the slot as D / R had it (the dequeue's queue
  // after it), the port records with forwarding; v, ok, go apart (they
  // have a reset). The enqueue's queue record: below.
  slot_t             e_deq_q, e_enq_q;
  logic              e_deq_v_q, e_deq_ok_q, e_deq_go_q, e_enq_v_q, e_enq_ok_q;
  qrec_t             e_deq_rec_q, e_enq_rec_q;
  prec_t             e_deq_prec_q, e_enq_prec_q;
  assign e_deq_rec_q  = e_deq_q.qrec;
  assign e_deq_prec_q = e_deq_q.prec;
  assign e_enq_prec_q = e_enq_q.prec;
  logic              e_same_q_q, e_same_p_q;
  logic [3*TW-1:0]   e_enq_terms_q;
  logic [SizeW-1:0]  e_dh_q, e_dw_q;    // the dequeue drained from headroom / shared
  logic [SizeW-1:0]  e_dh1_q, e_dw1_q;  // the same if from the enqueue's port, else 0
  qrec_t             e_enq_rec, e_deq_rec;    // after the cycle
  prec_t             e_enq_prec, e_deq_prec;
  // The results of the cycle (exec_t says what each is).
  logic [3:0]        e_region;
  logic [2:0]        e_region_deq;
  logic [ThrW-1:0]   e_t;
  logic [CellW-1:0]  s_q, s_d, free_d;
  logic [1:0]        qevt_valid, qevt_pause, pevt_valid, pevt_pause, error;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      e_deq_v_q  <= 1'b0;
      e_deq_ok_q <= 1'b0;
      e_deq_go_q <= 1'b0;
      e_enq_v_q  <= 1'b0;
      e_enq_ok_q <= 1'b0;
      e_dh_q     <= '0;
      e_dw_q     <= '0;
      e_dh1_q    <= '0;
      e_dw1_q    <= '0;
    end else begin
      e_deq_v_q  <= d.v;
      e_deq_ok_q <= d.ok;
      e_deq_go_q <= d.go;
      e_enq_v_q  <= r_enq.v;
      e_enq_ok_q <= r_enq.ok;
      e_dh_q     <= d.go ? d_dh_i : '0;
      e_dw_q     <= d.go ? d_dw_i : '0;
      e_dh1_q    <= d.go && fwd_i.same_port ? d_dh_i : '0;
      e_dw1_q    <= d.go && fwd_i.same_port ? d_dw_i : '0;
    end
  end
  always_ff @(posedge clk_i) begin
    e_deq_q       <= d;
    e_deq_q.prec  <= pick4_prec(fwd_i.f_d_psel, {d.prec, e_deq.prec, e_enq.prec, {PRecW{1'b0}}});
    e_enq_q       <= r_enq;
    e_enq_q.prec  <= pick4_prec(fwd_i.f_enq_psel, {r_enq.prec, e_deq.prec, e_enq.prec, {PRecW{1'b0}}});
    e_enq_terms_q <= r_enq_terms_i;
    e_same_q_q    <= fwd_i.same_queue;
    e_same_p_q    <= fwd_i.same_port;
  end

  // The enqueue's queue twice: the region that stage D's dequeue waits for
  // is computed from its own copy, so that each region drives half the
  // loads (`keep`: synthesis merges equal registers).
  qrec_t e_enq_rec_copy_q;
  logic [QRecW-1:0] e_enq_rec_d;
  assign e_enq_rec_d = pick4_qrec(fwd_i.f_enq_qsel, {r_enq.qrec, e_deq.qrec, e_enq.qrec, d.qrec});
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_q <= e_enq_rec_d;
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_copy_q <= e_enq_rec_d;

  logic signed [LimW-1:0] lim_pool, lim_priv, lim_hdrm, lim_shared, lim_qoff, lim_qon, lim_pon;
  logic signed [LimW-1:0] lim_qoff_deq, lim_qon_deq;  // X_qoff, X_qon of the dequeue's port
  dsh_thresh_pipe #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .ThreshLatency(ThreshLatency)) u_thresh_pipe (
    .clk_i, .free_i(w.free), .cells_now_i(e_enq_q.cells), .terms_now_i(e_enq_terms_q),
    .cells_next_i(r_enq.cells), .terms_next_i(r_enq_terms_i),
    .eta_now_i({e_deq_q.eta, e_enq_q.eta}), .eta_dq_now_i({e_deq_q.eta_dq, e_enq_q.eta_dq}),
    .eta_next_i({d.eta, r_enq.eta}), .eta_dq_next_i({d.eta_dq, r_enq.eta_dq}),
    .cfg_alpha_log2_i, .cfg_delta_q_i,
    .cfg_delta_p_i, .cfg_port_mult_log2_i, .t_o(e_t), .pool_o(lim_pool),
    .priv_o(lim_priv), .hdrm_o(lim_hdrm), .shared_o(lim_shared), .qoff_o(lim_qoff), .qon_o(lim_qon),
    .qoff_deq_o(lim_qoff_deq), .qon_deq_o(lim_qon_deq), .pon_o(lim_pon)
  );

  logic [3:0] region;  // one-hot {drop, headroom, shared, private}
  dsh_enq_admit #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_enq_admit (
    .h_i(e_enq_rec_q.h), .hs_i(e_enq_rec_q.hs), .hsp_i(e_enq_rec_q.hsp), .qoff_i(e_enq_rec_q.qoff),
    .port_shared_i(e_enq_prec_q.shared), .port_hdrm_i(e_enq_prec_q.hdrm),
    .port_deq_shared_i(e_dw1_q), .port_deq_hdrm_i(e_dh1_q),
    .poff_i(Dsh && e_enq_prec_q.poff), .s_i(s_q), .deq_shared_i(e_dw_q),
    .pool_lim_i(lim_pool), .priv_lim_i(lim_priv), .shared_lim_i(lim_shared), .hdrm_lim_i(lim_hdrm),
    .region_o(region)
  );
  assign e_region = {4{e_enq_ok_q}} & region;

  logic [3:0] region_deq;  // the same for stage D
  dsh_enq_admit #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_enq_admit_d (
    .h_i(e_enq_rec_copy_q.h), .hs_i(e_enq_rec_copy_q.hs), .hsp_i(e_enq_rec_copy_q.hsp),
    .qoff_i(e_enq_rec_copy_q.qoff),
    .port_shared_i(e_enq_prec_q.shared), .port_hdrm_i(e_enq_prec_q.hdrm),
    .port_deq_shared_i(e_dw1_q), .port_deq_hdrm_i(e_dh1_q),
    .poff_i(Dsh && e_enq_prec_q.poff), .s_i(s_q), .deq_shared_i(e_dw_q),
    .pool_lim_i(lim_pool), .priv_lim_i(lim_priv), .shared_lim_i(lim_shared), .hdrm_lim_i(lim_hdrm),
    .region_o(region_deq)
  );
  assign e_region_deq = {3{e_enq_ok_q}} & region_deq[2:0];
  logic unused_drop_deq;
  assign unused_drop_deq = region_deq[3];

  // The counts after the cycle: each sum beside the compares, the region
  // picks. (Headroom adds to all three prefix sums, shared to two, private
  // to one.) B_s - S for the threshold pipeline likewise.
  logic [SizeW-1:0] s;
  assign s = e_enq_q.cells;
  assign e_enq_rec.hsp = |e_region[2:0] ? e_enq_rec_q.hsp + CellW'(s) : e_enq_rec_q.hsp;
  assign e_enq_rec.hs  = |e_region[2:1] ? e_enq_rec_q.hs + CellW'(s) : e_enq_rec_q.hs;
  assign e_enq_rec.h   = e_region[2] ? e_enq_rec_q.h + CellW'(s) : e_enq_rec_q.h;
  assign e_enq_prec.hdrm   = e_region[2] ? e_enq_prec_q.hdrm - CellW'(e_dh1_q) + CellW'(s)
                                           : e_enq_prec_q.hdrm - CellW'(e_dh1_q);
  assign e_enq_prec.shared = e_region[1] ? e_enq_prec_q.shared - CellW'(e_dw1_q) + CellW'(s)
                                           : e_enq_prec_q.shared - CellW'(e_dw1_q);
  assign e_deq_prec.hdrm   = e_deq_prec_q.hdrm - CellW'(e_dh_q);
  assign e_deq_prec.shared = e_deq_prec_q.shared - CellW'(e_dw_q);
  assign s_d    = e_region[1] ? s_q - CellW'(e_dw_q) + CellW'(s) : s_q - CellW'(e_dw_q);
  assign free_d = e_region[1] ? cfg_shared_cells_i - s_q + CellW'(e_dw_q) - CellW'(s)
                                  : cfg_shared_cells_i - s_q + CellW'(e_dw_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_q <= '0;
    else         s_q <= s_d;
  end

  // State machines: slot 1 after the enqueue, slot 0 (the dequeue's queue
  // and port) unless the enqueue touched them too; an erroneous dequeue runs
  // none.
  logic eval_q0, eval_p0;
  assign eval_q0 = e_deq_go_q && !(e_enq_ok_q && e_same_q_q);
  assign eval_p0 = e_deq_go_q && !(e_enq_ok_q && e_same_p_q);

  logic q1_qoff, q1_pause, q1_resume, q0_qoff, q0_pause, q0_resume;
  dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm_enq (
    .qoff_i(e_enq_rec_q.qoff), .h_i(e_enq_rec_q.h), .hs_i(e_enq_rec_q.hs), .region_i(e_region[2:0]), .cells_i(s),
    .qoff_lim_i(lim_qoff), .qon_lim_i(lim_qon),
    .qoff_o(q1_qoff), .pause_o(q1_pause), .resume_o(q1_resume)
  );
  dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm_deq (
    .qoff_i(e_deq_rec_q.qoff), .h_i(e_deq_rec_q.h), .hs_i(e_deq_rec_q.hs), .region_i(3'b000), .cells_i(SizeW'(0)),
    .qoff_lim_i(lim_qoff_deq), .qon_lim_i(lim_qon_deq),
    .qoff_o(q0_qoff), .pause_o(q0_pause), .resume_o(q0_resume)
  );

  logic p1_poff, p1_pause, p1_resume, p0_poff, p0_resume;
  if (Dsh) begin : gen_port_fsm
    logic p0_pause;
    dsh_port_fsm #(.CellW(CellW), .SizeW(SizeW)) u_port_fsm_enq (
      .poff_i(e_enq_prec_q.poff), .shared_i(e_enq_prec_q.shared), .hdrm_i(e_enq_prec_q.hdrm),
      .deq_shared_i(e_dw1_q), .deq_hdrm_i(e_dh1_q),
      .region_i(e_region[2:0]), .pon_lim_i(lim_pon), .poff_o(p1_poff), .pause_o(p1_pause), .resume_o(p1_resume)
    );
    dsh_port_fsm #(.CellW(CellW), .SizeW(SizeW)) u_port_fsm_deq (
      .poff_i(e_deq_prec_q.poff), .shared_i(e_deq_prec_q.shared), .hdrm_i(e_deq_prec_q.hdrm),
      .deq_shared_i(e_dw_q), .deq_hdrm_i(e_dh_q),
      .region_i(3'b000), .pon_lim_i(lim_pon), .poff_o(p0_poff), .pause_o(p0_pause), .resume_o(p0_resume)
    );
    logic unused_p0_pause;  // a port pauses only on an admission
    assign unused_p0_pause = p0_pause;
  end else begin : gen_no_port_fsm
    assign {p1_poff, p1_pause, p1_resume, p0_poff, p0_resume} = '0;
    logic unused_port;  // SIH: no port state machine
    assign unused_port = ^{e_enq_prec_q.poff, e_deq_prec_q.poff, lim_pon};
  end

  assign e_enq_rec.qoff   = e_enq_ok_q ? q1_qoff : e_enq_rec_q.qoff;
  assign e_deq_rec.qoff   = eval_q0 ? q0_qoff : e_deq_rec_q.qoff;
  assign e_deq_rec.hsp  = e_deq_rec_q.hsp;
  assign e_deq_rec.hs   = e_deq_rec_q.hs;
  assign e_deq_rec.h    = e_deq_rec_q.h;
  assign e_enq_prec.poff = e_enq_ok_q ? p1_poff : Dsh && e_enq_prec_q.poff;
  assign e_deq_prec.poff = eval_p0 ? p0_poff : Dsh && e_deq_prec_q.poff;
  // The slots as E shows them: its registers, the records after the cycle.
  always_comb begin
    `DSH_SLOT_SHOW(e_deq, e_deq_q, e_deq_v_q, e_deq_ok_q, e_deq_go_q)
    e_deq.qrec = e_deq_rec;
    e_deq.prec = e_deq_prec;
    `DSH_SLOT_SHOW(e_enq, e_enq_q, e_enq_v_q, e_enq_ok_q, e_enq_ok_q)
    e_enq.qrec = e_enq_rec;
    e_enq.prec = e_enq_prec;
  end
  assign e_deq_o = e_deq;
  assign e_enq_o = e_enq;

  // Events, per slot.
  assign qevt_valid = {e_enq_ok_q && (q1_pause || q1_resume), eval_q0 && (q0_pause || q0_resume)};
  assign qevt_pause = {q1_pause, q0_pause};
  assign pevt_valid = {e_enq_ok_q && (p1_pause || p1_resume), eval_p0 && p0_resume};
  assign pevt_pause = {p1_pause, 1'b0};
  assign error      = {e_enq_v_q && !e_enq_ok_q, e_deq_v_q && !e_deq_go_q};

  always_comb begin
    e.region     = e_region;
    e.region_deq = e_region_deq;
    e.t          = e_t;
    e.s          = s_q;
    e.s_d        = s_d;
    e.free_d     = free_d;
    e.qevt_valid = qevt_valid;
    e.qevt_pause = qevt_pause;
    e.pevt_valid = pevt_valid;
    e.pevt_pause = pevt_pause;
    e.error      = error;
  end
  assign e_o = e;

  // ------------------------------------------------------------ assertions
  // The selects of the forwarding picks above (dsh_fwd) and the region:
  // one source each, at most one region.
  `ASSERT(ExecEnqQselOneHot_A, $onehot(fwd_i.f_enq_qsel))
  `ASSERT(ExecEnqPselOneHot_A, $onehot(fwd_i.f_enq_psel))
  `ASSERT(ExecDeqPselOneHot_A, $onehot(fwd_i.f_d_psel))
  `ASSERT(ExecRegionOneHot0_A, $onehot0(e_region))
  // Occupancy: S never above the buffer B_s (nor below 0, which would wrap
  // above it); a port's shared part is part of S; a queue's prefix sums are
  // in order (no part below 0). S as the sum of every port's shared part
  // needs all entries: left to the formal checks of the leaves.
  `ASSERT(ExecSWithinBuffer_A, s_q <= cfg_shared_cells_i)
  `ASSERT(ExecEnqPortSharedWithinS_A, !e_enq_ok_q || e_enq_prec_q.shared <= s_q)
  `ASSERT(ExecDeqPortSharedWithinS_A, !e_deq_go_q || e_deq_prec_q.shared <= s_q)
  `ASSERT(ExecEnqQueueSumsOrdered_A,
          !e_enq_ok_q || (e_enq_rec_q.h <= e_enq_rec_q.hs && e_enq_rec_q.hs <= e_enq_rec_q.hsp))
  `ASSERT(ExecDeqQueueSumsOrdered_A,
          !e_deq_go_q || (e_deq_rec_q.h <= e_deq_rec_q.hs && e_deq_rec_q.hs <= e_deq_rec_q.hsp))
  // POFF never set under SIH, in what E writes.
  `ASSERT(ExecSihNoPoff_A, Dsh || !(e_enq_prec.poff || e_deq_prec.poff))
  // PAUSE and RESUME alternate per queue and port: an event flips the state
  // it reports from (PAUSE from QON/PON, RESUME from QOFF/POFF).
  `ASSERT(ExecQevtEnqFlips_A, !qevt_valid[1]
          || (e_enq_rec_q.qoff == !qevt_pause[1] && e_enq_rec.qoff == qevt_pause[1]))
  `ASSERT(ExecQevtDeqFlips_A, !qevt_valid[0]
          || (e_deq_rec_q.qoff == !qevt_pause[0] && e_deq_rec.qoff == qevt_pause[0]))
  `ASSERT(ExecPevtEnqFlips_A, !pevt_valid[1]
          || (e_enq_prec_q.poff == !pevt_pause[1] && e_enq_prec.poff == pevt_pause[1]))
  `ASSERT(ExecPevtDeqFlips_A, !pevt_valid[0]
          || (e_deq_prec_q.poff == !pevt_pause[0] && e_deq_prec.poff == pevt_pause[0]))
  // Without an event the state stays.
  `ASSERT(ExecQoffEnqNoEventNoChange_A, qevt_valid[1] || e_enq_rec.qoff == e_enq_rec_q.qoff)
  `ASSERT(ExecQoffDeqNoEventNoChange_A, qevt_valid[0] || e_deq_rec.qoff == e_deq_rec_q.qoff)
endmodule

`default_nettype wire
