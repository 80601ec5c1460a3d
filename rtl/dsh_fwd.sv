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
// W) and come from registered indices, except D's `go`, known late.
// Besides the selects: same_queue_o / same_port_o (stage R's enqueue and
// stage D's dequeue touch one queue / port), r_same_queue_o (R's enqueue and
// R's dequeue, a cycle apart in the specification, touch one queue) and
// d_same_queue_o (D's dequeue and the next one touch one queue).
// Each path can be removed at run time by a planted fault (+dsh_fault=N,
// dsh_pkg), for the lockstep checker's self-test; synthesis keeps them all.
`default_nettype none

module dsh_fwd #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  localparam int unsigned NumQ  = NumPorts * NumQueues,
  localparam int unsigned QIdxW = dsh_pkg::idx_w(NumQ),
  localparam int unsigned PortW = dsh_pkg::idx_w(NumPorts)
) (
  // Stage R: the dequeue of cycle c+1 and the enqueue of cycle c.
  input  logic [QIdxW-1:0] r_deq_idx_i,
  input  logic [PortW-1:0] r_deq_p_i,
  input  logic             r_enq_ok_i,
  input  logic [QIdxW-1:0] r_enq_idx_i,
  input  logic [PortW-1:0] r_enq_p_i,
  // Stage D: the dequeue of cycle c.
  input  logic             d_ok_i,
  input  logic             d_go_i,     // late
  input  logic [QIdxW-1:0] d_idx_i,
  input  logic [PortW-1:0] d_p_i,
  // Stage E: slot 0 (dequeue), slot 1 (enqueue).
  input  logic             e_deq_ok_i,
  input  logic             e_deq_go_i,
  input  logic [QIdxW-1:0] e_deq_idx_i,
  input  logic [PortW-1:0] e_deq_p_i,
  input  logic             e_enq_ok_i,
  input  logic [QIdxW-1:0] e_enq_idx_i,
  input  logic [PortW-1:0] e_enq_p_i,
  // Stage W: the writes.
  input  logic             w_deq_we_i,
  input  logic [QIdxW-1:0] w_deq_idx_i,
  input  logic [PortW-1:0] w_deq_p_i,
  input  logic             w_enq_we_i,
  input  logic [QIdxW-1:0] w_enq_idx_i,
  input  logic [PortW-1:0] w_enq_p_i,

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
  logic [31:0] fault;  // planted fault (dsh_fault)
  dsh_fault u_fault (.fault_o(fault));
  // The first set bit of a priority list, one-hot.
  function automatic [3:0] first4(input logic [3:0] hit);
    first4 = hit & ~{hit[2:0] | {hit[1:0], 1'b0} | {hit[0], 2'b0}, 1'b0};
  endfunction
  function automatic [2:0] first3(input logic [2:0] hit);
    first3 = hit & ~{hit[1:0] | {hit[0], 1'b0}, 1'b0};
  endfunction

  logic wq, wp, ddq, dde, dp, e0q, e1q, e0p, e1p;  // paths in use
  assign wq  = fault != dsh_pkg::FaultWQueue;
  assign wp  = fault != dsh_pkg::FaultWPort;
  assign ddq = fault != dsh_pkg::FaultDDeq;
  assign dde = fault != dsh_pkg::FaultDEnq;
  assign dp  = fault != dsh_pkg::FaultDPort;
  assign e0q = fault != dsh_pkg::FaultE0Queue;
  assign e1q = fault != dsh_pkg::FaultE1Queue;
  assign e0p = fault != dsh_pkg::FaultE0Port;
  assign e1p = fault != dsh_pkg::FaultE1Port;

  assign w_deq_qsel_o = first3({1'b1, wq && w_deq_we_i && w_deq_idx_i == r_deq_idx_i,
                                   wq && w_enq_we_i && w_enq_idx_i == r_deq_idx_i});
  assign w_enq_qsel_o = first3({1'b1, wq && w_deq_we_i && w_deq_idx_i == r_enq_idx_i,
                                   wq && w_enq_we_i && w_enq_idx_i == r_enq_idx_i});
  assign w_deq_psel_o = first3({1'b1, wp && w_deq_we_i && w_deq_p_i == r_deq_p_i,
                                   wp && w_enq_we_i && w_enq_p_i == r_deq_p_i});
  assign w_enq_psel_o = first3({1'b1, wp && w_deq_we_i && w_deq_p_i == r_enq_p_i,
                                   wp && w_enq_we_i && w_enq_p_i == r_enq_p_i});

  assign same_queue_o = dde && d_go_i && d_idx_i == r_enq_idx_i;
  assign same_port_o  = dp && d_ok_i && d_p_i == r_enq_p_i;
  assign f_deq_qsel_o = first4({1'b1, e0q && e_deq_go_i && e_deq_idx_i == r_deq_idx_i,
                                   e1q && e_enq_ok_i && e_enq_idx_i == r_deq_idx_i,
                                   ddq && d_go_i && d_idx_i == r_deq_idx_i});
  assign f_enq_qsel_o = first4({1'b1, e0q && e_deq_go_i && e_deq_idx_i == r_enq_idx_i,
                                   e1q && e_enq_ok_i && e_enq_idx_i == r_enq_idx_i, same_queue_o});
  assign f_deq_psel_o = first4({1'b1, e0p && e_deq_ok_i && e_deq_p_i == r_deq_p_i,
                                   e1p && e_enq_ok_i && e_enq_p_i == r_deq_p_i, 1'b0});
  assign f_enq_psel_o = first4({1'b1, e0p && e_deq_ok_i && e_deq_p_i == r_enq_p_i,
                                   e1p && e_enq_ok_i && e_enq_p_i == r_enq_p_i, 1'b0});
  assign f_d_psel_o   = first4({1'b1, e0p && e_deq_ok_i && e_deq_p_i == d_p_i,
                                   e1p && e_enq_ok_i && e_enq_p_i == d_p_i, 1'b0});
  assign r_same_queue_o = e1q && r_enq_ok_i && r_enq_idx_i == r_deq_idx_i;
  assign d_same_queue_o = e0q && d_ok_i && d_idx_i == r_deq_idx_i;
endmodule

`default_nettype wire
