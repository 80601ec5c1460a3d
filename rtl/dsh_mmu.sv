// MMU threshold pipeline of a shared-buffer switch: DSH (Dynamic and Shared
// Headroom) or SIH (static headroom), as defined by the MMU contract
// (../shared/spec/mmu-contract.md; decisions in docs/contract-decisions.md).
//
// Each cycle: at most one dequeue and one enqueue (one packet each). The
// dequeue is applied first, then the enqueue's admission (private, shared,
// headroom/insurance or drop), then the flow-control state machines of the
// queues and ports either touched.
//
// Pipeline. The contract's cycle c is split in two: its dequeue drains in
// stage D, and one cycle later its enqueue, the state machines and the
// events run in stage E, in the same clock cycle as the dequeue of cycle
// c+1 in stage D. The contract applies enqueue c before dequeue c+1, and
// that is the one dependence inside a clock cycle: stage D computes the
// dequeue for each region the enqueue in E may take and E's region picks one
// at the end. An enqueue changes one count by its size, so these variants
// are cheap, and every compare in E is on registered counts.
//   A  the enqueue's inputs wait one cycle (the dequeue's go straight to R);
//   R  records are read (P*Q:1 AND-OR reads with one-hot selects decoded a
//      stage earlier), with what W writes now; at the end of the cycle the
//      results of D and E are forwarded into the records read;
//   D  the dequeue drains (dsh_deq_drain);
//   E  admission, state machines, events; the limits it compares with come
//      registered from dsh_thresh_pipe;
//   W  records written, counters counted in place, outputs registered.
// The results of the inputs presented before clock edge e are visible after
// edge e + 4 (contract §5: e), outputs and records alike.
//
// Reset: rst_ni active low, asynchronous; hold it for at least 3 clock edges
// with cfg_* stable (fills the threshold pipeline). Occupancies, states and
// counters reset to 0. cfg_* are static while not in reset.
// Counters wrap modulo 2^CntW and carry between their two halves one cycle
// late (dsh_cnt_step). Protocol errors (cells = 0, index out of range,
// dequeue of more than the queue holds) change nothing but the error flag
// and count; the other event of the cycle still applies. Resume counts are
// not stored: PAUSE and RESUME of a queue (port) alternate, starting from
// QON, so resumes = pauses - qoff (pauses - poff).
`default_nettype none

module dsh_mmu #(
  parameter int unsigned NumPorts      = 32,
  parameter int unsigned NumQueues     = 7,    // lossless queues per port
  parameter int unsigned CellW         = 20,   // occupancy counters and cfg sizes
  parameter int unsigned SizeW         = 8,    // cells of one packet
  parameter int unsigned CntW          = 32,   // statistics counters
  parameter bit          Dsh           = 1'b1, // 1 DSH, 0 SIH
  parameter int unsigned ThreshLatency = 2,    // 1..3 cycles
  localparam int unsigned PortW  = (NumPorts > 1) ? $clog2(NumPorts) : 1,
  localparam int unsigned QueueW = (NumQueues > 1) ? $clog2(NumQueues) : 1,
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned ThrW   = CellW + 3
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,

  // Configuration (software computes B_s from the buffer partition).
  input  logic [CellW-1:0]      cfg_shared_cells_i,    // B_s
  input  logic [CellW-1:0]      cfg_private_cells_i,   // phi, per queue
  input  logic [CellW-1:0]      cfg_headroom_cells_i,  // eta: per queue (SIH) / per port (DSH)
  input  logic signed [4:0]     cfg_alpha_log2_i,      // -10..3
  input  logic [2:0]            cfg_port_mult_log2_i,  // 0..5, DSH X_poff = T << this
  input  logic [CellW-1:0]      cfg_delta_q_i,
  input  logic [CellW-1:0]      cfg_delta_p_i,

  // One dequeue and one enqueue per cycle.
  input  logic                  deq_valid_i,
  input  logic [PortW-1:0]      deq_port_i,
  input  logic [QueueW-1:0]     deq_queue_i,
  input  logic [SizeW-1:0]      deq_cells_i,
  input  logic                  enq_valid_i,
  input  logic [PortW-1:0]      enq_port_i,
  input  logic [QueueW-1:0]     enq_queue_i,
  input  logic [SizeW-1:0]      enq_cells_i,

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
  output logic                  stat_error_sticky_o,
  output logic [CntW-1:0]       stat_error_count_o,
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
  // after the request.
  input  logic [PortW-1:0]      stat_rd_port_i,
  input  logic [QueueW-1:0]     stat_rd_queue_i,
  output logic [CntW-1:0]       stat_rd_drops_o,
  output logic [CntW-1:0]       stat_rd_pauses_o,
  output logic [CntW-1:0]       stat_rd_resumes_o,
  output logic [CntW-1:0]       stat_rd_port_pauses_o,
  output logic [CntW-1:0]       stat_rd_port_resumes_o,
  output logic [CellW-1:0]      stat_rd_port_shared_o,
  output logic [CellW-1:0]      stat_rd_port_hdrm_o
);
  localparam int unsigned QIdxW = (NumQ > 1) ? $clog2(NumQ) : 1;
  localparam int unsigned LimW  = CellW + 9;  // stage E's limits (dsh_limits)
  localparam int unsigned TW    = CellW + 2;  // dsh_size_terms
  localparam logic [2:0] RegNone = 3'd0, RegPriv = 3'd1, RegShared = 3'd2,
                         RegHdrm = 3'd3, RegDrop = 3'd4;
  // A queue's occupancy is kept as prefix sums in the order a dequeue drains
  // it (see dsh_deq_drain): h the headroom part, hs headroom + shared, hsp
  // headroom + shared + private. A queue record {qoff, hsp, hs, h} and a
  // port record {poff, hdrm, shared} travel through the pipeline as one
  // vector each.
  localparam int unsigned QRecW = 3 * CellW + 1;
  localparam int unsigned PRecW = 2 * CellW + 1;
  // Counters: two halves (groups of 16 above 32 bits), see dsh_cnt_step.
  localparam int unsigned CntGroupW = (CntW <= 32) ? (CntW + 1) / 2 : 16;
  localparam int unsigned CntGroups = (CntW + CntGroupW - 1) / CntGroupW;
  localparam int unsigned CarryW    = (CntGroups > 1) ? CntGroups - 1 : 1;

  // Parameter checks stop elaboration (Verilator and Yosys alike).
  if (NumPorts < 1 || NumPorts > 1024) begin : g_bad_num_ports
    $error("dsh_mmu: NumPorts must be in 1..1024");
  end
  if (NumQueues < 1 || NumQueues > 64) begin : g_bad_num_queues
    $error("dsh_mmu: NumQueues must be in 1..64");
  end
  if (CellW < 4 || CellW > 40) begin : g_bad_cell_w
    $error("dsh_mmu: CellW must be in 4..40");
  end
  if (SizeW < 1 || SizeW > CellW) begin : g_bad_size_w
    $error("dsh_mmu: SizeW must be in 1..CellW");
  end
  if (CntW < 1 || CntW > 64) begin : g_bad_cnt_w
    $error("dsh_mmu: CntW must be in 1..64");
  end
  if (ThreshLatency < 1 || ThreshLatency > 3) begin : g_bad_thresh_latency
    $error("dsh_mmu: ThreshLatency must be in 1..3");
  end

  // x + 1 with a log-depth carry (a prefix AND): the error counter.
  function automatic [CntW-1:0] inc_fast(input logic [CntW-1:0] x);
    logic [CntW-1:0] p;  // p[i] = &x[i:0]: bit i+1 toggles
    p = x;
    for (int s = 1; s < CntW; s = s * 2) p = p & ((p << s) | ~({CntW{1'b1}} << s));
    inc_fast = x ^ ((p << 1) | CntW'(1));
  endfunction
  // One of four records by a one-hot (or zero) select: one AND-OR level.
  function automatic [QRecW-1:0] pick_q(input logic [3:0] sel, input logic [4*QRecW-1:0] v);
    pick_q = '0;
    for (int i = 0; i < 4; i++) pick_q |= v[i*QRecW +: QRecW] & {QRecW{sel[i]}};
  endfunction
  function automatic [PRecW-1:0] pick_p(input logic [3:0] sel, input logic [4*PRecW-1:0] v);
    pick_p = '0;
    for (int i = 0; i < 4; i++) pick_p |= v[i*PRecW +: PRecW] & {PRecW{sel[i]}};
  endfunction
  // The first set bit of a priority list, one-hot.
  function automatic [3:0] first4(input logic [3:0] hit);
    first4 = hit & ~{hit[2:0] | {hit[1:0], 1'b0} | {hit[0], 2'b0}, 1'b0};
  endfunction

  // ---------------------------------------------------------------- state
  // Per-queue and per-port records are plain arrays without reset (they map
  // to flops or to memories); a valid bit per record, cleared by reset, makes
  // a record read as all zero until its first write (by an enqueue: a
  // dequeue only writes a record it could drain, which is valid). Counters
  // count in place and reset to 0.
  logic [NumQ-1:0]     qvalid_q;
  logic [CellW-1:0]    occ_h_q   [NumQ];  // headroom part
  logic [CellW-1:0]    occ_hs_q  [NumQ];  // headroom + shared
  logic [CellW-1:0]    occ_hsp_q [NumQ];  // headroom + shared + private
  logic [NumQ-1:0]     qoff_q;
  logic [CntW-1:0]     drops_q    [NumQ];
  logic [CarryW-1:0]   drops_c_q  [NumQ];
  logic [CntW-1:0]     qpause_q   [NumQ];
  logic [CarryW-1:0]   qpause_c_q [NumQ];
  logic [NumPorts-1:0] pvalid_q;
  logic [CellW-1:0]    port_shared_q[NumPorts];
  logic [CellW-1:0]    port_hdrm_q  [NumPorts];
  logic [NumPorts-1:0] poff_q;
  logic [CntW-1:0]     ppause_q  [NumPorts];  // DSH only (SIH never pauses a port)
  logic [CarryW-1:0]   ppause_c_q[NumPorts];
  logic [CellW-1:0]    free_q;    // B_s - S after the cycle last in stage E (thresholds)
  logic [CntW-1:0]     err_cnt_q;
  logic                err_sticky_q;

  // ------------------------------------------------- stages A and R: inputs
  // Stage R reads with one-hot selects decoded one stage earlier (an AND-OR
  // read: no select fan-out tree in front of a P*Q:1 multiplexer); the
  // binary indices serve the hazard compares and the writes.
  function automatic [NumPorts-1:0] port_sel(input logic [PortW-1:0] p, input logic q_ok);
    for (int i = 0; i < NumPorts; i++) port_sel[i] = q_ok && 32'(p) == i;
  endfunction
  function automatic [NumQ-1:0] queue_sel(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    logic [NumPorts-1:0] ps;
    ps = port_sel(p, 32'(q) < NumQueues);
    for (int i = 0; i < NumPorts; i++)
      for (int j = 0; j < NumQueues; j++) queue_sel[i * NumQueues + j] = ps[i] && 32'(q) == j;
  endfunction
  function automatic [QIdxW-1:0] queue_idx(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    queue_idx = QIdxW'(p) * QIdxW'(NumQueues) + QIdxW'(q);
  endfunction
  function automatic logic in_range(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    in_range = 32'(p) < NumPorts && 32'(q) < NumQueues;
  endfunction

  // The enqueue waits in stage A.
  logic              a_enq_v_q, a_enq_ok_q;
  logic [PortW-1:0]  a_enq_port_q;
  logic [QueueW-1:0] a_enq_queue_q;
  logic [SizeW-1:0]  a_enq_cells_q;
  // Stage R: slot "deq" (dequeue of cycle c+1) and slot "enq" (enqueue of
  // cycle c) while stage D holds the dequeue of cycle c.
  logic                r_deq_v_q, r_enq_v_q, r_deq_ok_q, r_enq_ok_q;  // ok: valid, in range, cells != 0
  logic [QIdxW-1:0]    r_deq_idx_q, r_enq_idx_q;  // 0 when out of range
  logic [PortW-1:0]    r_deq_p_q, r_enq_p_q;
  logic [NumQ-1:0]     r_deq_qsel_q, r_enq_qsel_q;  // one-hot, 0 when out of range
  logic [NumPorts-1:0] r_deq_psel_q, r_enq_psel_q;
  logic [PortW-1:0]    r_deq_port_q, r_enq_port_q;  // as presented, for the outputs
  logic [QueueW-1:0]   r_deq_queue_q, r_enq_queue_q;
  logic [SizeW-1:0]    r_deq_cells_q, r_enq_cells_q;
  // The enqueue's terms of its cells alone for the limits (dsh_size_terms),
  // formed in stage A; again in stage E for ThreshLatency 1.
  localparam int unsigned NumTerms = 3;
  logic [NumTerms*TW-1:0] a_enq_terms, r_enq_terms_q, e_enq_terms_q;
  dsh_size_terms #(.CellW(CellW), .SizeW(SizeW)) u_size_terms (
    .cells_i(a_enq_cells_q), .cfg_shared_cells_i, .cfg_private_cells_i, .cfg_headroom_cells_i,
    .terms_o(a_enq_terms)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_enq_v_q  <= 1'b0;
      a_enq_ok_q <= 1'b0;
      r_deq_v_q  <= 1'b0;
      r_enq_v_q  <= 1'b0;
      r_deq_ok_q <= 1'b0;
      r_enq_ok_q <= 1'b0;
    end else begin
      a_enq_v_q  <= enq_valid_i;
      a_enq_ok_q <= enq_valid_i && in_range(enq_port_i, enq_queue_i) && enq_cells_i != '0;
      r_deq_v_q  <= deq_valid_i;
      r_deq_ok_q <= deq_valid_i && in_range(deq_port_i, deq_queue_i) && deq_cells_i != '0;
      r_enq_v_q  <= a_enq_v_q;
      r_enq_ok_q <= a_enq_ok_q;
    end
  end

  logic deq_in, a_enq_in;
  assign deq_in   = in_range(deq_port_i, deq_queue_i);
  assign a_enq_in = in_range(a_enq_port_q, a_enq_queue_q);
  always_ff @(posedge clk_i) begin
    a_enq_port_q  <= enq_port_i;
    a_enq_queue_q <= enq_queue_i;
    a_enq_cells_q <= enq_cells_i;
    r_deq_idx_q   <= deq_in ? queue_idx(deq_port_i, deq_queue_i) : '0;
    r_deq_p_q     <= deq_in ? deq_port_i : '0;
    r_deq_qsel_q  <= queue_sel(deq_port_i, deq_queue_i);
    r_deq_psel_q  <= port_sel(deq_port_i, deq_in);
    r_deq_port_q  <= deq_port_i;
    r_deq_queue_q <= deq_queue_i;
    r_deq_cells_q <= deq_cells_i;
    r_enq_idx_q   <= a_enq_in ? queue_idx(a_enq_port_q, a_enq_queue_q) : '0;
    r_enq_p_q     <= a_enq_in ? a_enq_port_q : '0;
    r_enq_qsel_q  <= queue_sel(a_enq_port_q, a_enq_queue_q);
    r_enq_psel_q  <= port_sel(a_enq_port_q, a_enq_in);
    r_enq_port_q  <= a_enq_port_q;
    r_enq_queue_q <= a_enq_queue_q;
    r_enq_cells_q <= a_enq_cells_q;
    r_enq_terms_q <= a_enq_terms;
  end

  // --------------------------------------------------- stage R: read records
  // The arrays as flat vectors (entry i in slice i) for dsh_onehot_read.
  // (Loops, not generate blocks: Verilator then fills each vector slice by
  // slice, where it would build it as a chain of ever wider concatenations.)
  logic [NumQ*QRecW-1:0]     qrec_all;
  logic [NumPorts*PRecW-1:0] prec_all;
  always_comb begin
    for (int unsigned i = 0; i < NumQ; i++)
      qrec_all[i*QRecW +: QRecW] = {qoff_q[i], occ_hsp_q[i], occ_hs_q[i], occ_h_q[i]};
  end
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++)
      prec_all[i*PRecW +: PRecW] = {poff_q[i], port_hdrm_q[i], port_shared_q[i]};
  end

  logic [QRecW-1:0] ar_deq_q, ar_enq_q;  // from the arrays
  logic [PRecW-1:0] ar_deq_p, ar_enq_p;
  dsh_onehot_read #(.Entries(NumQ), .Width(QRecW)) u_read_deq_q (
    .data_i(qrec_all), .sel_i(r_deq_qsel_q & qvalid_q), .data_o(ar_deq_q));
  dsh_onehot_read #(.Entries(NumQ), .Width(QRecW)) u_read_enq_q (
    .data_i(qrec_all), .sel_i(r_enq_qsel_q & qvalid_q), .data_o(ar_enq_q));
  dsh_onehot_read #(.Entries(NumPorts), .Width(PRecW)) u_read_deq_p (
    .data_i(prec_all), .sel_i(r_deq_psel_q & pvalid_q), .data_o(ar_deq_p));
  dsh_onehot_read #(.Entries(NumPorts), .Width(PRecW)) u_read_enq_p (
    .data_i(prec_all), .sel_i(r_enq_psel_q & pvalid_q), .data_o(ar_enq_p));

  // Stage W writes at the end of this cycle what stage E computed in the
  // previous one (slot 1, the enqueue's, holds the final values when both
  // slots hit one record).
  logic             w_deq_we_q, w_enq_we_q;
  logic [QIdxW-1:0] w_deq_idx_q, w_enq_idx_q;
  logic [PortW-1:0] w_deq_p_q, w_enq_p_q;
  logic [QRecW-1:0] w_deq_rec_q, w_enq_rec_q;
  logic [PRecW-1:0] w_deq_prec_q, w_enq_prec_q;

  logic [QRecW-1:0] rd_deq_q, rd_enq_q;
  logic [PRecW-1:0] rd_deq_p, rd_enq_p;
  assign rd_deq_q = (w_enq_we_q && w_enq_idx_q == r_deq_idx_q) ? w_enq_rec_q
                  : (w_deq_we_q && w_deq_idx_q == r_deq_idx_q) ? w_deq_rec_q : ar_deq_q;
  assign rd_enq_q = (w_enq_we_q && w_enq_idx_q == r_enq_idx_q) ? w_enq_rec_q
                  : (w_deq_we_q && w_deq_idx_q == r_enq_idx_q) ? w_deq_rec_q : ar_enq_q;
  assign rd_deq_p = (w_enq_we_q && w_enq_p_q == r_deq_p_q) ? w_enq_prec_q
                  : (w_deq_we_q && w_deq_p_q == r_deq_p_q) ? w_deq_prec_q : ar_deq_p;
  assign rd_enq_p = (w_enq_we_q && w_enq_p_q == r_enq_p_q) ? w_enq_prec_q
                  : (w_deq_we_q && w_deq_p_q == r_enq_p_q) ? w_deq_prec_q : ar_enq_p;

  // ------------------------------------------------------ stage D: dequeue
  logic              d_v_q, d_ok_q;
  logic [QIdxW-1:0]  d_idx_q;
  logic [PortW-1:0]  d_p_q, d_port_q;
  logic [QueueW-1:0] d_queue_q;
  logic [SizeW-1:0]  d_cells_q;
  logic [SizeW-1:0]  d_add_q;    // what stage E's enqueue adds to this queue: its cells or 0
  logic [SizeW:0]    d_alc_q;    // d_add_q + 2^SizeW - d_cells_q (see dsh_deq_drain)
  logic [QRecW-1:0]  d_rec_q;    // the queue before stage E's enqueue
  logic [PRecW-1:0]  d_prec_q;   // the port before stage E's cycle
  logic              d_enq_q_q;  // stage E's enqueue is to this queue
  logic              d_enq_q_n;
  logic [SizeW-1:0]  d_add_n;
  logic              d_deq_q_q;  // stage E's dequeue (slot 0) is from this queue

  // Stage E's results used in this cycle's forwarding (defined below).
  logic [3:0]       e_region;  // one-hot {drop, headroom, shared, private}, 0 none
  logic [2:0]       e_region_d;  // its admitting bits, computed again for stage D
  logic             e_enq_qoff_n, e_deq_qoff_n;
  logic [QRecW-1:0] e_enq_rec_n, e_deq_rec_n;
  logic [PRecW-1:0] e_enq_prec_n, e_deq_prec_n;
  logic [SizeW-1:0] e_enq_cells_q;

  logic             dd_go;
  logic [CellW-1:0] dd_h, dd_hs, dd_hsp;
  logic [SizeW-1:0] dd_dh, dd_dw;
  dsh_deq_drain #(.CellW(CellW), .SizeW(SizeW)) u_deq_drain (
    .ok_i(d_ok_q), .cells_i(d_cells_q), .add_i(d_add_q), .add_less_cells_i(d_alc_q),
    .h_i(d_rec_q[0 +: CellW]), .hs_i(d_rec_q[CellW +: CellW]), .hsp_i(d_rec_q[2*CellW +: CellW]),
    .region_i(e_region_d),
    .go_o(dd_go), .h_o(dd_h), .hs_o(dd_hs), .hsp_o(dd_hsp), .dh_o(dd_dh), .dw_o(dd_dw)
  );

  // The record after the dequeue, used only when it goes (an erroneous
  // dequeue leaves the record as D got it, which forwarding then takes from
  // where D got it). The state bit passes through the dequeue; stage E's
  // state machines of this cycle may change it.
  logic [QRecW-1:0] d_rec_n;
  assign d_rec_n = {d_enq_q_q ? e_enq_qoff_n : d_deq_q_q ? e_deq_qoff_n : d_rec_q[QRecW-1], dd_hsp, dd_hs, dd_h};

  // -------------------------------------------- forwarding into the records
  // What stage R read may be stale by what D and E compute now. A queue:
  // the dequeue in D (its queue after the dequeue, when it goes), the
  // enqueue in E (slot 1, its queue after the cycle) and the dequeue in E
  // (slot 0, its queue's state bit, when it went); in that order of
  // precedence. A port: E's slots (a dequeue changes its port in stage E).
  // The selects come from registered indices (and D's go), so the late
  // values pass one AND-OR level.
  logic e_deq_ok_q, e_enq_ok_q;
  logic [QIdxW-1:0] e_deq_idx_q, e_enq_idx_q;
  logic [PortW-1:0] e_deq_p_q, e_enq_p_q;
  logic [3:0] f_deq_q, f_enq_q, f_deq_p, f_enq_p, f_d_p;  // {R, E slot 0, E slot 1, D} one-hot
  logic       same_q_n, same_p_n;  // stage R's enqueue and stage D's dequeue: one queue / port
  assign same_q_n = dd_go && d_idx_q == r_enq_idx_q;
  assign same_p_n = d_ok_q && d_p_q == r_enq_p_q;
`ifndef DSH_PLANTED_FAULT_BYPASS
  logic e1_deq_q, e0_deq_q, e1_enq_q, e0_enq_q, e1_deq_p, e0_deq_p, e1_enq_p, e0_enq_p, e1_d_p, e0_d_p;
  assign e1_deq_q = e_enq_ok_q && e_enq_idx_q == r_deq_idx_q;
  assign e0_deq_q = e_deq_go_q && e_deq_idx_q == r_deq_idx_q;
  assign e1_enq_q = e_enq_ok_q && e_enq_idx_q == r_enq_idx_q;
  assign e0_enq_q = e_deq_go_q && e_deq_idx_q == r_enq_idx_q;
  assign e1_deq_p = e_enq_ok_q && e_enq_p_q == r_deq_p_q;
  assign e0_deq_p = e_deq_ok_q && e_deq_p_q == r_deq_p_q;
  assign e1_enq_p = e_enq_ok_q && e_enq_p_q == r_enq_p_q;
  assign e0_enq_p = e_deq_ok_q && e_deq_p_q == r_enq_p_q;
  assign e1_d_p   = e_enq_ok_q && e_enq_p_q == d_p_q;
  assign e0_d_p   = e_deq_ok_q && e_deq_p_q == d_p_q;
