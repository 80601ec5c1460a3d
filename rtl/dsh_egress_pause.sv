// SPDX-License-Identifier: Apache-2.0
// Upstream (egress) side of DSH flow control (spec §6), level mode:
// one pause state per class and one per port, following the PAUSE/RESUME
// events received from the downstream MMU. A class may transmit only when
//   tx_pause_o[j] = q_paused[j] | port_paused        (the OR gate)
// is 0. Events take effect the cycle after they arrive; reset: all running.
// tx_pause_o is directly usable as a MAC's per-class transmit inhibit.
`include "dsh_assert.svh"
`default_nettype none

module dsh_egress_pause #(
  parameter int unsigned NumQueues = 8,
  localparam int unsigned QueueW   = dsh_pkg::idx_w(NumQueues)
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 q_evt_valid_i,   // queue-level PAUSE/RESUME
  input  logic                 q_evt_pause_i,   // 1 PAUSE, 0 RESUME
  input  logic [QueueW-1:0]    q_evt_queue_i,
  input  logic                 p_evt_valid_i,   // port-level PAUSE/RESUME
  input  logic                 p_evt_pause_i,
  output logic [NumQueues-1:0] tx_pause_o
);
  logic [NumQueues-1:0] q_paused_d, q_paused_q;
  logic                 port_paused_d, port_paused_q;

  always_comb begin
    q_paused_d = q_paused_q;
    if (q_evt_valid_i && 32'(q_evt_queue_i) < NumQueues) q_paused_d[q_evt_queue_i] = q_evt_pause_i;
  end
  assign port_paused_d = p_evt_valid_i ? p_evt_pause_i : port_paused_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_paused_q    <= '0;
      port_paused_q <= 1'b0;
    end else begin
      q_paused_q    <= q_paused_d;
      port_paused_q <= port_paused_d;
    end
  end

  assign tx_pause_o = q_paused_q | {NumQueues{port_paused_q}};
  // The OR gate: a class is held by its own pause or its port's, by nothing else.
  `ASSERT(TxPauseIsQueueOrPort_A, tx_pause_o == (q_paused_q | {NumQueues{port_paused_q}}))
  `ASSERT(PortPauseHoldsEveryClass_A, !port_paused_q || &tx_pause_o)
  // Cover: a class held by its queue's and its port's pause together, and a
  // port resume that leaves a class held by its own pause.
  `COVER(QueueAndPortPaused_C, port_paused_q && q_paused_q != '0)
  `COVER(PortResumeLeavesQueuePaused_C, port_paused_q && p_evt_valid_i && !p_evt_pause_i && q_paused_q != '0)
endmodule

`default_nettype wire
