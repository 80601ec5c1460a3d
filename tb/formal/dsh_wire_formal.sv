// SPDX-License-Identifier: Apache-2.0
// Formal harnesses of the frame-mode blocks (rtl/dsh_wire.f) for
// scripts/formal.sh: one module per block, each its block as u_dut at small
// parameters, so that every ASSERT and COVER of the block is checked.
// Environment: reset for the first 3 clock edges, then never again; cfg_*
// constant but any value (anyconst: the configurations the registers allow,
// 0 included); every other input free every cycle (a MAC that holds tready
// low, frames of any bytes and length, any quanta, any poll pattern).
`include "dsh_assert.svh"
`default_nettype none

// Reset for the first 3 clock edges, then never again.
module dsh_wire_formal_reset (
  input  logic clk_i,
  output logic rst_no
);
  logic [1:0] cnt_q = 2'd0;
  always_ff @(posedge clk_i) if (cnt_q != 2'd3) cnt_q <= cnt_q + 2'd1;
  assign rst_no = cnt_q == 2'd3;
endmodule

module dsh_quanta_tick_formal #(
  parameter int unsigned IntW  = 2,
  parameter int unsigned FracW = 3
) (
  input logic clk_i
);
  logic rst_ni;
  dsh_wire_formal_reset u_rst (.clk_i, .rst_no(rst_ni));
  (* anyconst *) logic [IntW+FracW-1:0] cfg_quanta_per_cycle;
  logic [IntW:0] quanta;
  dsh_quanta_tick #(.IntW(IntW), .FracW(FracW)) u_dut (
    .clk_i, .rst_ni, .cfg_quanta_per_cycle_i(cfg_quanta_per_cycle), .quanta_o(quanta));
endmodule

module dsh_pfc_tx_formal #(
  parameter int unsigned NumQueues = 2,
  parameter int unsigned QuantaW   = 3,
  parameter int unsigned StatW     = 3
) (
  input logic                 clk_i,
  input logic [NumQueues-1:0] qoff_i,
  input logic                 poff_i,
  input logic [QuantaW-1:0]   quanta_i,
  input logic                 m_axis_tready_i
);
  logic rst_ni;
  dsh_wire_formal_reset u_rst (.clk_i, .rst_no(rst_ni));
  (* anyconst *) logic [15:0] cfg_pause_quanta, cfg_refresh_quanta;
  (* anyconst *) logic [47:0] cfg_src_mac;
  logic [7:0]       tdata;
  logic             tvalid, tlast;
  logic [StatW-1:0] stat_pfc, stat_pause;
  dsh_pfc_tx #(.NumQueues(NumQueues), .QuantaW(QuantaW), .StatW(StatW)) u_dut (
    .clk_i, .rst_ni, .qoff_i, .poff_i, .quanta_i, .cfg_pause_quanta_i(cfg_pause_quanta),
    .cfg_refresh_quanta_i(cfg_refresh_quanta), .cfg_src_mac_i(cfg_src_mac),
    .m_axis_tdata_o(tdata), .m_axis_tvalid_o(tvalid), .m_axis_tready_i,
    .m_axis_tlast_o(tlast), .stat_pfc_frames_o(stat_pfc), .stat_pause_frames_o(stat_pause));
endmodule

module dsh_pfc_rx_formal #(
  parameter int unsigned NumQueues = 2,
  parameter int unsigned QuantaW   = 3,
  parameter int unsigned StatW     = 3
) (
  input logic                 clk_i,
  input logic [7:0]           s_axis_tdata_i,
  input logic                 s_axis_tvalid_i,
  input logic                 s_axis_tlast_i,
  input logic                 s_axis_tuser_i,
  input logic [QuantaW-1:0]   quanta_i,
  input logic [NumQueues-1:0] ignore_i
);
  logic rst_ni;
  dsh_wire_formal_reset u_rst (.clk_i, .rst_no(rst_ni));
  logic [NumQueues-1:0] tx_pause, class_paused, pfc_rx;
  logic                 port_paused;
  logic [StatW-1:0]     stat_pfc, stat_pause, stat_malformed, stat_unknown;
  dsh_pfc_rx #(.NumQueues(NumQueues), .QuantaW(QuantaW), .StatW(StatW)) u_dut (
    .clk_i, .rst_ni, .s_axis_tdata_i, .s_axis_tvalid_i, .s_axis_tlast_i, .s_axis_tuser_i,
    .quanta_i, .ignore_i, .tx_pause_o(tx_pause), .class_paused_o(class_paused),
    .port_paused_o(port_paused), .pfc_rx_o(pfc_rx), .stat_pfc_o(stat_pfc),
    .stat_pause_o(stat_pause), .stat_malformed_o(stat_malformed), .stat_unknown_o(stat_unknown));
