// SPDX-License-Identifier: Apache-2.0
// Harness of formal/read-slices: dsh_rec_store and dsh_cnt_ram with their
// reads in slices (each slice by its own index copy, as synthesis reads
// them) against the same modules with one slice, every copy of an index
// driven by one input. Verilator reads by copy 0 (ReadCopiesEqual_A), so
// the sliced reads are checked here, by Yosys (SYNTHESIS defined).
`default_nettype none

module read_slices_store #(parameter int unsigned S = 1) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [2:0]  rq0_i, rq1_i,
  input  logic [1:0]  rp0_i, rp1_i, rps_i,
  input  logic        w0_i, w1_i,
  input  logic [2:0]  wq0_i, wq1_i, wb0_i, wb1_i,
  input  logic [1:0]  wp0_i, wp1_i,
  input  logic [36:0] d0_i, d1_i,
  input  logic [24:0] e0_i, e1_i,
  output logic [36:0] q0_o, q1_o,
  output logic [24:0] p0_o, p1_o, ps_o,
  output logic [5:0]  qoff_o,
  output logic [2:0]  poff_o
);
  localparam int unsigned QC = dsh_pkg::qread_copies(S), PC = dsh_pkg::pread_copies(S);
  dsh_rec_store #(.NumPorts(3), .NumQueues(2), .CellW(12), .ReadSlices(S)) u_store (
    .clk_i, .rst_ni,
    .rd_deq_idx_i({QC{rq0_i}}), .rd_enq_idx_i({QC{rq1_i}}), .rd_deq_qrec_o(q0_o), .rd_enq_qrec_o(q1_o),
    .rd_deq_p_i({PC{rp0_i}}), .rd_enq_p_i({PC{rp1_i}}), .rd_stat_p_i(rps_i),
    .rd_deq_prec_o(p0_o), .rd_enq_prec_o(p1_o), .rd_stat_prec_o(ps_o),
    .wr_deq_i(w0_i), .wr_deq_idx_i(wq0_i), .wr_deq_bit_i(wb0_i), .wr_deq_p_i(wp0_i),
    .wr_deq_qrec_i(d0_i), .wr_deq_prec_i(e0_i),
    .wr_enq_i(w1_i), .wr_enq_idx_i(wq1_i), .wr_enq_bit_i(wb1_i), .wr_enq_p_i(wp1_i),
    .wr_enq_qrec_i(d1_i), .wr_enq_prec_i(e1_i),
    .qoff_o, .poff_o);
endmodule

module read_slices_cnt #(parameter int unsigned C = 1) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic [5:0] rmw_idx_i,
  input  logic [1:0] inc_i,
  input  logic [2:0] rd_idx_i,
  output logic [5:0] rd_o
);
  dsh_cnt_ram #(.Entries(5), .CntW(6), .Slots(2), .ReadCopies(C)) u_cnt (
    .clk_i, .rst_ni, .rmw_idx_i({C{rmw_idx_i}}), .inc_i, .rd_idx_i({C{rd_idx_i}}), .rd_o);
endmodule

`default_nettype wire
