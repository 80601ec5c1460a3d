// SPDX-License-Identifier: Apache-2.0
// Forwarding and hazards of dsh_mmu's pipeline: which stage's result each
// record read in stage R (and the dequeue's port in stage D) must take
// instead of what the arrays hold. Sources, from oldest to newest:
//   W  the records being written at the end of this cycle (slot 1, the
//      enqueue's, wins over slot 0 when both write one record);
//   E  slot 0 (the dequeue stage D drained last cycle: its queue's state
//      bit, its port after it) and slot 1 (the enqueue: its queue and port
//      after the cycle); slot 1 wins;
//   D  the dequeue draining now: its queue after it, when it goes.
// The selects are one-hot ({R, E slot 0, E slot 1, D}; R: the array, with
// W). The index compares are made a cycle ahead and registered: the
// pipeline never stalls, so the entry each stage holds next cycle is the
// one the stage before it holds now. This unit keeps its own copy of each
// stage's entry (a key {port, queue}, both 0 for an entry out of range,
// which matches the flat index p*NumQueues + q, 0 when out of range), so
// that in stage R a select is a registered hit and'ed with the stage's
// enable (D's `go` is known late).
// Besides the selects: same_queue_o / same_port_o (stage R's enqueue and
// stage D's dequeue touch one queue / port), r_same_queue_o (R's enqueue and
// R's dequeue, a cycle apart in the specification, touch one queue) and
// d_same_queue_o (D's dequeue and the next one touch one queue).
// Each forwarding path is one named signal (path_*), a bit for each select
// it feeds, so that what a path does is written in one place; the lockstep
// checker's self-test cuts one path at a time from the test bench
// (tb/faults/dsh_faults.sv).
`include "dsh_assert.svh"
`default_nettype none

