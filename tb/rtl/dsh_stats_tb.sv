// SPDX-License-Identifier: Apache-2.0
// Test harness of tb/rtl's Stats.* tests: the statistics counters
// (dsh_stats) with the read port (dsh_rd_port) and the error count
// (dsh_err_count) wired as dsh_mmu wires them, behind the one interface the
// tests drive (the port record and the state bits given as inputs, as
// dsh_rec_store would show them).
`default_nettype none

module dsh_stats_tb #(
  parameter int unsigned NumPorts   = 32,
  parameter int unsigned NumQueues  = 7,
  parameter int unsigned CellW      = 20,
  parameter int unsigned CntW       = 32,
  parameter bit          Dsh        = 1'b1,
  parameter int unsigned PauseBanks = 1,
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned QIdxW  = dsh_pkg::idx_w(NumQ),
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned PRecW  = dsh_pkg::prec_w(CellW)
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [QIdxW-1:0]    deq_idx_i,
  input  logic [2*QIdxW-1:0]  enq_idx_i,
  input  logic [PortW-1:0]    enq_p_i,
  input  logic                w_qpause0_i,
  input  logic                w_qpause1_i,
  input  logic                w_drop_i,
  input  logic                w_ppause_i,
  input  logic [1:0]          w_error_i,
  output logic [CntW-1:0]     error_count_o,
  output logic                error_sticky_o,
  input  logic [PortW-1:0]    stat_rd_port_i,
  input  logic [QueueW-1:0]   stat_rd_queue_i,
  input  logic [NumQ-1:0]     qoff_i,
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
  logic [QIdxW-1:0] rd_qidx;
  logic             rd_q_ok, rd_p_ok, rd_qoff, rd_poff;

  dsh_rd_port #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW)) u_rd_port (
    .clk_i, .rst_ni, .stat_rd_port_i, .stat_rd_queue_i, .qoff_i, .rd_p_o, .rd_prec_i,
    .rd_qidx_o(rd_qidx), .rd_q_ok_o(rd_q_ok), .rd_p_ok_o(rd_p_ok), .rd_qoff_o(rd_qoff), .rd_poff_o(rd_poff),
    .stat_rd_port_shared_o, .stat_rd_port_hdrm_o);

  dsh_err_count #(.CntW(CntW)) u_errors (.clk_i, .rst_ni, .w_error_i, .error_count_o, .error_sticky_o);

  dsh_stats #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CntW(CntW), .Dsh(Dsh), .PauseBanks(PauseBanks)) u_stats (
    .clk_i, .rst_ni, .deq_idx_i, .enq_idx_i, .enq_p_i, .w_qpause0_i, .w_qpause1_i, .w_drop_i, .w_ppause_i,
    .rd_qidx_i(rd_qidx), .rd_p_i(rd_p_o), .rd_q_ok_i(rd_q_ok), .rd_p_ok_i(rd_p_ok), .rd_qoff_i(rd_qoff),
    .rd_poff_i(rd_poff), .stat_rd_drops_o, .stat_rd_pauses_o, .stat_rd_resumes_o, .stat_rd_port_pauses_o,
    .stat_rd_port_resumes_o);
endmodule

`default_nettype wire
