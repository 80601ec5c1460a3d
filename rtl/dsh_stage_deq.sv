// SPDX-License-Identifier: Apache-2.0
// Stage D of dsh_mmu (spec §9.2): the dequeue drains (dsh_deq_drain).
// It runs in the same clock cycle as stage E's enqueue of the previous
// specification cycle, which spec §4.1 applies first: the drain is computed
// for every region that enqueue may take and E's region (e_region_i,
// late) picks one. The queue record is registered from stage R's read
// with the newer results of D and E forwarded over it (selects from
// dsh_fwd, one-hot {R, E slot 0, E slot 1, D}).
// Latency: stage R's dequeue to d_* one clock edge; d_qrec_o, d_go_o and
// the drained amounts are combinational (late: they wait for E's region).
// Reset: d_v_o, d_ok_o 0, the counters' index copies 0 when there are
// several (rst_ni, asynchronous; dsh_idx_copies); the rest has none.
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_rec.svh"

module dsh_stage_deq #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned CellW     = 20,
  parameter int unsigned SizeW     = 8,
  parameter int unsigned CntCopies = 1,  // copies of the counters' index (dsh_stats)
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned QIdxW  = dsh_pkg::idx_w(NumPorts * NumQueues),
  localparam int unsigned QRecW  = dsh_pkg::qrec_w(CellW),
  localparam int unsigned PRecW  = dsh_pkg::prec_w(CellW)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Stage R's dequeue (dsh_stage_in) and its records, and the enqueue's
  // cells (stage E's next cycle).
  input  logic              r_deq_v_i,
  input  logic              r_deq_ok_i,
  input  logic [QIdxW-1:0]  r_deq_idx_i,
  input  logic [PortW-1:0]  r_deq_p_i,
  input  logic [PortW-1:0]  r_deq_port_i,
  input  logic [QueueW-1:0] r_deq_queue_i,
  input  logic [SizeW-1:0]  r_deq_cells_i,
  input  logic [QIdxW-1:0]  r_deq_cnt_idx_i,
  input  logic [CellW-1:0]  r_deq_eta_i,
  input  logic [CellW:0]    r_deq_eta_dq_i,
  input  logic [QRecW-1:0]  r_deq_qrec_i,
  input  logic [PRecW-1:0]  r_deq_prec_i,
  input  logic [SizeW-1:0]  r_enq_cells_i,

  // Forwarding (dsh_fwd): the selects of the records D takes, and whether
  // stage R's enqueue (next in E) / stage D's dequeue (next in E slot 0)
  // is to the queue stage R's dequeue reads.
  input  logic [3:0]        f_deq_qsel_i,
  input  logic [3:0]        f_deq_psel_i,
  input  logic              r_same_queue_i,
  input  logic              d_same_queue_i,

  // Stage E's results of this cycle (dsh_stage_exec): the admitting
  // region bits, the state bits of its two queues, its records after the
  // cycle.
  input  logic [2:0]        e_region_i,    // {headroom, shared, private}, late
  input  logic              e_enq_qoff_i,
  input  logic              e_deq_qoff_i,
  input  logic [QRecW-1:0]  e_deq_qrec_i,
  input  logic [QRecW-1:0]  e_enq_qrec_i,
  input  logic [PRecW-1:0]  e_deq_prec_i,
  input  logic [PRecW-1:0]  e_enq_prec_i,

  // Stage D's dequeue, for stage E and dsh_fwd.
  output logic              d_v_o,
  output logic              d_ok_o,
  output logic [QIdxW-1:0]  d_idx_o,
  output logic [PortW-1:0]  d_p_o,
  output logic [PortW-1:0]  d_port_o,
  output logic [QueueW-1:0] d_queue_o,
  output logic [CntCopies*QIdxW-1:0] d_cnt_idx_o,  // the counters' copies (dsh_stats)
  output logic [CellW-1:0]  d_eta_o,
  output logic [CellW:0]    d_eta_dq_o,
  output logic [PRecW-1:0]  d_prec_o,      // its port before stage E's cycle
  output logic              d_go_o,        // it drains (late)
  output logic [SizeW-1:0]  d_dh_o,        // drained from headroom
  output logic [SizeW-1:0]  d_dw_o,        // drained from shared
  output logic [QRecW-1:0]  d_qrec_o       // its queue after it (when d_go_o)
);
  `DSH_REC_TYPES(CellW)

  // One of four records by a one-hot select: one AND-OR level.
  function automatic [QRecW-1:0] pick4_qrec(input logic [3:0] sel, input logic [4*QRecW-1:0] v);
    pick4_qrec = '0;
    for (int i = 0; i < 4; i++) pick4_qrec |= v[i*QRecW +: QRecW] & {QRecW{sel[i]}};
  endfunction
  function automatic [PRecW-1:0] pick4_prec(input logic [3:0] sel, input logic [4*PRecW-1:0] v);
    pick4_prec = '0;
    for (int i = 0; i < 4; i++) pick4_prec |= v[i*PRecW +: PRecW] & {PRecW{sel[i]}};
  endfunction

  logic [SizeW-1:0] d_cells_q;
  logic [SizeW-1:0] d_add_q, d_add_d;  // what stage E's enqueue adds to this queue: its cells or 0
  logic [SizeW:0]   d_alc_q;           // d_add_q + 2^SizeW - d_cells_q (see dsh_deq_drain)
  qrec_t            d_rec_q;           // the queue before stage E's enqueue
  logic             d_enq_q_q;         // stage E's enqueue is to this queue
  logic             d_deq_q_q;         // stage E's dequeue (slot 0) is from this queue
  qrec_t            drained;

  dsh_deq_drain #(.CellW(CellW), .SizeW(SizeW)) u_deq_drain (
    .ok_i(d_ok_o), .cells_i(d_cells_q), .add_i(d_add_q), .add_less_cells_i(d_alc_q),
    .h_i(d_rec_q.h), .hs_i(d_rec_q.hs), .hsp_i(d_rec_q.hsp),
    .region_i(e_region_i),
    .go_o(d_go_o), .h_o(drained.h), .hs_o(drained.hs), .hsp_o(drained.hsp), .dh_o(d_dh_o), .dw_o(d_dw_o)
  );

  // The record after the dequeue, used only when it goes (an erroneous
  // dequeue leaves the record as D got it, which forwarding then takes from
  // where D got it). The state bit passes through the dequeue; stage E's
  // state machines of this cycle may change it.
  assign drained.qoff = d_enq_q_q ? e_enq_qoff_i : d_deq_q_q ? e_deq_qoff_i : d_rec_q.qoff;
  assign d_qrec_o = drained;

  assign d_add_d = r_same_queue_i ? r_enq_cells_i : '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_v_o  <= 1'b0;
      d_ok_o <= 1'b0;
    end else begin
      d_v_o  <= r_deq_v_i;
      d_ok_o <= r_deq_ok_i;
    end
  end
  dsh_idx_copies #(.Width(QIdxW), .Copies(CntCopies), .Reset(CntCopies > 1)) u_cnt_idx (
    .clk_i, .rst_ni, .d_i(r_deq_cnt_idx_i), .q_o(d_cnt_idx_o));
  always_ff @(posedge clk_i) begin
    d_idx_o    <= r_deq_idx_i;
    d_p_o      <= r_deq_p_i;
    d_port_o   <= r_deq_port_i;
    d_queue_o  <= r_deq_queue_i;
    d_cells_q  <= r_deq_cells_i;
    d_add_q    <= d_add_d;
    d_alc_q    <= {1'b0, d_add_d} + {1'b1, {SizeW{1'b0}}} - {1'b0, r_deq_cells_i};
    d_rec_q    <= pick4_qrec(f_deq_qsel_i, {r_deq_qrec_i, e_deq_qrec_i, e_enq_qrec_i, d_qrec_o});
    d_prec_o   <= pick4_prec(f_deq_psel_i, {r_deq_prec_i, e_deq_prec_i, e_enq_prec_i, {PRecW{1'b0}}});
    d_enq_q_q  <= r_same_queue_i;
    d_deq_q_q  <= d_same_queue_i;
    d_eta_o    <= r_deq_eta_i;
    d_eta_dq_o <= r_deq_eta_dq_i;
  end

  // The selects of the forwarding picks above (dsh_fwd): one source each.
  `ASSERT(DeqQselOneHot_A, $onehot(f_deq_qsel_i))
  `ASSERT(DeqPselOneHot_A, $onehot(f_deq_psel_i))
  // A dequeue drains what it asks for, no more: from headroom and shared
  // at most its cells, and only a valid one.
  `ASSERT(DeqDrainWithinCells_A, !d_go_o || {1'b0, d_dh_o} + {1'b0, d_dw_o} <= {1'b0, d_cells_q})
  `ASSERT(DeqGoOnlyIfOk_A, !d_go_o || d_ok_o)
endmodule

`default_nettype wire
