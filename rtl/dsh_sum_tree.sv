// SPDX-License-Identifier: Apache-2.0
// The sum of N operands as a balanced tree of adders: ceil(log2 N) adder
// levels where a running sum is N - 1 in a row. The same value as the
// running sum (addition modulo 2^OutW is associative); used where the
// pool adds every lane's term in one cycle (dsh_mmu's S and Σ drained).
// Combinational.
`default_nettype none

module dsh_sum_tree #(
  parameter int unsigned N    = 2,
  parameter int unsigned InW  = 8,
  parameter int unsigned OutW = 16
) (
  input  logic [N*InW-1:0] terms_i,  // operand i at [i*InW +: InW]
  output logic [OutW-1:0]  sum_o
);
  localparam int unsigned Leaves = 1 << $clog2(N);

  // A heap: node 1 the root, node i the sum of nodes 2i and 2i+1, leaves
  // Leaves .. 2*Leaves-1 (the operands, zero beyond N); node i at
  // [(i-1)*OutW +: OutW]. split_var: Verilator orders the nodes one by one.
  logic [(2*Leaves-1)*OutW-1:0] node /*verilator split_var*/;
  for (genvar i = 0; i < Leaves; i++) begin : gen_leaf
    if (i < N) begin : gen_term
      assign node[(Leaves+i-1)*OutW +: OutW] = OutW'(terms_i[i*InW +: InW]);
    end else begin : gen_zero
      assign node[(Leaves+i-1)*OutW +: OutW] = '0;
    end
  end
  for (genvar i = 1; i < Leaves; i++) begin : gen_add
    assign node[(i-1)*OutW +: OutW] = node[(2*i-1)*OutW +: OutW] + node[2*i*OutW +: OutW];
  end
  assign sum_o = node[0 +: OutW];
endmodule

`default_nettype wire
