// SPDX-License-Identifier: Apache-2.0
// The per-queue and per-port records in memories. A queue's occupancy is
// kept as prefix sums in the order a dequeue drains it (dsh_deq_drain): h
// the headroom part, hs headroom + shared, hsp the total; a port keeps its
// shared and headroom sums. The arrays have no reset: a valid bit per
// record, cleared by reset, makes a record read as zero until its first
// write, which is an enqueue's (a dequeue writes only a record it could
// drain). The flow-control state bits are flops: they leave the MMU as
// vectors.
//
// Queue entries are queue-major: q * NumPorts + p (dsh_mmu's queue_idx);
// qoff_o is in the MMU's output order, p * NumQueues + q.
//
// Ports: two asynchronous reads of queue and of port records (stage R's
// dequeue and enqueue), one of port records for the statistics read, and
// two writes (stage W's slots: 0 the dequeue's, 1 the enqueue's, which wins
// when both write one record). A read returns the array as it is; the
// record being written in the same cycle is forwarded by the user (dsh_fwd).
// Records travel as {qoff, hsp, hs, h} and {poff, hdrm, shared}. A read's
// index comes in copies (dsh_pkg::qread_copies, pread_copies), each for a
// slice of one memory, so that no index bit fans out to every memory's
// multiplexers.
`include "dsh_assert.svh"
`default_nettype none

module dsh_rec_store #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned CellW     = 20,
  parameter int unsigned ReadSlices = dsh_pkg::read_slices(CellW, NumPorts * NumQueues),
  localparam int unsigned NumQ  = NumPorts * NumQueues,
  localparam int unsigned QIdxW = dsh_pkg::idx_w(NumQ),
  localparam int unsigned PortW = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QRecW = dsh_pkg::qrec_w(CellW),
  localparam int unsigned PRecW = dsh_pkg::prec_w(CellW),
  localparam int unsigned QCopies = dsh_pkg::qread_copies(ReadSlices),
  localparam int unsigned PCopies = dsh_pkg::pread_copies(ReadSlices)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  input  logic [QCopies*QIdxW-1:0] rd_deq_idx_i,
  input  logic [QCopies*QIdxW-1:0] rd_enq_idx_i,
  output logic [QRecW-1:0]  rd_deq_qrec_o,
  output logic [QRecW-1:0]  rd_enq_qrec_o,
  input  logic [PCopies*PortW-1:0] rd_deq_p_i,
  input  logic [PCopies*PortW-1:0] rd_enq_p_i,
  input  logic [PortW-1:0]  rd_stat_p_i,
  output logic [PRecW-1:0]  rd_deq_prec_o,
  output logic [PRecW-1:0]  rd_enq_prec_o,
  output logic [PRecW-1:0]  rd_stat_prec_o,

  input  logic              wr_deq_i,
  input  logic [QIdxW-1:0]  wr_deq_idx_i,
  input  logic [QIdxW-1:0]  wr_deq_bit_i,  // the same queue's bit of qoff_o
  input  logic [PortW-1:0]  wr_deq_p_i,
  input  logic [QRecW-1:0]  wr_deq_qrec_i,
  input  logic [PRecW-1:0]  wr_deq_prec_i,
  input  logic              wr_enq_i,
  input  logic [QIdxW-1:0]  wr_enq_idx_i,
  input  logic [QIdxW-1:0]  wr_enq_bit_i,
  input  logic [PortW-1:0]  wr_enq_p_i,
  input  logic [QRecW-1:0]  wr_enq_qrec_i,
  input  logic [PRecW-1:0]  wr_enq_prec_i,

  output logic [NumQ-1:0]     qoff_o,
  output logic [NumPorts-1:0] poff_o
);
  logic [CellW-1:0]    occ_h_q   [NumQ];
  logic [CellW-1:0]    occ_hs_q  [NumQ];
  logic [CellW-1:0]    occ_hsp_q [NumQ];
  logic [CellW-1:0]    port_shared_q [NumPorts];
  logic [CellW-1:0]    port_hdrm_q   [NumPorts];
  logic [NumQ-1:0]     qvalid_q, qoff_q;
  // The state bits again in the output order (bit p*NumQueues + q), written
  // through the same ports: a permutation of wires in hardware, but a
  // bit-by-bit copy every cycle in a simulator.
  logic [NumQ-1:0]     qoff_out_q;
  logic [NumPorts-1:0] pvalid_q, poff_q;

  // A read's index copies: [0] the valid bits, [1] the state bits, then
  // each memory's slices in the order of the record, low slice first
  // (dsh_pkg). The simulator (Verilator) reads each memory once, by copy
  // 0: the copies are equal (ReadCopiesEqual_A), and a read per copy and
  // slice halved the simulated cycles per second at 32 x 7. Synthesis and
  // formal read the slices, each by its own copy.
