// SPDX-License-Identifier: Apache-2.0
// Stage W of dsh_mmu (spec §9.2) and its outputs: stage E's results
// registered; the records written into dsh_rec_store at the next clock
// edge (slot 1, the enqueue's, holds the final values when both slots hit
// one record), the counts to increment for dsh_stats, B_s - S for the
// threshold pipeline; then the stat_* outputs registered once more, and
// quiet_o.
// Slots (dsh_slot.svh), each with its records beside it: stage E's two in
// (e_deq_i, e_enq_i, eslot_t), stage W's two out (w_deq_o, w_enq_o,
// wslot_t).
// Latency: stage E to w_* one clock edge, to stat_* two; stat_s_o is S
// after the cycle whose other results stat_* show.
// Reset (rst_ni, asynchronous): write enables, counts, events, errors 0,
// regions RegNone, the outputs 0; records, indices and free_o have none
// (nothing reads them while the enables are 0; free_o: see dsh_stage_exec).
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_slot.svh"

module dsh_stage_wb #(
  parameter int unsigned NumPorts      = 32,
  parameter int unsigned NumQueues     = 7,
  parameter int unsigned CellW         = 20,
  parameter int unsigned SizeW         = 8,  // the slots of stages R and D only
  parameter int unsigned ThreshLatency = 2,
  `DSH_STAGE_WIDTHS(NumPorts, NumQueues, CellW, SizeW),
  localparam int unsigned ThrW   = dsh_pkg::thr_w(CellW)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Stage E (dsh_stage_exec).
  input  logic [ESlotW-1:0] e_deq_i,
  input  logic [ESlotW-1:0] e_enq_i,
  input  logic [QRecW-1:0]  e_deq_qrec_i,
  input  logic [QRecW-1:0]  e_enq_qrec_i,
  input  logic [PRecW-1:0]  e_deq_prec_i,
  input  logic [PRecW-1:0]  e_enq_prec_i,
  input  logic [3:0]        e_region_i,
  input  logic [ThrW-1:0]   e_t_i,
  input  logic [CellW-1:0]  s_i,      // S before E's cycle
  input  logic [CellW-1:0]  s_d_i,    // S after it
  input  logic [CellW-1:0]  free_d_i,
  input  logic [1:0]        qevt_valid_i,
  input  logic [1:0]        qevt_pause_i,
  input  logic [1:0]        pevt_valid_i,
  input  logic [1:0]        pevt_pause_i,
  input  logic [1:0]        error_i,
  // Events in the stages before W (for quiet_o).
  input  logic [3:0]        busy_i,

  // The writes of dsh_rec_store (slot 0 the dequeue's, 1 the enqueue's).
  output logic [WSlotW-1:0] w_deq_o,
  output logic [WSlotW-1:0] w_enq_o,
  output logic [QRecW-1:0]  w_deq_qrec_o,
  output logic [QRecW-1:0]  w_enq_qrec_o,
  output logic [PRecW-1:0]  w_deq_prec_o,
  output logic [PRecW-1:0]  w_enq_prec_o,
  // The counts dsh_stats increments, and the errors it counts.
  output logic              w_qpause0_o,
  output logic              w_qpause1_o,
  output logic              w_drop_o,
  output logic              w_ppause_o,
  output logic [1:0]        w_error_o,
  // B_s - S after the cycle last in stage E (dsh_stage_exec's thresholds).
  output logic [CellW-1:0]  free_o,

  // dsh_mmu's outputs of the cycle (see there).
  output logic [2:0]          stat_region_o,
  output logic [ThrW-1:0]     stat_t_o,
  output logic [CellW-1:0]    stat_s_o,
  output logic                stat_drop_o,
  output logic [PortW-1:0]    stat_drop_port_o,
  output logic [QueueW-1:0]   stat_drop_queue_o,
  output logic [1:0]          stat_error_o,
  output logic [1:0]          stat_qevt_valid_o,
  output logic [1:0]          stat_qevt_pause_o,
  output logic [2*PortW-1:0]  stat_qevt_port_o,
  output logic [2*QueueW-1:0] stat_qevt_queue_o,
  output logic [1:0]          stat_pevt_valid_o,
  output logic [1:0]          stat_pevt_pause_o,
  output logic [2*PortW-1:0]  stat_pevt_port_o,
  output logic                quiet_o
);
  `DSH_SLOT_TYPES
  // A queue's bit of qoff_o (a write is always in range).
  function automatic [QIdxW-1:0] out_bit(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    out_bit = QIdxW'(p) * QIdxW'(NumQueues) + QIdxW'(q);
  endfunction

  eslot_t e_deq, e_enq;
  assign e_deq = e_deq_i;
  assign e_enq = e_enq_i;
  logic unused_e;  // the write enables are go (the enqueue's is its ok)
  assign unused_e = ^{e_deq.v, e_deq.ok, e_enq.v, e_enq.ok};

  // ------------------------------------------------------------ stage W
  logic              w_deq_we_q, w_enq_we_q;
  logic [QIdxW-1:0]  w_deq_idx_q, w_enq_idx_q, w_deq_bit_q, w_enq_bit_q;
  logic [PortW-1:0]  w_deq_p_q, w_enq_p_q;
  qrec_t             w_deq_qrec_q, w_enq_qrec_q;
  prec_t             w_deq_prec_q, w_enq_prec_q;
  logic [2:0]        w_region_q;
  logic [ThrW-1:0]   w_t_q;
  logic [1:0]        w_qevt_valid_q, w_qevt_pause_q, w_pevt_valid_q, w_pevt_pause_q;
  logic [PortW-1:0]  w_deq_port_q, w_enq_port_q;
  logic [QueueW-1:0] w_deq_queue_q, w_enq_queue_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_deq_we_q     <= 1'b0;
      w_enq_we_q     <= 1'b0;
      w_qpause0_o    <= 1'b0;
      w_qpause1_o    <= 1'b0;
      w_drop_o       <= 1'b0;
      w_ppause_o     <= 1'b0;
      w_region_q     <= dsh_pkg::RegNone;
      w_error_o      <= '0;
      w_qevt_valid_q <= '0;
      w_pevt_valid_q <= '0;
    end else begin
      w_deq_we_q     <= e_deq.go;
      w_enq_we_q     <= e_enq.go;
      w_qpause0_o    <= qevt_valid_i[0] && qevt_pause_i[0];
      w_qpause1_o    <= qevt_valid_i[1] && qevt_pause_i[1];
      w_drop_o       <= e_region_i[3];
      w_ppause_o     <= pevt_valid_i[1] && pevt_pause_i[1];
      w_region_q     <= e_region_i[0] ? dsh_pkg::RegPriv : e_region_i[1] ? dsh_pkg::RegShared
                      : e_region_i[2] ? dsh_pkg::RegHdrm : e_region_i[3] ? dsh_pkg::RegDrop : dsh_pkg::RegNone;
      w_error_o      <= error_i;
      w_qevt_valid_q <= qevt_valid_i;
      w_pevt_valid_q <= pevt_valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    w_deq_idx_q    <= e_deq.idx;
    w_enq_idx_q    <= e_enq.idx;
    w_deq_p_q      <= e_deq.p;
    w_enq_p_q      <= e_enq.p;
    w_deq_qrec_q   <= e_deq_qrec_i;
    w_enq_qrec_q   <= e_enq_qrec_i;
    w_deq_prec_q   <= e_deq_prec_i;
    w_enq_prec_q   <= e_enq_prec_i;
    w_t_q          <= e_t_i;
    w_qevt_pause_q <= qevt_pause_i;
    w_pevt_pause_q <= pevt_pause_i;
    w_deq_port_q   <= e_deq.port;
    w_deq_bit_q    <= out_bit(e_deq.port, e_deq.queue_id);
    w_enq_bit_q    <= out_bit(e_enq.port, e_enq.queue_id);
    w_enq_port_q   <= e_enq.port;
    w_deq_queue_q  <= e_deq.queue_id;
    w_enq_queue_q  <= e_enq.queue_id;
  end

  // The slots, packed.
  wslot_t w_deq, w_enq;
  assign w_deq.we   = w_deq_we_q;
  assign w_deq.idx  = w_deq_idx_q;
  assign w_deq.qbit = w_deq_bit_q;
  assign w_deq.p    = w_deq_p_q;
  assign w_enq.we   = w_enq_we_q;
  assign w_enq.idx  = w_enq_idx_q;
  assign w_enq.qbit = w_enq_bit_q;
  assign w_enq.p    = w_enq_p_q;
  assign w_deq_o      = w_deq;
  assign w_enq_o      = w_enq;
  assign w_deq_qrec_o = w_deq_qrec_q;
  assign w_enq_qrec_o = w_enq_qrec_q;
  assign w_deq_prec_o = w_deq_prec_q;
  assign w_enq_prec_o = w_enq_prec_q;
  // B_s - S for this lane's threshold pipeline. `keep`: every lane's copy
  // loads the same value; merged into one register, its threshold logic
  // would drive every lane's limit registers, hundreds of loads a gate.
  (* keep *) always_ff @(posedge clk_i) free_o <= free_d_i;

  // ------------------------------------------------------------ outputs
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_s_o          <= '0;
      stat_region_o     <= dsh_pkg::RegNone;
      stat_t_o          <= '0;
      stat_drop_o       <= 1'b0;
      stat_drop_port_o  <= '0;
      stat_drop_queue_o <= '0;
      stat_error_o      <= '0;
      stat_qevt_valid_o <= '0;
      stat_qevt_pause_o <= '0;
      stat_qevt_port_o  <= '0;
      stat_qevt_queue_o <= '0;
      stat_pevt_valid_o <= '0;
      stat_pevt_pause_o <= '0;
      stat_pevt_port_o  <= '0;
    end else begin
      stat_s_o          <= s_i;
      stat_region_o     <= w_region_q;
      stat_t_o          <= w_t_q;
      stat_drop_o       <= w_drop_o;
      stat_drop_port_o  <= w_enq_port_q;
      stat_drop_queue_o <= w_enq_queue_q;
      stat_error_o      <= w_error_o;
      stat_qevt_valid_o <= w_qevt_valid_q;
      stat_qevt_pause_o <= w_qevt_pause_q;
      stat_qevt_port_o  <= {w_enq_port_q, w_deq_port_q};
      stat_qevt_queue_o <= {w_enq_queue_q, w_deq_queue_q};
      stat_pevt_valid_o <= w_pevt_valid_q;
      stat_pevt_pause_o <= w_pevt_pause_q;
      stat_pevt_port_o  <= {w_enq_port_q, w_deq_port_q};
    end
  end

  // Quiet: nothing valid in A, R, D, E or W, the outputs show an idle
  // cycle, and S (hence B_s - S, the threshold pipeline's input) has not
  // changed for ThreshLatency + 3 cycles, so the limits, T and stat_t_o have
  // settled. An idle cycle then changes no state and no output.
  localparam int unsigned QuietW = ThreshLatency + 3;
  logic [QuietW-1:0] s_still_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_still_q <= '0;
    else         s_still_q <= {s_still_q[QuietW-2:0], s_d_i == s_i};
  end
  assign quiet_o = &s_still_q && !(|busy_i || w_deq_we_q || w_enq_we_q)
      && w_error_o == '0 && w_region_q == dsh_pkg::RegNone
      && stat_error_o == '0 && stat_region_o == dsh_pkg::RegNone && !stat_drop_o
      && stat_qevt_valid_o == '0 && stat_pevt_valid_o == '0;

  // ------------------------------------------------------------ assertions
  // What W writes is whole: a queue's prefix sums in order (no part below
  // 0), a count or an event only with its write. (The state bits: dsh_mmu
  // checks them against the events.)
  `ASSERT(WbDeqQueueSumsOrdered_A,
          !w_deq_we_q || (w_deq_qrec_q.h <= w_deq_qrec_q.hs && w_deq_qrec_q.hs <= w_deq_qrec_q.hsp))
  `ASSERT(WbEnqQueueSumsOrdered_A,
          !w_enq_we_q || (w_enq_qrec_q.h <= w_enq_qrec_q.hs && w_enq_qrec_q.hs <= w_enq_qrec_q.hsp))
  `ASSERT(WbCountsWithWrites_A, (!w_qpause0_o || w_deq_we_q) && (!(w_qpause1_o || w_ppause_o) || w_enq_we_q))
  `ASSERT(WbDropIsRegion_A, w_drop_o == (w_region_q == dsh_pkg::RegDrop))
  // quiet_o: nothing in flight, so no write and no count.
  `ASSERT(WbQuietNoWrite_A, !quiet_o || !(w_deq_we_q || w_enq_we_q || w_qpause0_o || w_qpause1_o || w_drop_o
                                          || w_ppause_o || w_error_o != '0))
endmodule

`default_nettype wire