module dsh_fwd #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned KeyW   = PortW + QueueW
) (
  input  logic             clk_i,
  // The entries stage R takes at the next clock edge: {port, queue}, 0 when
  // out of range.
  input  logic [KeyW-1:0]  nx_deq_key_i,
  input  logic [KeyW-1:0]  nx_enq_key_i,
  // This cycle's enables of each stage.
  input  logic             r_enq_ok_i,
  input  logic             d_ok_i,
  input  logic             d_go_i,     // late
  input  logic             e_deq_ok_i,
  input  logic             e_deq_go_i,
  input  logic             e_enq_ok_i,
  input  logic             w_deq_we_i,
  input  logic             w_enq_we_i,

  // W into R's reads, one-hot {array, W slot 0, W slot 1}.
  output logic [2:0]       w_deq_qsel_o,
  output logic [2:0]       w_enq_qsel_o,
  output logic [2:0]       w_deq_psel_o,
  output logic [2:0]       w_enq_psel_o,
  // E and D into what R read, one-hot {R, E slot 0, E slot 1, D}.
  output logic [3:0]       f_deq_qsel_o,  // the queue record stage D gets
  output logic [3:0]       f_enq_qsel_o,  // the queue record stage E's enqueue gets
  output logic [3:0]       f_deq_psel_o,  // the port record stage D gets
  output logic [3:0]       f_enq_psel_o,  // the port record stage E's enqueue gets
  output logic [3:0]       f_d_psel_o,    // the port record stage E's dequeue gets (from D's)
  output logic             same_queue_o,
  output logic             same_port_o,
  output logic             r_same_queue_o,
  output logic             d_same_queue_o
);
  // The first set bit of a priority list, one-hot.
  function automatic [3:0] first4(input logic [3:0] hit);
    first4 = hit & ~{hit[2:0] | {hit[1:0], 1'b0} | {hit[0], 2'b0}, 1'b0};
  endfunction
  function automatic [2:0] first3(input logic [2:0] hit);
    first3 = hit & ~{hit[1:0] | {hit[0], 1'b0}, 1'b0};
  endfunction

  // ------------------------------------------------- each stage's entry
  logic [KeyW-1:0] r_deq_q, r_enq_q, d_q, e_deq_q, e_enq_q;
  always_ff @(posedge clk_i) begin
    r_deq_q <= nx_deq_key_i;
    r_enq_q <= nx_enq_key_i;
    d_q     <= r_deq_q;
    e_deq_q <= d_q;
    e_enq_q <= r_enq_q;
  end

  // --------------------------------------- hits, compared a cycle ahead
  // Next cycle W holds what E holds now, E slot 0 what D holds, E slot 1
  // what R's enqueue holds, D what R's dequeue holds.
  typedef struct packed {
    logic w0, w1, e0, e1, d;  // the same entry as W slot 0, W slot 1, E slot 0, E slot 1, D (that order)
  } hits_t;
  function automatic hits_t queue_hits(input logic [KeyW-1:0] k);
    queue_hits = {k == e_deq_q, k == e_enq_q, k == d_q, k == r_enq_q, k == r_deq_q};
  endfunction
  function automatic hits_t port_hits(input logic [PortW-1:0] p);
    port_hits = {p == e_deq_q[KeyW-1 -: PortW], p == e_enq_q[KeyW-1 -: PortW], p == d_q[KeyW-1 -: PortW],
                 p == r_enq_q[KeyW-1 -: PortW], p == r_deq_q[KeyW-1 -: PortW]};
  endfunction
  hits_t rdq_q, req_q, rdp_q, rep_q;  // R's dequeue / enqueue against each stage: queue, port
  logic  rr_q;                        // R's enqueue and R's dequeue: one queue
  logic  de0p_q, de1p_q;              // D's port against E slot 0's / slot 1's
  always_ff @(posedge clk_i) begin
    rdq_q  <= queue_hits(nx_deq_key_i);
    req_q  <= queue_hits(nx_enq_key_i);
    rdp_q  <= port_hits(nx_deq_key_i[KeyW-1 -: PortW]);
    rep_q  <= port_hits(nx_enq_key_i[KeyW-1 -: PortW]);
    rr_q   <= nx_enq_key_i == nx_deq_key_i;
    de0p_q <= r_deq_q[KeyW-1 -: PortW] == d_q[KeyW-1 -: PortW];
    de1p_q <= r_deq_q[KeyW-1 -: PortW] == r_enq_q[KeyW-1 -: PortW];
  end

  // ------------------------------------------------- paths, in stage R
  // Each path: the registered hits of the records it feeds, and'ed with
  // its source stage's enable (D's `go` is late).
  typedef struct packed {
    logic deq0, deq1;  // R's dequeue record from W slot 0 / slot 1
    logic enq0, enq1;  // R's enqueue record from W slot 0 / slot 1
  } w_path_t;
  typedef struct packed {
    logic deq;   // R's dequeue record
    logic enq;   // R's enqueue record
    logic next;  // queue: a later dequeue of the same queue (below); port: D's dequeue's port
  } e_path_t;
  w_path_t path_wq, path_wp;    // W's queue / port records into R's reads
  e_path_t path_e0q, path_e1q;  // E slot 0's / slot 1's queue record into R's reads
  e_path_t path_e0p, path_e1p;  // E slot 0's / slot 1's port record into R's reads and D's port
  logic    path_ddq;            // D's dequeue into the next dequeue of its queue
  logic    path_dde;            // D's dequeue into E's next enqueue to its queue
  logic    path_dp;             // D's drain into E's next enqueue to its port
  always_comb begin
    path_wq  = {w_deq_we_i && rdq_q.w0, w_enq_we_i && rdq_q.w1, w_deq_we_i && req_q.w0, w_enq_we_i && req_q.w1};
    path_wp  = {w_deq_we_i && rdp_q.w0, w_enq_we_i && rdp_q.w1, w_deq_we_i && rep_q.w0, w_enq_we_i && rep_q.w1};
    // E slot 0's queue record also reaches the dequeue now in R when D's
    // dequeue is of its queue (d_same_queue_o: D's is in E slot 0 when that
    // one is in D); E slot 1's reaches R's dequeue when R's enqueue is of
    // its queue (r_same_queue_o: likewise a cycle later).
    path_e0q = {e_deq_go_i && rdq_q.e0, e_deq_go_i && req_q.e0, d_ok_i && rdq_q.d};
    path_e1q = {e_enq_ok_i && rdq_q.e1, e_enq_ok_i && req_q.e1, r_enq_ok_i && rr_q};
    path_e0p = {e_deq_ok_i && rdp_q.e0, e_deq_ok_i && rep_q.e0, e_deq_ok_i && de0p_q};
    path_e1p = {e_enq_ok_i && rdp_q.e1, e_enq_ok_i && rep_q.e1, e_enq_ok_i && de1p_q};
    path_ddq = d_go_i && rdq_q.d;
    path_dde = d_go_i && req_q.d;
    path_dp  = d_ok_i && rep_q.d;
  end

  // ------------------------------------------------ selects, in stage R
  assign w_deq_qsel_o = first3({1'b1, path_wq.deq0, path_wq.deq1});
  assign w_enq_qsel_o = first3({1'b1, path_wq.enq0, path_wq.enq1});
  assign w_deq_psel_o = first3({1'b1, path_wp.deq0, path_wp.deq1});
  assign w_enq_psel_o = first3({1'b1, path_wp.enq0, path_wp.enq1});

  assign same_queue_o = path_dde;
  assign same_port_o  = path_dp;
  assign f_deq_qsel_o = first4({1'b1, path_e0q.deq, path_e1q.deq, path_ddq});
  assign f_enq_qsel_o = first4({1'b1, path_e0q.enq, path_e1q.enq, path_dde});
  assign f_deq_psel_o = first4({1'b1, path_e0p.deq, path_e1p.deq, 1'b0});
  assign f_enq_psel_o = first4({1'b1, path_e0p.enq, path_e1p.enq, 1'b0});
  assign f_d_psel_o   = first4({1'b1, path_e0p.next, path_e1p.next, 1'b0});
  assign r_same_queue_o = path_e1q.next;
  assign d_same_queue_o = path_e0q.next;

  logic unused_hits;  // R's dequeue port against D's own port
  assign unused_hits = ^{rdp_q.d};
  // Every select is one-hot (one source per record); an enqueue to the
  // queue that D's dequeue drains is to that dequeue's port too. No reset:
  // the selects are one-hot by construction in reset as well.
  `ASSERT_CLK(WDeqQselOneHot_A, $onehot(w_deq_qsel_o), clk_i, 1'b1)
  `ASSERT_CLK(WEnqQselOneHot_A, $onehot(w_enq_qsel_o), clk_i, 1'b1)
  `ASSERT_CLK(WDeqPselOneHot_A, $onehot(w_deq_psel_o), clk_i, 1'b1)
  `ASSERT_CLK(WEnqPselOneHot_A, $onehot(w_enq_psel_o), clk_i, 1'b1)
  `ASSERT_CLK(FDeqQselOneHot_A, $onehot(f_deq_qsel_o), clk_i, 1'b1)
  `ASSERT_CLK(FEnqQselOneHot_A, $onehot(f_enq_qsel_o), clk_i, 1'b1)
  `ASSERT_CLK(FDeqPselOneHot_A, $onehot(f_deq_psel_o), clk_i, 1'b1)
  `ASSERT_CLK(FEnqPselOneHot_A, $onehot(f_enq_psel_o), clk_i, 1'b1)
  `ASSERT_CLK(FDPselOneHot_A, $onehot(f_d_psel_o), clk_i, 1'b1)
  `ASSERT_CLK(SameQueueIsSamePort_A, !same_queue_o || same_port_o, clk_i, 1'b1)
  // Cover: every forwarding source into every use (a record written in W,
  // E or D and read again before the arrays hold it).
  `COVER_CLK(FwdWDeqQueueFromW0_C, w_deq_qsel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdWDeqQueueFromW1_C, w_deq_qsel_o[0], clk_i, 1'b1)
  `COVER_CLK(FwdWEnqQueueFromW0_C, w_enq_qsel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdWEnqQueueFromW1_C, w_enq_qsel_o[0], clk_i, 1'b1)
  `COVER_CLK(FwdWDeqPortFromW0_C, w_deq_psel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdWDeqPortFromW1_C, w_deq_psel_o[0], clk_i, 1'b1)
  `COVER_CLK(FwdWEnqPortFromW0_C, w_enq_psel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdWEnqPortFromW1_C, w_enq_psel_o[0], clk_i, 1'b1)
  `COVER_CLK(FwdDeqQueueFromE0_C, f_deq_qsel_o[2], clk_i, 1'b1)
  `COVER_CLK(FwdDeqQueueFromE1_C, f_deq_qsel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdDeqQueueFromD_C, f_deq_qsel_o[0], clk_i, 1'b1)
  `COVER_CLK(FwdEnqQueueFromE0_C, f_enq_qsel_o[2], clk_i, 1'b1)
  `COVER_CLK(FwdEnqQueueFromE1_C, f_enq_qsel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdEnqQueueFromD_C, f_enq_qsel_o[0], clk_i, 1'b1)
  `COVER_CLK(FwdDeqPortFromE0_C, f_deq_psel_o[2], clk_i, 1'b1)
  `COVER_CLK(FwdDeqPortFromE1_C, f_deq_psel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdEnqPortFromE0_C, f_enq_psel_o[2], clk_i, 1'b1)
  `COVER_CLK(FwdEnqPortFromE1_C, f_enq_psel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdDPortFromE0_C, f_d_psel_o[2], clk_i, 1'b1)
  `COVER_CLK(FwdDPortFromE1_C, f_d_psel_o[1], clk_i, 1'b1)
  `COVER_CLK(FwdSamePort_C, same_port_o && !same_queue_o, clk_i, 1'b1)
  `COVER_CLK(FwdSameQueue_C, same_queue_o, clk_i, 1'b1)
  `COVER_CLK(FwdRSameQueue_C, r_same_queue_o, clk_i, 1'b1)
  `COVER_CLK(FwdDSameQueue_C, d_same_queue_o, clk_i, 1'b1)
endmodule

`default_nettype wire
