// SPDX-License-Identifier: Apache-2.0
// Formal harness of dsh_mmu with lanes (scripts/formal.sh, configuration
// p2q1_dsh_l2_n2d2): two ports in two lanes, two dequeue slots. The
// environment as assumptions (reset for the first 3 clock edges, then
// never again; the configuration fixed by parameters; every slot input
// free every cycle, protocol errors and enqueues naming the other lane's
// port included; the read port asks for one fixed (port, queue) in
// range); every assertion of the RTL below it (each lane's, the router's,
// the pool rule's) checked with these, and the router's contract at the
// ports: deq_taken_o of spec §4.8 from the slots alone.
`include "dsh_assert.svh"
`default_nettype none

module dsh_mmu_lanes_formal #(
  parameter int unsigned NumPorts      = 2,
  parameter int unsigned NumQueues     = 1,
  parameter int unsigned CellW         = 5,
  parameter int unsigned SizeW         = 2,
  parameter int unsigned CntW          = 3,
  parameter bit          Dsh           = 1'b1,
  parameter int unsigned ThreshLatency = 2,
  parameter int unsigned NumLanes      = 2,
  parameter int unsigned NumDeq        = 2,
  parameter int unsigned CfgShared     = 8,
  parameter int unsigned CfgPrivate    = 1,
  parameter int unsigned CfgHeadroom   = 4,
  parameter int          CfgAlphaLog2  = 0,
  parameter int unsigned CfgPortMult   = 1,
  parameter int unsigned CfgDeltaQ     = 1,
  parameter int unsigned CfgDeltaP     = 1,
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned ThrW   = dsh_pkg::thr_w(CellW),
  localparam int unsigned LaneW  = NumLanes > 1 ? $clog2(NumLanes) : 1
) (
  input logic                        clk_i,
  input logic [NumDeq-1:0]           deq_valid_i,
  input logic [NumDeq*PortW-1:0]     deq_port_i,
  input logic [NumDeq*QueueW-1:0]    deq_queue_i,
  input logic [NumDeq*SizeW-1:0]     deq_cells_i,
  input logic [NumLanes-1:0]         enq_valid_i,
  input logic [NumLanes*PortW-1:0]   enq_port_i,
  input logic [NumLanes*QueueW-1:0]  enq_queue_i,
  input logic [NumLanes*SizeW-1:0]   enq_cells_i
);
  // ---------------------------------------------------------- environment
  logic [1:0] rst_cnt_q = 2'd0;
  logic       rst_ni;
  always_ff @(posedge clk_i) if (rst_cnt_q != 2'd3) rst_cnt_q <= rst_cnt_q + 2'd1;
  assign rst_ni = rst_cnt_q == 2'd3;

  (* anyconst *) logic [PortW-1:0]  rd_port;
  (* anyconst *) logic [QueueW-1:0] rd_queue;
  `ASSUME(ReadInRange_M, 32'(rd_port) < NumPorts && 32'(rd_queue) < NumQueues)

  // ------------------------------------------------------------ the MMU
  logic [NumDeq-1:0]                 deq_taken_o;
  logic [NumQ-1:0]                   qoff_o;
  logic [NumPorts-1:0]               poff_o;
  logic [NumLanes*3-1:0]             stat_region_o;
  logic [ThrW-1:0]                   stat_t_o;
  logic [CellW-1:0]                  stat_s_o;
  logic [NumLanes-1:0]               stat_drop_o, stat_enq_error_o;
  logic [NumLanes*PortW-1:0]         stat_drop_port_o;
  logic [NumLanes*QueueW-1:0]        stat_drop_queue_o;
  logic [1:0]                        stat_error_o;
  logic [NumDeq-1:0]                 stat_deq_error_o;
  logic                              stat_error_sticky_o;
  logic [CntW-1:0]                   stat_error_count_o;
  logic [2*NumLanes-1:0]             stat_qevt_valid_o, stat_qevt_pause_o, stat_pevt_valid_o, stat_pevt_pause_o;
  logic [2*NumLanes*PortW-1:0]       stat_qevt_port_o, stat_pevt_port_o;
  logic [2*NumLanes*QueueW-1:0]      stat_qevt_queue_o;
  logic [CntW-1:0]                   stat_rd_drops_o, stat_rd_pauses_o, stat_rd_resumes_o;
  logic [CntW-1:0]                   stat_rd_port_pauses_o, stat_rd_port_resumes_o;
  logic [CellW-1:0]                  stat_rd_port_shared_o, stat_rd_port_hdrm_o;
  logic                              quiet_o;

  dsh_mmu #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW), .CntW(CntW),
            .Dsh(Dsh), .ThreshLatency(ThreshLatency), .PauseBanks(1), .ReadSlices(1),
            .NumLanes(NumLanes), .NumDeq(NumDeq)) u_dut (
    .clk_i, .rst_ni,
    .cfg_shared_cells_i(CellW'(CfgShared)), .cfg_private_cells_i(CellW'(CfgPrivate)),
    .cfg_headroom_cells_i({NumPorts{CellW'(CfgHeadroom)}}),
    .cfg_alpha_log2_i(5'(CfgAlphaLog2)), .cfg_port_mult_log2_i(3'(CfgPortMult)),
    .cfg_delta_q_i(CellW'(CfgDeltaQ)), .cfg_delta_p_i(CellW'(CfgDeltaP)),
    .deq_valid_i, .deq_port_i, .deq_queue_i, .deq_cells_i,
    .enq_valid_i, .enq_port_i, .enq_queue_i, .enq_cells_i, .deq_taken_o,
    .qoff_o, .poff_o, .stat_region_o, .stat_t_o, .stat_s_o, .stat_drop_o, .stat_drop_port_o,
    .stat_drop_queue_o, .stat_error_o, .stat_enq_error_o, .stat_deq_error_o, .stat_error_sticky_o,
    .stat_error_count_o, .stat_qevt_valid_o, .stat_qevt_pause_o, .stat_qevt_port_o, .stat_qevt_queue_o,
    .stat_pevt_valid_o, .stat_pevt_pause_o, .stat_pevt_port_o,
    .stat_rd_port_i(rd_port), .stat_rd_queue_i(rd_queue),
    .stat_rd_drops_o, .stat_rd_pauses_o, .stat_rd_resumes_o, .stat_rd_port_pauses_o,
    .stat_rd_port_resumes_o, .stat_rd_port_shared_o, .stat_rd_port_hdrm_o, .quiet_o
  );

  // -------------------------------- deq_taken_o (spec §4.8), from the slots
  // A slot is taken when it is an error on its own, or when no lower slot
  // routed to its lane names another queue.
  logic [NumDeq-1:0] own_err, expect_taken;
  always_comb begin
    for (int k = 0; k < NumDeq; k++)
      own_err[k] = deq_valid_i[k] && !(32'(deq_port_i[k*PortW +: PortW]) < NumPorts
                                       && 32'(deq_queue_i[k*QueueW +: QueueW]) < NumQueues
                                       && deq_cells_i[k*SizeW +: SizeW] != '0);
    for (int k = 0; k < NumDeq; k++) begin
      expect_taken[k] = deq_valid_i[k];
      if (deq_valid_i[k] && !own_err[k])
        for (int j = 0; j < k; j++)
          if (deq_valid_i[j] && !own_err[j]
              && deq_port_i[j*PortW +: LaneW] == deq_port_i[k*PortW +: LaneW]
              && {deq_port_i[j*PortW +: PortW], deq_queue_i[j*QueueW +: QueueW]}
                 != {deq_port_i[k*PortW +: PortW], deq_queue_i[k*QueueW +: QueueW]}) begin
            // j is routed to k's lane; k is taken only if the lane's leader
            // (the lowest such j) names k's queue: checked for the lowest.
            expect_taken[k] = 1'b0;
          end
    end
  end
  // Without a lower routed slot of another queue in its lane every valid
  // slot is taken; with one, the lowest decides (covered by the router's
  // own assertions): here the two-slot case, where the lower is the leader.
  `ASSERT(LanesDeqTaken_A, NumDeq != 2 || deq_taken_o == expect_taken)
  `COVER(LanesTwoLanesAdmit_C, stat_region_o[2:0] != 3'd0 && stat_region_o[5:3] != 3'd0)
endmodule

`default_nettype wire
