// SPDX-License-Identifier: Apache-2.0
// Statistics counters of one kind (say the drops of every queue) in a
// memory, counted by read-modify-write through three stages:
//   D  each counting slot reads the entry its event may count (rmw_idx_i)
//      and registers it (a registered read, as a block RAM does);
//   E  the value is brought up to date with the writes of the last cycle and
//      of this one (a bypass two writes deep; whether a write is to the same
//      entry is compared in D and registered) and + 1 is formed;
//   W  where the event is known (inc_i), the slot writes that + 1.
// So back-to-back events on one entry count every one; every path starts
// and ends at a register (a read, a bypass and an incrementer, or a
// register's fan-out to the entries). One adder per slot, none per entry. A
// valid bit per entry, cleared by reset, makes an entry read as 0 until its
// first count; it is applied after the read's register, so that each read
// is a memory read straight into a register (a block RAM's synchronous
// read, where the target has them). A third read serves the statistics read
// port: rd_idx_i is read at the clock edge and rd_o holds the count from
// the edge on (the counts after stage W's writes before that edge). Slots
// never count one entry in the same cycle (one event per queue and per port
// a cycle); counts wrap modulo 2^CntW. Each read's index comes in
// ReadCopies copies, copy c reading the c-th slice of the count's bits, so
// that no index bit drives the multiplexers of every bit (dsh_pkg); copy 0
// also serves the compares, the valid bits and stage W's entries.
`include "dsh_assert.svh"
`default_nettype none

module dsh_cnt_ram #(
  parameter int unsigned Entries = 2,
  parameter int unsigned CntW    = 32,
  parameter int unsigned Slots   = 1,   // counting slots, 1 or 2
  parameter int unsigned ReadCopies = 1,  // copies of each read's index, 1..CntW
  localparam int unsigned IdxW = dsh_pkg::idx_w(Entries)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // stage D: slot k's entry, copy c at (c*Slots + k)*IdxW
  input  logic [ReadCopies*Slots*IdxW-1:0] rmw_idx_i,
  input  logic [Slots-1:0]      inc_i,      // stage W: slot k counts the entry it read
  input  logic [ReadCopies*IdxW-1:0] rd_idx_i,  // copy c at c*IdxW
  output logic [CntW-1:0]       rd_o
);
  logic [CntW-1:0]       mem_q [Entries];
  logic [Entries-1:0]    valid_q;
  logic [Slots*IdxW-1:0] e_idx_q, w_idx_q;  // stage E's and stage W's entries
  logic [Slots*CntW-1:0] e_raw_q;  // stage E: the entries as read in D
  logic [Slots-1:0]      e_valid_q;  // ... and whether each had been counted
  logic [Slots*CntW-1:0] w_nxt_q;  // stage W: their counts + 1
  logic [Slots*CntW-1:0] p_nxt_q;  // what stage W wrote at the last edge
  logic [Slots-1:0]      p_inc_q;
  logic [Slots*CntW-1:0] d_raw, e_val;
  // Stage E: slot k's entry is the one slot j writes now (hw) / wrote at
  // the last edge (hp), compared a cycle ahead: W then holds E's entries
  // and the last write W's.
  logic [Slots*Slots-1:0] hw_q, hp_q;

  logic [Slots*IdxW-1:0] rmw_idx;  // copy 0
  logic [IdxW-1:0]       rd_idx;
  assign rmw_idx = rmw_idx_i[0 +: Slots*IdxW];
  assign rd_idx  = rd_idx_i[0 +: IdxW];
  logic [CntW-1:0] rd_raw;
  // The simulator (Verilator) reads by copy 0, as in dsh_rec_store (the
  // copies are equal; a read per copy costs simulation speed); synthesis
  // and formal read the slices.
`ifdef VERILATOR
  always_comb begin
    for (int k = 0; k < Slots; k++) d_raw[k*CntW +: CntW] = mem_q[rmw_idx[k*IdxW +: IdxW]];
    rd_raw = mem_q[rd_idx];
  end
  `ASSERT(ReadCopiesEqual_A, rmw_idx_i == {ReadCopies{rmw_idx}} && rd_idx_i == {ReadCopies{rd_idx}})
