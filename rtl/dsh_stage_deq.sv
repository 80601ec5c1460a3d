// SPDX-License-Identifier: Apache-2.0
// Stage D of dsh_mmu (spec §9.2): the dequeue drains (dsh_deq_drain).
// It runs in the same clock cycle as stage E's enqueue of the previous
// specification cycle, which spec §4.1 applies first: the drain is computed
// for every region that enqueue may take and E's region (region_deq of
// e_i, late) picks one. The queue record is registered from stage R's read
// with the newer results of D and E forwarded over it (selects from
// dsh_fwd, one-hot {R, E slot 0, E slot 1, D}).
// Latency: stage R's dequeue to stage D's slot one clock edge; its qrec
// (the queue after the dequeue), its go and the drained amounts are
// combinational (late: they wait for E's region). Its prec is its port
// before stage E's cycle.
// Reset: the slot's v and ok 0, the counters' index copies 0 when there
// are several (rst_ni, asynchronous; dsh_idx_copies); the rest has none.
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_rec.svh"
`include "dsh_slot.svh"

module dsh_stage_deq #(
`include "dsh_params.svh"
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Stage R's slots (dsh_stage_in): the dequeue, and the enqueue's cells
  // (stage E's next cycle).
  input  logic [SlotW-1:0]  r_deq_i,
  input  logic [SlotW-1:0]  r_enq_i,
  input  logic [QIdxW-1:0]  r_deq_cnt_idx_i,  // the dequeue's entry for the counters
  // Forwarding (dsh_fwd): the selects of the records D takes, and whether
  // stage R's enqueue (next in E) / stage D's dequeue (next in E slot 0)
  // is to the queue stage R's dequeue reads.
  input  dsh_pkg::fwd_t     fwd_i,
  // Stage E's slots after the cycle and its results (dsh_stage_exec): the
  // state bits and records of its two queues, the admitting region bits.
  input  logic [SlotW-1:0]  e_deq_i,
  input  logic [SlotW-1:0]  e_enq_i,
  input  logic [ExecW-1:0]  e_i,

  // Stage D's dequeue, for stage E and dsh_fwd.
  output logic [SlotW-1:0]  d_o,
  output logic [CntCopies*QIdxW-1:0] d_cnt_idx_o,  // the counters' copies (dsh_stats)
  output logic [SizeW-1:0]  d_dh_o,        // drained from headroom
  output logic [SizeW-1:0]  d_dw_o         // drained from shared
);
  `DSH_REC_TYPES(CellW)
  `DSH_SLOT_TYPES
  slot_t r_deq, r_enq, e_deq, e_enq, d_q, d;
  exec_t e;
  assign r_deq = r_deq_i;
  assign r_enq = r_enq_i;
  assign e_deq = e_deq_i;
  assign e_enq = e_enq_i;
  assign e     = e_i;
  logic unused_in;  // of R's enqueue its cells, of E what forwarding takes
  assign unused_in = ^{r_enq, e_deq, e_enq, e, fwd_i};

  logic             d_v_q, d_ok_q;     // the slot's v and ok (d_q: the rest)
  logic [SizeW-1:0] d_add_q, d_add_d;  // what stage E's enqueue adds to this queue: its cells or 0
  logic [SizeW:0]   d_alc_q;           // d_add_q + 2^SizeW - d_q.cells (see dsh_deq_drain)
  qrec_t            d_rec_q;           // the queue before stage E's enqueue
  logic             d_enq_q_q;         // stage E's enqueue is to this queue
  logic             d_deq_q_q;         // stage E's dequeue (slot 0) is from this queue
  qrec_t            drained;

  logic             d_go;
  dsh_deq_drain #(.CellW(CellW), .SizeW(SizeW)) u_deq_drain (
    .ok_i(d_ok_q), .cells_i(d_q.cells), .add_i(d_add_q), .add_less_cells_i(d_alc_q),
    .h_i(d_rec_q.h), .hs_i(d_rec_q.hs), .hsp_i(d_rec_q.hsp),
    .region_i(e.region_deq),
    .go_o(d_go), .h_o(drained.h), .hs_o(drained.hs), .hsp_o(drained.hsp), .dh_o(d_dh_o), .dw_o(d_dw_o)
  );

  // The record after the dequeue, used only when it goes (an erroneous
  // dequeue leaves the record as D got it, which forwarding then takes from
  // where D got it). The state bit passes through the dequeue; stage E's
  // state machines of this cycle may change it.
  qrec_t e_enq_qrec, e_deq_qrec;  // (their state bits)
  assign e_enq_qrec = e_enq.qrec;
  assign e_deq_qrec = e_deq.qrec;
  logic unused_counts;
  assign unused_counts = ^{e_enq_qrec.hsp, e_enq_qrec.hs, e_enq_qrec.h, e_deq_qrec.hsp, e_deq_qrec.hs, e_deq_qrec.h};
  assign drained.qoff = d_enq_q_q ? e_enq_qrec.qoff : d_deq_q_q ? e_deq_qrec.qoff : d_rec_q.qoff;

  assign d_add_d = fwd_i.r_same_queue ? r_enq.cells : '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_v_q  <= 1'b0;
      d_ok_q <= 1'b0;
    end else begin
      d_v_q  <= r_deq.v;
      d_ok_q <= r_deq.ok;
    end
  end
  dsh_idx_copies #(.Width(QIdxW), .Copies(CntCopies), .Reset(CntCopies > 1)) u_cnt_idx (
    .clk_i, .rst_ni, .d_i(r_deq_cnt_idx_i), .q_o(d_cnt_idx_o));
  always_ff @(posedge clk_i) begin
    d_q        <= r_deq;
    d_q.prec   <= pick4_prec(fwd_i.f_deq_psel, {r_deq.prec, e_deq.prec, e_enq.prec, {PRecW{1'b0}}});
    d_add_q    <= d_add_d;
    d_alc_q    <= {1'b0, d_add_d} + {1'b1, {SizeW{1'b0}}} - {1'b0, r_deq.cells};
    d_rec_q    <= pick4_qrec(fwd_i.f_deq_qsel, {r_deq.qrec, e_deq.qrec, e_enq.qrec, d.qrec});
    d_enq_q_q  <= fwd_i.r_same_queue;
    d_deq_q_q  <= fwd_i.d_same_queue;
  end

  // The slot as stage D shows it: its queue after the dequeue, go late.
  always_comb begin
    `DSH_SLOT_SHOW(d, d_q, d_v_q, d_ok_q, d_go)
    d.qrec = drained;
  end
  assign d_o = d;

  // The selects of the forwarding picks above (dsh_fwd): one source each.
  `ASSERT(DeqQselOneHot_A, $onehot(fwd_i.f_deq_qsel))
  `ASSERT(DeqPselOneHot_A, $onehot(fwd_i.f_deq_psel))
  // A dequeue drains what it asks for, no more: from headroom and shared
  // at most its cells, and only a valid one.
  `ASSERT(DeqDrainWithinCells_A, !d_go || {1'b0, d_dh_o} + {1'b0, d_dw_o} <= {1'b0, d_q.cells})
  `ASSERT(DeqGoOnlyIfOk_A, !d_go || d_ok_q)
endmodule

`default_nettype wire
