// SPDX-License-Identifier: Apache-2.0
// Stage E of dsh_mmu (spec §9.2): the enqueue's admission (private,
// shared, headroom/insurance or drop; dsh_enq_admit), S, the flow-control
// state machines of the queues and ports either event touched
// (dsh_queue_fsm, dsh_port_fsm), the events and the protocol errors.
// Slot 0 is the dequeue that stage D drained (its queue after it, its port
// before it, what it drained), slot 1 the enqueue (its queue after that
// dequeue, its port before it). S is the pool's (dsh_mmu): s_i before the
// cycle, deq_shared_all_i what every lane's dequeue in E drained from it
// (this lane's alone with one lane); this lane reports its own drain
// (e_dw_o) and what its enqueue adds to S (e_cells_o when e_shared_o). The limits
// compared with come registered from dsh_thresh_pipe. With PoolEarly (a
// chip with lanes) the pool row (spec §4.9) is compared while the enqueue
// is in stage D, where s_i is S_{c-2} and its pool term from stage R is
// B_s - (A_{c-1} + P_l + s), and registered: no lane's S reaches E's
// admission.
// The records are registered from stage R's / D's with the newer results
// of D and E forwarded over them (selects from dsh_fwd, one-hot {R or D,
// E slot 0, E slot 1, D}).
// Slots (dsh_slot.svh), each with its records and eta beside it: stage
// R's enqueue (r_enq_i, rslot_t) and stage D's dequeue (d_i, dslot_t) in;
// stage E's two out (e_deq_o, e_enq_o, eslot_t).
// Latency: stage R's enqueue and stage D's dequeue to e_* one clock edge;
// the results (*_o) are combinational for stage W, the pool and
// forwarding.
// Reset (rst_ni, asynchronous): valid, ok, go and drained amounts 0 (so
// the pool's S and B_s - S hold 0 and B_s from the first clock edge).
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_slot.svh"

