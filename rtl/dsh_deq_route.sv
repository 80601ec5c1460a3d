// SPDX-License-Identifier: Apache-2.0
// Dequeue routing and merging of dsh_mmu (spec §4.8): NumDeq dequeue slots
// to one dequeue per lane. A valid slot that is an error on its own (cells
// 0, port or queue out of range) is not routed; every other goes to the lane
// of its port (port mod NumLanes, its low bits). In each lane the lowest
// routed slot leads; the routed slots naming its queue merge into it (their
// sizes added at full width, SizeW + log2 NumDeq bits, never wrapped); the
// others are not taken. deq_taken_o is valid and (own error or merged):
// the ready of spec §4.8, a function of the slots alone.
// Combinational.
`include "dsh_assert.svh"
`default_nettype none

module dsh_deq_route #(
  parameter int unsigned NumPorts  = 32,
  parameter int unsigned NumQueues = 7,
  parameter int unsigned SizeW     = 8,
  parameter int unsigned NumLanes  = 1,
  parameter int unsigned NumDeq    = 1,
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned LaneW  = NumLanes > 1 ? $clog2(NumLanes) : 1,
  localparam int unsigned SumW   = SizeW + (NumDeq > 1 ? $clog2(NumDeq) : 0)
) (
  input  logic [NumDeq-1:0]        valid_i,
  input  logic [NumDeq*PortW-1:0]  port_i,
  input  logic [NumDeq*QueueW-1:0] queue_i,
  input  logic [NumDeq*SizeW-1:0]  cells_i,
  output logic [NumDeq-1:0]        taken_o,
  output logic [NumDeq-1:0]        own_error_o,  // valid, an error on its own (taken, not routed)
  output logic [NumDeq-1:0]        merged_o,     // routed and in its lane's group
  output logic [NumDeq*LaneW-1:0]  lane_o,       // each slot's lane (its port's low bits)
  // Per lane: its group's dequeue (the leader's port and queue, the sum).
  output logic [NumLanes-1:0]        lane_valid_o,
  output logic [NumLanes*PortW-1:0]  lane_port_o,
  output logic [NumLanes*QueueW-1:0] lane_queue_o,
  output logic [NumLanes*SumW-1:0]   lane_cells_o
);
  localparam int unsigned KeyW = PortW + QueueW;

  logic [NumDeq-1:0]      routed;
  logic [NumDeq*KeyW-1:0] key;
  for (genvar k = 0; k < NumDeq; k++) begin : gen_slot
    logic [PortW-1:0]  p;
    logic [QueueW-1:0] q;
    assign p = port_i[k*PortW +: PortW];
    assign q = queue_i[k*QueueW +: QueueW];
    assign own_error_o[k] = valid_i[k] && !(32'(p) < NumPorts && 32'(q) < NumQueues
                                            && cells_i[k*SizeW +: SizeW] != '0);
    assign routed[k] = valid_i[k] && !own_error_o[k];
    assign key[k*KeyW +: KeyW] = {p, q};
    if (NumLanes > 1) begin : gen_lane
      assign lane_o[k*LaneW +: LaneW] = p[LaneW-1:0];
    end else begin : gen_one_lane
      assign lane_o[k*LaneW +: LaneW] = '0;
    end
  end

  // Per lane: the leader (one-hot over the slots, the lowest routed to
  // it), its key, the slots that merge into it, the group and its sum.
  // This parallel form is the hardware's; its outputs are par_*.
  logic [NumLanes*NumDeq-1:0] in_group;  // lane l's group at [l*NumDeq +: NumDeq]
  logic [NumLanes*NumDeq-1:0] lead;      // its leader
  logic [NumLanes*NumDeq-1:0] merge_in;  // its other slots, of the leader's queue
  logic [NumLanes*KeyW-1:0]   lead_key;
  logic [NumDeq-1:0]          to_lane;
  logic [NumLanes-1:0]        par_valid;
  logic [NumLanes*PortW-1:0]  par_port;
  logic [NumLanes*QueueW-1:0] par_queue;
  logic [NumLanes*SumW-1:0]   par_cells;
  logic [NumDeq-1:0]          par_merged;
  always_comb begin
    for (int l = 0; l < NumLanes; l++) begin
      for (int k = 0; k < NumDeq; k++) to_lane[k] = routed[k] && 32'(lane_o[k*LaneW +: LaneW]) == l;
      lead[l*NumDeq +: NumDeq] = to_lane & ~(to_lane - 1'b1);
      lead_key[l*KeyW +: KeyW] = '0;
      for (int k = 0; k < NumDeq; k++)
        if (lead[l*NumDeq + k]) lead_key[l*KeyW +: KeyW] = key[k*KeyW +: KeyW];
      for (int k = 0; k < NumDeq; k++)
        merge_in[l*NumDeq + k] = to_lane[k] && !lead[l*NumDeq + k] && key[k*KeyW +: KeyW] == lead_key[l*KeyW +: KeyW];
    end
  end
  assign in_group = lead | merge_in;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_lane_merge
    logic [SumW-1:0] sum;
    always_comb begin
      sum = '0;
      for (int k = 0; k < NumDeq; k++) sum += in_group[l*NumDeq + k] ? SumW'(cells_i[k*SizeW +: SizeW]) : '0;
    end
    assign par_valid[l] = |lead[l*NumDeq +: NumDeq];
    assign {par_port[l*PortW +: PortW], par_queue[l*QueueW +: QueueW]} = lead_key[l*KeyW +: KeyW];
    assign par_cells[l*SumW +: SumW] = sum;
  end

  always_comb begin
    par_merged = '0;
    for (int l = 0; l < NumLanes; l++) par_merged |= in_group[l*NumDeq +: NumDeq];
  end

`ifdef VERILATOR
  // The simulator's form of the same: one pass over the slots in order,
  // linear in NumDeq where the parallel form is NumLanes x NumDeq gates,
  // every one of which Verilator evaluates at every eval (twice a cycle).
  // A slot leads when no lower routed slot went to its lane, and merges
  // when its key is its lane's leader's. Checked builds evaluate both
  // forms and hold them equal (RouteScanMatches_A); the lockstep tests
  // hold this one to the golden model.
  logic [NumDeq-1:0]   lead_slot, merge_slot;  // per slot: leads its lane's group, merges into it
  logic [LaneW-1:0]    s_lane [NumDeq];
  for (genvar k = 0; k < NumDeq; k++) begin : gen_s_lane
    assign s_lane[k] = lane_o[k*LaneW +: LaneW];
  end
  logic [NumLanes-1:0] seen;
  logic [KeyW-1:0]     seen_key [NumLanes];
  always_comb begin
    seen = '0;
    for (int l = 0; l < NumLanes; l++) seen_key[l] = '0;
    for (int k = 0; k < NumDeq; k++) begin
      lead_slot[k]  = routed[k] && !seen[s_lane[k]];
      merge_slot[k] = routed[k] && seen[s_lane[k]] && seen_key[s_lane[k]] == key[k*KeyW +: KeyW];
      if (lead_slot[k]) begin
        seen[s_lane[k]]     = 1'b1;
        seen_key[s_lane[k]] = key[k*KeyW +: KeyW];
      end
    end
  end
  logic [NumLanes-1:0] scan_valid;
  logic [KeyW-1:0]     scan_key [NumLanes];
  logic [SumW-1:0]     scan_sum [NumLanes];
  always_comb begin
    scan_valid = '0;
    for (int l = 0; l < NumLanes; l++) begin
      scan_key[l] = '0;
      scan_sum[l] = '0;
    end
    for (int k = 0; k < NumDeq; k++) begin
      if (lead_slot[k]) begin
        scan_valid[s_lane[k]] = 1'b1;
        scan_key[s_lane[k]]   = key[k*KeyW +: KeyW];
      end
      if (lead_slot[k] || merge_slot[k]) scan_sum[s_lane[k]] += SumW'(cells_i[k*SizeW +: SizeW]);
    end
  end
  assign lane_valid_o = scan_valid;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_scan_out
    assign {lane_port_o[l*PortW +: PortW], lane_queue_o[l*QueueW +: QueueW]} = scan_key[l];
    assign lane_cells_o[l*SumW +: SumW] = scan_sum[l];
  end
  assign merged_o = lead_slot | merge_slot;
  `ASSERT_COMB(RouteScanMatches_A, lane_valid_o == par_valid && lane_port_o == par_port
                                   && lane_queue_o == par_queue && lane_cells_o == par_cells
                                   && merged_o == par_merged)
`else
  assign lane_valid_o = par_valid;
  assign lane_port_o  = par_port;
  assign lane_queue_o = par_queue;
  assign lane_cells_o = par_cells;
  assign merged_o     = par_merged;
`endif
  assign taken_o = own_error_o | merged_o;

  // A slot is in at most one lane's group, only when routed; a lane has a
  // dequeue exactly when some slot is routed to it (its leader merges).
  logic [NumDeq-1:0] overlap;
  always_comb begin
    overlap = '0;
    for (int l = 0; l < NumLanes; l++)
      for (int m = l + 1; m < NumLanes; m++) overlap |= in_group[l*NumDeq +: NumDeq] & in_group[m*NumDeq +: NumDeq];
  end
  `ASSERT_COMB(RouteGroupsDisjoint_A, overlap == '0)
  `ASSERT_COMB(RouteMergedRouted_A, (merged_o & ~routed) == '0)
  `ASSERT_COMB(RouteTakenValid_A, (taken_o & ~valid_i) == '0)
  // Cover: slots merging into one lane's group, and a slot not taken.
  `COVER_COMB(RouteMerge_C, $unsigned($countones(merged_o)) > $unsigned($countones(lane_valid_o)))
  `COVER_COMB(RouteNotTaken_C, (valid_i & ~taken_o) != '0)
endmodule

`default_nettype wire