`else
  // Test-only mutation (tb/lockstep): stage E's results are not forwarded,
  // so back-to-back events on one queue or port see stale records. The
  // checker must catch it.
  logic e1_deq_q, e0_deq_q, e1_enq_q, e0_enq_q, e1_deq_p, e0_deq_p, e1_enq_p, e0_enq_p, e1_d_p, e0_d_p;
  assign {e1_deq_q, e0_deq_q, e1_enq_q, e0_enq_q, e1_deq_p, e0_deq_p, e1_enq_p, e0_enq_p, e1_d_p, e0_d_p} = '0;
`endif
  assign f_deq_q = first4({1'b1, e0_deq_q, e1_deq_q, dd_go && d_idx_q == r_deq_idx_q});
  assign f_enq_q = first4({1'b1, e0_enq_q, e1_enq_q, same_q_n});
  assign f_deq_p = first4({1'b1, e0_deq_p, e1_deq_p, 1'b0});
  assign f_enq_p = first4({1'b1, e0_enq_p, e1_enq_p, 1'b0});
  assign f_d_p   = first4({1'b1, e0_d_p, e1_d_p, 1'b0});

  assign d_enq_q_n = r_enq_ok_q && r_enq_idx_q == r_deq_idx_q;
  assign d_add_n   = d_enq_q_n ? r_enq_cells_q : '0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_v_q  <= 1'b0;
      d_ok_q <= 1'b0;
    end else begin
      d_v_q  <= r_deq_v_q;
      d_ok_q <= r_deq_ok_q;
    end
  end
  always_ff @(posedge clk_i) begin
    d_idx_q   <= r_deq_idx_q;
    d_p_q     <= r_deq_p_q;
    d_port_q  <= r_deq_port_q;
    d_queue_q <= r_deq_queue_q;
    d_cells_q <= r_deq_cells_q;
    d_add_q   <= d_add_n;
    d_alc_q   <= {1'b0, d_add_n} + {1'b1, {SizeW{1'b0}}} - {1'b0, r_deq_cells_q};
    d_rec_q   <= pick_q(f_deq_q, {rd_deq_q, e_deq_rec_n, e_enq_rec_n, d_rec_n});
    d_prec_q  <= pick_p(f_deq_p, {rd_deq_p, e_deq_prec_n, e_enq_prec_n, {PRecW{1'b0}}});
    d_enq_q_q <= d_enq_q_n;
    d_deq_q_q <= d_ok_q && d_idx_q == r_deq_idx_q;
  end

  // ------------------------------------------------------ stage E: execute
  // Slot 0: the dequeue that stage D drained: its queue after it, its port
  // before it and what it drained. Slot 1: the enqueue, its queue after the
  // dequeue, its port before it. S before the cycle.
  logic              e_deq_v_q, e_deq_go_q, e_enq_v_q, e_same_q_q, e_same_p_q;
  logic [PortW-1:0]  e_deq_port_q, e_enq_port_q;
  logic [QueueW-1:0] e_deq_queue_q, e_enq_queue_q;
  logic [QRecW-1:0]  e_deq_rec_q, e_enq_rec_q;
  logic [PRecW-1:0]  e_deq_prec_q, e_enq_prec_q;
  logic [SizeW-1:0]  e_dh_q, e_dw_q;  // the dequeue drained from headroom / shared
  logic [SizeW-1:0]  e_dh1_q, e_dw1_q;  // the same if from the enqueue's port, else 0
  logic [CellW-1:0]  s_q;             // S after the cycle last in stage E

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      e_deq_v_q  <= 1'b0;
      e_deq_ok_q <= 1'b0;
      e_deq_go_q <= 1'b0;
      e_enq_v_q  <= 1'b0;
      e_enq_ok_q <= 1'b0;
      e_dh_q     <= '0;
      e_dw_q     <= '0;
      e_dh1_q    <= '0;
      e_dw1_q    <= '0;
    end else begin
      e_deq_v_q  <= d_v_q;
      e_deq_ok_q <= d_ok_q;
      e_deq_go_q <= dd_go;
      e_enq_v_q  <= r_enq_v_q;
      e_enq_ok_q <= r_enq_ok_q;
      e_dh_q     <= dd_go ? dd_dh : '0;
      e_dw_q     <= dd_go ? dd_dw : '0;
      e_dh1_q    <= dd_go && same_p_n ? dd_dh : '0;
      e_dw1_q    <= dd_go && same_p_n ? dd_dw : '0;
    end
  end
  always_ff @(posedge clk_i) begin
    e_deq_idx_q   <= d_idx_q;
    e_deq_p_q     <= d_p_q;
    e_deq_port_q  <= d_port_q;
    e_deq_queue_q <= d_queue_q;
    e_deq_rec_q   <= d_rec_n;
    e_deq_prec_q  <= pick_p(f_d_p, {d_prec_q, e_deq_prec_n, e_enq_prec_n, {PRecW{1'b0}}});
    e_enq_idx_q   <= r_enq_idx_q;
    e_enq_p_q     <= r_enq_p_q;
    e_enq_port_q  <= r_enq_port_q;
    e_enq_queue_q <= r_enq_queue_q;
    e_enq_cells_q <= r_enq_cells_q;
    e_enq_terms_q <= r_enq_terms_q;
    e_enq_prec_q  <= pick_p(f_enq_p, {rd_enq_p, e_deq_prec_n, e_enq_prec_n, {PRecW{1'b0}}});
    e_same_q_q    <= same_q_n;
    e_same_p_q    <= same_p_n;
  end

  // The enqueue's queue twice: the region that stage D's dequeue waits for
  // is computed from its own copy, so that each region drives half the
  // loads (`keep`: synthesis merges equal registers).
  logic [QRecW-1:0] e_enq_rec_d_q;
  logic [QRecW-1:0] e_enq_rec_n0;
  assign e_enq_rec_n0 = pick_q(f_enq_q, {rd_enq_q, e_deq_rec_n, e_enq_rec_n, d_rec_n});
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_q <= e_enq_rec_n0;
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_d_q <= e_enq_rec_n0;

  logic [ThrW-1:0]        t_cur;
  logic signed [LimW-1:0] lim_pool, lim_priv, lim_hdrm, lim_shared, lim_qoff, lim_qon, lim_pon;
  dsh_thresh_pipe #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .ThreshLatency(ThreshLatency)) u_thresh_pipe (
    .clk_i, .free_i(free_q), .cells_now_i(e_enq_cells_q), .terms_now_i(e_enq_terms_q),
    .cells_next_i(r_enq_cells_q), .terms_next_i(r_enq_terms_q),
    .cfg_alpha_log2_i, .cfg_headroom_cells_i, .cfg_delta_q_i,
    .cfg_delta_p_i, .cfg_port_mult_log2_i, .t_o(t_cur), .pool_o(lim_pool),
    .priv_o(lim_priv), .hdrm_o(lim_hdrm), .shared_o(lim_shared), .qoff_o(lim_qoff), .qon_o(lim_qon),
    .pon_o(lim_pon)
  );

  logic [CellW-1:0] eq_h, eq_hs, eq_hsp, ep_shared, ep_hdrm, dq_h, dq_hs, dp_shared, dp_hdrm;
  logic             eq_qoff, ep_poff, dq_qoff, dp_poff;
  assign {eq_qoff, eq_hsp, eq_hs, eq_h}  = e_enq_rec_q;
  assign {ep_poff, ep_hdrm, ep_shared}   = e_enq_prec_q;
  assign {dq_qoff, dq_hs, dq_h}          = {e_deq_rec_q[QRecW-1], e_deq_rec_q[2*CellW-1:0]};
  assign {dp_poff, dp_hdrm, dp_shared}   = e_deq_prec_q;

  logic [3:0] region;  // one-hot {drop, headroom, shared, private}
  dsh_enq_admit #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_enq_admit (
    .h_i(eq_h), .hs_i(eq_hs), .hsp_i(eq_hsp), .qoff_i(eq_qoff),
    .port_shared_i(ep_shared), .port_hdrm_i(ep_hdrm), .port_deq_shared_i(e_dw1_q), .port_deq_hdrm_i(e_dh1_q),
    .poff_i(Dsh && ep_poff), .s_i(s_q), .deq_shared_i(e_dw_q),
    .pool_lim_i(lim_pool), .priv_lim_i(lim_priv), .shared_lim_i(lim_shared), .hdrm_lim_i(lim_hdrm),
    .region_o(region)
  );
  assign e_region = {4{e_enq_ok_q}} & region;

  logic [3:0] region_d;  // the same for stage D
  dsh_enq_admit #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_enq_admit_d (
    .h_i(e_enq_rec_d_q[0 +: CellW]), .hs_i(e_enq_rec_d_q[CellW +: CellW]), .hsp_i(e_enq_rec_d_q[2*CellW +: CellW]),
    .qoff_i(e_enq_rec_d_q[QRecW-1]),
    .port_shared_i(ep_shared), .port_hdrm_i(ep_hdrm), .port_deq_shared_i(e_dw1_q), .port_deq_hdrm_i(e_dh1_q),
    .poff_i(Dsh && ep_poff), .s_i(s_q), .deq_shared_i(e_dw_q),
    .pool_lim_i(lim_pool), .priv_lim_i(lim_priv), .shared_lim_i(lim_shared), .hdrm_lim_i(lim_hdrm),
    .region_o(region_d)
  );
  assign e_region_d = {3{e_enq_ok_q}} & region_d[2:0];
  logic unused_drop_d;
  assign unused_drop_d = region_d[3];

  // The counts after the cycle: each sum beside the compares, the region
  // picks. (Headroom adds to all three prefix sums, shared to two, private
  // to one.) B_s - S for the threshold pipeline likewise (it has no reset:
  // S and the drained amounts are 0 while in reset, so it holds B_s from
  // the first clock edge).
  logic [SizeW-1:0] s;
  logic [CellW-1:0] s_n, free_n;
  assign s = e_enq_cells_q;
  assign e_enq_rec_n[QRecW-2:0] = {|e_region[2:0] ? eq_hsp + CellW'(s) : eq_hsp,
                                   |e_region[2:1] ? eq_hs + CellW'(s) : eq_hs,
                                   e_region[2] ? eq_h + CellW'(s) : eq_h};
  assign e_enq_prec_n[PRecW-2:0] = {e_region[2] ? ep_hdrm - CellW'(e_dh1_q) + CellW'(s) : ep_hdrm - CellW'(e_dh1_q),
                                    e_region[1] ? ep_shared - CellW'(e_dw1_q) + CellW'(s) : ep_shared - CellW'(e_dw1_q)};
  assign e_deq_prec_n[PRecW-2:0] = {dp_hdrm - CellW'(e_dh_q), dp_shared - CellW'(e_dw_q)};
  assign s_n    = e_region[1] ? s_q - CellW'(e_dw_q) + CellW'(s) : s_q - CellW'(e_dw_q);
  assign free_n = e_region[1] ? cfg_shared_cells_i - s_q + CellW'(e_dw_q) - CellW'(s)
                              : cfg_shared_cells_i - s_q + CellW'(e_dw_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_q <= '0;
    else         s_q <= s_n;
  end

  // State machines: slot 1 after the enqueue, slot 0 (the dequeue's queue
  // and port) unless the enqueue touched them too; an erroneous dequeue runs
  // none.
  logic eval_q0, eval_p0;
  assign eval_q0 = e_deq_go_q && !(e_enq_ok_q && e_same_q_q);
  assign eval_p0 = e_deq_go_q && !(e_enq_ok_q && e_same_p_q);

  logic q1_qoff, q1_pause, q1_resume, q0_qoff, q0_pause, q0_resume;
  dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm_enq (
    .qoff_i(eq_qoff), .h_i(eq_h), .hs_i(eq_hs), .region_i(e_region[2:0]), .cells_i(s),
    .qoff_lim_i(lim_qoff), .qon_lim_i(lim_qon),
    .qoff_o(q1_qoff), .pause_o(q1_pause), .resume_o(q1_resume)
  );
  dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm_deq (
    .qoff_i(dq_qoff), .h_i(dq_h), .hs_i(dq_hs), .region_i(3'b000), .cells_i(SizeW'(0)),
    .qoff_lim_i(lim_qoff), .qon_lim_i(lim_qon),
    .qoff_o(q0_qoff), .pause_o(q0_pause), .resume_o(q0_resume)
  );

  logic p1_poff, p1_pause, p1_resume, p0_poff, p0_resume;
  if (Dsh) begin : g_port_fsm
    logic p0_pause;
    dsh_port_fsm #(.CellW(CellW), .SizeW(SizeW)) u_port_fsm_enq (
      .poff_i(ep_poff), .shared_i(ep_shared), .hdrm_i(ep_hdrm), .deq_shared_i(e_dw1_q), .deq_hdrm_i(e_dh1_q),
      .region_i(e_region[2:0]), .pon_lim_i(lim_pon), .poff_o(p1_poff), .pause_o(p1_pause), .resume_o(p1_resume)
    );
    dsh_port_fsm #(.CellW(CellW), .SizeW(SizeW)) u_port_fsm_deq (
      .poff_i(dp_poff), .shared_i(dp_shared), .hdrm_i(dp_hdrm), .deq_shared_i(e_dw_q), .deq_hdrm_i(e_dh_q),
      .region_i(3'b000), .pon_lim_i(lim_pon), .poff_o(p0_poff), .pause_o(p0_pause), .resume_o(p0_resume)
    );
    logic unused_p0_pause;  // a port pauses only on an admission
    assign unused_p0_pause = p0_pause;
  end else begin : g_no_port_fsm
    assign {p1_poff, p1_pause, p1_resume, p0_poff, p0_resume} = '0;
    logic unused_port;  // SIH: no port state machine
    assign unused_port = ^{ep_poff, dp_poff, lim_pon};
  end

  assign e_enq_qoff_n = e_enq_ok_q ? q1_qoff : eq_qoff;
  assign e_deq_qoff_n = eval_q0 ? q0_qoff : dq_qoff;
  assign e_enq_rec_n[QRecW-1]  = e_enq_qoff_n;
  assign e_deq_rec_n           = {e_deq_qoff_n, e_deq_rec_q[QRecW-2:0]};
  assign e_enq_prec_n[PRecW-1] = e_enq_ok_q ? p1_poff : Dsh && ep_poff;
  assign e_deq_prec_n[PRecW-1] = eval_p0 ? p0_poff : Dsh && dp_poff;

  // Events, per slot, and the counts they increment.
  logic [1:0] qevt_valid, qevt_pause, pevt_valid, pevt_pause;
  assign qevt_valid = {e_enq_ok_q && (q1_pause || q1_resume), eval_q0 && (q0_pause || q0_resume)};
  assign qevt_pause = {q1_pause, q0_pause};
  assign pevt_valid = {e_enq_ok_q && (p1_pause || p1_resume), eval_p0 && p0_resume};
  assign pevt_pause = {p1_pause, 1'b0};

  logic deq_err, enq_err;
  assign deq_err = e_deq_v_q && !e_deq_go_q;
  assign enq_err = e_enq_v_q && !e_enq_ok_q;

  // ------------------------------------------------- stage W: write back
  logic              w_qpause0_q, w_qpause1_q, w_drop_q, w_ppause_q;  // counts to increment
  logic [2:0]        w_region_q;
  logic [ThrW-1:0]   w_t_q;
  logic [1:0]        w_error_q, w_qevt_valid_q, w_qevt_pause_q, w_pevt_valid_q, w_pevt_pause_q;
  logic [PortW-1:0]  w_deq_port_q, w_enq_port_q;
  logic [QueueW-1:0] w_deq_queue_q, w_enq_queue_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_deq_we_q     <= 1'b0;
      w_enq_we_q     <= 1'b0;
      w_qpause0_q    <= 1'b0;
      w_qpause1_q    <= 1'b0;
      w_drop_q       <= 1'b0;
      w_ppause_q     <= 1'b0;
      w_region_q     <= RegNone;
      w_error_q      <= '0;
      w_qevt_valid_q <= '0;
      w_pevt_valid_q <= '0;
    end else begin
      w_deq_we_q     <= e_deq_go_q;
      w_enq_we_q     <= e_enq_ok_q;
      w_qpause0_q    <= qevt_valid[0] && qevt_pause[0];
      w_qpause1_q    <= qevt_valid[1] && qevt_pause[1];
      w_drop_q       <= e_region[3];
      w_ppause_q     <= pevt_valid[1] && pevt_pause[1];
      w_region_q     <= e_region[0] ? RegPriv : e_region[1] ? RegShared : e_region[2] ? RegHdrm
                      : e_region[3] ? RegDrop : RegNone;
      w_error_q      <= {enq_err, deq_err};
      w_qevt_valid_q <= qevt_valid;
      w_pevt_valid_q <= pevt_valid;
    end
  end

  always_ff @(posedge clk_i) begin
    w_deq_idx_q    <= e_deq_idx_q;
    w_enq_idx_q    <= e_enq_idx_q;
    w_deq_p_q      <= e_deq_p_q;
    w_enq_p_q      <= e_enq_p_q;
    w_deq_rec_q    <= e_deq_rec_n;
    w_enq_rec_q    <= e_enq_rec_n;
    w_deq_prec_q   <= e_deq_prec_n;
    w_enq_prec_q   <= e_enq_prec_n;
    w_t_q          <= t_cur;
    w_qevt_pause_q <= qevt_pause;
    w_pevt_pause_q <= pevt_pause;
    w_deq_port_q   <= e_deq_port_q;
    w_enq_port_q   <= e_enq_port_q;
    w_deq_queue_q  <= e_deq_queue_q;
    w_enq_queue_q  <= e_enq_queue_q;
    free_q         <= free_n;
  end

  // Records: the dequeue's slot first, the enqueue's overrides.
  always_ff @(posedge clk_i) begin
    if (w_deq_we_q) begin
      {occ_hsp_q[w_deq_idx_q], occ_hs_q[w_deq_idx_q], occ_h_q[w_deq_idx_q]} <= w_deq_rec_q[QRecW-2:0];
      {port_hdrm_q[w_deq_p_q], port_shared_q[w_deq_p_q]} <= w_deq_prec_q[PRecW-2:0];
    end
    if (w_enq_we_q) begin
      {occ_hsp_q[w_enq_idx_q], occ_hs_q[w_enq_idx_q], occ_h_q[w_enq_idx_q]} <= w_enq_rec_q[QRecW-2:0];
      {port_hdrm_q[w_enq_p_q], port_shared_q[w_enq_p_q]} <= w_enq_prec_q[PRecW-2:0];
    end
  end

  // Valid bits, flow-control states, with reset.
  logic [NumQ-1:0]     qvalid_d, qoff_d;
  logic [NumPorts-1:0] pvalid_d, poff_d;
  always_comb begin
    qvalid_d = qvalid_q;
    qoff_d   = qoff_q;
    pvalid_d = pvalid_q;
    poff_d   = poff_q;
    if (w_deq_we_q) begin
      qoff_d[w_deq_idx_q] = w_deq_rec_q[QRecW-1];
      poff_d[w_deq_p_q]   = w_deq_prec_q[PRecW-1];
    end
    if (w_enq_we_q) begin
      qvalid_d[w_enq_idx_q] = 1'b1;
      qoff_d[w_enq_idx_q]   = w_enq_rec_q[QRecW-1];
      pvalid_d[w_enq_p_q]   = 1'b1;
      poff_d[w_enq_p_q]     = w_enq_prec_q[PRecW-1];
    end
  end

  // Counters, in place: each entry increments when a slot's event is its.
  // (Array entries reach the ports through wires: Yosys 0.23 cannot connect
  // an array entry to a port, YosysHQ/yosys#3981.)
  for (genvar i = 0; i < NumQ; i++) begin : g_qcnt
    logic              inc_pause, inc_drop;
    logic [CntW-1:0]   pause, pause_n, drops, drops_n;
    logic [CarryW-1:0] pause_c, pause_c_n, drops_c, drops_c_n;
    assign inc_pause = (w_qpause0_q && w_deq_idx_q == QIdxW'(i)) || (w_qpause1_q && w_enq_idx_q == QIdxW'(i));
    assign inc_drop  = w_drop_q && w_enq_idx_q == QIdxW'(i);
    assign {pause_c, pause, drops_c, drops} = {qpause_c_q[i], qpause_q[i], drops_c_q[i], drops_q[i]};
    dsh_cnt_step #(.CntW(CntW), .GroupW(CntGroupW)) u_pause (
      .inc_i(inc_pause), .cnt_i(pause), .carry_i(pause_c), .cnt_o(pause_n), .carry_o(pause_c_n));
    dsh_cnt_step #(.CntW(CntW), .GroupW(CntGroupW)) u_drops (
      .inc_i(inc_drop), .cnt_i(drops), .carry_i(drops_c), .cnt_o(drops_n), .carry_o(drops_c_n));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        qpause_q[i]   <= '0;
        qpause_c_q[i] <= '0;
        drops_q[i]    <= '0;
        drops_c_q[i]  <= '0;
      end else begin
        qpause_q[i]   <= pause_n;
        qpause_c_q[i] <= pause_c_n;
        drops_q[i]    <= drops_n;
        drops_c_q[i]  <= drops_c_n;
      end
    end
  end
  for (genvar i = 0; i < NumPorts; i++) begin : g_pcnt
    logic [CntW-1:0]   pause, pause_n;
    logic [CarryW-1:0] pause_c, pause_c_n;
    assign {pause_c, pause} = {ppause_c_q[i], ppause_q[i]};
    dsh_cnt_step #(.CntW(CntW), .GroupW(CntGroupW)) u_pause (
      .inc_i(w_ppause_q && w_enq_p_q == PortW'(i)), .cnt_i(pause), .carry_i(pause_c),
      .cnt_o(pause_n), .carry_o(pause_c_n));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ppause_q[i]   <= '0;
        ppause_c_q[i] <= '0;
      end else begin
        ppause_q[i]   <= Dsh ? pause_n : '0;
        ppause_c_q[i] <= Dsh ? pause_c_n : '0;
      end
    end
  end

  logic [CellW-1:0] s_out_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      qvalid_q     <= '0;
      pvalid_q     <= '0;
      qoff_q       <= '0;
      poff_q       <= '0;
      s_out_q      <= '0;
      err_cnt_q    <= '0;
      err_sticky_q <= 1'b0;
    end else begin
      qvalid_q     <= qvalid_d;
      pvalid_q     <= pvalid_d;
      qoff_q       <= qoff_d;
      poff_q       <= poff_d;
      s_out_q      <= s_q;
      err_cnt_q    <= &w_error_q ? inc_fast(err_cnt_q >> 1) << 1 | CntW'(err_cnt_q[0])  // + 2
                    : |w_error_q ? inc_fast(err_cnt_q) : err_cnt_q;
      err_sticky_q <= err_sticky_q | (|w_error_q);
    end
  end

  // ------------------------------------------------------------ outputs
  // Counter read port: the request is registered as one-hot selects, read
  // (AND-OR) and registered, and the counts resolved (pending carries
  // added, resumes derived) and registered: three cycles of latency.
  logic [NumQ-1:0]     rq_sel_q;
  logic [NumPorts-1:0] rp_sel_q;
  always_ff @(posedge clk_i) begin
    rq_sel_q <= queue_sel(stat_rd_port_i, stat_rd_queue_i);
    rp_sel_q <= port_sel(stat_rd_port_i, 1'b1);
  end

  localparam int unsigned CntRecW = CntW + CarryW;  // a counter's bits and carries
  logic [NumQ*CntRecW-1:0]     qpause_all, drops_all;
  logic [NumPorts*CntRecW-1:0] ppause_all;
  always_comb begin
    for (int unsigned i = 0; i < NumQ; i++) begin
      qpause_all[i*CntRecW +: CntRecW] = {qpause_c_q[i], qpause_q[i]};
      drops_all[i*CntRecW +: CntRecW]  = {drops_c_q[i], drops_q[i]};
    end
  end
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) ppause_all[i*CntRecW +: CntRecW] = {ppause_c_q[i], ppause_q[i]};
  end

  logic [CntRecW-1:0] rd_drops, rd_qpauses, rd_ppauses;
  logic [PRecW-1:0]   rd_prec;
  dsh_onehot_read #(.Entries(NumQ), .Width(CntRecW)) u_read_stat_qpause (
    .data_i(qpause_all), .sel_i(rq_sel_q), .data_o(rd_qpauses));
  dsh_onehot_read #(.Entries(NumQ), .Width(CntRecW)) u_read_stat_drops (
    .data_i(drops_all), .sel_i(rq_sel_q), .data_o(rd_drops));
  dsh_onehot_read #(.Entries(NumPorts), .Width(CntRecW)) u_read_stat_ppause (
    .data_i(ppause_all), .sel_i(rp_sel_q), .data_o(rd_ppauses));
  dsh_onehot_read #(.Entries(NumPorts), .Width(PRecW)) u_read_stat_p (
    .data_i(prec_all), .sel_i(rp_sel_q & pvalid_q), .data_o(rd_prec));

  logic [CntRecW-1:0] rd_drops_q, rd_qpauses_q, rd_ppauses_q;
  logic               rd_qoff_q, rd_poff_q;
  logic [CellW-1:0]   rd_pshared_q, rd_phdrm_q;
  always_ff @(posedge clk_i) begin
    rd_drops_q   <= rd_drops;
    rd_qpauses_q <= rd_qpauses;
    rd_ppauses_q <= rd_ppauses;
    rd_qoff_q    <= |(rq_sel_q & qoff_q);
    {rd_poff_q, rd_phdrm_q, rd_pshared_q} <= rd_prec;
  end

  // A count is its bits plus its pending carries (dsh_cnt_step); resumes
  // are that less the state bit (both sums formed, the bit picks).
  function automatic [CntW-1:0] carries(input logic [CarryW-1:0] c);
    carries = '0;
    for (int g = 0; g + 1 < CntGroups; g++) carries[(g + 1) * CntGroupW] = c[g];
  endfunction
  logic [CntW-1:0] rd_qpause_c, rd_ppause_c;
  assign rd_qpause_c = carries(rd_qpauses_q[CntW +: CarryW]);
  assign rd_ppause_c = carries(rd_ppauses_q[CntW +: CarryW]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stat_region_o          <= RegNone;
      stat_t_o               <= '0;
      stat_drop_o            <= 1'b0;
      stat_drop_port_o       <= '0;
      stat_drop_queue_o      <= '0;
      stat_error_o           <= '0;
      stat_qevt_valid_o      <= '0;
      stat_qevt_pause_o      <= '0;
      stat_qevt_port_o       <= '0;
      stat_qevt_queue_o      <= '0;
      stat_pevt_valid_o      <= '0;
      stat_pevt_pause_o      <= '0;
      stat_pevt_port_o       <= '0;
      stat_rd_drops_o        <= '0;
      stat_rd_pauses_o       <= '0;
      stat_rd_resumes_o      <= '0;
      stat_rd_port_pauses_o  <= '0;
      stat_rd_port_resumes_o <= '0;
      stat_rd_port_shared_o  <= '0;
      stat_rd_port_hdrm_o    <= '0;
    end else begin
      stat_region_o          <= w_region_q;
      stat_t_o               <= w_t_q;
      stat_drop_o            <= w_drop_q;
      stat_drop_port_o       <= w_enq_port_q;
      stat_drop_queue_o      <= w_enq_queue_q;
      stat_error_o           <= w_error_q;
      stat_qevt_valid_o      <= w_qevt_valid_q;
      stat_qevt_pause_o      <= w_qevt_pause_q;
      stat_qevt_port_o       <= {w_enq_port_q, w_deq_port_q};
      stat_qevt_queue_o      <= {w_enq_queue_q, w_deq_queue_q};
      stat_pevt_valid_o      <= w_pevt_valid_q;
      stat_pevt_pause_o      <= w_pevt_pause_q;
      stat_pevt_port_o       <= {w_enq_port_q, w_deq_port_q};
      stat_rd_drops_o        <= rd_drops_q[CntW-1:0] + carries(rd_drops_q[CntW +: CarryW]);
      stat_rd_pauses_o       <= rd_qpauses_q[CntW-1:0] + rd_qpause_c;
      stat_rd_resumes_o      <= rd_qoff_q ? rd_qpauses_q[CntW-1:0] + rd_qpause_c - 1'b1
                                          : rd_qpauses_q[CntW-1:0] + rd_qpause_c;
      stat_rd_port_pauses_o  <= rd_ppauses_q[CntW-1:0] + rd_ppause_c;
      stat_rd_port_resumes_o <= rd_poff_q ? rd_ppauses_q[CntW-1:0] + rd_ppause_c - 1'b1
                                          : rd_ppauses_q[CntW-1:0] + rd_ppause_c;
      stat_rd_port_shared_o  <= rd_pshared_q;
      stat_rd_port_hdrm_o    <= rd_phdrm_q;
    end
  end

  assign qoff_o              = qoff_q;
  assign poff_o              = poff_q;
  assign stat_s_o            = s_out_q;
  assign stat_error_sticky_o = err_sticky_q;
  assign stat_error_count_o  = err_cnt_q;

`ifndef SYNTHESIS
  // Contract §8 invariants that hold at the boundary of every cycle.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (s_q <= cfg_shared_cells_i) else $error("dsh_mmu: S exceeds B_s");
      if (!Dsh) assert (poff_q == '0) else $error("dsh_mmu: POFF set under SIH");
    end
  end
`endif
endmodule

`default_nettype wire
