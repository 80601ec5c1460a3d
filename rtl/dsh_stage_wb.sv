// SPDX-License-Identifier: Apache-2.0
// Stage W of dsh_mmu (spec §9.2) and its outputs: stage E's results
// registered; the records written into dsh_rec_store at the next clock
// edge (slot 1, the enqueue's, holds the final values when both slots hit
// one record), the counts to increment for dsh_stats, B_s - S for the
// threshold pipeline; then the stat_* outputs registered once more, and
// quiet_o.
// Latency: stage E to W's slots and results one clock edge, to stat_*
// two; stat_s_o is S after the cycle whose other results stat_* show.
// Reset (rst_ni, asynchronous): write enables, counts, events, errors 0,
// regions RegNone, the outputs 0; records, indices and free have none
// (nothing reads them while the enables are 0; free: see dsh_stage_exec).
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_rec.svh"
`include "dsh_slot.svh"

module dsh_stage_wb #(
`include "dsh_params.svh"
) (
  input  logic              clk_i,
  input  logic              rst_ni,

  // Stage E's slots and results (dsh_stage_exec).
  input  logic [SlotW-1:0]  e_deq_i,
  input  logic [SlotW-1:0]  e_enq_i,
  input  logic [ExecW-1:0]  e_i,
  // Events in the stages before W (for quiet_o).
  input  logic [3:0]        busy_i,

  // W's slots, written into dsh_rec_store at the next clock edge: go (the
  // write enable; v and ok the same), idx, p, port, queue, the records.
  output logic [SlotW-1:0]  w_deq_o,
  output logic [SlotW-1:0]  w_enq_o,
  // Its results beside them (wb_t): the queues' bits of qoff_o, the counts
  // dsh_stats increments, the errors, B_s - S for the thresholds.
  output logic [WbW-1:0]    w_o,

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
  `DSH_SLOT_TYPES
  slot_t e_deq, e_enq, w_deq_q, w_enq_q, w_deq, w_enq;
  exec_t e;
  wb_t   w;
  assign e_deq = e_deq_i;
  assign e_enq = e_enq_i;
  assign e     = e_i;
  logic unused_in;  // of E's slots what W writes and shows; of its results, W's
  assign unused_in = ^{e_deq, e_enq, e};
  // A queue's bit of qoff_o (a write is always in range).
  function automatic [QIdxW-1:0] out_bit(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    out_bit = QIdxW'(p) * QIdxW'(NumQueues) + QIdxW'(q);
  endfunction

  // ------------------------------------------------------------ stage W
  logic [2:0]        w_region_q;
  logic [ThrW-1:0]   w_t_q;
  logic [1:0]        w_qevt_valid_q, w_qevt_pause_q, w_pevt_valid_q, w_pevt_pause_q;
  logic              w_deq_we_q, w_enq_we_q, w_qpause0_q, w_qpause1_q, w_drop_q, w_ppause_q;
  logic [1:0]        w_error_q;
  logic [QIdxW-1:0]  w_deq_bit_q, w_enq_bit_q;
  logic [CellW-1:0]  w_free_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_deq_we_q     <= 1'b0;
      w_enq_we_q     <= 1'b0;
      w_qpause0_q    <= 1'b0;
      w_qpause1_q    <= 1'b0;
      w_drop_q       <= 1'b0;
      w_ppause_q     <= 1'b0;
      w_region_q     <= dsh_pkg::RegNone;
      w_error_q      <= '0;
      w_qevt_valid_q <= '0;
      w_pevt_valid_q <= '0;
    end else begin
      w_deq_we_q     <= e_deq.go;
      w_enq_we_q     <= e_enq.ok;
      w_qpause0_q    <= e.qevt_valid[0] && e.qevt_pause[0];
      w_qpause1_q    <= e.qevt_valid[1] && e.qevt_pause[1];
      w_drop_q       <= e.region[3];
      w_ppause_q     <= e.pevt_valid[1] && e.pevt_pause[1];
      w_region_q     <= e.region[0] ? dsh_pkg::RegPriv : e.region[1] ? dsh_pkg::RegShared
                      : e.region[2] ? dsh_pkg::RegHdrm : e.region[3] ? dsh_pkg::RegDrop : dsh_pkg::RegNone;
      w_error_q      <= e.error;
      w_qevt_valid_q <= e.qevt_valid;
      w_pevt_valid_q <= e.pevt_valid;
    end
  end

  always_ff @(posedge clk_i) begin
    w_deq_q        <= e_deq;
    w_enq_q        <= e_enq;
    w_t_q          <= e.t;
    w_qevt_pause_q <= e.qevt_pause;
    w_pevt_pause_q <= e.pevt_pause;
    w_deq_bit_q    <= out_bit(e_deq.port, e_deq.queue);
    w_enq_bit_q    <= out_bit(e_enq.port, e_enq.queue);
    w_free_q       <= e.free_d;
  end

  // W's slots and results as it shows them.
  always_comb begin
    `DSH_SLOT_SHOW(w_deq, w_deq_q, w_deq_we_q, w_deq_we_q, w_deq_we_q)
    `DSH_SLOT_SHOW(w_enq, w_enq_q, w_enq_we_q, w_enq_we_q, w_enq_we_q)
    w.deq_bit = w_deq_bit_q;
    w.enq_bit = w_enq_bit_q;
    w.qpause0 = w_qpause0_q;
    w.qpause1 = w_qpause1_q;
    w.drop    = w_drop_q;
    w.ppause  = w_ppause_q;
    w.error   = w_error_q;
    w.free    = w_free_q;
  end
  assign w_deq_o = w_deq;
  assign w_enq_o = w_enq;
  assign w_o     = w;

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
      stat_s_o          <= e.s;
      stat_region_o     <= w_region_q;
      stat_t_o          <= w_t_q;
      stat_drop_o       <= w_drop_q;
      stat_drop_port_o  <= w_enq_q.port;
      stat_drop_queue_o <= w_enq_q.queue;
      stat_error_o      <= w_error_q;
      stat_qevt_valid_o <= w_qevt_valid_q;
      stat_qevt_pause_o <= w_qevt_pause_q;
      stat_qevt_port_o  <= {w_enq_q.port, w_deq_q.port};
      stat_qevt_queue_o <= {w_enq_q.queue, w_deq_q.queue};
      stat_pevt_valid_o <= w_pevt_valid_q;
      stat_pevt_pause_o <= w_pevt_pause_q;
      stat_pevt_port_o  <= {w_enq_q.port, w_deq_q.port};
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
    else         s_still_q <= {s_still_q[QuietW-2:0], e.s_d == e.s};
  end
  assign quiet_o = &s_still_q && !(|busy_i || w_deq_we_q || w_enq_we_q)
      && w_error_q == '0 && w_region_q == dsh_pkg::RegNone
      && stat_error_o == '0 && stat_region_o == dsh_pkg::RegNone && !stat_drop_o
      && stat_qevt_valid_o == '0 && stat_pevt_valid_o == '0;

  // ------------------------------------------------------------ assertions
  // What W writes is whole: a queue's prefix sums in order (no part below
  // 0), a count or an event only with its write.
  qrec_t w_deq_qrec, w_enq_qrec;
  assign w_deq_qrec = w_deq_q.qrec;
  assign w_enq_qrec = w_enq_q.qrec;
  logic unused_qoff;  // the state bits: dsh_mmu checks them against the events
  assign unused_qoff = ^{w_deq_qrec.qoff, w_enq_qrec.qoff};
  `ASSERT(WbDeqQueueSumsOrdered_A,
          !w_deq_we_q || (w_deq_qrec.h <= w_deq_qrec.hs && w_deq_qrec.hs <= w_deq_qrec.hsp))
  `ASSERT(WbEnqQueueSumsOrdered_A,
          !w_enq_we_q || (w_enq_qrec.h <= w_enq_qrec.hs && w_enq_qrec.hs <= w_enq_qrec.hsp))
  `ASSERT(WbCountsWithWrites_A, (!w_qpause0_q || w_deq_we_q) && (!(w_qpause1_q || w_ppause_q) || w_enq_we_q))
  `ASSERT(WbDropIsRegion_A, w_drop_q == (w_region_q == dsh_pkg::RegDrop))
  // quiet_o: nothing in flight, so no write and no count.
  `ASSERT(WbQuietNoWrite_A, !quiet_o || !(w_deq_we_q || w_enq_we_q || w_qpause0_q || w_qpause1_q || w_drop_q
                                          || w_ppause_q || w_error_q != '0))
endmodule

`default_nettype wire
