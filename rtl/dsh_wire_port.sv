// SPDX-License-Identifier: Apache-2.0
// One port's frame-mode flow control (spec §6.3–§6.6), wired together: the
// sender of its PFC and PAUSE frames (dsh_pfc_tx, from the port's qoff_o
// slice and poff_o bit of dsh_mmu), the receive side's timers
// (dsh_pfc_rx, from the frames the link brings back) and a watchdog per
// class (dsh_pfc_wdog), whose ignore verdict goes back into the receive
// side's OR gate. The quanta (dsh_quanta_tick) and the poll strobe come
// from outside, because every port of one link rate shares them.
// Latencies and reset are the blocks' own; nothing is added between them.
// The watchdogs' counters are packed class by class, class j in bits
// [j*StatW +: StatW].
`include "dsh_assert.svh"
`default_nettype none

module dsh_wire_port #(
  parameter int unsigned NumQueues = 8,
  parameter int unsigned QuantaW   = 9,
  parameter int unsigned PollW     = 16,
  parameter int unsigned StatW     = 32
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic [QuantaW-1:0]           quanta_i,         // dsh_quanta_tick quanta_o
  input  logic                         poll_i,           // the watchdogs' poll strobe
  // configuration (static while out of reset)
  input  logic [15:0]                  cfg_pause_quanta_i,
  input  logic [15:0]                  cfg_refresh_quanta_i,
  input  logic [47:0]                  cfg_src_mac_i,
  input  logic [PollW-1:0]             cfg_detect_polls_i,
  input  logic [PollW-1:0]             cfg_restore_polls_i,
  input  logic [1:0]                   cfg_action_i,
  // transmit: the MMU's decisions for this port, frames to the MAC
  input  logic [NumQueues-1:0]         qoff_i,
  input  logic                         poff_i,
  output logic [7:0]                   m_axis_tdata_o,
  output logic                         m_axis_tvalid_o,
  input  logic                         m_axis_tready_i,
  output logic                         m_axis_tlast_o,
  // receive: frames from the MAC, the pause state of this port's transmitter
  input  logic [7:0]                   s_axis_tdata_i,
  input  logic                         s_axis_tvalid_i,
  input  logic                         s_axis_tlast_i,
  input  logic                         s_axis_tuser_i,
  output logic [NumQueues-1:0]         tx_pause_o,
  output logic [NumQueues-1:0]         storm_o,
  output logic [NumQueues-1:0]         drop_o,
  // counters
  output logic [StatW-1:0]             stat_tx_pfc_frames_o,
  output logic [StatW-1:0]             stat_tx_pause_frames_o,
  output logic [StatW-1:0]             stat_rx_pfc_o,
  output logic [StatW-1:0]             stat_rx_pause_o,
  output logic [StatW-1:0]             stat_rx_malformed_o,
  output logic [StatW-1:0]             stat_rx_unknown_o,
  output logic [NumQueues*StatW-1:0]   stat_storms_o,
  output logic [NumQueues*StatW-1:0]   stat_restores_o
);
  logic [NumQueues-1:0] ignore, class_paused, pfc_rx;
  logic                 port_paused;

  dsh_pfc_tx #(.NumQueues(NumQueues), .QuantaW(QuantaW), .StatW(StatW)) u_tx (
    .clk_i, .rst_ni, .qoff_i, .poff_i, .quanta_i, .cfg_pause_quanta_i, .cfg_refresh_quanta_i,
    .cfg_src_mac_i, .m_axis_tdata_o, .m_axis_tvalid_o, .m_axis_tready_i, .m_axis_tlast_o,
    .stat_pfc_frames_o(stat_tx_pfc_frames_o), .stat_pause_frames_o(stat_tx_pause_frames_o));

  dsh_pfc_rx #(.NumQueues(NumQueues), .QuantaW(QuantaW), .StatW(StatW)) u_rx (
    .clk_i, .rst_ni, .s_axis_tdata_i, .s_axis_tvalid_i, .s_axis_tlast_i, .s_axis_tuser_i,
    .quanta_i, .ignore_i(ignore), .tx_pause_o, .class_paused_o(class_paused),
    .port_paused_o(port_paused), .pfc_rx_o(pfc_rx), .stat_pfc_o(stat_rx_pfc_o),
    .stat_pause_o(stat_rx_pause_o), .stat_malformed_o(stat_rx_malformed_o),
    .stat_unknown_o(stat_rx_unknown_o));

  for (genvar j = 0; j < NumQueues; j++) begin : gen_wdog
    dsh_pfc_wdog #(.PollW(PollW), .StatW(StatW)) u_wdog (
      .clk_i, .rst_ni, .poll_i, .pfc_rx_i(pfc_rx[j]), .paused_i(class_paused[j]),
      .cfg_detect_polls_i, .cfg_restore_polls_i, .cfg_action_i, .storm_o(storm_o[j]),
      .ignore_pause_o(ignore[j]), .drop_o(drop_o[j]),
      .stat_storms_o(stat_storms_o[j*StatW +: StatW]),
      .stat_restores_o(stat_restores_o[j*StatW +: StatW]));
  end

  // The watchdog's verdict reaches the OR gate: an ignored class's pause
  // never holds its transmitter unless the port is paused.
  `ASSERT(WirePortIgnoredClassFree_A, (tx_pause_o & ignore) == (port_paused ? ignore : '0))

endmodule
