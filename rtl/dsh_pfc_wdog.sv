// SPDX-License-Identifier: Apache-2.0
// PFC watchdog of one (port, class) (spec §6.6), beside dsh_pfc_rx, after
// SONiC's pfcwd. Between two polls (poll_i, a strobe shared by every
// watchdog) it records whether a PFC frame enabling the class arrived
// (pfc_rx_i) and whether the class went from paused to unpaused
// (paused_i falling). At each poll:
//   watching: the poll counts toward a storm when the class is paused at
//     this poll and was at the last, PFC frames arrived, and no
//     pause-to-unpause transition happened; else the count restarts. On the
//     cfg_detect_polls_i-th poll in a row that counts: storm (0: never).
//   in a storm: the poll counts toward restoration when no PFC frame
//     arrived; else the count restarts. On the cfg_restore_polls_i-th in a
//     row (0 acts as 1): watching again.
// Events in a poll's own cycle belong to the interval that poll ends.
// During a storm the action (cfg_action_i) applies: 0 drop (the class's
// pauses ignored, its packets dropped), 1 forward (pauses ignored), 2 and 3
// alert (counted only). Outputs are registered state; counters wrap modulo
// 2^StatW. Reset: watching, counts 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_pfc_wdog #(
  parameter int unsigned PollW = 16,
  parameter int unsigned StatW = 32
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             poll_i,
  input  logic             pfc_rx_i,             // dsh_pfc_rx pfc_rx_o[class]
  input  logic             paused_i,             // dsh_pfc_rx class_paused_o[class]
  input  logic [PollW-1:0] cfg_detect_polls_i,
  input  logic [PollW-1:0] cfg_restore_polls_i,
  input  logic [1:0]       cfg_action_i,
  output logic             storm_o,
  output logic             ignore_pause_o,       // to dsh_pfc_rx ignore_i[class]
  output logic             drop_o,               // the class's packets are to be dropped
  output logic [StatW-1:0] stat_storms_o,
  output logic [StatW-1:0] stat_restores_o
);
  if (PollW < 1 || PollW > 32) begin : gen_bad_poll_w
    $error("dsh_pfc_wdog: PollW must be in 1..32");
  end
  if (StatW < 1 || StatW > 64) begin : gen_bad_stat_w
    $error("dsh_pfc_wdog: StatW must be in 1..64");
  end
  localparam logic [1:0] ActDrop    = 2'd0;
  localparam logic [1:0] ActForward = 2'd1;

  logic             storm_d, storm_q;
  logic [PollW-1:0] cnt_d, cnt_q;              // polls in a row toward the next change
  logic             rx_seen_d, rx_seen_q;      // a PFC frame since the last poll
  logic             unpause_d, unpause_q;      // a pause-to-unpause since the last poll
  logic             paused_prev_q;             // paused_i a cycle ago
  logic             paused_poll_d, paused_poll_q; // paused_i at the last poll
  logic             rx_now, unpause_now, counts, detect, restore;
  logic [PollW-1:0] cnt_inc;

  assign rx_now      = rx_seen_q || pfc_rx_i;
  assign unpause_now = unpause_q || (paused_prev_q && !paused_i);
  assign cnt_inc     = &cnt_q ? cnt_q : cnt_q + 1'b1;
  assign counts      = storm_q ? !rx_now
                               : paused_i && paused_poll_q && rx_now && !unpause_now && cfg_detect_polls_i != '0;
  assign detect      = poll_i && !storm_q && counts && cnt_inc >= cfg_detect_polls_i;
  assign restore     = poll_i && storm_q && counts && cnt_inc >= cfg_restore_polls_i;

  always_comb begin
    storm_d       = storm_q;
    cnt_d         = cnt_q;
    rx_seen_d     = rx_now;
    unpause_d     = unpause_now;
    paused_poll_d = paused_poll_q;
    if (poll_i) begin
      rx_seen_d     = 1'b0;
      unpause_d     = 1'b0;
      paused_poll_d = paused_i;
      cnt_d         = counts ? cnt_inc : '0;
      if (detect || restore) begin
        storm_d = !storm_q;
        cnt_d   = '0;
      end
    end
  end

  logic [StatW-1:0] storms_q, restores_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      storm_q       <= 1'b0;
      cnt_q         <= '0;
      rx_seen_q     <= 1'b0;
      unpause_q     <= 1'b0;
      paused_prev_q <= 1'b0;
      paused_poll_q <= 1'b0;
      storms_q      <= '0;
      restores_q    <= '0;
    end else begin
      storm_q       <= storm_d;
      cnt_q         <= cnt_d;
      rx_seen_q     <= rx_seen_d;
      unpause_q     <= unpause_d;
      paused_prev_q <= paused_i;
      paused_poll_q <= paused_poll_d;
      storms_q      <= storms_q + StatW'(detect);
      restores_q    <= restores_q + StatW'(restore);
    end
  end
  assign storm_o         = storm_q;
  assign ignore_pause_o  = storm_q && (cfg_action_i == ActDrop || cfg_action_i == ActForward);
  assign drop_o          = storm_q && cfg_action_i == ActDrop;
  assign stat_storms_o   = storms_q;
  assign stat_restores_o = restores_q;

  `ASSERT(DropIgnoresPause_A, !drop_o || ignore_pause_o)
  `ASSERT(ActionOnlyInStorm_A, storm_q || !ignore_pause_o)
  `ASSERT(NoDetectWhenOff_A, !detect || cfg_detect_polls_i != '0)
  `COVER(StormDetected_C, detect)
  `COVER(StormRestored_C, restore)
  `COVER(DetectCountRestarts_C, poll_i && !storm_q && !counts && cnt_q != '0)
  `COVER(RestoreCountRestarts_C, poll_i && storm_q && !counts && cnt_q != '0)
  `COVER(UnpauseBreaksDetection_C, poll_i && !storm_q && paused_i && paused_poll_q && rx_now && unpause_now)
endmodule

`default_nettype wire