`ifdef VERILATOR
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic [QRecW-1:0] qrec(input logic [QCopies*QIdxW-1:0] c);
    qrec = qvalid_q[c[0 +: QIdxW]] ? {qoff_q[c[0 +: QIdxW]], occ_hsp_q[c[0 +: QIdxW]],
                                      occ_hs_q[c[0 +: QIdxW]], occ_h_q[c[0 +: QIdxW]]} : '0;
  endfunction
  function automatic [PRecW-1:0] prec(input logic [PCopies*PortW-1:0] c);
    prec = pvalid_q[c[0 +: PortW]] ? {poff_q[c[0 +: PortW]], port_hdrm_q[c[0 +: PortW]],
                                      port_shared_q[c[0 +: PortW]]} : '0;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  `ASSERT(ReadCopiesEqual_A, rd_deq_idx_i == {QCopies{rd_deq_idx_i[0 +: QIdxW]}}
                             && rd_enq_idx_i == {QCopies{rd_enq_idx_i[0 +: QIdxW]}}
                             && rd_deq_p_i == {PCopies{rd_deq_p_i[0 +: PortW]}}
                             && rd_enq_p_i == {PCopies{rd_enq_p_i[0 +: PortW]}})
`else
  localparam int unsigned Slices = ReadSlices;
  localparam int unsigned SliceW = (CellW + Slices - 1) / Slices;
  function automatic [CellW-1:0] slice_mask(input integer sl);
    for (int b = 0; b < CellW; b++) slice_mask[b] = b / SliceW == sl;
  endfunction
  function automatic [QRecW-1:0] qrec(input logic [QCopies*QIdxW-1:0] c);
    logic [CellW-1:0] h, hs, hsp;
    {h, hs, hsp} = '0;
    for (int sl = 0; sl < Slices; sl++) begin
      h   |= occ_h_q[c[(2 + sl)*QIdxW +: QIdxW]] & slice_mask(sl);
      hs  |= occ_hs_q[c[(2 + Slices + sl)*QIdxW +: QIdxW]] & slice_mask(sl);
      hsp |= occ_hsp_q[c[(2 + 2 * Slices + sl)*QIdxW +: QIdxW]] & slice_mask(sl);
    end
    qrec = qvalid_q[c[0 +: QIdxW]] ? {qoff_q[c[QIdxW +: QIdxW]], hsp, hs, h} : '0;
  endfunction
  function automatic [PRecW-1:0] prec(input logic [PCopies*PortW-1:0] c);
    logic [CellW-1:0] sh, hd;
    {sh, hd} = '0;
    for (int sl = 0; sl < Slices; sl++) begin
      sh |= port_shared_q[c[(2 + sl)*PortW +: PortW]] & slice_mask(sl);
      hd |= port_hdrm_q[c[(2 + Slices + sl)*PortW +: PortW]] & slice_mask(sl);
    end
    prec = pvalid_q[c[0 +: PortW]] ? {poff_q[c[PortW +: PortW]], hd, sh} : '0;
  endfunction
`endif
  assign rd_deq_qrec_o  = qrec(rd_deq_idx_i);
  assign rd_enq_qrec_o  = qrec(rd_enq_idx_i);
  assign rd_deq_prec_o  = prec(rd_deq_p_i);
  assign rd_enq_prec_o  = prec(rd_enq_p_i);
  assign rd_stat_prec_o = prec({PCopies{rd_stat_p_i}});

  always_ff @(posedge clk_i) begin
    if (wr_deq_i) begin
      {occ_hsp_q[wr_deq_idx_i], occ_hs_q[wr_deq_idx_i], occ_h_q[wr_deq_idx_i]} <= wr_deq_qrec_i[QRecW-2:0];
      {port_hdrm_q[wr_deq_p_i], port_shared_q[wr_deq_p_i]} <= wr_deq_prec_i[PRecW-2:0];
    end
    if (wr_enq_i) begin
      {occ_hsp_q[wr_enq_idx_i], occ_hs_q[wr_enq_idx_i], occ_h_q[wr_enq_idx_i]} <= wr_enq_qrec_i[QRecW-2:0];
      {port_hdrm_q[wr_enq_p_i], port_shared_q[wr_enq_p_i]} <= wr_enq_prec_i[PRecW-2:0];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      qvalid_q <= '0;
      qoff_q   <= '0;
      qoff_out_q <= '0;
      pvalid_q <= '0;
      poff_q   <= '0;
    end else begin
      if (wr_deq_i) begin
        qoff_q[wr_deq_idx_i] <= wr_deq_qrec_i[QRecW-1];
        qoff_out_q[wr_deq_bit_i] <= wr_deq_qrec_i[QRecW-1];
        poff_q[wr_deq_p_i]   <= wr_deq_prec_i[PRecW-1];
      end
      if (wr_enq_i) begin
        qvalid_q[wr_enq_idx_i] <= 1'b1;
        qoff_q[wr_enq_idx_i]   <= wr_enq_qrec_i[QRecW-1];
        qoff_out_q[wr_enq_bit_i] <= wr_enq_qrec_i[QRecW-1];
        pvalid_q[wr_enq_p_i]   <= 1'b1;
        poff_q[wr_enq_p_i]     <= wr_enq_prec_i[PRecW-1];
      end
    end
  end

  assign qoff_o = qoff_out_q;
  assign poff_o = poff_q;
  // A dequeue writes only a record it could drain: one an enqueue wrote
  // before, or writes in the same cycle.
  `ASSERT(DeqWritesQueueWritten_A, !wr_deq_i || qvalid_q[wr_deq_idx_i] || (wr_enq_i && wr_enq_idx_i == wr_deq_idx_i))
  `ASSERT(DeqWritesPortWritten_A, !wr_deq_i || pvalid_q[wr_deq_p_i] || (wr_enq_i && wr_enq_p_i == wr_deq_p_i))
  `ASSERT(WriteInRange_A, (!wr_deq_i || 32'(wr_deq_idx_i) < NumQ) && (!wr_enq_i || 32'(wr_enq_idx_i) < NumQ))
  // Cover: both slots write one record (slot 1 wins), and queue-level and
  // port-level pause on one port together (a port written POFF that has a
  // queue in QOFF).
  `COVER(BothWriteOneQueue_C, wr_deq_i && wr_enq_i && wr_deq_idx_i == wr_enq_idx_i)
  `COVER(BothWriteOnePort_C, wr_deq_i && wr_enq_i && wr_deq_p_i == wr_enq_p_i)
  `COVER(QueueAndPortPaused_C, wr_enq_i && wr_enq_prec_i[PRecW-1]
                               && qoff_out_q[32'(wr_enq_p_i) * NumQueues +: NumQueues] != '0)
endmodule

`default_nettype wire
