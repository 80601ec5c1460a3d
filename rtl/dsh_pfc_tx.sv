// SPDX-License-Identifier: Apache-2.0
// Frame-mode sender of one MMU port's pause state (spec §6.3, §6.4): turns
// the port's slice of the MMU's qoff_o (qoff_i, one bit per class) and its
// poff_o bit (poff_i) into PFC frames (opcode 0x0101) and PAUSE frames
// (opcode 0x0001), 60 bytes without FCS, on an AXI4-Stream of bytes.
//   A PFC frame is due when qoff_i differs from the class state last sent,
//   or a class was last sent paused and the PFC refresh timer is 0. It
//   enables every class paused now or last sent paused, with time
//   cfg_pause_quanta_i for a paused class and 0 (XON) for one that resumed.
//   A PAUSE frame is due when poff_i differs from the port state last sent,
//   or the port was last sent paused and the PAUSE refresh timer is 0; its
//   time is cfg_pause_quanta_i or 0.
//   A frame samples the state when the builder takes it, so changes that
//   arrive while a frame is on the stream are coalesced into the next. With
//   both due, the kind not sent last goes first. Taking a frame loads its
//   kind's refresh timer with cfg_refresh_quanta_i; both count down by
//   quanta_i a cycle, saturating at 0.
// The refresh period must leave the frame time and the receiver's latency
// before cfg_pause_quanta_i runs out (defaults 0x7FFF against 0xFFFF).
// Latency: a change at edge k is taken at edge k+1 when the builder is idle,
// its first byte on the stream after it. Counters wrap modulo 2^StatW.
// Reset: nothing sent paused, idle.
`include "dsh_assert.svh"
`default_nettype none

