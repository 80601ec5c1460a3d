// The MMU's statistics: per-queue drop and PAUSE counters, per-port
// PORT_PAUSE counters (DSH), each kind in a memory counted by
// read-modify-write (dsh_cnt_ram), the protocol error count and its sticky
// flag, and the counter read port.
//
// Counting (dsh_cnt_ram): a cycle before stage E, the entries its slots may
// count are named (slot 0 the dequeue's queue, in stage D; slot 1 the
// enqueue's queue and port, in stage R); stage W says which count. Only slot 1 drops or pauses a port; under DSH both slots can pause
// a queue (a dequeue leaves its queue above a lower X_qoff), so the PAUSE
// counters have two counting slots there. Resume counts are not stored:
// PAUSE and RESUME of a queue (port) alternate from QON, so resumes =
// pauses - qoff (pauses - poff).
//
// Read port, three cycles: the request (stat_rd_port_i, stat_rd_queue_i) is
// registered; the counters (a registered read in dsh_cnt_ram), the state
// bit and the port record (from dsh_rec_store, through rd_p_o / rd_prec_i)
// are read and registered; the resumes are derived (and, with two PAUSE
// banks, the banks added) and the answer registered. The values are those
// after the cycle whose results the stat_* outputs show one cycle after the
// request. Indices out of range read 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_stats #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned CellW     = 20,
  parameter int unsigned CntW      = 32,
  parameter bit          Dsh       = 1'b1,
  parameter int unsigned PauseBanks = 1,  // DSH's PAUSE counters: 1 memory with 2 write ports, or 2 banks
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned QIdxW  = dsh_pkg::idx_w(NumQ),
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned PRecW  = dsh_pkg::prec_w(CellW)
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  // The entries the slots may count, a cycle before stage E.
  input  logic [QIdxW-1:0]    deq_idx_i,
  input  logic [2*QIdxW-1:0]  enq_idx_i,  // two copies: the drop and the PAUSE counters
  input  logic [PortW-1:0]    enq_p_i,
  // Stage W: what counts.
  input  logic                w_qpause0_i,   // slot 0's queue paused
  input  logic                w_qpause1_i,   // slot 1's queue paused
  input  logic                w_drop_i,      // slot 1's packet dropped
  input  logic                w_ppause_i,    // slot 1's port paused
  input  logic [1:0]          w_error_i,     // protocol errors: [0] dequeue, [1] enqueue

  output logic [CntW-1:0]     error_count_o,
  output logic                error_sticky_o,

  // Read port; the state bits and the port record come from dsh_rec_store.
  input  logic [PortW-1:0]    stat_rd_port_i,
  input  logic [QueueW-1:0]   stat_rd_queue_i,
  input  logic [NumQ-1:0]     qoff_i,  // the MMU's qoff_o, bit p*NumQueues + q
  output logic [PortW-1:0]    rd_p_o,
  input  logic [PRecW-1:0]    rd_prec_i,
  output logic [CntW-1:0]     stat_rd_drops_o,
  output logic [CntW-1:0]     stat_rd_pauses_o,
  output logic [CntW-1:0]     stat_rd_resumes_o,
  output logic [CntW-1:0]     stat_rd_port_pauses_o,
  output logic [CntW-1:0]     stat_rd_port_resumes_o,
  output logic [CellW-1:0]    stat_rd_port_shared_o,
  output logic [CellW-1:0]    stat_rd_port_hdrm_o
);
  function automatic [CntW-1:0] inc(input logic [CntW-1:0] x);  // x + 1, log depth
    inc = CntW'(dsh_pkg::inc64(64'(x)));
  endfunction
  function automatic [CntW-1:0] dec(input logic [CntW-1:0] x);  // x - 1 = ~(~x + 1)
    dec = ~inc(~x);
  endfunction

  // ------------------------------------------------------------ requests
  logic             rq_ok_q, rp_ok_q;  // in range
  logic [QIdxW-1:0] rq_idx_q, rq_bit_q;  // the counters' entry (queue-major, dsh_mmu), qoff_i's bit
  logic [PortW-1:0] rp_q;
  logic p_in, q_in;
  assign p_in = 32'(stat_rd_port_i) < NumPorts;
  assign q_in = p_in && 32'(stat_rd_queue_i) < NumQueues;
  always_ff @(posedge clk_i) begin
    rp_ok_q  <= p_in;
    rq_ok_q  <= q_in;
    rq_idx_q <= q_in ? QIdxW'(stat_rd_queue_i) * QIdxW'(NumPorts) + QIdxW'(stat_rd_port_i) : '0;
    rq_bit_q <= q_in ? QIdxW'(stat_rd_port_i) * QIdxW'(NumQueues) + QIdxW'(stat_rd_queue_i) : '0;
    rp_q     <= p_in ? stat_rd_port_i : '0;
  end
  assign rd_p_o = rp_q;

  // ------------------------------------------------------------ counters
  // Each memory reads rq_idx_q / rp_q at the clock edge (a registered read).
  logic [CntW-1:0] rd_drops, rd_qpauses, rd_ppauses;
  dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(1)) u_drops (
    .clk_i, .rst_ni, .rmw_idx_i(enq_idx_i[0 +: QIdxW]), .inc_i(w_drop_i), .rd_idx_i(rq_idx_q), .rd_o(rd_drops));
  dsh_cnt_ram #(.Entries(NumPorts), .CntW(CntW), .Slots(1)) u_ppause (
    .clk_i, .rst_ni, .rmw_idx_i(enq_p_i), .inc_i(Dsh && w_ppause_i), .rd_idx_i(rp_q), .rd_o(rd_ppauses));
  // PAUSE counters. SIH pauses a queue only on an admission (slot 1): one
  // counting slot. DSH has two (a dequeue can pause its queue): with
  // PauseBanks = 1 one memory with two write ports; with PauseBanks = 2 a
  // memory per slot, each with one write port (block RAM on an FPGA), whose
  // counts the read port adds.
  if (Dsh && PauseBanks == 1) begin : g_qpause_2slot
    dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(2)) u_qpause (
      .clk_i, .rst_ni, .rmw_idx_i({deq_idx_i, enq_idx_i[QIdxW +: QIdxW]}), .inc_i({w_qpause0_i, w_qpause1_i}),
      .rd_idx_i(rq_idx_q), .rd_o(rd_qpauses));
  end else begin : g_qpause_bank
    logic [CntW-1:0] rd_enq;
    dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(1)) u_qpause (
      .clk_i, .rst_ni, .rmw_idx_i(enq_idx_i[QIdxW +: QIdxW]), .inc_i(w_qpause1_i), .rd_idx_i(rq_idx_q), .rd_o(rd_enq));
    if (Dsh) begin : g_deq_bank
      logic [CntW-1:0] rd_deq;
      dsh_cnt_ram #(.Entries(NumQ), .CntW(CntW), .Slots(1)) u_qpause_deq (
        .clk_i, .rst_ni, .rmw_idx_i(deq_idx_i), .inc_i(w_qpause0_i), .rd_idx_i(rq_idx_q), .rd_o(rd_deq));
      assign rd_qpauses = rd_enq + rd_deq;
    end else begin : g_sih
      assign rd_qpauses = rd_enq;
      logic unused_sih;
      assign unused_sih = ^{deq_idx_i, w_qpause0_i};
    end
  end

  // ----------------------------------------------------------- read port
  logic             rd_q_ok_q, rd_p_ok_q;  // the request in range, a cycle later
  logic             rd_qoff_q, rd_poff_q;
  logic [CellW-1:0] rd_pshared_q, rd_phdrm_q;
  always_ff @(posedge clk_i) begin
    rd_q_ok_q <= rq_ok_q;
    rd_p_ok_q <= rp_ok_q;
    rd_qoff_q <= rq_ok_q && qoff_i[rq_bit_q];
    {rd_poff_q, rd_phdrm_q, rd_pshared_q} <= rp_ok_q ? rd_prec_i : '0;
  end
  logic [CntW-1:0] drops, qpauses, ppauses;
  assign drops   = rd_q_ok_q ? rd_drops : '0;
  assign qpauses = rd_q_ok_q ? rd_qpauses : '0;
  assign ppauses = rd_p_ok_q ? rd_ppauses : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_rd_drops_o        <= '0;
      stat_rd_pauses_o       <= '0;
      stat_rd_resumes_o      <= '0;
      stat_rd_port_pauses_o  <= '0;
      stat_rd_port_resumes_o <= '0;
      stat_rd_port_shared_o  <= '0;
      stat_rd_port_hdrm_o    <= '0;
    end else begin
      stat_rd_drops_o        <= drops;
      stat_rd_pauses_o       <= qpauses;
      stat_rd_resumes_o      <= rd_qoff_q ? dec(qpauses) : qpauses;
      stat_rd_port_pauses_o  <= ppauses;
      stat_rd_port_resumes_o <= rd_poff_q ? dec(ppauses) : ppauses;
      stat_rd_port_shared_o  <= rd_pshared_q;
      stat_rd_port_hdrm_o    <= rd_phdrm_q;
    end
  end

  // -------------------------------------------------------------- errors
  // Each erroneous event counts: +2 when both of a cycle's are.
  logic [CntW-1:0] err_cnt_q;
  logic            err_sticky_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_cnt_q    <= '0;
      err_sticky_q <= 1'b0;
    end else begin
      err_cnt_q    <= &w_error_i ? CntW'({inc(err_cnt_q >> 1), err_cnt_q[0]})  // + 2
                    : |w_error_i ? inc(err_cnt_q) : err_cnt_q;
      err_sticky_q <= err_sticky_q | (|w_error_i);
    end
  end
  assign error_count_o  = err_cnt_q;
  assign error_sticky_o = err_sticky_q;
  // SIH has no port state: no PORT_PAUSE counted, no POFF read; and it
  // pauses a queue only on an admission (slot 1).
  if (!Dsh) begin : g_sih_check
    `ASSERT(SihNoPortPause_A, !w_ppause_i)
    `ASSERT(SihNoPoff_A, !rd_prec_i[PRecW-1])
    `ASSERT(SihPauseOnlyOnAdmission_A, !w_qpause0_i)
  end
  // Cover: what is counted (events as they happen), both protocol errors in
  // one cycle, the error count wrapping, a read of resumes while QOFF.
  `COVER(CountQueuePauseDeq_C, w_qpause0_i)
  `COVER(CountQueuePauseEnq_C, w_qpause1_i)
  `COVER(CountQueuePauseBoth_C, w_qpause0_i && w_qpause1_i)
  `COVER(CountDrop_C, w_drop_i)
  `COVER(CountPortPause_C, w_ppause_i)
  `COVER(DeqError_C, w_error_i == 2'b01)
  `COVER(EnqError_C, w_error_i == 2'b10)
  `COVER(BothErrors_C, &w_error_i)
  `COVER(ErrorCountWraps_C, |w_error_i && err_cnt_q == '1)
  `COVER(ReadResumesWhileQoff_C, rd_qoff_q && rd_q_ok_q)
  `COVER(ReadResumesWhilePoff_C, rd_poff_q && rd_p_ok_q)
  `COVER(ReadOutOfRange_C, !rq_ok_q)
endmodule

`default_nettype wire
