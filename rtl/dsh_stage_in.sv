// SPDX-License-Identifier: Apache-2.0
// Stages A and R of dsh_mmu (spec §9.2): the inputs registered, the read
// indices of the records and counters, each event's eta, and stage R's
// records with stage W's writes of this cycle.
//   A  the enqueue's inputs wait one cycle (a_enq_*); the dequeue's go
//      straight to R;
//   R  slot "deq" (the dequeue of cycle c+1) and slot "enq" (the enqueue
//      of cycle c) while stage D holds the dequeue of cycle c: r_deq_o,
//      r_enq_o (rslot_t, dsh_slot.svh), their records and eta beside
//      them (r_*_qrec_o, r_*_prec_o, r_*_eta_o). The index copies address
//      dsh_rec_store's reads (one copy per memory slice) and dsh_stats'
//      counters; a slot's records are what the memories read with stage
//      W's records forwarded over them (selects from dsh_fwd, whose entry
//      keys nx_*_key_o are formed here).
// Headroom per port (spec §9.1): port p's eta at cfg_headroom_cells_i[p*CellW
// +: CellW]. Each event registers copies of its port index as it arrives
// and reads its port's entry a stage later (the enqueue in A, the dequeue
// in R): the enqueue's eta and eta_dq registered, the dequeue's
// combinational for stage D's registers.
// Latency: inputs to r_* one clock edge (the dequeue) or two (the
// enqueue); the slots' records are combinational from the memories.
// Reset: valid and ok bits 0 (rst_ni, asynchronous), the read index copies
// 0 with ReadSlices > 1 (dsh_idx_copies); the rest has none.
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_slot.svh"

