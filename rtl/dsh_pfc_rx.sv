// SPDX-License-Identifier: Apache-2.0
// Upstream side of DSH flow control in frame mode (spec §6.3, §6.5): the
// pause state of one link's transmitter, set by the PFC and PAUSE frames
// the link brings back. One timer per class (PFC, opcode 0x0101, class j's
// time in word j+1 when bit j of word 0 is set) and one for the port
// (PAUSE, opcode 0x0001, time in word 0), in quanta, each counting down by
// quanta_i a cycle (dsh_quanta_tick) and saturating at 0; a frame's time
// replaces the timer (0 ends the pause). Class j may start a packet only
// while
//   tx_pause_o[j] = (class_timer[j] != 0 & !ignore_i[j]) | port_timer != 0
// is 0: the OR gate of spec §6.1. ignore_i comes from the class's watchdog
// (dsh_pfc_wdog); the timer runs on under it. Enable bits of classes
// NumQueues..7 (the control class) are ignored.
// Latency: a frame's tlast beat at clock edge k, parser output at k+1,
// timers loaded at edge k+2 (in that cycle the load wins over the count).
// Malformed MAC Control frames and unknown opcodes change nothing and are
// counted; counters wrap modulo 2^StatW. Reset: nothing paused, counters 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_pfc_rx #(
  parameter int unsigned NumQueues = 8,
  parameter int unsigned QuantaW   = 9,
  parameter int unsigned StatW     = 32
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [7:0]           s_axis_tdata_i,
  input  logic                 s_axis_tvalid_i,
  input  logic                 s_axis_tlast_i,
  input  logic                 s_axis_tuser_i,
  input  logic [QuantaW-1:0]   quanta_i,          // quanta elapsed this cycle
  input  logic [NumQueues-1:0] ignore_i,          // the watchdog's verdict per class
  output logic [NumQueues-1:0] tx_pause_o,
  output logic [NumQueues-1:0] class_paused_o,    // class_timer != 0
  output logic                 port_paused_o,     // port_timer != 0
  output logic [NumQueues-1:0] pfc_rx_o,          // a PFC frame enabling the class, this cycle
  output logic [StatW-1:0]     stat_pfc_o,
  output logic [StatW-1:0]     stat_pause_o,
  output logic [StatW-1:0]     stat_malformed_o,
  output logic [StatW-1:0]     stat_unknown_o
);
  if (NumQueues < 1 || NumQueues > 8) begin : gen_bad_num_queues
    $error("dsh_pfc_rx: NumQueues must be in 1..8");
  end
  if (QuantaW < 1 || QuantaW > 16) begin : gen_bad_quanta_w
    $error("dsh_pfc_rx: QuantaW must be in 1..16");
  end
  if (StatW < 1 || StatW > 64) begin : gen_bad_stat_w
    $error("dsh_pfc_rx: StatW must be in 1..64");
  end
  localparam logic [15:0] OpPause = 16'h0001;
  localparam logic [15:0] OpPfc   = 16'h0101;

  logic            frame_valid, malformed;
  logic [15:0]     opcode;
  logic [9*16-1:0] words;
  dsh_macc_rx_parse u_parse (
    .clk_i, .rst_ni, .s_axis_tdata_i, .s_axis_tvalid_i, .s_axis_tlast_i, .s_axis_tuser_i,
    .frame_valid_o(frame_valid), .malformed_o(malformed), .opcode_o(opcode), .words_o(words));

  // Words past the last class's time and the reserved upper byte of the
  // enable vector carry nothing for this receiver.
  logic unused_words;
  assign unused_words = ^words;
  logic is_pfc, is_pause, is_unknown;
  assign is_pfc     = frame_valid && opcode == OpPfc;
  assign is_pause   = frame_valid && opcode == OpPause;
  assign is_unknown = frame_valid && !is_pfc && !is_pause;

  // Counting down by the quanta of this cycle, saturating at 0.
  function automatic logic [15:0] count_down(input logic [15:0] t, input logic [QuantaW-1:0] q);
    count_down = 17'(t) > 17'(q) ? t - 16'(q) : 16'd0;
  endfunction

  logic [15:0] port_timer_d, port_timer_q;
  logic [NumQueues-1:0] counted_ok, expires, xon, refresh;
  for (genvar j = 0; j < NumQueues; j++) begin : gen_class
    logic [15:0] timer_d, timer_q;  // class j's pause timer
    assign pfc_rx_o[j] = is_pfc && words[j];
    assign timer_d     = pfc_rx_o[j] ? words[(j + 1) * 16 +: 16] : count_down(timer_q, quanta_i);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) timer_q <= '0;
      else         timer_q <= timer_d;
    end
    assign class_paused_o[j] = timer_q != '0;
    // What each class's timer did this cycle, for the checks below (one
    // named check over all classes: Yosys names a check once per module).
    assign counted_ok[j] = timer_q == '0 || pfc_rx_o[j] || timer_d < timer_q || quanta_i == '0;
    assign expires[j]    = timer_q != '0 && timer_d == '0 && !pfc_rx_o[j];
    assign xon[j]        = timer_q != '0 && pfc_rx_o[j] && words[(j + 1) * 16 +: 16] == '0;
    assign refresh[j]    = timer_q != '0 && pfc_rx_o[j] && words[(j + 1) * 16 +: 16] != '0;
  end
  assign port_timer_d  = is_pause ? words[15:0] : count_down(port_timer_q, quanta_i);
  assign port_paused_o = port_timer_q != '0;
  assign tx_pause_o    = (class_paused_o & ~ignore_i) | {NumQueues{port_paused_o}};

  logic [StatW-1:0] pfc_q, pause_q, malformed_q, unknown_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      port_timer_q <= '0;
      pfc_q        <= '0;
      pause_q      <= '0;
      malformed_q  <= '0;
      unknown_q    <= '0;
    end else begin
      port_timer_q <= port_timer_d;
      pfc_q        <= pfc_q + StatW'(is_pfc);
      pause_q      <= pause_q + StatW'(is_pause);
      malformed_q  <= malformed_q + StatW'(malformed);
      unknown_q    <= unknown_q + StatW'(is_unknown);
    end
  end
  assign stat_pfc_o       = pfc_q;
  assign stat_pause_o     = pause_q;
  assign stat_malformed_o = malformed_q;
  assign stat_unknown_o   = unknown_q;

  // The OR gate of spec §6.1: the port's pause holds every class.
  // A running timer counts down unless a frame reloads it.
  `ASSERT(ClassLoadsOrCounts_A, &counted_ok)
  `COVER(ClassExpires_C, expires != '0)
  `COVER(ClassXon_C, xon != '0)
  `COVER(ClassRefresh_C, refresh != '0)
  `COVER(ClassIgnored_C, (class_paused_o & ignore_i) != '0 && !port_paused_o)
  `ASSERT(PortPauseHoldsEveryClass_A, !port_paused_o || &tx_pause_o)
  `ASSERT(PauseOnlyFromATimer_A, (tx_pause_o & ~class_paused_o) == '0 || port_paused_o)
  `COVER(ClassAndPortPaused_C, port_paused_o && class_paused_o != '0)
  `COVER(PortExpires_C, port_timer_q != '0 && port_timer_d == '0 && !is_pause)
  `COVER(PortXon_C, port_timer_q != '0 && is_pause && words[15:0] == '0)
  `COVER(UnknownOpcode_C, is_unknown)
  `COVER(PfcForControlClassOnly_C, is_pfc && words[NumQueues +: (16 - NumQueues)] != '0 && pfc_rx_o == '0)
endmodule

`default_nettype wire
