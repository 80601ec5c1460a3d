// SPDX-License-Identifier: Apache-2.0
// dsh_mmu's protocol error count and its sticky flag (spec §4.4, §5.2):
// each erroneous event counts, + 2 when both of a cycle's are; the count
// wraps modulo 2^CntW. Not one of the statistics counters (dsh_stats): the
// golden model's error count is part of every cycle's results, with or
// without them (dsh_mmu's Stats).
// Latency: stage W's errors (w_error_i) are in the count from the next edge.
// Reset (rst_ni, asynchronous): count and flag 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_err_count #(
  parameter int unsigned CntW = 32
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [1:0]      w_error_i,  // protocol errors: [0] dequeue, [1] enqueue
  output logic [CntW-1:0] error_count_o,
  output logic            error_sticky_o
);
  function automatic [CntW-1:0] inc(input logic [CntW-1:0] x);  // x + 1, log depth
    inc = CntW'(dsh_pkg::inc64(64'(x)));
  endfunction

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

  // Cover: each protocol error, both in one cycle, the count wrapping.
  `COVER(DeqError_C, w_error_i == 2'b01)
  `COVER(EnqError_C, w_error_i == 2'b10)
  `COVER(BothErrors_C, &w_error_i)
  `COVER(ErrorCountWraps_C, |w_error_i && err_cnt_q == '1)
endmodule

`default_nettype wire
