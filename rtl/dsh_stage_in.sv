// SPDX-License-Identifier: Apache-2.0
// Stages A and R of dsh_mmu (spec §9.2): the inputs registered, the read
// indices of the records and counters, each event's eta, and stage R's
// records with stage W's writes of this cycle. Events travel as slots
// (dsh_slot.svh).
//   A  the enqueue's inputs wait one cycle (a_enq_*); the dequeue's go
//      straight to R;
//   R  slot "deq" (the dequeue of cycle c+1) and slot "enq" (the enqueue
//      of cycle c) while stage D holds the dequeue of cycle c. The index
//      copies address dsh_rec_store's reads (one copy per memory slice) and
//      dsh_stats' counters; the slots' records are what the memories
//      read with stage W's records forwarded over them (selects from
//      dsh_fwd, whose entry keys nx_*_key_o are formed here).
// Headroom per port (spec §9.1): port p's eta at cfg_headroom_cells_i[p*CellW
// +: CellW]. Each event registers copies of its port index as it arrives
// and reads its port's entry a stage later (the enqueue in A, the dequeue
// in R): the enqueue's eta and eta_dq registered, the dequeue's
// combinational for stage D's registers.
// Latency: inputs to r_* one clock edge (the dequeue) or two (the
// enqueue); the record outputs are combinational from the memories.
// Reset: valid and ok bits 0 (rst_ni, asynchronous), the read index copies
// 0 with ReadSlices > 1 (dsh_idx_copies); the rest has none.
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_slot.svh"

