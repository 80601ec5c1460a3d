// SPDX-License-Identifier: Apache-2.0
// Copies of a memory read's index, each a register of its own, so that
// each copy addresses a slice of a memory's read multiplexers and no index
// bit drives them all (dsh_pkg::qread_copies, cnt_read_copies).
// With Reset = 1 (the ASIC arrangement) the copies have an asynchronous
// reset to 0: Yosys folds a plain flop that drives a memory's read address
// into the read port (memory_dff), merges read ports of one address into
// one (memory_share) and takes a single flop out again, so that one flop
// drove every slice's multiplexers (through 2 to 3 ns of buffers at
// 32 x 7); it leaves a flop with a reset where it is. With Reset = 0 (an
// FPGA, ReadSlices 1) they are plain flops, which Yosys may fold into a
// block RAM's registered address.
// Latency: one clock edge. Reset: the copies 0 with Reset = 1, else none.
`default_nettype none

module dsh_idx_copies #(
  parameter int unsigned Width  = 8,
  parameter int unsigned Copies = 1,
  parameter bit          Reset  = 1'b1
) (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic [Width-1:0]        d_i,
  output logic [Copies*Width-1:0] q_o   // copy k at [k*Width +: Width]
);
  if (Copies < 1) begin : gen_bad_copies
    $error("dsh_idx_copies: Copies must be at least 1");
  end
  // `keep`: synthesis would merge equal registers.
  for (genvar k = 0; k < Copies; k++) begin : gen_copy
    if (Reset) begin : gen_reset
      (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) q_o[k*Width +: Width] <= '0;
        else         q_o[k*Width +: Width] <= d_i;
      end
    end else begin : gen_plain
      (* keep *) always_ff @(posedge clk_i) q_o[k*Width +: Width] <= d_i;
      logic unused_rst;
      assign unused_rst = rst_ni;
    end
  end
endmodule

`default_nettype wire