endmodule

module dsh_pfc_wdog_formal #(
  parameter int unsigned PollW = 3,
  parameter int unsigned StatW = 3
) (
  input logic clk_i,
  input logic poll_i,
  input logic pfc_rx_i,
  input logic paused_i
);
  logic rst_ni;
  dsh_wire_formal_reset u_rst (.clk_i, .rst_no(rst_ni));
  (* anyconst *) logic [PollW-1:0] cfg_detect_polls, cfg_restore_polls;
  (* anyconst *) logic [1:0]       cfg_action;
  logic             storm, ignore_pause, drop;
  logic [StatW-1:0] stat_storms, stat_restores;
  dsh_pfc_wdog #(.PollW(PollW), .StatW(StatW)) u_dut (
    .clk_i, .rst_ni, .poll_i, .pfc_rx_i, .paused_i, .cfg_detect_polls_i(cfg_detect_polls),
    .cfg_restore_polls_i(cfg_restore_polls), .cfg_action_i(cfg_action), .storm_o(storm),
    .ignore_pause_o(ignore_pause), .drop_o(drop), .stat_storms_o(stat_storms),
    .stat_restores_o(stat_restores));
endmodule

// One port's blocks wired together (dsh_wire_port): every block's
// properties with the watchdog's verdict fed back into the receive side.
module dsh_wire_port_formal #(
  parameter int unsigned NumQueues = 2,
  parameter int unsigned QuantaW   = 3,
  parameter int unsigned PollW     = 2,
  parameter int unsigned StatW     = 2
) (
  input logic                 clk_i,
  input logic [QuantaW-1:0]   quanta_i,
  input logic                 poll_i,
  input logic [NumQueues-1:0] qoff_i,
  input logic                 poff_i,
  input logic                 m_axis_tready_i,
  input logic [7:0]           s_axis_tdata_i,
  input logic                 s_axis_tvalid_i,
  input logic                 s_axis_tlast_i,
  input logic                 s_axis_tuser_i
);
  logic rst_ni;
  dsh_wire_formal_reset u_rst (.clk_i, .rst_no(rst_ni));
  (* anyconst *) logic [15:0]      cfg_pause_quanta, cfg_refresh_quanta;
  (* anyconst *) logic [47:0]      cfg_src_mac;
  (* anyconst *) logic [PollW-1:0] cfg_detect_polls, cfg_restore_polls;
  (* anyconst *) logic [1:0]       cfg_action;
  logic [7:0]                 tdata;
  logic                       tvalid, tlast;
  logic [NumQueues-1:0]       tx_pause, storm, drop;
  logic [StatW-1:0]           tx_pfc, tx_pause_frames, rx_pfc, rx_pause, rx_malformed, rx_unknown;
  logic [NumQueues*StatW-1:0] storms, restores;
  dsh_wire_port #(.NumQueues(NumQueues), .QuantaW(QuantaW), .PollW(PollW), .StatW(StatW)) u_dut (
    .clk_i, .rst_ni, .quanta_i, .poll_i, .cfg_pause_quanta_i(cfg_pause_quanta),
    .cfg_refresh_quanta_i(cfg_refresh_quanta), .cfg_src_mac_i(cfg_src_mac),
    .cfg_detect_polls_i(cfg_detect_polls), .cfg_restore_polls_i(cfg_restore_polls),
    .cfg_action_i(cfg_action), .qoff_i, .poff_i, .m_axis_tdata_o(tdata),
    .m_axis_tvalid_o(tvalid), .m_axis_tready_i, .m_axis_tlast_o(tlast), .s_axis_tdata_i,
    .s_axis_tvalid_i, .s_axis_tlast_i, .s_axis_tuser_i, .tx_pause_o(tx_pause), .storm_o(storm),
    .drop_o(drop), .stat_tx_pfc_frames_o(tx_pfc), .stat_tx_pause_frames_o(tx_pause_frames),
    .stat_rx_pfc_o(rx_pfc), .stat_rx_pause_o(rx_pause), .stat_rx_malformed_o(rx_malformed),
    .stat_rx_unknown_o(rx_unknown), .stat_storms_o(storms), .stat_restores_o(restores));
endmodule