module dsh_stage_in #(
`include "dsh_params.svh"
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  input  logic [CellW-1:0]          cfg_shared_cells_i,
  input  logic [CellW-1:0]          cfg_private_cells_i,
  input  logic [NumPorts*CellW-1:0] cfg_headroom_cells_i,
  input  logic [CellW-1:0]          cfg_delta_q_i,

  // The dequeue and the enqueue as presented: v, port, queue, cells (the
  // other fields are not read).
  input  logic [SlotW-1:0]          deq_i,
  input  logic [SlotW-1:0]          enq_i,

  output logic                      busy_o,  // an event in A or R
  // The entries stage R takes at the next clock edge (dsh_fwd): {port,
  // queue}, 0 when out of range.
  output logic [KeyW-1:0]           nx_deq_key_o,
  output logic [KeyW-1:0]           nx_enq_key_o,

  // Stage R's slots: v; ok (valid, in range, cells != 0); idx, p (0 when
  // out of range); port, queue, cells as presented; eta, eta_dq; the
  // records; go 0 (stage D knows it).
  output logic [SlotW-1:0]          r_deq_o,
  output logic [SlotW-1:0]          r_enq_o,
  // The enqueue's terms of its cells alone for the limits (dsh_size_terms).
  output logic [3*TW-1:0]           r_enq_terms_o,

  // Read index copies: dsh_rec_store, and the counters (dsh_stats).
  output logic [QCopies*QIdxW-1:0]  r_deq_ridx_o,
  output logic [QCopies*QIdxW-1:0]  r_enq_ridx_o,
  output logic [PCopies*PortW-1:0]  r_deq_rp_o,
  output logic [PCopies*PortW-1:0]  r_enq_rp_o,
  // (the enqueue's in CntCopies copies for the drop counters, then as
  // many for the PAUSE counters; stage D copies the dequeue's)
  output logic [QIdxW-1:0]          r_deq_cnt_idx_o,
  output logic [2*CntCopies*QIdxW-1:0] r_enq_cnt_idx_o,
  output logic [CntCopies*PortW-1:0] r_enq_cnt_p_o,

  // The records: from the memories, in stage W's slots (slot 0, slot 1),
  // and W's forwarding selects (dsh_fwd, one-hot {memory, W slot 0, W
  // slot 1}).
  input  logic [QRecW-1:0]          mem_deq_qrec_i,
  input  logic [QRecW-1:0]          mem_enq_qrec_i,
  input  logic [PRecW-1:0]          mem_deq_prec_i,
  input  logic [PRecW-1:0]          mem_enq_prec_i,
  input  logic [SlotW-1:0]          w_deq_i,
  input  logic [SlotW-1:0]          w_enq_i,
  input  dsh_pkg::fwd_t             fwd_i
);
  `DSH_SLOT_TYPES
  slot_t deq, enq, w_deq, w_enq;
  assign deq   = deq_i;
  assign enq   = enq_i;
  assign w_deq = w_deq_i;
  assign w_enq = w_enq_i;
  logic unused_in;  // stage W's slots: only their records; of the selects, W's
  assign unused_in = ^{w_deq, w_enq, fwd_i};

  // A queue's entry in the memories, queue-major (spec §9.7): with a
  // power-of-two port count it is {q, p}, no adder between the dequeue's
  // input pins and the read index copies.
  function automatic [QIdxW-1:0] queue_idx(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    queue_idx = QIdxW'(q) * QIdxW'(NumPorts) + QIdxW'(p);
  endfunction
  function automatic logic in_range(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    in_range = 32'(p) < NumPorts && 32'(q) < NumQueues;
  endfunction
  // The eta table read by port index, in slices of EtaSliceW bits, each
  // addressed by its own copy of the index, so that an index bit drives the
  // multiplexers of a few bits only (as dsh_rec_store's reads; an index bit
  // driving the whole 20-bit read took 2.5 ns of buffers at 32 ports).
  localparam int unsigned EtaSliceW = 4;
  localparam int unsigned EtaSlices = (CellW + EtaSliceW - 1) / EtaSliceW;
  logic [CellW-1:0] eta_table [NumPorts];
  for (genvar i = 0; i < NumPorts; i++) begin : gen_eta_table
    assign eta_table[i] = cfg_headroom_cells_i[i*CellW +: CellW];
  end
  function automatic [CellW-1:0] eta_slice_mask(input integer sl);
    for (int b = 0; b < CellW; b++) eta_slice_mask[b] = b / EtaSliceW == sl;
  endfunction
  function automatic [CellW-1:0] eta_read(input logic [EtaSlices*PortW-1:0] c);
    eta_read = '0;
    for (int sl = 0; sl < EtaSlices; sl++) eta_read |= eta_table[c[sl*PortW +: PortW]] & eta_slice_mask(sl);
  endfunction
  // A port index for the table: 0 beyond NumPorts (a protocol error, whose
  // eta nothing uses).
  function automatic [PortW-1:0] table_port(input logic [PortW-1:0] p);
    table_port = 32'(p) < NumPorts ? p : '0;
  endfunction

  // ------------------------------------------------------------ stage A
  // The slots' registers (v and ok apart: they have a reset).
  slot_t             a_enq_q, r_deq_q, r_enq_q;
  slot_t             r_deq /*verilator split_var*/, r_enq /*verilator split_var*/;
  logic              a_enq_v_q, a_enq_ok_q, r_deq_v_q, r_deq_ok_q, r_enq_v_q, r_enq_ok_q;
  logic [EtaSlices*PortW-1:0] a_enq_etap_q, r_deq_etap_q;
  logic [CellW-1:0] a_enq_eta, r_deq_eta;
  assign a_enq_eta = eta_read(a_enq_etap_q);
  assign r_deq_eta = eta_read(r_deq_etap_q);

  dsh_size_terms #(.CellW(CellW), .SizeW(SizeW)) u_size_terms (
    .cells_i(r_enq_q.cells), .cfg_shared_cells_i, .cfg_private_cells_i, .eta_i(r_enq_q.eta),
    .terms_o(r_enq_terms_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_enq_v_q  <= 1'b0;
      a_enq_ok_q <= 1'b0;
      r_deq_v_q  <= 1'b0;
      r_enq_v_q  <= 1'b0;
      r_deq_ok_q <= 1'b0;
      r_enq_ok_q <= 1'b0;
    end else begin
      a_enq_v_q  <= enq.v;
      a_enq_ok_q <= enq.v && in_range(enq.port, enq.queue) && enq.cells != '0;
      r_deq_v_q  <= deq.v;
      r_deq_ok_q <= deq.v && in_range(deq.port, deq.queue) && deq.cells != '0;
      r_enq_v_q  <= a_enq_v_q;
      r_enq_ok_q <= a_enq_ok_q;
    end
  end
  assign busy_o = a_enq_v_q || r_deq_v_q || r_enq_v_q;

  logic deq_in, a_enq_in;
  logic [QIdxW-1:0] deq_idx, enq_idx;
  logic [PortW-1:0] deq_p, enq_p;
  assign deq_in   = in_range(deq.port, deq.queue);
  assign a_enq_in = in_range(a_enq_q.port, a_enq_q.queue);
  assign deq_idx  = deq_in ? queue_idx(deq.port, deq.queue) : '0;
  assign deq_p    = deq_in ? deq.port : '0;
  assign enq_idx  = a_enq_in ? queue_idx(a_enq_q.port, a_enq_q.queue) : '0;
  assign enq_p    = a_enq_in ? a_enq_q.port : '0;
  assign nx_deq_key_o = deq_in ? {deq.port, deq.queue} : '0;
  assign nx_enq_key_o = a_enq_in ? {a_enq_q.port, a_enq_q.queue} : '0;

  // ------------------------------------------------------------ stage R
  // The index copies of the records' reads and of the counters' (dsh_stats
  // reads them a stage before E), registers of their own (dsh_idx_copies:
  // with ReadSlices > 1 they have a reset, to entry 0, which no valid event
  // reads before a clock edge has loaded it).
  localparam bit CopyReset = ReadSlices > 1;
  dsh_idx_copies #(.Width(QIdxW), .Copies(QCopies), .Reset(CopyReset)) u_deq_ridx (
    .clk_i, .rst_ni, .d_i(deq_idx), .q_o(r_deq_ridx_o));
  dsh_idx_copies #(.Width(QIdxW), .Copies(QCopies), .Reset(CopyReset)) u_enq_ridx (
    .clk_i, .rst_ni, .d_i(enq_idx), .q_o(r_enq_ridx_o));
  dsh_idx_copies #(.Width(PortW), .Copies(PCopies), .Reset(CopyReset)) u_deq_rp (
    .clk_i, .rst_ni, .d_i(deq_p), .q_o(r_deq_rp_o));
  dsh_idx_copies #(.Width(PortW), .Copies(PCopies), .Reset(CopyReset)) u_enq_rp (
    .clk_i, .rst_ni, .d_i(enq_p), .q_o(r_enq_rp_o));
  (* keep *) always_ff @(posedge clk_i) r_deq_cnt_idx_o <= deq_idx;  // stage D copies it
  dsh_idx_copies #(.Width(QIdxW), .Copies(2 * CntCopies), .Reset(CopyReset)) u_enq_cnt_idx (
    .clk_i, .rst_ni, .d_i(enq_idx), .q_o(r_enq_cnt_idx_o));
  dsh_idx_copies #(.Width(PortW), .Copies(CntCopies), .Reset(CopyReset)) u_enq_cnt_p (
    .clk_i, .rst_ni, .d_i(enq_p), .q_o(r_enq_cnt_p_o));
  (* keep *) always_ff @(posedge clk_i) begin
    a_enq_etap_q <= {EtaSlices{table_port(enq.port)}};
    r_deq_etap_q <= {EtaSlices{table_port(deq.port)}};
  end
  always_ff @(posedge clk_i) begin
    a_enq_q        <= enq;
    r_deq_q        <= deq;
    r_deq_q.idx    <= deq_idx;
    r_deq_q.p      <= deq_p;
    r_enq_q        <= a_enq_q;
    r_enq_q.idx    <= enq_idx;
    r_enq_q.p      <= enq_p;
    r_enq_q.eta    <= a_enq_eta;
    r_enq_q.eta_dq <= {1'b0, a_enq_eta} + {1'b0, cfg_delta_q_i};
  end

  // The slots as stage R shows them: the records with stage W's writes of
  // this cycle (the memories take them only at the clock edge).
  always_comb begin
    `DSH_SLOT_SHOW(r_deq, r_deq_q, r_deq_v_q, r_deq_ok_q, 1'b0)
    r_deq.eta    = r_deq_eta;
    r_deq.eta_dq = {1'b0, r_deq_eta} + {1'b0, cfg_delta_q_i};
    r_deq.qrec   = pick3_qrec(fwd_i.w_deq_qsel, {mem_deq_qrec_i, w_deq.qrec, w_enq.qrec});
    r_deq.prec   = pick3_prec(fwd_i.w_deq_psel, {mem_deq_prec_i, w_deq.prec, w_enq.prec});
    `DSH_SLOT_SHOW(r_enq, r_enq_q, r_enq_v_q, r_enq_ok_q, 1'b0)
    r_enq.qrec   = pick3_qrec(fwd_i.w_enq_qsel, {mem_enq_qrec_i, w_deq.qrec, w_enq.qrec});
    r_enq.prec   = pick3_prec(fwd_i.w_enq_psel, {mem_enq_prec_i, w_deq.prec, w_enq.prec});
  end
  assign r_deq_o = r_deq;
  assign r_enq_o = r_enq;

  // The selects of the picks above (dsh_fwd): one source each.
  `ASSERT(InWDeqQselOneHot_A, $onehot(fwd_i.w_deq_qsel))
  `ASSERT(InWEnqQselOneHot_A, $onehot(fwd_i.w_enq_qsel))
  `ASSERT(InWDeqPselOneHot_A, $onehot(fwd_i.w_deq_psel))
  `ASSERT(InWEnqPselOneHot_A, $onehot(fwd_i.w_enq_psel))
  // ok implies valid; an index out of range reads entry 0.
  `ASSERT(InOkImpliesValid_A, (!r_deq_ok_q || r_deq_v_q) && (!r_enq_ok_q || r_enq_v_q))
endmodule

`default_nettype wire
