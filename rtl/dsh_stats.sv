// SPDX-License-Identifier: Apache-2.0
// The MMU's statistics: per-queue drop and PAUSE counters, per-port
// PORT_PAUSE counters (DSH), each kind in a memory counted by
// read-modify-write (dsh_cnt_ram), and their part of the read port's
// answer. dsh_mmu instantiates it only with Stats = 1; the protocol error
// count (dsh_err_count) and the read port's request and port sums
// (dsh_rd_port) are not statistics and stay without it.
//
// Counting (dsh_cnt_ram): a cycle before stage E, the entries its slots may
// count are named (slot 0 the dequeue's queue, in stage D; slot 1 the
// enqueue's queue and port, in stage R); stage W says which count. Only slot 1 drops or pauses a port; under DSH both slots can pause
// a queue (a dequeue leaves its queue above a lower X_qoff), so the PAUSE
// counters have two counting slots there. Resume counts are not stored:
// PAUSE and RESUME of a queue (port) alternate from QON, so resumes =
// pauses - qoff (pauses - poff).
//
// Read port (spec §9.8), three cycles: dsh_rd_port registers the request;
// the counters are read at the next edge (a registered read in
// dsh_cnt_ram) with its entry and port, beside the state bits dsh_rd_port
// registers; the resumes are derived (and, with two PAUSE banks, the banks
// added) and the answer registered. The values are those after the cycle
// whose results the stat_* outputs show one cycle after the request.
// Requests out of range read 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_stats #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned CntW      = 32,
  parameter bit          Dsh       = 1'b1,
  parameter int unsigned PauseBanks = 1,  // DSH's PAUSE counters: 1 memory with 2 write ports, or 2 banks
  parameter int unsigned ReadCopies = 1,  // copies of each counter read's index (dsh_cnt_ram)
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned QIdxW  = dsh_pkg::idx_w(NumQ),
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts)
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  // The entries the slots may count, a cycle before stage E.
  // Each index in ReadCopies copies (copy c at c*width); the enqueue's
  // twice that: the drop counters' copies, then the PAUSE counters'.
  input  logic [ReadCopies*QIdxW-1:0]   deq_idx_i,
  input  logic [2*ReadCopies*QIdxW-1:0] enq_idx_i,
  input  logic [ReadCopies*PortW-1:0]   enq_p_i,
  // Stage W: what counts.
  input  logic                w_qpause0_i,   // slot 0's queue paused
  input  logic                w_qpause1_i,   // slot 1's queue paused
  input  logic                w_drop_i,      // slot 1's packet dropped
  input  logic                w_ppause_i,    // slot 1's port paused

  // Read port: the request registered by dsh_rd_port, then (a cycle
  // later) whether it was in range and the state bits of its queue and port.
  input  logic [ReadCopies*QIdxW-1:0] rd_qidx_i,
  input  logic [ReadCopies*PortW-1:0] rd_p_i,
  input  logic                rd_q_ok_i,
  input  logic                rd_p_ok_i,
  input  logic                rd_qoff_i,
  input  logic                rd_poff_i,
  output logic [CntW-1:0]     stat_rd_drops_o,
  output logic [CntW-1:0]     stat_rd_pauses_o,
  output logic [CntW-1:0]     stat_rd_resumes_o,
  output logic [CntW-1:0]     stat_rd_port_pauses_o,
  output logic [CntW-1:0]     stat_rd_port_resumes_o
);
  function automatic [CntW-1:0] inc(input logic [CntW-1:0] x);  // x + 1, log depth
    inc = CntW'(dsh_pkg::inc64(64'(x)));
  endfunction
  function automatic [CntW-1:0] dec(input logic [CntW-1:0] x);  // x - 1 = ~(~x + 1)
    dec = ~inc(~x);
  endfunction

  // ------------------------------------------------------------ counters
  // Each memory reads rd_qidx_i / rd_p_i at the clock edge (a registered read).
  localparam int unsigned QC = ReadCopies * QIdxW;
  logic [CntW-1:0] rd_drops, rd_qpauses, rd_ppauses;
  dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(1), .ReadCopies(ReadCopies)) u_drops (
    .clk_i, .rst_ni, .rmw_idx_i(enq_idx_i[0 +: QC]), .inc_i(w_drop_i), .rd_idx_i(rd_qidx_i), .rd_o(rd_drops));
  dsh_cnt_ram #(.Entries(NumPorts), .CntW(CntW), .Slots(1), .ReadCopies(ReadCopies)) u_ppause (
    .clk_i, .rst_ni, .rmw_idx_i(enq_p_i), .inc_i(Dsh && w_ppause_i), .rd_idx_i(rd_p_i), .rd_o(rd_ppauses));
  // PAUSE counters. SIH pauses a queue only on an admission (slot 1): one
  // counting slot. DSH has two (a dequeue can pause its queue): with
  // PauseBanks = 1 one memory with two write ports; with PauseBanks = 2 a
  // memory per slot, each with one write port (block RAM on an FPGA), whose
  // counts the read port adds.
  if (Dsh && PauseBanks == 1) begin : gen_qpause_2slot
    // slot 0 the enqueue's, slot 1 the dequeue's, copy by copy
    logic [2*QC-1:0] rmw_idx;
    for (genvar c = 0; c < ReadCopies; c++) begin : gen_copy
      assign rmw_idx[2*c*QIdxW +: 2*QIdxW] = {deq_idx_i[c*QIdxW +: QIdxW], enq_idx_i[QC + c*QIdxW +: QIdxW]};
    end
    dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(2), .ReadCopies(ReadCopies)) u_qpause (
      .clk_i, .rst_ni, .rmw_idx_i(rmw_idx), .inc_i({w_qpause0_i, w_qpause1_i}),
      .rd_idx_i(rd_qidx_i), .rd_o(rd_qpauses));
  end else begin : gen_qpause_bank
    logic [CntW-1:0] rd_enq;
    dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(1), .ReadCopies(ReadCopies)) u_qpause (
      .clk_i, .rst_ni, .rmw_idx_i(enq_idx_i[QC +: QC]), .inc_i(w_qpause1_i), .rd_idx_i(rd_qidx_i), .rd_o(rd_enq));
    if (Dsh) begin : gen_deq_bank
      logic [CntW-1:0] rd_deq;
      dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(1), .ReadCopies(ReadCopies)) u_qpause_deq (
        .clk_i, .rst_ni, .rmw_idx_i(deq_idx_i), .inc_i(w_qpause0_i), .rd_idx_i(rd_qidx_i), .rd_o(rd_deq));
      assign rd_qpauses = rd_enq + rd_deq;
    end else begin : gen_sih
      assign rd_qpauses = rd_enq;
      logic unused_sih;
      assign unused_sih = ^{deq_idx_i, w_qpause0_i};
    end
  end

  // ----------------------------------------------------------- read port
  logic [CntW-1:0] drops, qpauses, ppauses;
  assign drops   = rd_q_ok_i ? rd_drops : '0;
  assign qpauses = rd_q_ok_i ? rd_qpauses : '0;
  assign ppauses = rd_p_ok_i ? rd_ppauses : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_rd_drops_o        <= '0;
      stat_rd_pauses_o       <= '0;
      stat_rd_resumes_o      <= '0;
      stat_rd_port_pauses_o  <= '0;
      stat_rd_port_resumes_o <= '0;
    end else begin
      stat_rd_drops_o        <= drops;
      stat_rd_pauses_o       <= qpauses;
      stat_rd_resumes_o      <= rd_qoff_i ? dec(qpauses) : qpauses;
      stat_rd_port_pauses_o  <= ppauses;
      stat_rd_port_resumes_o <= rd_poff_i ? dec(ppauses) : ppauses;
    end
  end

  // SIH has no port state: no PORT_PAUSE counted, no POFF read; and it
  // pauses a queue only on an admission (slot 1).
  if (!Dsh) begin : gen_sih_check
    `ASSERT(SihNoPortPause_A, !w_ppause_i)
    `ASSERT(SihNoPoff_A, !rd_poff_i)
    `ASSERT(SihPauseOnlyOnAdmission_A, !w_qpause0_i)
  end
  // Cover: what is counted (events as they happen), a read of resumes
  // while QOFF (POFF).
  `COVER(CountQueuePauseDeq_C, w_qpause0_i)
  `COVER(CountQueuePauseEnq_C, w_qpause1_i)
  `COVER(CountQueuePauseBoth_C, w_qpause0_i && w_qpause1_i)
  `COVER(CountDrop_C, w_drop_i)
  `COVER(CountPortPause_C, w_ppause_i)
  `COVER(ReadResumesWhileQoff_C, rd_qoff_i && rd_q_ok_i)
  `COVER(ReadResumesWhilePoff_C, rd_poff_i && rd_p_ok_i)
endmodule

`default_nettype wire