module dsh_pfc_tx #(
  parameter int unsigned NumQueues = 8,
  parameter int unsigned QuantaW   = 9,
  parameter int unsigned StatW     = 32
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [NumQueues-1:0] qoff_i,
  input  logic                 poff_i,
  input  logic [QuantaW-1:0]   quanta_i,              // quanta elapsed this cycle
  input  logic [15:0]          cfg_pause_quanta_i,    // 0xFFFF by default
  input  logic [15:0]          cfg_refresh_quanta_i,  // 0x7FFF by default
  input  logic [47:0]          cfg_src_mac_i,
  output logic [7:0]           m_axis_tdata_o,
  output logic                 m_axis_tvalid_o,
  input  logic                 m_axis_tready_i,
  output logic                 m_axis_tlast_o,
  output logic [StatW-1:0]     stat_pfc_frames_o,
  output logic [StatW-1:0]     stat_pause_frames_o
);
  if (NumQueues < 1 || NumQueues > 8) begin : gen_bad_num_queues
    $error("dsh_pfc_tx: NumQueues must be in 1..8");
  end
  if (QuantaW < 1 || QuantaW > 16) begin : gen_bad_quanta_w
    $error("dsh_pfc_tx: QuantaW must be in 1..16");
  end
  if (StatW < 1 || StatW > 64) begin : gen_bad_stat_w
    $error("dsh_pfc_tx: StatW must be in 1..64");
  end
  localparam logic [47:0] CtrlDst  = 48'h0180_C200_0001;
  localparam logic [15:0] CtrlType = 16'h8808;
  localparam logic [15:0] OpPause  = 16'h0001;
  localparam logic [15:0] OpPfc    = 16'h0101;

  function automatic logic [15:0] count_down(input logic [15:0] t, input logic [QuantaW-1:0] q);
    count_down = 17'(t) > 17'(q) ? t - 16'(q) : 16'd0;
  endfunction

  logic [NumQueues-1:0] sent_d, sent_q;      // class state last sent (1 paused)
  logic                 psent_d, psent_q;    // port state last sent
  logic [15:0]          pfc_refresh_d, pfc_refresh_q, pause_refresh_d, pause_refresh_q;
  logic                 last_pause_d, last_pause_q;
  logic [StatW-1:0]     pfc_frames_q, pause_frames_q;

  logic need_pfc, need_pause, pick_pause, req_valid, req_ready, take_pfc, take_pause;
  assign need_pfc   = qoff_i != sent_q || (sent_q != '0 && pfc_refresh_q == '0);
  assign need_pause = poff_i != psent_q || (psent_q && pause_refresh_q == '0);
  assign pick_pause = need_pause && (!need_pfc || !last_pause_q);
  assign req_valid  = need_pfc || need_pause;
  assign take_pause = req_valid && req_ready && pick_pause;
  assign take_pfc   = req_valid && req_ready && !pick_pause;

  // The frame's words: PFC {enable vector, eight times}; PAUSE {time}.
  logic [15:0]     req_opcode;
  logic [9*16-1:0] req_words;
  always_comb begin
    req_words = '0;
    if (pick_pause) begin
      req_opcode      = OpPause;
      req_words[15:0] = poff_i ? cfg_pause_quanta_i : 16'd0;
    end else begin
      req_opcode = OpPfc;
      req_words[NumQueues-1:0] = qoff_i | sent_q;
      for (int j = 0; j < NumQueues; j++)
        req_words[(j + 1) * 16 +: 16] = qoff_i[j] ? cfg_pause_quanta_i : 16'd0;
    end
  end

  always_comb begin
    sent_d          = take_pfc ? qoff_i : sent_q;
    psent_d         = take_pause ? poff_i : psent_q;
    pfc_refresh_d   = take_pfc ? cfg_refresh_quanta_i : count_down(pfc_refresh_q, quanta_i);
    pause_refresh_d = take_pause ? cfg_refresh_quanta_i : count_down(pause_refresh_q, quanta_i);
    last_pause_d    = req_valid && req_ready ? pick_pause : last_pause_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sent_q          <= '0;
      psent_q         <= 1'b0;
      pfc_refresh_q   <= '0;
      pause_refresh_q <= '0;
      last_pause_q    <= 1'b0;
      pfc_frames_q    <= '0;
      pause_frames_q  <= '0;
    end else begin
      sent_q          <= sent_d;
      psent_q         <= psent_d;
      pfc_refresh_q   <= pfc_refresh_d;
      pause_refresh_q <= pause_refresh_d;
      last_pause_q    <= last_pause_d;
      pfc_frames_q    <= pfc_frames_q + StatW'(take_pfc);
      pause_frames_q  <= pause_frames_q + StatW'(take_pause);
    end
  end
  assign stat_pfc_frames_o   = pfc_frames_q;
  assign stat_pause_frames_o = pause_frames_q;

  dsh_macc_tx_frame u_frame (
    .clk_i, .rst_ni, .cfg_dst_i(CtrlDst), .cfg_src_i(cfg_src_mac_i), .cfg_ethertype_i(CtrlType),
    .req_valid_i(req_valid), .req_ready_o(req_ready), .req_opcode_i(req_opcode), .req_words_i(req_words),
    .m_axis_tdata_o, .m_axis_tvalid_o, .m_axis_tready_i, .m_axis_tlast_o);

  // A frame is taken only when one is due, and then the state sent is the state now.
  `ASSERT(TakeOnlyWhenDue_A, !take_pfc || need_pfc)
  `ASSERT(TakePauseOnlyWhenDue_A, !take_pause || need_pause)
  `ASSERT(OneFrameAtATime_A, !(take_pfc && take_pause))
  `COVER(PfcXoff_C, take_pfc && (qoff_i & ~sent_q) != '0)
  `COVER(PfcXon_C, take_pfc && (sent_q & ~qoff_i) != '0)
  `COVER(PfcRefresh_C, take_pfc && qoff_i == sent_q)
  `COVER(PauseXoff_C, take_pause && poff_i && !psent_q)
  `COVER(PauseXon_C, take_pause && !poff_i && psent_q)
  `COVER(PauseRefresh_C, take_pause && poff_i && psent_q)
  `COVER(BothDue_C, need_pfc && need_pause && req_ready)
  `COVER(ChangeWhileBusy_C, !req_ready && qoff_i != sent_q)
endmodule

`default_nettype wire
