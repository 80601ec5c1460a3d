// SPDX-License-Identifier: Apache-2.0
// dsh_mmu's read port (spec §9.8), three cycles: the request
// (stat_rd_port_i, stat_rd_queue_i) is registered with its range checks;
// the port record (dsh_rec_store's third read, through rd_p_o / rd_prec_i)
// and the queue's state bit are read and registered; the port's two sums
// are answered. The occupancy is not statistics, so this module is there
// with or without dsh_stats (dsh_mmu's Stats): the counters read their
// memories with the registered request (rd_qidx_o, rd_p_o) at the edge the
// record is read, and answer beside the sums with the request's range
// checks and state bits of the cycle after (rd_*_ok_o, rd_qoff_o,
// rd_poff_o). Indices out of range read 0. The registered port and entry
// come in ReadCopies copies (dsh_cnt_ram's index copies; copy 0 also
// addresses dsh_rec_store's read).
// Reset (rst_ni, asynchronous): the answer 0, the copies of port and entry
// 0 when there are several (dsh_idx_copies); the other request registers
// have none (the answer's reset covers the cycles they are unknown).
`include "dsh_assert.svh"
`default_nettype none

module dsh_rd_port #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned CellW     = 20,
  parameter int unsigned ReadCopies = 1,
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned QIdxW  = dsh_pkg::idx_w(NumQ),
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned PRecW  = dsh_pkg::prec_w(CellW)
) (
  input  logic                clk_i,
  input  logic                rst_ni,

  input  logic [PortW-1:0]    stat_rd_port_i,
  input  logic [QueueW-1:0]   stat_rd_queue_i,
  input  logic [NumQ-1:0]     qoff_i,     // the MMU's qoff_o, bit p*NumQueues + q
  // dsh_rec_store's read: the port, and its record at the next edge.
  output logic [ReadCopies*PortW-1:0] rd_p_o,
  input  logic [PRecW-1:0]    rd_prec_i,

  // The registered request, for the counters: their entry (queue-major,
  // dsh_mmu) and rd_p_o; then, a cycle later, whether it was in range and
  // the state bits of its queue and port.
  output logic [ReadCopies*QIdxW-1:0] rd_qidx_o,
  output logic                rd_q_ok_o,
  output logic                rd_p_ok_o,
  output logic                rd_qoff_o,
  output logic                rd_poff_o,

  output logic [CellW-1:0]    stat_rd_port_shared_o,
  output logic [CellW-1:0]    stat_rd_port_hdrm_o
);
  // ------------------------------------------------------------ requests
  logic             rq_ok_q, rp_ok_q;  // in range
  logic [QIdxW-1:0] rq_bit_q;  // qoff_i's bit
  logic p_in, q_in;
  logic [QIdxW-1:0] rq_idx;  // the counters' entry
  logic [PortW-1:0] rp;
  assign p_in = 32'(stat_rd_port_i) < NumPorts;
  assign q_in = p_in && 32'(stat_rd_queue_i) < NumQueues;
  assign rq_idx = q_in ? QIdxW'(stat_rd_queue_i) * QIdxW'(NumPorts) + QIdxW'(stat_rd_port_i) : '0;
  assign rp     = p_in ? stat_rd_port_i : '0;
  always_ff @(posedge clk_i) begin
    rp_ok_q  <= p_in;
    rq_ok_q  <= q_in;
    rq_bit_q <= q_in ? QIdxW'(stat_rd_port_i) * QIdxW'(NumQueues) + QIdxW'(stat_rd_queue_i) : '0;
  end
  dsh_idx_copies #(.Width(QIdxW), .Copies(ReadCopies), .Reset(ReadCopies > 1)) u_qidx (
    .clk_i, .rst_ni, .d_i(rq_idx), .q_o(rd_qidx_o));
  dsh_idx_copies #(.Width(PortW), .Copies(ReadCopies), .Reset(ReadCopies > 1)) u_p (
    .clk_i, .rst_ni, .d_i(rp), .q_o(rd_p_o));

  // ---------------------------------------------- reads, then the answer
  logic             rd_q_ok_q, rd_p_ok_q;  // the request in range, a cycle later
  logic             rd_qoff_q, rd_poff_q;
  logic [CellW-1:0] rd_pshared_q, rd_phdrm_q;
  always_ff @(posedge clk_i) begin
    rd_q_ok_q <= rq_ok_q;
    rd_p_ok_q <= rp_ok_q;
    rd_qoff_q <= rq_ok_q && qoff_i[rq_bit_q];
    {rd_poff_q, rd_phdrm_q, rd_pshared_q} <= rp_ok_q ? rd_prec_i : '0;
  end
  assign rd_q_ok_o = rd_q_ok_q;
  assign rd_p_ok_o = rd_p_ok_q;
  assign rd_qoff_o = rd_qoff_q;
  assign rd_poff_o = rd_poff_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_rd_port_shared_o <= '0;
      stat_rd_port_hdrm_o   <= '0;
    end else begin
      stat_rd_port_shared_o <= rd_pshared_q;
      stat_rd_port_hdrm_o   <= rd_phdrm_q;
    end
  end

  `COVER(ReadOutOfRange_C, !rq_ok_q)
endmodule

`default_nettype wire
