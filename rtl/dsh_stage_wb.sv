// SPDX-License-Identifier: Apache-2.0
// Stage W of dsh_mmu (spec §9.2) and its outputs: stage E's results
// registered; the records written into dsh_rec_store at the next clock
// edge (slot 1, the enqueue's, holds the final values when both slots hit
// one record), the counts to increment for dsh_stats, B_s - S for the
// threshold pipeline; then the stat_* outputs registered once more, and
// quiet_o.
// Latency: stage E to w_* one clock edge, to stat_* two; stat_s_o is S
// after the cycle whose other results stat_* show.
// Reset (rst_ni, asynchronous): write enables, counts, events, errors 0,
// regions RegNone, the outputs 0; records, indices and free_o have none
// (nothing reads them while the enables are 0; free_o: see dsh_stage_exec).
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_rec.svh"

module dsh_stage_wb #(
  parameter int unsigned NumPorts      = 32,
  parameter int unsigned NumQueues     = 7,
  parameter int unsigned CellW         = 20,
  parameter int unsigned ThreshLatency = 2,
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned QIdxW  = dsh_pkg::idx_w(NumPorts * NumQueues),
  localparam int unsigned QRecW  = dsh_pkg::qrec_w(CellW),
  localparam int unsigned PRecW  = dsh_pkg::prec_w(CellW),
  localparam int unsigned ThrW   = dsh_pkg::thr_w(CellW)
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Stage E (dsh_stage_exec).
  input  logic              e_deq_go_i,
  input  logic              e_enq_ok_i,
  input  logic [QIdxW-1:0]  e_deq_idx_i,
  input  logic [QIdxW-1:0]  e_enq_idx_i,
  input  logic [PortW-1:0]  e_deq_p_i,
  input  logic [PortW-1:0]  e_enq_p_i,
  input  logic [PortW-1:0]  e_deq_port_i,
  input  logic [PortW-1:0]  e_enq_port_i,
  input  logic [QueueW-1:0] e_deq_queue_i,
  input  logic [QueueW-1:0] e_enq_queue_i,
  input  logic [3:0]        e_region_i,
  input  logic [QRecW-1:0]  e_deq_qrec_i,
  input  logic [QRecW-1:0]  e_enq_qrec_i,
  input  logic [PRecW-1:0]  e_deq_prec_i,
  input  logic [PRecW-1:0]  e_enq_prec_i,
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

  // The writes of dsh_rec_store.
  output logic              w_deq_we_o,
  output logic              w_enq_we_o,
  output logic [QIdxW-1:0]  w_deq_idx_o,
  output logic [QIdxW-1:0]  w_enq_idx_o,
  output logic [QIdxW-1:0]  w_deq_bit_o,   // the queues' bits of qoff_o
  output logic [QIdxW-1:0]  w_enq_bit_o,
  output logic [PortW-1:0]  w_deq_p_o,
  output logic [PortW-1:0]  w_enq_p_o,
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
  `DSH_REC_TYPES(CellW)
  // A queue's bit of qoff_o (a write is always in range).
  function automatic [QIdxW-1:0] out_bit(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    out_bit = QIdxW'(p) * QIdxW'(NumQueues) + QIdxW'(q);
  endfunction

  // ------------------------------------------------------------ stage W
  logic [2:0]        w_region_q;
  logic [ThrW-1:0]   w_t_q;
  logic [1:0]        w_qevt_valid_q, w_qevt_pause_q, w_pevt_valid_q, w_pevt_pause_q;
  logic [PortW-1:0]  w_deq_port_q, w_enq_port_q;
  logic [QueueW-1:0] w_deq_queue_q, w_enq_queue_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_deq_we_o     <= 1'b0;
      w_enq_we_o     <= 1'b0;
      w_qpause0_o    <= 1'b0;
      w_qpause1_o    <= 1'b0;
      w_drop_o       <= 1'b0;
      w_ppause_o     <= 1'b0;
      w_region_q     <= dsh_pkg::RegNone;
      w_error_o      <= '0;
      w_qevt_valid_q <= '0;
      w_pevt_valid_q <= '0;
    end else begin
      w_deq_we_o     <= e_deq_go_i;
      w_enq_we_o     <= e_enq_ok_i;
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
    w_deq_idx_o    <= e_deq_idx_i;
    w_enq_idx_o    <= e_enq_idx_i;
    w_deq_p_o      <= e_deq_p_i;
    w_enq_p_o      <= e_enq_p_i;
    w_deq_qrec_o   <= e_deq_qrec_i;
    w_enq_qrec_o   <= e_enq_qrec_i;
    w_deq_prec_o   <= e_deq_prec_i;
    w_enq_prec_o   <= e_enq_prec_i;
    w_t_q          <= e_t_i;
    w_qevt_pause_q <= qevt_pause_i;
    w_pevt_pause_q <= pevt_pause_i;
    w_deq_port_q   <= e_deq_port_i;
    w_deq_bit_o    <= out_bit(e_deq_port_i, e_deq_queue_i);
    w_enq_bit_o    <= out_bit(e_enq_port_i, e_enq_queue_i);
    w_enq_port_q   <= e_enq_port_i;
    w_deq_queue_q  <= e_deq_queue_i;
    w_enq_queue_q  <= e_enq_queue_i;
  end
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
  assign quiet_o = &s_still_q && !(|busy_i || w_deq_we_o || w_enq_we_o)
      && w_error_o == '0 && w_region_q == dsh_pkg::RegNone
      && stat_error_o == '0 && stat_region_o == dsh_pkg::RegNone && !stat_drop_o
      && stat_qevt_valid_o == '0 && stat_pevt_valid_o == '0;

  // ------------------------------------------------------------ assertions
  // What W writes is whole: a queue's prefix sums in order (no part below
  // 0), a count or an event only with its write.
  qrec_t w_deq_qrec, w_enq_qrec;
  assign w_deq_qrec = w_deq_qrec_o;
  assign w_enq_qrec = w_enq_qrec_o;
  logic unused_qoff;  // the state bits: dsh_mmu checks them against the events
  assign unused_qoff = ^{w_deq_qrec.qoff, w_enq_qrec.qoff};
  `ASSERT(WbDeqQueueSumsOrdered_A,
          !w_deq_we_o || (w_deq_qrec.h <= w_deq_qrec.hs && w_deq_qrec.hs <= w_deq_qrec.hsp))
  `ASSERT(WbEnqQueueSumsOrdered_A,
          !w_enq_we_o || (w_enq_qrec.h <= w_enq_qrec.hs && w_enq_qrec.hs <= w_enq_qrec.hsp))
  `ASSERT(WbCountsWithWrites_A, (!w_qpause0_o || w_deq_we_o) && (!(w_qpause1_o || w_ppause_o) || w_enq_we_o))
  `ASSERT(WbDropIsRegion_A, w_drop_o == (w_region_q == dsh_pkg::RegDrop))
  // quiet_o: nothing in flight, so no write and no count.
  `ASSERT(WbQuietNoWrite_A, !quiet_o || !(w_deq_we_o || w_enq_we_o || w_qpause0_o || w_qpause1_o || w_drop_o
                                          || w_ppause_o || w_error_o != '0))
endmodule

`default_nettype wire