module dsh_stage_exec #(
  parameter int unsigned NumPorts      = 32,
  parameter int unsigned NumQueues     = 7,
  parameter int unsigned CellW         = 20,
  parameter int unsigned SizeW         = 8,
  parameter bit          Dsh           = 1'b1,
  parameter int unsigned ThreshLatency = 2,
  parameter bit          PoolEarly     = 1'b0,
  `DSH_STAGE_WIDTHS(NumPorts, NumQueues, CellW, SizeW),
  localparam int unsigned ThrW   = dsh_pkg::thr_w(CellW),
  localparam int unsigned TW     = dsh_pkg::term_w(CellW)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  input  logic [CellW-1:0]  cfg_shared_cells_i,
  input  logic signed [4:0] cfg_alpha_log2_i,
  input  logic [2:0]        cfg_port_mult_log2_i,
  input  logic [CellW-1:0]  cfg_delta_q_i,
  input  logic [CellW-1:0]  cfg_delta_p_i,

  // Stage R's enqueue (dsh_stage_in), its records, its eta and its terms
  // for the limits.
  input  logic [RSlotW-1:0] r_enq_i,
  input  logic [QRecW-1:0]  r_enq_qrec_i,
  input  logic [PRecW-1:0]  r_enq_prec_i,
  input  logic [EtaW-1:0]   r_enq_eta_i,
  input  logic [3*TW-1:0]   r_enq_terms_i,
  // Stage D's dequeue (dsh_stage_deq), its records and its eta.
  input  logic [DSlotW-1:0] d_i,
  input  logic [QRecW-1:0]  d_qrec_i,
  input  logic [PRecW-1:0]  d_prec_i,
  input  logic [EtaW-1:0]   d_eta_i,
  // Forwarding (dsh_fwd).
  input  logic [3:0]        f_enq_qsel_i,  // the queue record of E's enqueue
  input  logic [3:0]        f_enq_psel_i,  // the port record of E's enqueue
  input  logic [3:0]        f_d_psel_i,    // the port record of E's dequeue (from D's)
  input  logic              same_queue_i,  // stage R's enqueue and D's dequeue: one queue
  input  logic              same_port_i,   // ... one port
  // B_s - S after the cycle last in E, registered in stage W (dsh_stage_wb).
  input  logic [CellW-1:0]  free_i,
  // The pool (dsh_mmu): S before the cycle in E (registered), what every
  // lane's dequeue in E drained from it.
  input  logic [CellW-1:0]  s_i,
  input  logic [SizeW-1:0]  deq_shared_all_i,

  // The slots (slot 0 the dequeue, 1 the enqueue), for dsh_fwd, stages W
  // and D, and their records after the cycle.
  output logic [ESlotW-1:0] e_deq_o,
  output logic [ESlotW-1:0] e_enq_o,
  output logic [QRecW-1:0]  e_deq_qrec_o,
  output logic [QRecW-1:0]  e_enq_qrec_o,
  output logic [PRecW-1:0]  e_deq_prec_o,
  output logic [PRecW-1:0]  e_enq_prec_o,
  // Results of the cycle.
  output logic [3:0]        e_region_o,      // one-hot {drop, headroom, shared, private}, 0 none
  output logic [2:0]        e_region_deq_o,  // its admitting bits again, for stage D (late)
  output logic [ThrW-1:0]   e_t_o,           // T in effect
  output logic [SizeW-1:0]  e_dw_o,          // this lane's dequeue drained from S
  output logic [SizeW-1:0]  e_cells_o,       // its enqueue's size, known at the start of E
  output logic              e_shared_o,      // its enqueue went to shared (late: the region)
  // Events per slot (slot 0 the dequeue's queue/port, 1 the enqueue's).
  output logic [1:0]        qevt_valid_o,
  output logic [1:0]        qevt_pause_o,
  output logic [1:0]        pevt_valid_o,
  output logic [1:0]        pevt_pause_o,
  output logic [1:0]        error_o          // [0] dequeue, [1] enqueue
);
  `DSH_SLOT_TYPES
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW);  // stage E's limits (dsh_limits)

  `DSH_PICK4(pick4_qrec, QRecW)
  `DSH_PICK4(pick4_prec, PRecW)

  rslot_t            r_enq;
  dslot_t            d;
  eta_t              r_enq_eta, d_eta;
  assign r_enq     = r_enq_i;
  assign d         = d_i;
  assign r_enq_eta = r_enq_eta_i;
  assign d_eta     = d_eta_i;

  // Stage E's registers.
  logic              e_deq_v_q, e_deq_ok_q, e_deq_go_q, e_enq_v_q, e_enq_ok_q;
  logic [QIdxW-1:0]  e_deq_idx_q, e_enq_idx_q;
  logic [PortW-1:0]  e_deq_p_q, e_enq_p_q, e_deq_port_q, e_enq_port_q;
  logic [QueueW-1:0] e_deq_queue_q, e_enq_queue_q;
  logic              e_deq_qoff, e_enq_qoff;  // state bits after the cycle
  logic              e_same_q_q, e_same_p_q;
  qrec_t             e_deq_rec_q, e_enq_rec_q;
  prec_t             e_deq_prec_q, e_enq_prec_q;
  logic [SizeW-1:0]  e_enq_cells_q;
  logic [3*TW-1:0]   e_enq_terms_q;
  logic [SizeW-1:0]  e_dh_q, e_dw_q;    // the dequeue drained from headroom / shared
  logic [SizeW-1:0]  e_dh1_q, e_dw1_q;  // the same if from the enqueue's port, else 0
  logic [CellW-1:0]  e_enq_eta_q, e_deq_eta_q;
  logic [CellW:0]    e_enq_eta_dq_q, e_deq_eta_dq_q;
  qrec_t             e_enq_rec, e_deq_rec;    // after the cycle
  prec_t             e_enq_prec, e_deq_prec;

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
      e_dh_q     <= d.go ? d.dh : '0;
      e_dw_q     <= d.go ? d.dw : '0;
      e_dh1_q    <= d.go && same_port_i ? d.dh : '0;
      e_dw1_q    <= d.go && same_port_i ? d.dw : '0;
    end
  end
  always_ff @(posedge clk_i) begin
    e_deq_idx_q    <= d.idx;
    e_deq_p_q      <= d.p;
    e_deq_port_q   <= d.port;
    e_deq_queue_q  <= d.queue_id;
    e_deq_rec_q    <= d_qrec_i;
    e_deq_prec_q   <= pick4_prec(f_d_psel_i, {d_prec_i, e_deq_prec, e_enq_prec, {PRecW{1'b0}}});
    e_enq_idx_q    <= r_enq.idx;
    e_enq_p_q      <= r_enq.p;
    e_enq_port_q   <= r_enq.port;
    e_enq_queue_q  <= r_enq.queue_id;
    e_enq_cells_q  <= r_enq.cells;
    e_enq_terms_q  <= r_enq_terms_i;
    e_enq_prec_q   <= pick4_prec(f_enq_psel_i, {r_enq_prec_i, e_deq_prec, e_enq_prec, {PRecW{1'b0}}});
    e_same_q_q     <= same_queue_i;
    e_same_p_q     <= same_port_i;
    e_enq_eta_q    <= r_enq_eta.eta;
    e_enq_eta_dq_q <= r_enq_eta.eta_dq;
    e_deq_eta_q    <= d_eta.eta;
    e_deq_eta_dq_q <= d_eta.eta_dq;
  end

  // The enqueue's queue twice: the region that stage D's dequeue waits for
  // is computed from its own copy, so that each region drives half the
  // loads (`keep`: synthesis merges equal registers).
  qrec_t e_enq_rec_copy_q;
  logic [QRecW-1:0] e_enq_rec_d;
  assign e_enq_rec_d = pick4_qrec(f_enq_qsel_i, {r_enq_qrec_i, e_deq_rec, e_enq_rec, d_qrec_i});
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_q <= e_enq_rec_d;
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_copy_q <= e_enq_rec_d;

  logic signed [LimW-1:0] lim_pool, lim_priv, lim_hdrm, lim_shared, lim_qoff, lim_qon, lim_pon;
  logic signed [LimW-1:0] lim_qoff_deq, lim_qon_deq;  // X_qoff, X_qon of the dequeue's port
  dsh_thresh_pipe #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .ThreshLatency(ThreshLatency)) u_thresh_pipe (
    .clk_i, .free_i, .cells_now_i(e_enq_cells_q), .terms_now_i(e_enq_terms_q),
    .cells_next_i(r_enq.cells), .terms_next_i(r_enq_terms_i),
    .eta_now_i({e_deq_eta_q, e_enq_eta_q}), .eta_dq_now_i({e_deq_eta_dq_q, e_enq_eta_dq_q}),
    .eta_next_i({d_eta.eta, r_enq_eta.eta}), .eta_dq_next_i({d_eta.eta_dq, r_enq_eta.eta_dq}),
    .cfg_alpha_log2_i, .cfg_delta_q_i,
    .cfg_delta_p_i, .cfg_port_mult_log2_i, .t_o(e_t_o), .pool_o(lim_pool),
    .priv_o(lim_priv), .hdrm_o(lim_hdrm), .shared_o(lim_shared), .qoff_o(lim_qoff), .qon_o(lim_qon),
    .qoff_deq_o(lim_qoff_deq), .qon_deq_o(lim_qon_deq), .pon_o(lim_pon)
  );

  logic e_pool_fit_q;  // PoolEarly: S_{c-2} <= B_s - (A_{c-1} + P_l + s)
  if (PoolEarly) begin : gen_pool_early
    always_ff @(posedge clk_i)
      e_pool_fit_q <= $signed({2'b00, s_i}) <= $signed(r_enq_terms_i[0 +: TW]);
  end else begin : gen_pool_in_e
    assign e_pool_fit_q = 1'b0;
  end

  logic [3:0] region;  // one-hot {drop, headroom, shared, private}
  dsh_enq_admit #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .PoolEarly(PoolEarly)) u_enq_admit (
    .h_i(e_enq_rec_q.h), .hs_i(e_enq_rec_q.hs), .hsp_i(e_enq_rec_q.hsp), .qoff_i(e_enq_rec_q.qoff),
    .port_shared_i(e_enq_prec_q.shared), .port_hdrm_i(e_enq_prec_q.hdrm),
    .port_deq_shared_i(e_dw1_q), .port_deq_hdrm_i(e_dh1_q),
    .poff_i(Dsh && e_enq_prec_q.poff), .s_i(s_i), .deq_shared_i(deq_shared_all_i),
    .pool_lim_i(lim_pool), .pool_fit_i(e_pool_fit_q), .priv_lim_i(lim_priv), .shared_lim_i(lim_shared), .hdrm_lim_i(lim_hdrm),
    .region_o(region)
  );
  assign e_region_o = {4{e_enq_ok_q}} & region;

  logic [3:0] region_deq;  // the same for stage D
  dsh_enq_admit #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .PoolEarly(PoolEarly)) u_enq_admit_d (
    .h_i(e_enq_rec_copy_q.h), .hs_i(e_enq_rec_copy_q.hs), .hsp_i(e_enq_rec_copy_q.hsp),
    .qoff_i(e_enq_rec_copy_q.qoff),
    .port_shared_i(e_enq_prec_q.shared), .port_hdrm_i(e_enq_prec_q.hdrm),
    .port_deq_shared_i(e_dw1_q), .port_deq_hdrm_i(e_dh1_q),
    .poff_i(Dsh && e_enq_prec_q.poff), .s_i(s_i), .deq_shared_i(deq_shared_all_i),
    .pool_lim_i(lim_pool), .pool_fit_i(e_pool_fit_q), .priv_lim_i(lim_priv), .shared_lim_i(lim_shared), .hdrm_lim_i(lim_hdrm),
    .region_o(region_deq)
  );
  assign e_region_deq_o = {3{e_enq_ok_q}} & region_deq[2:0];
  logic unused_drop_deq;
  assign unused_drop_deq = region_deq[3];

  // The counts after the cycle: each sum beside the compares, the region
  // picks. (Headroom adds to all three prefix sums, shared to two, private
  // to one.) S and B_s - S are the pool's (dsh_mmu).
  logic [SizeW-1:0] s;
  assign s = e_enq_cells_q;
  assign e_enq_rec.hsp = |e_region_o[2:0] ? e_enq_rec_q.hsp + CellW'(s) : e_enq_rec_q.hsp;
  assign e_enq_rec.hs  = |e_region_o[2:1] ? e_enq_rec_q.hs + CellW'(s) : e_enq_rec_q.hs;
  assign e_enq_rec.h   = e_region_o[2] ? e_enq_rec_q.h + CellW'(s) : e_enq_rec_q.h;
  assign e_enq_prec.hdrm   = e_region_o[2] ? e_enq_prec_q.hdrm - CellW'(e_dh1_q) + CellW'(s)
                                           : e_enq_prec_q.hdrm - CellW'(e_dh1_q);
  assign e_enq_prec.shared = e_region_o[1] ? e_enq_prec_q.shared - CellW'(e_dw1_q) + CellW'(s)
                                           : e_enq_prec_q.shared - CellW'(e_dw1_q);
  assign e_deq_prec.hdrm   = e_deq_prec_q.hdrm - CellW'(e_dh_q);
  assign e_deq_prec.shared = e_deq_prec_q.shared - CellW'(e_dw_q);
  assign e_dw_o           = e_dw_q;
  assign e_cells_o        = s;
  assign e_shared_o       = e_region_o[1];

  // State machines: slot 1 after the enqueue, slot 0 (the dequeue's queue
  // and port) unless the enqueue touched them too; an erroneous dequeue runs
  // none.
  logic eval_q0, eval_p0;
  assign eval_q0 = e_deq_go_q && !(e_enq_ok_q && e_same_q_q);
  assign eval_p0 = e_deq_go_q && !(e_enq_ok_q && e_same_p_q);

  logic q1_qoff, q1_pause, q1_resume, q0_qoff, q0_pause, q0_resume;
  dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm_enq (
    .qoff_i(e_enq_rec_q.qoff), .h_i(e_enq_rec_q.h), .hs_i(e_enq_rec_q.hs), .region_i(e_region_o[2:0]), .cells_i(s),
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
      .region_i(e_region_o[2:0]), .pon_lim_i(lim_pon), .poff_o(p1_poff), .pause_o(p1_pause), .resume_o(p1_resume)
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

  assign e_enq_qoff      = e_enq_ok_q ? q1_qoff : e_enq_rec_q.qoff;
  assign e_deq_qoff      = eval_q0 ? q0_qoff : e_deq_rec_q.qoff;
  assign e_enq_rec.qoff  = e_enq_qoff;
  assign e_deq_rec.qoff  = e_deq_qoff;
  assign e_deq_rec.hsp   = e_deq_rec_q.hsp;
  assign e_deq_rec.hs    = e_deq_rec_q.hs;
  assign e_deq_rec.h     = e_deq_rec_q.h;
  assign e_enq_prec.poff = e_enq_ok_q ? p1_poff : Dsh && e_enq_prec_q.poff;
  assign e_deq_prec.poff = eval_p0 ? p0_poff : Dsh && e_deq_prec_q.poff;

  // The slots, packed.
  eslot_t e_deq, e_enq;
  assign e_deq.v        = e_deq_v_q;
  assign e_deq.ok       = e_deq_ok_q;
  assign e_deq.go       = e_deq_go_q;
  assign e_deq.idx      = e_deq_idx_q;
  assign e_deq.p        = e_deq_p_q;
  assign e_deq.port     = e_deq_port_q;
  assign e_deq.queue_id = e_deq_queue_q;
  assign e_enq.v        = e_enq_v_q;
  assign e_enq.ok       = e_enq_ok_q;
  assign e_enq.go       = e_enq_ok_q;
  assign e_enq.idx      = e_enq_idx_q;
  assign e_enq.p        = e_enq_p_q;
  assign e_enq.port     = e_enq_port_q;
  assign e_enq.queue_id = e_enq_queue_q;
  assign e_deq_o      = e_deq;
  assign e_enq_o      = e_enq;
  assign e_deq_qrec_o = e_deq_rec;
  assign e_enq_qrec_o = e_enq_rec;
  assign e_deq_prec_o = e_deq_prec;
  assign e_enq_prec_o = e_enq_prec;

  // Events, per slot.
  assign qevt_valid_o = {e_enq_ok_q && (q1_pause || q1_resume), eval_q0 && (q0_pause || q0_resume)};
  assign qevt_pause_o = {q1_pause, q0_pause};
  assign pevt_valid_o = {e_enq_ok_q && (p1_pause || p1_resume), eval_p0 && p0_resume};
  assign pevt_pause_o = {p1_pause, 1'b0};
  assign error_o      = {e_enq_v_q && !e_enq_ok_q, e_deq_v_q && !e_deq_go_q};

  // ------------------------------------------------------------ assertions
  // The selects of the forwarding picks above (dsh_fwd) and the region:
  // one source each, at most one region.
  `ASSERT(ExecEnqQselOneHot_A, $onehot(f_enq_qsel_i))
  `ASSERT(ExecEnqPselOneHot_A, $onehot(f_enq_psel_i))
  `ASSERT(ExecDeqPselOneHot_A, $onehot(f_d_psel_i))
  `ASSERT(ExecRegionOneHot0_A, $onehot0(e_region_o))
  // Occupancy: S never above the buffer B_s (nor below 0, which would wrap
  // above it); a port's shared part is part of S; a queue's prefix sums are
  // in order (no part below 0). S as the sum of every port's shared part
  // needs all entries: left to the formal checks of the leaves.
  `ASSERT(ExecSWithinBuffer_A, s_i <= cfg_shared_cells_i)
  `ASSERT(ExecEnqPortSharedWithinS_A, !e_enq_ok_q || e_enq_prec_q.shared <= s_i)
  `ASSERT(ExecDeqPortSharedWithinS_A, !e_deq_go_q || e_deq_prec_q.shared <= s_i)
  `ASSERT(ExecEnqQueueSumsOrdered_A,
          !e_enq_ok_q || (e_enq_rec_q.h <= e_enq_rec_q.hs && e_enq_rec_q.hs <= e_enq_rec_q.hsp))
  `ASSERT(ExecDeqQueueSumsOrdered_A,
          !e_deq_go_q || (e_deq_rec_q.h <= e_deq_rec_q.hs && e_deq_rec_q.hs <= e_deq_rec_q.hsp))
  // POFF never set under SIH, in what E writes.
  `ASSERT(ExecSihNoPoff_A, Dsh || !(e_enq_prec.poff || e_deq_prec.poff))
  // PAUSE and RESUME alternate per queue and port: an event flips the state
  // it reports from (PAUSE from QON/PON, RESUME from QOFF/POFF).
  `ASSERT(ExecQevtEnqFlips_A, !qevt_valid_o[1]
          || (e_enq_rec_q.qoff == !qevt_pause_o[1] && e_enq_qoff == qevt_pause_o[1]))
  `ASSERT(ExecQevtDeqFlips_A, !qevt_valid_o[0]
          || (e_deq_rec_q.qoff == !qevt_pause_o[0] && e_deq_qoff == qevt_pause_o[0]))
  `ASSERT(ExecPevtEnqFlips_A, !pevt_valid_o[1]
          || (e_enq_prec_q.poff == !pevt_pause_o[1] && e_enq_prec.poff == pevt_pause_o[1]))
  `ASSERT(ExecPevtDeqFlips_A, !pevt_valid_o[0]
          || (e_deq_prec_q.poff == !pevt_pause_o[0] && e_deq_prec.poff == pevt_pause_o[0]))
  // Without an event the state stays.
  `ASSERT(ExecQoffEnqNoEventNoChange_A, qevt_valid_o[1] || e_enq_qoff == e_enq_rec_q.qoff)
  `ASSERT(ExecQoffDeqNoEventNoChange_A, qevt_valid_o[0] || e_deq_qoff == e_deq_rec_q.qoff)
endmodule

`default_nettype wire