module dsh_stage_in #(
  parameter int unsigned NumPorts   = 32,
  parameter int unsigned NumQueues  = 7,
  parameter int unsigned CellW      = 20,
  parameter int unsigned SizeW      = 8,
  parameter int unsigned ReadSlices = dsh_pkg::read_slices(CellW, NumPorts * NumQueues),
  parameter int unsigned CntCopies  = 1,  // copies of each counter read's index (dsh_stats)
  // The pool term's cells (spec §4.9): 0 the enqueue's own (one lane), 1
  // r_enq_pool_cells_i (P_l + s of this lane, registered beside stage R's
  // enqueue by dsh_mmu), PoolW bits.
  parameter bit          PoolIn     = 1'b0,
  parameter int unsigned PoolW      = SizeW,
  `DSH_STAGE_WIDTHS(NumPorts, NumQueues, CellW, SizeW),
  localparam int unsigned KeyW    = PortW + QueueW,
  localparam int unsigned TW      = dsh_pkg::term_w(CellW),
  localparam int unsigned QCopies = dsh_pkg::qread_copies(ReadSlices),
  localparam int unsigned PCopies = dsh_pkg::pread_copies(ReadSlices)
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,

  input  logic [CellW-1:0]          cfg_shared_cells_i,
  input  logic [CellW-1:0]          cfg_private_cells_i,
  input  logic [NumPorts*CellW-1:0] cfg_headroom_cells_i,
  input  logic [CellW-1:0]          cfg_delta_q_i,

  input  logic                      deq_valid_i,
  input  logic [PortW-1:0]          deq_port_i,
  input  logic [QueueW-1:0]         deq_queue_i,
  input  logic [SizeW-1:0]          deq_cells_i,
  input  logic                      enq_valid_i,
  input  logic [PortW-1:0]          enq_port_i,
  input  logic [QueueW-1:0]         enq_queue_i,
  input  logic [SizeW-1:0]          enq_cells_i,
  input  logic [PoolW-1:0]          r_enq_pool_cells_i,

  output logic                      busy_o,  // an event in A or R
  // The entries stage R takes at the next clock edge (dsh_fwd): {port,
  // queue}, 0 when out of range.
  output logic [KeyW-1:0]           nx_deq_key_o,
  output logic [KeyW-1:0]           nx_enq_key_o,

  // Stage R's slots (rslot_t) and their records.
  output logic [RSlotW-1:0]         r_deq_o,
  output logic [RSlotW-1:0]         r_enq_o,
  output logic [QRecW-1:0]          r_deq_qrec_o,
  output logic [QRecW-1:0]          r_enq_qrec_o,
  output logic [PRecW-1:0]          r_deq_prec_o,
  output logic [PRecW-1:0]          r_enq_prec_o,
  output logic [EtaW-1:0]           r_deq_eta_o,
  output logic [EtaW-1:0]           r_enq_eta_o,
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

  // The records: from the memories, those stage W writes (slot 0, slot
  // 1), W's forwarding selects (dsh_fwd, one-hot {memory, W slot 0, W
  // slot 1}).
  input  logic [QRecW-1:0]          mem_deq_qrec_i,
  input  logic [QRecW-1:0]          mem_enq_qrec_i,
  input  logic [PRecW-1:0]          mem_deq_prec_i,
  input  logic [PRecW-1:0]          mem_enq_prec_i,
  input  logic [QRecW-1:0]          w_deq_qrec_i,
  input  logic [QRecW-1:0]          w_enq_qrec_i,
  input  logic [PRecW-1:0]          w_deq_prec_i,
  input  logic [PRecW-1:0]          w_enq_prec_i,
  input  logic [2:0]                w_deq_qsel_i,
  input  logic [2:0]                w_enq_qsel_i,
  input  logic [2:0]                w_deq_psel_i,
  input  logic [2:0]                w_enq_psel_i
);
  `DSH_SLOT_TYPES
  // A queue's entry in the memories, queue-major (spec §9.7): with a
  // power-of-two port count it is {q, p}, no adder between the dequeue's
  // input pins and the read index copies.
  function automatic [QIdxW-1:0] queue_idx(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    queue_idx = QIdxW'(q) * QIdxW'(NumPorts) + QIdxW'(p);
  endfunction
  function automatic logic in_range(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    in_range = 32'(p) < NumPorts && 32'(q) < NumQueues;
  endfunction
  // One of three records by a one-hot select: one AND-OR level.
  function automatic [QRecW-1:0] pick3_qrec(input logic [2:0] sel, input logic [3*QRecW-1:0] v);
    pick3_qrec = '0;
    for (int i = 0; i < 3; i++) pick3_qrec |= v[i*QRecW +: QRecW] & {QRecW{sel[i]}};
  endfunction
  function automatic [PRecW-1:0] pick3_prec(input logic [2:0] sel, input logic [3*PRecW-1:0] v);
    pick3_prec = '0;
    for (int i = 0; i < 3; i++) pick3_prec |= v[i*PRecW +: PRecW] & {PRecW{sel[i]}};
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
  logic              a_enq_v_q, a_enq_ok_q;
  logic [PortW-1:0]  a_enq_port_q;
  logic [QueueW-1:0] a_enq_queue_q;
  logic [SizeW-1:0]  a_enq_cells_q;
  logic [EtaSlices*PortW-1:0] a_enq_etap_q, r_deq_etap_q;
  logic [CellW-1:0] a_enq_eta;
  // Stage R's registers (the records and the dequeue's eta are read in R).
  logic              r_deq_v_q, r_deq_ok_q, r_enq_v_q, r_enq_ok_q;
  logic [QIdxW-1:0]  r_deq_idx_q, r_enq_idx_q;
  logic [PortW-1:0]  r_deq_p_q, r_enq_p_q, r_deq_port_q, r_enq_port_q;
  logic [QueueW-1:0] r_deq_queue_q, r_enq_queue_q;
  logic [SizeW-1:0]  r_deq_cells_q, r_enq_cells_q;
  logic [CellW-1:0]  r_deq_eta, r_enq_eta_q;
  logic [CellW:0]    r_deq_eta_dq, r_enq_eta_dq_q;
  assign a_enq_eta    = eta_read(a_enq_etap_q);
  assign r_deq_eta    = eta_read(r_deq_etap_q);
  assign r_deq_eta_dq = {1'b0, r_deq_eta} + {1'b0, cfg_delta_q_i};

  logic [PoolW-1:0] pool_cells;
  if (PoolIn) begin : gen_pool_in
    assign pool_cells = r_enq_pool_cells_i;
  end else begin : gen_pool_own
    assign pool_cells = PoolW'(r_enq_cells_q);
    logic unused_pool_in;
    assign unused_pool_in = ^r_enq_pool_cells_i;
  end
  dsh_size_terms #(.CellW(CellW), .SizeW(SizeW), .PoolW(PoolW)) u_size_terms (
    .cells_i(r_enq_cells_q), .pool_cells_i(pool_cells), .cfg_shared_cells_i, .cfg_private_cells_i, .eta_i(r_enq_eta_q),
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
      a_enq_v_q  <= enq_valid_i;
      a_enq_ok_q <= enq_valid_i && in_range(enq_port_i, enq_queue_i) && enq_cells_i != '0;
      r_deq_v_q  <= deq_valid_i;
      r_deq_ok_q <= deq_valid_i && in_range(deq_port_i, deq_queue_i) && deq_cells_i != '0;
      r_enq_v_q  <= a_enq_v_q;
      r_enq_ok_q <= a_enq_ok_q;
    end
  end
  assign busy_o = a_enq_v_q || r_deq_v_q || r_enq_v_q;

  logic deq_in, a_enq_in;
  logic [QIdxW-1:0] deq_idx, enq_idx;
  logic [PortW-1:0] deq_p, enq_p;
  assign deq_in   = in_range(deq_port_i, deq_queue_i);
  assign a_enq_in = in_range(a_enq_port_q, a_enq_queue_q);
  assign deq_idx  = deq_in ? queue_idx(deq_port_i, deq_queue_i) : '0;
  assign deq_p    = deq_in ? deq_port_i : '0;
  assign enq_idx  = a_enq_in ? queue_idx(a_enq_port_q, a_enq_queue_q) : '0;
  assign enq_p    = a_enq_in ? a_enq_port_q : '0;
  assign nx_deq_key_o = deq_in ? {deq_port_i, deq_queue_i} : '0;
  assign nx_enq_key_o = a_enq_in ? {a_enq_port_q, a_enq_queue_q} : '0;

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
    a_enq_etap_q <= {EtaSlices{table_port(enq_port_i)}};
    r_deq_etap_q <= {EtaSlices{table_port(deq_port_i)}};
  end
  always_ff @(posedge clk_i) begin
    r_enq_eta_q    <= a_enq_eta;
    r_enq_eta_dq_q <= {1'b0, a_enq_eta} + {1'b0, cfg_delta_q_i};
  end
  always_ff @(posedge clk_i) begin
    a_enq_port_q  <= enq_port_i;
    a_enq_queue_q <= enq_queue_i;
    a_enq_cells_q <= enq_cells_i;
    r_deq_idx_q   <= deq_idx;
    r_deq_p_q     <= deq_p;
    r_deq_port_q  <= deq_port_i;
    r_deq_queue_q <= deq_queue_i;
    r_deq_cells_q <= deq_cells_i;
    r_enq_idx_q   <= enq_idx;
    r_enq_p_q     <= enq_p;
    r_enq_port_q  <= a_enq_port_q;
    r_enq_queue_q <= a_enq_queue_q;
    r_enq_cells_q <= a_enq_cells_q;
  end

  // Stage R's records with stage W's writes of this cycle (the memories
  // take them only at the clock edge).
  assign r_deq_qrec_o = pick3_qrec(w_deq_qsel_i, {mem_deq_qrec_i, w_deq_qrec_i, w_enq_qrec_i});
  assign r_enq_qrec_o = pick3_qrec(w_enq_qsel_i, {mem_enq_qrec_i, w_deq_qrec_i, w_enq_qrec_i});
  assign r_deq_prec_o = pick3_prec(w_deq_psel_i, {mem_deq_prec_i, w_deq_prec_i, w_enq_prec_i});
  assign r_enq_prec_o = pick3_prec(w_enq_psel_i, {mem_enq_prec_i, w_deq_prec_i, w_enq_prec_i});

  // The slots, packed.
  rslot_t r_deq, r_enq;
  assign r_deq.v        = r_deq_v_q;
  assign r_deq.ok       = r_deq_ok_q;
  assign r_deq.idx      = r_deq_idx_q;
  assign r_deq.p        = r_deq_p_q;
  assign r_deq.port     = r_deq_port_q;
  assign r_deq.queue_id = r_deq_queue_q;
  assign r_deq.cells    = r_deq_cells_q;
  assign r_enq.v        = r_enq_v_q;
  assign r_enq.ok       = r_enq_ok_q;
  assign r_enq.idx      = r_enq_idx_q;
  assign r_enq.p        = r_enq_p_q;
  assign r_enq.port     = r_enq_port_q;
  assign r_enq.queue_id = r_enq_queue_q;
  assign r_enq.cells    = r_enq_cells_q;
  eta_t r_deq_e, r_enq_e;
  assign r_deq_e.eta    = r_deq_eta;
  assign r_deq_e.eta_dq = r_deq_eta_dq;
  assign r_enq_e.eta    = r_enq_eta_q;
  assign r_enq_e.eta_dq = r_enq_eta_dq_q;
  assign r_deq_o     = r_deq;
  assign r_enq_o     = r_enq;
  assign r_deq_eta_o = r_deq_e;
  assign r_enq_eta_o = r_enq_e;

  // The selects of the picks above (dsh_fwd): one source each.
  `ASSERT(InWDeqQselOneHot_A, $onehot(w_deq_qsel_i))
  `ASSERT(InWEnqQselOneHot_A, $onehot(w_enq_qsel_i))
  `ASSERT(InWDeqPselOneHot_A, $onehot(w_deq_psel_i))
  `ASSERT(InWEnqPselOneHot_A, $onehot(w_enq_psel_i))
  // ok implies valid; an index out of range reads entry 0.
  `ASSERT(InOkImpliesValid_A, (!r_deq_ok_q || r_deq_v_q) && (!r_enq_ok_q || r_enq_v_q))
endmodule

`default_nettype wire
