// SPDX-License-Identifier: Apache-2.0
// Stage D of dsh_mmu (spec §9.2): the dequeue drains (dsh_deq_drain).
// It runs in the same clock cycle as stage E's enqueue of the previous
// specification cycle, which spec §4.1 applies first: the drain is computed
// for every region that enqueue may take and E's region (e_region_i,
// late) picks one. The queue record is registered from stage R's read
// with the newer results of D and E forwarded over it (selects from
// dsh_fwd, one-hot {R, E slot 0, E slot 1, D}).
// Slots (dsh_slot.svh), each with its records and eta beside it: stage
// R's dequeue in (r_deq_i, rslot_t), stage D's out (d_o, dslot_t); of
// stage E's two slots only their records (e_*_qrec_i, e_*_prec_i).
// Latency: stage R's dequeue to d_o one clock edge; its qrec, go and the
// drained amounts are combinational (late: they wait for E's region).
// Reset: v, ok 0, the counters' index copies 0 when there are several
// (rst_ni, asynchronous; dsh_idx_copies); the rest has none.
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_slot.svh"

module dsh_stage_deq #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned CellW     = 20,
  parameter int unsigned SizeW     = 8,
  parameter int unsigned CntCopies = 1,  // copies of the counters' index (dsh_stats)
  `DSH_STAGE_WIDTHS(NumPorts, NumQueues, CellW, SizeW)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Stage R's dequeue (dsh_stage_in), its counters' index, and the
  // enqueue's cells (stage E's next cycle).
  input  logic [RSlotW-1:0] r_deq_i,
  input  logic [QRecW-1:0]  r_deq_qrec_i,
  input  logic [PRecW-1:0]  r_deq_prec_i,
  input  logic [EtaW-1:0]   r_deq_eta_i,
  input  logic [QIdxW-1:0]  r_deq_cnt_idx_i,
  input  logic [SizeW-1:0]  r_enq_cells_i,

  // Forwarding (dsh_fwd): the selects of the records D takes, and whether
  // stage R's enqueue (next in E) / stage D's dequeue (next in E slot 0)
  // is to the queue stage R's dequeue reads.
  input  logic [3:0]        f_deq_qsel_i,
  input  logic [3:0]        f_deq_psel_i,
  input  logic              r_same_queue_i,
  input  logic              d_same_queue_i,

  // Stage E's results of this cycle (dsh_stage_exec): the admitting
  // region bits, its slots' records after the cycle (state bits included).
  input  logic [2:0]        e_region_i,    // {headroom, shared, private}, late
  input  logic [QRecW-1:0]  e_deq_qrec_i,
  input  logic [QRecW-1:0]  e_enq_qrec_i,
  input  logic [PRecW-1:0]  e_deq_prec_i,
  input  logic [PRecW-1:0]  e_enq_prec_i,

  // Stage D's dequeue, for stage E and dsh_fwd, and the counters' copies
  // of its index (dsh_stats).
  output logic [DSlotW-1:0] d_o,
  output logic [QRecW-1:0]  d_qrec_o,  // the queue after the dequeue (late)
  output logic [PRecW-1:0]  d_prec_o,  // its port before stage E's cycle
  output logic [EtaW-1:0]   d_eta_o,
  output logic [CntCopies*QIdxW-1:0] d_cnt_idx_o
);
  `DSH_SLOT_TYPES

  `DSH_PICK4(pick4_qrec, QRecW)
  `DSH_PICK4(pick4_prec, PRecW)

  rslot_t            r_deq;
  qrec_t             e_deq_qrec, e_enq_qrec;
  assign r_deq      = r_deq_i;
  assign e_deq_qrec = e_deq_qrec_i;
  assign e_enq_qrec = e_enq_qrec_i;

  // Stage D's registers; go, the drained amounts and the record after the
  // dequeue are combinational.
  logic              d_v_q, d_ok_q, d_go;
  logic [QIdxW-1:0]  d_idx_q;
  logic [PortW-1:0]  d_p_q, d_port_q;
  logic [QueueW-1:0] d_queue_q;
  eta_t              d_eta_q;
  prec_t             d_prec_q;          // its port before stage E's cycle
  logic [SizeW-1:0]  d_dh, d_dw;        // drained from headroom / shared
  logic [SizeW-1:0]  d_cells_q;
  logic [SizeW-1:0]  d_add_q, d_add_d;  // what stage E's enqueue adds to this queue: its cells or 0
  logic [SizeW:0]    d_alc_q;           // d_add_q + 2^SizeW - d_cells_q (see dsh_deq_drain)
  qrec_t             d_rec_q;           // the queue before stage E's enqueue
  logic              d_enq_q_q;         // stage E's enqueue is to this queue
  logic              d_deq_q_q;         // stage E's dequeue (slot 0) is from this queue
  qrec_t             drained;           // the queue after the dequeue

  dsh_deq_drain #(.CellW(CellW), .SizeW(SizeW)) u_deq_drain (
    .ok_i(d_ok_q), .cells_i(d_cells_q), .add_i(d_add_q), .add_less_cells_i(d_alc_q),
    .h_i(d_rec_q.h), .hs_i(d_rec_q.hs), .hsp_i(d_rec_q.hsp),
    .region_i(e_region_i),
    .go_o(d_go), .h_o(drained.h), .hs_o(drained.hs), .hsp_o(drained.hsp), .dh_o(d_dh), .dw_o(d_dw)
  );

  // The record after the dequeue, used only when it goes (an erroneous
  // dequeue leaves the record as D got it, which forwarding then takes from
  // where D got it). The state bit passes through the dequeue; stage E's
  // state machines of this cycle may change it.
  assign drained.qoff = d_enq_q_q ? e_enq_qrec.qoff : d_deq_q_q ? e_deq_qrec.qoff : d_rec_q.qoff;

  assign d_add_d = r_same_queue_i ? r_enq_cells_i : '0;
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
    d_idx_q    <= r_deq.idx;
    d_p_q      <= r_deq.p;
    d_port_q   <= r_deq.port;
    d_queue_q  <= r_deq.queue_id;
    d_cells_q  <= r_deq.cells;
    d_add_q    <= d_add_d;
    d_alc_q    <= {1'b0, d_add_d} + {1'b1, {SizeW{1'b0}}} - {1'b0, r_deq.cells};
    d_rec_q    <= pick4_qrec(f_deq_qsel_i, {r_deq_qrec_i, e_deq_qrec, e_enq_qrec, drained});
    d_prec_q   <= pick4_prec(f_deq_psel_i, {r_deq_prec_i, e_deq_prec_i, e_enq_prec_i, {PRecW{1'b0}}});
    d_enq_q_q  <= r_same_queue_i;
    d_deq_q_q  <= d_same_queue_i;
    d_eta_q    <= r_deq_eta_i;
  end

  // The slot, packed.
  dslot_t d;
  assign d.v        = d_v_q;
  assign d.ok       = d_ok_q;
  assign d.idx      = d_idx_q;
  assign d.p        = d_p_q;
  assign d.port     = d_port_q;
  assign d.queue_id = d_queue_q;
  assign d.go       = d_go;
  assign d.dh       = d_dh;
  assign d.dw       = d_dw;
  assign d_o      = d;
  assign d_qrec_o = drained;
  assign d_prec_o = d_prec_q;
  assign d_eta_o  = d_eta_q;

  // The selects of the forwarding picks above (dsh_fwd): one source each.
  `ASSERT(DeqQselOneHot_A, $onehot(f_deq_qsel_i))
  `ASSERT(DeqPselOneHot_A, $onehot(f_deq_psel_i))
  // A dequeue drains what it asks for, no more: from headroom and shared
  // at most its cells, and only a valid one.
  `ASSERT(DeqDrainWithinCells_A, !d_go || {1'b0, d_dh} + {1'b0, d_dw} <= {1'b0, d_cells_q})
  `ASSERT(DeqGoOnlyIfOk_A, !d_go || d_ok_q)
endmodule

`default_nettype wire
