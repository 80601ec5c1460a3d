// SPDX-License-Identifier: Apache-2.0
// One lane of dsh_mmu (spec §4.7, §9.12): the five-stage pipeline of the
// ports it serves (NumPorts here counts the lane's ports; dsh_mmu gives
// each lane the ports of its lane, lane-local index p / NumLanes), one
// dequeue (a merged group, dsh_deq_route) and one enqueue a cycle:
//   A, R  dsh_stage_in   inputs registered, read index copies, eta table;
//   D     dsh_stage_deq  the dequeue drains (dsh_deq_drain);
//   E     dsh_stage_exec admission, state machines, events, errors; the
//                        limits come registered from dsh_thresh_pipe;
//   W     dsh_stage_wb   records written, counts counted, outputs
//                        registered, quiet_o;
// and the state they share: the records (dsh_rec_store, read in R, written
// in W), the counters (dsh_stats, read a stage before E), and which
// stage's result each record read takes instead of the memories' (dsh_fwd);
// beside them the read port (dsh_rd_port). S, B_s - S and the error count
// are the pool's (dsh_mmu): the lane reads S (s_i; S_{c-2} while the
// enqueue of cycle c is in stage D), what every lane's
// dequeue drained from it (deq_shared_all_i) and S and B_s - S after the
// cycle (s_d_i, free_d_i), and reports its own drain (e_dw_o) and what
// its enqueue adds (e_cells_o when e_shared_o) in stage E, its errors in W.
// The results of the inputs presented before clock edge e are visible after
// edge e + 4 (spec §9.2), outputs and records alike.
// Reset, configuration, counters and the parameters' ranges: as dsh_mmu
// says (its only parent, which checks the ranges at elaboration).
`default_nettype none
`include "dsh_assert.svh"
`include "dsh_slot.svh"

module dsh_lane #(
  parameter int unsigned NumPorts      = 32,
  parameter int unsigned NumQueues     = 7,    // lossless queues per port
  parameter int unsigned CellW         = 20,   // occupancy counters and cfg sizes
  parameter int unsigned SizeW         = 8,    // cells of one packet
  parameter int unsigned CntW          = 32,   // statistics counters
  parameter bit          Dsh           = 1'b1, // 1 DSH, 0 SIH
  parameter int unsigned ThreshLatency = 2,    // 1..3 cycles
  parameter int unsigned PauseBanks    = 1,    // DSH PAUSE counters: 1 memory, 2 write ports (ASIC) or 2 banks (FPGA)
  // record read index copies (ASIC: by size, dsh_pkg) or 1 (FPGA)
  parameter int unsigned ReadSlices    = dsh_pkg::read_slices(CellW, NumPorts * NumQueues),
  parameter int unsigned Stats         = 1,    // 1 the statistics counters (dsh_stats), 0 none
  // The pool row (spec §4.9): 0 the one-lane chip's, S' + s <= B_s in
  // stage E; 1 a lane's, S_{c-2} + r_enq_pool_cells_i (A_{c-1} + P_l + s,
  // PoolW bits) <= B_s compared in stage D (dsh_stage_exec).
  parameter bit          PoolIn        = 1'b0,
  parameter int unsigned PoolW         = SizeW,
  `DSH_STAGE_WIDTHS(NumPorts, NumQueues, CellW, SizeW),
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned ThrW   = dsh_pkg::thr_w(CellW)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  // Configuration (software computes B_s from the buffer partition).
  input  logic [CellW-1:0]      cfg_shared_cells_i,    // B_s
  input  logic [CellW-1:0]      cfg_private_cells_i,   // phi, per queue
  // eta of each port, port p at [p*CellW +: CellW]: of each of its queues
  // (SIH) / its insurance (DSH).
  input  logic [NumPorts*CellW-1:0] cfg_headroom_cells_i,
  input  logic signed [4:0]     cfg_alpha_log2_i,      // -10..3
  input  logic [2:0]            cfg_port_mult_log2_i,  // 0..5, DSH X_poff = T << this
  input  logic [CellW-1:0]      cfg_delta_q_i,
  input  logic [CellW-1:0]      cfg_delta_p_i,

  // One dequeue (a merged group) and one enqueue per cycle, ports lane-local.
  input  logic                  deq_valid_i,
  input  logic [PortW-1:0]      deq_port_i,
  input  logic [QueueW-1:0]     deq_queue_i,
  input  logic [SizeW-1:0]      deq_cells_i,
  input  logic                  enq_valid_i,
  input  logic [PortW-1:0]      enq_port_i,
  input  logic [QueueW-1:0]     enq_queue_i,
  input  logic [SizeW-1:0]      enq_cells_i,
  // P_l + s of this lane's enqueue in stage R (PoolIn = 1).
  input  logic [PoolW-1:0]      r_enq_pool_cells_i,
  // The pool (dsh_mmu): S before the cycle in E, what every lane's dequeue
  // in E drained from it, S and B_s - S after that cycle.
  input  logic [CellW-1:0]      s_i,
  input  logic [SizeW-1:0]      deq_shared_all_i,
  input  logic [CellW-1:0]      s_d_i,
  input  logic [CellW-1:0]      free_d_i,
  output logic [SizeW-1:0]      e_dw_o,
  output logic [SizeW-1:0]      e_cells_o,
  output logic                  e_shared_o,
  output logic [1:0]            w_error_o,       // stage W's errors: [0] dequeue, [1] enqueue
  // The chip (dsh_mmu): quiet_o of every lane, and no input this cycle.
  input  logic                  chip_quiet_i,
  input  logic                  chip_idle_i,

  // Flow-control state: bit p*NumQueues+q is queue (p,q) in QOFF; a port's
  // NumQueues-bit slice is its PFC request vector. poff_o: DSH port in POFF.
  output logic [NumQ-1:0]       qoff_o,
  output logic [NumPorts-1:0]   poff_o,

  // Results of the cycle.
  output logic [2:0]            stat_region_o,   // 0 none, 1 private, 2 shared, 3 headroom, 4 drop
  output logic [ThrW-1:0]       stat_t_o,        // T in effect during the cycle
  output logic [CellW-1:0]      stat_s_o,        // S at its end
  output logic                  stat_drop_o,
  output logic [PortW-1:0]      stat_drop_port_o,
  output logic [QueueW-1:0]     stat_drop_queue_o,
  output logic [1:0]            stat_error_o,    // protocol error: [0] dequeue, [1] enqueue
  // Flow-control events: slot 0 from the dequeue's queue/port, slot 1 from
  // the enqueue's (a queue or port touched by both reports in slot 1 only).
  output logic [1:0]            stat_qevt_valid_o,
  output logic [1:0]            stat_qevt_pause_o,  // 1 PAUSE, 0 RESUME
  output logic [2*PortW-1:0]    stat_qevt_port_o,
  output logic [2*QueueW-1:0]   stat_qevt_queue_o,
  output logic [1:0]            stat_pevt_valid_o,
  output logic [1:0]            stat_pevt_pause_o,  // 1 PORT_PAUSE, 0 PORT_RESUME
  output logic [2*PortW-1:0]    stat_pevt_port_o,

  // Counter and port occupancy read port, three cycles of latency: the
  // values after the cycle whose results the stat_* outputs show one cycle
  // after the request (dsh_rd_port, dsh_stats). With Stats = 0 the five
  // counter outputs read 0.
  input  logic [PortW-1:0]      stat_rd_port_i,
  input  logic [QueueW-1:0]     stat_rd_queue_i,
  output logic [CntW-1:0]       stat_rd_drops_o,
  output logic [CntW-1:0]       stat_rd_pauses_o,
  output logic [CntW-1:0]       stat_rd_resumes_o,
  output logic [CntW-1:0]       stat_rd_port_pauses_o,
  output logic [CntW-1:0]       stat_rd_port_resumes_o,
  output logic [CellW-1:0]      stat_rd_port_shared_o,
  output logic [CellW-1:0]      stat_rd_port_hdrm_o,

  // The pipeline holds nothing that will change the state or the outputs:
  // no event in any stage, S unchanged for ThreshLatency + 1 cycles (the
  // thresholds have settled). Idle cycles from here on change nothing but
  // time (the C++ models skip them).
  output logic                  quiet_o
);
  `DSH_SLOT_TYPES
  localparam int unsigned KeyW    = PortW + QueueW;
  localparam int unsigned TW      = dsh_pkg::term_w(CellW);
  localparam int unsigned QCopies = dsh_pkg::qread_copies(ReadSlices);
  localparam int unsigned PCopies = dsh_pkg::pread_copies(ReadSlices);
  // Copies of each counter read's index: the ASIC arrangement's, or one
  // with ReadSlices 1 (an FPGA's block RAM reads).
  localparam int unsigned CntCopies = ReadSlices == 1 ? 1 : dsh_pkg::cnt_read_copies(CntW, NumQ);

  // ------------------------------------------------- stages A and R: inputs
  // The slots from stage to stage (dsh_slot.svh), their records, and what
  // else travels beside them.
  rslot_t                   r_deq, r_enq;
  dslot_t                   d_deq;
  eslot_t                   e_deq, e_enq;
  wslot_t                   w_deq, w_enq;
  logic [QRecW-1:0]         r_deq_qrec, r_enq_qrec, d_qrec, e_deq_qrec, e_enq_qrec, w_deq_qrec, w_enq_qrec;
  logic [PRecW-1:0]         r_deq_prec, r_enq_prec, d_prec, e_deq_prec, e_enq_prec, w_deq_prec, w_enq_prec;
  logic [EtaW-1:0]          r_deq_eta, r_enq_eta, d_eta;
  logic                     in_busy;
  logic [KeyW-1:0]          nx_deq_key, nx_enq_key;
  logic [3*TW-1:0]          r_enq_terms;
  logic [QCopies*QIdxW-1:0] r_deq_ridx, r_enq_ridx;
  logic [PCopies*PortW-1:0] r_deq_rp, r_enq_rp;
  logic [QIdxW-1:0]         r_deq_cnt_idx;
  logic [2*CntCopies*QIdxW-1:0] r_enq_cnt_idx;
  logic [CntCopies*PortW-1:0] r_enq_cnt_p;
  logic [QRecW-1:0]         mem_deq_qrec, mem_enq_qrec;
  logic [PRecW-1:0]         mem_deq_prec, mem_enq_prec;
  logic [CntCopies*QIdxW-1:0] d_cnt_idx;
  logic [3:0]               e_region;
  logic [2:0]               e_region_deq;
  logic [ThrW-1:0]          e_t;
  logic [1:0]               qevt_valid, qevt_pause, pevt_valid, pevt_pause, e_error;
  logic                     w_qpause0, w_qpause1, w_drop, w_ppause;
  logic [CellW-1:0]         free;
  // Forwarding (dsh_fwd).
  logic [2:0]               w_deq_qsel, w_enq_qsel, w_deq_psel, w_enq_psel;
  logic [3:0]               f_deq_qsel, f_enq_qsel, f_deq_psel, f_enq_psel, f_d_psel;
  logic                     same_queue, same_port, r_same_queue, d_same_queue;
  // The read port: its port record, the registered request for the counters.
  logic [CntCopies*PortW-1:0] stat_rd_p;
  logic [PRecW-1:0]         stat_rd_prec;
  logic [CntCopies*QIdxW-1:0] stat_rd_qidx;
  logic                     stat_rd_q_ok, stat_rd_p_ok, stat_rd_qoff, stat_rd_poff;

  dsh_stage_in #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW),
                 .ReadSlices(ReadSlices), .CntCopies(CntCopies), .PoolIn(PoolIn), .PoolW(PoolW)) u_stage_in (
    .clk_i, .rst_ni,
    .cfg_shared_cells_i, .cfg_private_cells_i, .cfg_headroom_cells_i, .cfg_delta_q_i,
    .deq_valid_i, .deq_port_i, .deq_queue_i, .deq_cells_i,
    .enq_valid_i, .enq_port_i, .enq_queue_i, .enq_cells_i, .r_enq_pool_cells_i,
    .busy_o(in_busy), .nx_deq_key_o(nx_deq_key), .nx_enq_key_o(nx_enq_key),
    .r_deq_o(r_deq), .r_enq_o(r_enq), .r_deq_qrec_o(r_deq_qrec), .r_enq_qrec_o(r_enq_qrec),
    .r_deq_prec_o(r_deq_prec), .r_enq_prec_o(r_enq_prec), .r_deq_eta_o(r_deq_eta), .r_enq_eta_o(r_enq_eta),
    .r_enq_terms_o(r_enq_terms),
    .r_deq_ridx_o(r_deq_ridx), .r_enq_ridx_o(r_enq_ridx), .r_deq_rp_o(r_deq_rp), .r_enq_rp_o(r_enq_rp),
    .r_deq_cnt_idx_o(r_deq_cnt_idx), .r_enq_cnt_idx_o(r_enq_cnt_idx), .r_enq_cnt_p_o(r_enq_cnt_p),
    .mem_deq_qrec_i(mem_deq_qrec), .mem_enq_qrec_i(mem_enq_qrec),
    .mem_deq_prec_i(mem_deq_prec), .mem_enq_prec_i(mem_enq_prec),
    .w_deq_qrec_i(w_deq_qrec), .w_enq_qrec_i(w_enq_qrec), .w_deq_prec_i(w_deq_prec), .w_enq_prec_i(w_enq_prec),
    .w_deq_qsel_i(w_deq_qsel), .w_enq_qsel_i(w_enq_qsel), .w_deq_psel_i(w_deq_psel), .w_enq_psel_i(w_enq_psel)
  );

  // ---------------------------------------- the records: read R, write W
  dsh_rec_store #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .ReadSlices(ReadSlices)) u_store (
    .clk_i, .rst_ni,
    .rd_deq_idx_i(r_deq_ridx), .rd_enq_idx_i(r_enq_ridx),
    .rd_deq_qrec_o(mem_deq_qrec), .rd_enq_qrec_o(mem_enq_qrec),
    .rd_deq_p_i(r_deq_rp), .rd_enq_p_i(r_enq_rp), .rd_stat_p_i(stat_rd_p[0 +: PortW]),
    .rd_deq_prec_o(mem_deq_prec), .rd_enq_prec_o(mem_enq_prec), .rd_stat_prec_o(stat_rd_prec),
    .wr_deq_i(w_deq.we), .wr_deq_idx_i(w_deq.idx), .wr_deq_bit_i(w_deq.qbit), .wr_deq_p_i(w_deq.p),
    .wr_deq_qrec_i(w_deq_qrec), .wr_deq_prec_i(w_deq_prec),
    .wr_enq_i(w_enq.we), .wr_enq_idx_i(w_enq.idx), .wr_enq_bit_i(w_enq.qbit), .wr_enq_p_i(w_enq.p),
    .wr_enq_qrec_i(w_enq_qrec), .wr_enq_prec_i(w_enq_prec),
    .qoff_o, .poff_o
  );

  // ------------------------------------------------------------ forwarding
  dsh_fwd #(.NumPorts(NumPorts), .NumQueues(NumQueues)) u_fwd (
    .clk_i, .nx_deq_key_i(nx_deq_key), .nx_enq_key_i(nx_enq_key),
    .r_enq_ok_i(r_enq.ok), .d_ok_i(d_deq.ok), .d_go_i(d_deq.go),
    .e_deq_ok_i(e_deq.ok), .e_deq_go_i(e_deq.go), .e_enq_ok_i(e_enq.ok),
    .w_deq_we_i(w_deq.we), .w_enq_we_i(w_enq.we),
    .w_deq_qsel_o(w_deq_qsel), .w_enq_qsel_o(w_enq_qsel), .w_deq_psel_o(w_deq_psel), .w_enq_psel_o(w_enq_psel),
    .f_deq_qsel_o(f_deq_qsel), .f_enq_qsel_o(f_enq_qsel), .f_deq_psel_o(f_deq_psel),
    .f_enq_psel_o(f_enq_psel), .f_d_psel_o(f_d_psel),
    .same_queue_o(same_queue), .same_port_o(same_port), .r_same_queue_o(r_same_queue),
    .d_same_queue_o(d_same_queue)
  );

  // ------------------------------------------------------ stage D: dequeue
  dsh_stage_deq #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW),
                  .CntCopies(CntCopies)) u_stage_deq (
    .clk_i, .rst_ni,
    .r_deq_i(r_deq), .r_deq_qrec_i(r_deq_qrec), .r_deq_prec_i(r_deq_prec), .r_deq_eta_i(r_deq_eta),
    .r_deq_cnt_idx_i(r_deq_cnt_idx), .r_enq_cells_i(r_enq.cells),
    .f_deq_qsel_i(f_deq_qsel), .f_deq_psel_i(f_deq_psel),
    .r_same_queue_i(r_same_queue), .d_same_queue_i(d_same_queue),
    .e_region_i(e_region_deq), .e_deq_qrec_i(e_deq_qrec), .e_enq_qrec_i(e_enq_qrec),
    .e_deq_prec_i(e_deq_prec), .e_enq_prec_i(e_enq_prec),
    .d_o(d_deq), .d_qrec_o(d_qrec), .d_prec_o(d_prec), .d_eta_o(d_eta), .d_cnt_idx_o(d_cnt_idx)
  );

  // ------------------------------------------------------ stage E: execute
  dsh_stage_exec #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW), .Dsh(Dsh),
                   .ThreshLatency(ThreshLatency), .PoolEarly(PoolIn)) u_stage_exec (
    .clk_i, .rst_ni,
    .cfg_shared_cells_i, .cfg_alpha_log2_i, .cfg_port_mult_log2_i, .cfg_delta_q_i, .cfg_delta_p_i,
    .r_enq_i(r_enq), .r_enq_qrec_i(r_enq_qrec), .r_enq_prec_i(r_enq_prec), .r_enq_eta_i(r_enq_eta),
    .r_enq_terms_i(r_enq_terms), .d_i(d_deq), .d_qrec_i(d_qrec), .d_prec_i(d_prec), .d_eta_i(d_eta),
    .f_enq_qsel_i(f_enq_qsel), .f_enq_psel_i(f_enq_psel), .f_d_psel_i(f_d_psel),
    .same_queue_i(same_queue), .same_port_i(same_port), .free_i(free), .s_i, .deq_shared_all_i,
    .e_deq_o(e_deq), .e_enq_o(e_enq), .e_deq_qrec_o(e_deq_qrec), .e_enq_qrec_o(e_enq_qrec),
    .e_deq_prec_o(e_deq_prec), .e_enq_prec_o(e_enq_prec), .e_region_o(e_region), .e_region_deq_o(e_region_deq),
    .e_t_o(e_t), .e_dw_o, .e_cells_o, .e_shared_o,
    .qevt_valid_o(qevt_valid), .qevt_pause_o(qevt_pause), .pevt_valid_o(pevt_valid),
    .pevt_pause_o(pevt_pause), .error_o(e_error)
  );

  // ------------------------------------------ stage W: write back, outputs
  dsh_stage_wb #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW),
                 .ThreshLatency(ThreshLatency)) u_stage_wb (
    .clk_i, .rst_ni,
    .e_deq_i(e_deq), .e_enq_i(e_enq), .e_deq_qrec_i(e_deq_qrec), .e_enq_qrec_i(e_enq_qrec),
    .e_deq_prec_i(e_deq_prec), .e_enq_prec_i(e_enq_prec), .e_region_i(e_region),
    .e_t_i(e_t), .s_i, .s_d_i, .free_d_i,
    .qevt_valid_i(qevt_valid), .qevt_pause_i(qevt_pause), .pevt_valid_i(pevt_valid), .pevt_pause_i(pevt_pause),
    .error_i(e_error), .busy_i({in_busy, d_deq.v, e_deq.v, e_enq.v}),
    .w_deq_o(w_deq), .w_enq_o(w_enq), .w_deq_qrec_o(w_deq_qrec), .w_enq_qrec_o(w_enq_qrec),
    .w_deq_prec_o(w_deq_prec), .w_enq_prec_o(w_enq_prec),
    .w_qpause0_o(w_qpause0), .w_qpause1_o(w_qpause1), .w_drop_o(w_drop), .w_ppause_o(w_ppause),
    .w_error_o, .free_o(free),
    .stat_region_o, .stat_t_o, .stat_s_o, .stat_drop_o, .stat_drop_port_o, .stat_drop_queue_o, .stat_error_o,
    .stat_qevt_valid_o, .stat_qevt_pause_o, .stat_qevt_port_o, .stat_qevt_queue_o,
    .stat_pevt_valid_o, .stat_pevt_pause_o, .stat_pevt_port_o, .quiet_o
  );

  // ------------------------------------------ read port, errors, statistics
  dsh_rd_port #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .ReadCopies(CntCopies)) u_rd_port (
    .clk_i, .rst_ni,
    .stat_rd_port_i, .stat_rd_queue_i, .qoff_i(qoff_o), .rd_p_o(stat_rd_p), .rd_prec_i(stat_rd_prec),
    .rd_qidx_o(stat_rd_qidx), .rd_q_ok_o(stat_rd_q_ok), .rd_p_ok_o(stat_rd_p_ok), .rd_qoff_o(stat_rd_qoff),
    .rd_poff_o(stat_rd_poff), .stat_rd_port_shared_o, .stat_rd_port_hdrm_o
  );

  if (Stats == 1) begin : gen_stats
    dsh_stats #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CntW(CntW), .Dsh(Dsh),
                .PauseBanks(PauseBanks), .ReadCopies(CntCopies)) u_stats (
      .clk_i, .rst_ni,
      .deq_idx_i(d_cnt_idx), .enq_idx_i(r_enq_cnt_idx), .enq_p_i(r_enq_cnt_p),
      .w_qpause0_i(w_qpause0), .w_qpause1_i(w_qpause1), .w_drop_i(w_drop), .w_ppause_i(w_ppause),
      .rd_qidx_i(stat_rd_qidx), .rd_p_i(stat_rd_p), .rd_q_ok_i(stat_rd_q_ok), .rd_p_ok_i(stat_rd_p_ok),
      .rd_qoff_i(stat_rd_qoff), .rd_poff_i(stat_rd_poff),
      .stat_rd_drops_o, .stat_rd_pauses_o, .stat_rd_resumes_o, .stat_rd_port_pauses_o,
      .stat_rd_port_resumes_o
    );
  end else begin : gen_no_stats
    assign stat_rd_drops_o        = '0;
    assign stat_rd_pauses_o       = '0;
    assign stat_rd_resumes_o      = '0;
    assign stat_rd_port_pauses_o  = '0;
    assign stat_rd_port_resumes_o = '0;
    // What only the counters take: synthesis removes the logic behind it
    // (the counters' index copies in stages R and D, the counts of stage W).
    logic unused_stats;
    assign unused_stats = ^{d_cnt_idx, r_enq_cnt_idx, r_enq_cnt_p, w_qpause0, w_qpause1, w_drop, w_ppause,
                            stat_rd_qidx, stat_rd_p, stat_rd_q_ok, stat_rd_p_ok,
                            stat_rd_qoff, stat_rd_poff};
  end

  // ------------------------------------------------------------ assertions
  // (The stages check their own: docs/design/rtl.md lists them.)
  `ASSERT(SihNoPoff_A, Dsh || poff_o == '0)
  // A PAUSE/RESUME event shows the state it leads to, in the same cycle as
  // qoff_o/poff_o (the records and outputs of a cycle appear together; a
  // queue or port both slots touch reports in slot 1 only).
  // (Slots written out: Yosys names a generate loop's assertions alike.)
  `ASSERT(QevtSlot0ShowsQoff_A, !stat_qevt_valid_o[0] || qoff_o[32'(stat_qevt_port_o[0 +: PortW]) * NumQueues
                                + 32'(stat_qevt_queue_o[0 +: QueueW])] == stat_qevt_pause_o[0])
  `ASSERT(QevtSlot1ShowsQoff_A, !stat_qevt_valid_o[1] || qoff_o[32'(stat_qevt_port_o[PortW +: PortW]) * NumQueues
                                + 32'(stat_qevt_queue_o[QueueW +: QueueW])] == stat_qevt_pause_o[1])
  `ASSERT(PevtSlot0ShowsPoff_A, !stat_pevt_valid_o[0] || poff_o[stat_pevt_port_o[0 +: PortW]] == stat_pevt_pause_o[0])
  `ASSERT(PevtSlot1ShowsPoff_A, !stat_pevt_valid_o[1] || poff_o[stat_pevt_port_o[PortW +: PortW]] == stat_pevt_pause_o[1])
`ifndef SYNTHESIS
  // quiet_o: an idle cycle from here changes no state. Checked a cycle
  // later without $past: after a quiet cycle of the chip with no input to
  // any lane, this lane is still quiet, S and T unchanged, and nothing was written or counted.
  logic             idle_q;
  logic [CellW-1:0] idle_s_q;
  logic [ThrW-1:0]  idle_t_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) idle_q <= 1'b0;
    else         idle_q <= chip_quiet_i && chip_idle_i;
  end
  always_ff @(posedge clk_i) begin
    idle_s_q      <= stat_s_o;
    idle_t_q      <= stat_t_o;
  end
  `ASSERT(QuietIdleStaysQuiet_A, !idle_q || quiet_o)
  `ASSERT(QuietIdleKeepsState_A, !idle_q || (stat_s_o == idle_s_q && s_i == idle_s_q && stat_t_o == idle_t_q
                                             && w_error_o == '0))
  `ASSERT(QuietIdleNoWrite_A, !idle_q || !(w_deq.we || w_enq.we || w_qpause0 || w_qpause1 || w_drop || w_ppause))
  // Its own errors only: the pool's count is dsh_mmu's.
  logic unused_cnt_w;
  assign unused_cnt_w = CntW > 0;
`endif
endmodule

`default_nettype wire
