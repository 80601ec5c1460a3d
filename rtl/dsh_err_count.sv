// SPDX-License-Identifier: Apache-2.0
// dsh_mmu's protocol error count and its sticky flag (spec §4.4, §5.2):
// each erroneous event counts, + 2 when both of a cycle's are (one lane, one
// dequeue slot), + the number of erroneous slots with more (spec §4.10); the
// count wraps modulo 2^CntW. Not one of the statistics counters (dsh_stats): the
// golden model's error count is part of every cycle's results, with or
// without them (dsh_mmu's Stats).
// Latency: stage W's errors (w_error_i) are in the count from the next edge.
// Reset (rst_ni, asynchronous): count and flag 0.
`include "dsh_assert.svh"
`default_nettype none

module dsh_err_count #(
  parameter int unsigned CntW   = 32,
  parameter int unsigned NumErr = 2,  // error bits a cycle: 2, or the lanes' and dequeue slots'
  localparam int unsigned NumW  = $clog2(NumErr + 1)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // protocol errors: [0] dequeue, [1] enqueue; with NumErr > 2 one bit per slot
  input  logic [NumErr-1:0] w_error_i,
  output logic [CntW-1:0] error_count_o,
  output logic            error_sticky_o
);
  function automatic [CntW-1:0] inc(input logic [CntW-1:0] x);  // x + 1, log depth
    inc = CntW'(dsh_pkg::inc64(64'(x)));
  endfunction

  logic [CntW-1:0] err_cnt_q, err_cnt_d;
  logic            err_sticky_q;
  if (NumErr == 2) begin : gen_two
    assign err_cnt_d = &w_error_i ? CntW'({inc(err_cnt_q >> 1), err_cnt_q[0]})  // + 2
                     : |w_error_i ? inc(err_cnt_q) : err_cnt_q;
  end else begin : gen_many
    logic [NumW-1:0] n_err;
    always_comb begin
      n_err = '0;
      for (int i = 0; i < NumErr; i++) n_err += NumW'(w_error_i[i]);
    end
    assign err_cnt_d = err_cnt_q + CntW'(n_err);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_cnt_q    <= '0;
      err_sticky_q <= 1'b0;
    end else begin
      err_cnt_q    <= err_cnt_d;
      err_sticky_q <= err_sticky_q | (|w_error_i);
    end
  end
  assign error_count_o  = err_cnt_q;
  assign error_sticky_o = err_sticky_q;

  // Cover: each protocol error, both in one cycle, the count wrapping.
  if (NumErr == 2) begin : gen_two_cover
    `COVER(DeqError_C, w_error_i == 2'b01)
    `COVER(EnqError_C, w_error_i == 2'b10)
    `COVER(BothErrors_C, &w_error_i)
  end else begin : gen_many_cover
    `COVER(ManyErrors_C, $countones(w_error_i) > 2)
  end
  `COVER(ErrorCountWraps_C, |w_error_i && err_cnt_q == '1)
endmodule

`default_nettype wire