`else
  localparam int unsigned SliceW = (CntW + ReadCopies - 1) / ReadCopies;
  function automatic [CntW-1:0] slice_mask(input integer c);
    for (int b = 0; b < CntW; b++) slice_mask[b] = b / SliceW == c;
  endfunction
  always_comb begin
    for (int k = 0; k < Slots; k++) begin
      d_raw[k*CntW +: CntW] = '0;
      for (int c = 0; c < ReadCopies; c++)
        d_raw[k*CntW +: CntW] |= mem_q[rmw_idx_i[(c*Slots + k)*IdxW +: IdxW]] & slice_mask(c);
    end
    rd_raw = '0;
    for (int c = 0; c < ReadCopies; c++) rd_raw |= mem_q[rd_idx_i[c*IdxW +: IdxW]] & slice_mask(c);
  end
`endif

  // Stage E: the writes the read in D missed, the older first.
  always_comb begin
    for (int k = 0; k < Slots; k++) e_val[k*CntW +: CntW] = e_valid_q[k] ? e_raw_q[k*CntW +: CntW] : '0;
    for (int k = 0; k < Slots; k++) begin
      for (int j = 0; j < Slots; j++)
        if (p_inc_q[j] && hp_q[k*Slots + j])
          e_val[k*CntW +: CntW] = p_nxt_q[j*CntW +: CntW];
      for (int j = 0; j < Slots; j++)
        if (inc_i[j] && hw_q[k*Slots + j])
          e_val[k*CntW +: CntW] = w_nxt_q[j*CntW +: CntW];
    end
  end

  always_ff @(posedge clk_i) begin
    e_idx_q <= rmw_idx;
    e_raw_q <= d_raw;
    for (int k = 0; k < Slots; k++) e_valid_q[k] <= valid_q[rmw_idx[k*IdxW +: IdxW]];
    w_idx_q <= e_idx_q;
    p_nxt_q <= w_nxt_q;
    for (int k = 0; k < Slots; k++)
      for (int j = 0; j < Slots; j++) begin
        hw_q[k*Slots + j] <= e_idx_q[j*IdxW +: IdxW] == rmw_idx[k*IdxW +: IdxW];
        hp_q[k*Slots + j] <= w_idx_q[j*IdxW +: IdxW] == rmw_idx[k*IdxW +: IdxW];
      end
    for (int k = 0; k < Slots; k++) begin
      w_nxt_q[k*CntW +: CntW] <= CntW'(dsh_pkg::inc64(64'(e_val[k*CntW +: CntW])));
      if (inc_i[k]) mem_q[w_idx_q[k*IdxW +: IdxW]] <= w_nxt_q[k*CntW +: CntW];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q <= '0;
      p_inc_q <= '0;
    end else begin
      p_inc_q <= inc_i;
      for (int k = 0; k < Slots; k++)
        if (inc_i[k]) valid_q[w_idx_q[k*IdxW +: IdxW]] <= 1'b1;
    end
  end

  logic [CntW-1:0] rd_q;
  logic            rd_valid_q;
  always_ff @(posedge clk_i) begin
    rd_q       <= rd_raw;
    rd_valid_q <= valid_q[rd_idx];
  end
  assign rd_o = rd_valid_q ? rd_q : '0;

  // Slots never count one entry in the same cycle; every count is of an entry.
  if (Slots == 2) begin : gen_check
    `ASSERT(OneCountPerEntry_A, !(&inc_i) || w_idx_q[0 +: IdxW] != w_idx_q[IdxW +: IdxW])
  end
  logic count_in_range;
  always_comb begin
    count_in_range = 1'b1;
    for (int k = 0; k < Slots; k++)
      if (inc_i[k] && 32'(w_idx_q[k*IdxW +: IdxW]) >= Entries) count_in_range = 1'b0;
  end
  `ASSERT(CountInRange_A, count_in_range)
  // Cover: a count that wraps, back-to-back counts of one entry through
  // each bypass, both slots counting in one cycle.
  logic wraps, by_last, by_now;
  always_comb begin
    wraps = 1'b0;
    by_last = 1'b0;
    by_now = 1'b0;
    for (int k = 0; k < Slots; k++) begin
      wraps |= inc_i[k] && w_nxt_q[k*CntW +: CntW] == '0;
      for (int j = 0; j < Slots; j++) begin
        by_last |= p_inc_q[j] && hp_q[k*Slots + j];
        by_now  |= inc_i[j] && hw_q[k*Slots + j];
      end
    end
  end
  `COVER(CountWraps_C, wraps)
  `COVER(BypassLastWrite_C, by_last)
  `COVER(BypassThisWrite_C, by_now)
  if (Slots == 2) begin : gen_cover_two
    `COVER(TwoSlotsCount_C, &inc_i)
  end
endmodule

`default_nettype wire
