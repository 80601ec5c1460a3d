// MMU threshold pipeline of a shared-buffer switch: DSH (Dynamic and Shared
// Headroom) or SIH (static headroom), as defined by docs/mmu-contract.md.
//
// Each cycle: at most one dequeue and one enqueue (one packet each). The
// dequeue is applied first, then the enqueue's admission (private, shared,
// headroom/insurance or drop), then the flow-control state machines of the
// queues and ports either touched. Thresholds use S from ThreshLatency
// cycles earlier (dsh_thresh_pipe).
//
// Pipeline (Latency = 3 cycles more than contract §5's "the cycle after"):
//   A  the inputs, with their record index decoded, are registered;
//   R  the records of the two queues and two ports are read (P*Q:1
//      multiplexers), with the values the W stage is about to write;
//   E  dequeue, admission and state machines execute on those records, with
//      the values E wrote one cycle earlier when it touches the same queue or
//      port again (the only loop that closes in one cycle);
//   W  the results are written to the records and the stat_* outputs.
// So the results of the inputs presented before clock edge e are visible
// after edge e + 3: the outputs and the records describe the same cycle.
//
// Reset: rst_ni active low, asynchronous; hold it for at least 2 clock edges
// with cfg_* stable (fills the threshold pipeline). All occupancies, states
// and counters reset to 0. cfg_* are static while not in reset.
// Counters wrap modulo 2^CntW. Protocol errors (cells = 0, index out of
// range, dequeue of more than the queue holds) change nothing but the error
// flag and count; the other event of the cycle still applies.
// Resume counts are not stored: PAUSE and RESUME of a queue (port) alternate,
// starting from QON, so resumes = pauses - qoff (pauses - poff).
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
  localparam int unsigned ThrW   = CellW + 3,
  localparam int unsigned XpW    = ThrW + 5
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

  // Results of the last cycle.
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

  // Counter and port occupancy read port, one cycle of latency: the values
  // after the cycle whose results the stat_* outputs show with the request.
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
  localparam logic [2:0] RegNone = 3'd0, RegPriv = 3'd1, RegShared = 3'd2,
                         RegHdrm = 3'd3, RegDrop = 3'd4;
  // A queue record {qoff, hdrm, shared, priv} and a port record
  // {poff, hdrm, shared} travel through the pipeline as one vector each;
  // counters travel beside them.
  localparam int unsigned QRecW = 3 * CellW + 1;
  localparam int unsigned PRecW = 2 * CellW + 1;

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

  // ---------------------------------------------------------------- state
  // Per-queue and per-port records are plain arrays without reset (they map
  // to flops or to memories); a valid bit per record, cleared by reset, makes
  // a record read as all zero until its first write. An enqueue writes the
  // whole record. A dequeue writes only records already valid (a dequeue
  // from a queue never written is an error) and not the counters it never
  // changes (drops, port pauses, and queue pauses under SIH), so it needs no
  // read of them.
  logic [NumQ-1:0]     qvalid_q;
  logic [CellW-1:0]    priv_q   [NumQ];
  logic [CellW-1:0]    shared_q [NumQ];
  logic [CellW-1:0]    hdrm_q   [NumQ];
  logic [CntW-1:0]     drops_q  [NumQ];
  logic [CntW-1:0]     qpause_q [NumQ];
  logic [NumQ-1:0]     qoff_q;
  logic [NumPorts-1:0] pvalid_q;
  logic [CellW-1:0]    port_shared_q[NumPorts];
  logic [CellW-1:0]    port_hdrm_q  [NumPorts];
  logic [CntW-1:0]     ppause_q     [NumPorts];
  logic [NumPorts-1:0] poff_q;
  logic [CellW-1:0]    s_q;  // S after the cycle in stage E
  logic [CntW-1:0]     err_cnt_q;
  logic                err_sticky_q;

  // ------------------------------------------------------ stage A: inputs
  // Registers feeding stage R (r_*), stage E (x_*) and stage W (w_*).
  // Slot "deq" is the dequeue, slot "enq" the enqueue.
  logic              deq_in_range, enq_in_range;
  logic              r_deq_ok_q, r_enq_ok_q;  // valid, in range, cells != 0
  logic              r_deq_v_q, r_enq_v_q;
  logic [QIdxW-1:0]  r_deq_idx_q, r_enq_idx_q;
  logic [PortW-1:0]  r_deq_p_q, r_enq_p_q;                // 0 when out of range
  logic [PortW-1:0]  r_deq_port_q, r_enq_port_q;          // as presented, for the outputs
  logic [QueueW-1:0] r_deq_queue_q, r_enq_queue_q;
  logic [SizeW-1:0]  r_deq_cells_q, r_enq_cells_q;

  assign deq_in_range = 32'(deq_port_i) < NumPorts && 32'(deq_queue_i) < NumQueues;
  assign enq_in_range = 32'(enq_port_i) < NumPorts && 32'(enq_queue_i) < NumQueues;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_deq_v_q  <= 1'b0;
      r_enq_v_q  <= 1'b0;
      r_deq_ok_q <= 1'b0;
      r_enq_ok_q <= 1'b0;
    end else begin
      r_deq_v_q  <= deq_valid_i;
      r_enq_v_q  <= enq_valid_i;
      r_deq_ok_q <= deq_valid_i && deq_in_range && deq_cells_i != '0;
      r_enq_ok_q <= enq_valid_i && enq_in_range && enq_cells_i != '0;
    end
  end

  always_ff @(posedge clk_i) begin
    r_deq_idx_q   <= deq_in_range ? QIdxW'(deq_port_i) * QIdxW'(NumQueues) + QIdxW'(deq_queue_i) : '0;
    r_enq_idx_q   <= enq_in_range ? QIdxW'(enq_port_i) * QIdxW'(NumQueues) + QIdxW'(enq_queue_i) : '0;
    r_deq_p_q     <= deq_in_range ? deq_port_i : '0;
    r_enq_p_q     <= enq_in_range ? enq_port_i : '0;
    r_deq_port_q  <= deq_port_i;
    r_enq_port_q  <= enq_port_i;
    r_deq_queue_q <= deq_queue_i;
    r_enq_queue_q <= enq_queue_i;
    r_deq_cells_q <= deq_cells_i;
    r_enq_cells_q <= enq_cells_i;
  end

  // --------------------------------------------------- stage R: read records
  // Stage W writes at the end of this cycle what stage E computed in the
  // previous one: take its values instead of the array's (the enqueue's
  // first: when both slots hit one record, it holds the final values).
  logic             w_deq_we_q, w_enq_we_q;   // slot writes its queue and port
  logic [QIdxW-1:0] w_deq_idx_q, w_enq_idx_q;
  logic [PortW-1:0] w_deq_p_q, w_enq_p_q;
  logic [QRecW-1:0] w_deq_q_q, w_enq_q_q;
  logic [PRecW-1:0] w_deq_p_rec_q, w_enq_p_rec_q;
  logic [CntW-1:0]  w_deq_qpause_q, w_enq_qpause_q, w_enq_drops_q, w_enq_ppause_q;

  function automatic [QRecW-1:0] qrec(input logic [QIdxW-1:0] i);
    qrec = qvalid_q[i] ? {qoff_q[i], hdrm_q[i], shared_q[i], priv_q[i]} : '0;
  endfunction
  function automatic [PRecW-1:0] prec(input logic [PortW-1:0] p);
    prec = pvalid_q[p] ? {poff_q[p], port_hdrm_q[p], port_shared_q[p]} : '0;
  endfunction

  // Which stage-W slot holds a record: bit 1 the enqueue's, bit 0 the dequeue's.
  function automatic [1:0] w_hit_q(input logic [QIdxW-1:0] i);
    w_hit_q = {w_enq_we_q && w_enq_idx_q == i, w_deq_we_q && w_deq_idx_q == i};
  endfunction
  function automatic [1:0] w_hit_p(input logic [PortW-1:0] p);
    w_hit_p = {w_enq_we_q && w_enq_p_q == p, w_deq_we_q && w_deq_p_q == p};
  endfunction

  logic [1:0]       rh_deq_q, rh_enq_q, rh_deq_p, rh_enq_p;
  logic [QRecW-1:0] rd_deq_q, rd_enq_q;
  logic [PRecW-1:0] rd_deq_p, rd_enq_p;
  logic [CntW-1:0]  rd_deq_qpause, rd_enq_qpause, rd_enq_drops, rd_enq_ppause;

  assign rh_deq_q = w_hit_q(r_deq_idx_q);
  assign rh_enq_q = w_hit_q(r_enq_idx_q);
  assign rh_deq_p = w_hit_p(r_deq_p_q);
  assign rh_enq_p = w_hit_p(r_enq_p_q);

  assign rd_deq_q = rh_deq_q[1] ? w_enq_q_q : rh_deq_q[0] ? w_deq_q_q : qrec(r_deq_idx_q);
  assign rd_enq_q = rh_enq_q[1] ? w_enq_q_q : rh_enq_q[0] ? w_deq_q_q : qrec(r_enq_idx_q);
  assign rd_deq_p = rh_deq_p[1] ? w_enq_p_rec_q : rh_deq_p[0] ? w_deq_p_rec_q : prec(r_deq_p_q);
  assign rd_enq_p = rh_enq_p[1] ? w_enq_p_rec_q : rh_enq_p[0] ? w_deq_p_rec_q : prec(r_enq_p_q);

  // Counters: the dequeue slot writes queue pauses under DSH only.
  assign rd_deq_qpause = rh_deq_q[1] ? w_enq_qpause_q : (Dsh && rh_deq_q[0]) ? w_deq_qpause_q
                       : qvalid_q[r_deq_idx_q] ? qpause_q[r_deq_idx_q] : '0;
  assign rd_enq_qpause = rh_enq_q[1] ? w_enq_qpause_q : (Dsh && rh_enq_q[0]) ? w_deq_qpause_q
                       : qvalid_q[r_enq_idx_q] ? qpause_q[r_enq_idx_q] : '0;
  assign rd_enq_drops  = rh_enq_q[1] ? w_enq_drops_q
                       : qvalid_q[r_enq_idx_q] ? drops_q[r_enq_idx_q] : '0;
  assign rd_enq_ppause = rh_enq_p[1] ? w_enq_ppause_q
                       : pvalid_q[r_enq_p_q] ? ppause_q[r_enq_p_q] : '0;

  // Stage E writes at the end of this cycle what stage R reads now: flag
  // the hits, stage E then takes its own last results (x_*_hit_q below).
  logic             e_deq_we, e_enq_we;   // stage E's slot writes (registered into w_*)
  logic [QIdxW-1:0] x_deq_idx_q, x_enq_idx_q;
  logic [PortW-1:0] x_deq_p_q, x_enq_p_q;

  // Stage-E registers.
  logic             x_deq_v_q, x_enq_v_q, x_deq_ok_q, x_enq_ok_q, x_same_q_q, x_same_p_q;
  logic [1:0]       x_hit_deq_q_q, x_hit_enq_q_q, x_hit_deq_p_q, x_hit_enq_p_q;
  logic [PortW-1:0] x_deq_port_q, x_enq_port_q;
  logic [QueueW-1:0] x_deq_queue_q, x_enq_queue_q;
  logic [SizeW-1:0] x_deq_cells_q, x_enq_cells_q;
  logic [QRecW-1:0] x_deq_q_q, x_enq_q_q;
  logic [PRecW-1:0] x_deq_p_rec_q, x_enq_p_rec_q;
  logic [CntW-1:0]  x_deq_qpause_q, x_enq_qpause_q, x_enq_drops_q, x_enq_ppause_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      x_deq_v_q  <= 1'b0;
      x_enq_v_q  <= 1'b0;
      x_deq_ok_q <= 1'b0;
      x_enq_ok_q <= 1'b0;
    end else begin
      x_deq_v_q  <= r_deq_v_q;
      x_enq_v_q  <= r_enq_v_q;
      x_deq_ok_q <= r_deq_ok_q;
      x_enq_ok_q <= r_enq_ok_q;
    end
  end

  always_ff @(posedge clk_i) begin
    x_deq_idx_q    <= r_deq_idx_q;
    x_enq_idx_q    <= r_enq_idx_q;
    x_deq_p_q      <= r_deq_p_q;
    x_enq_p_q      <= r_enq_p_q;
    x_same_q_q     <= r_deq_idx_q == r_enq_idx_q;
    x_same_p_q     <= r_deq_p_q == r_enq_p_q;
    // Bit 1: stage E's enqueue slot, bit 0 its dequeue slot, hit this record.
    x_hit_deq_q_q  <= {x_enq_idx_q == r_deq_idx_q, x_deq_idx_q == r_deq_idx_q};
    x_hit_enq_q_q  <= {x_enq_idx_q == r_enq_idx_q, x_deq_idx_q == r_enq_idx_q};
    x_hit_deq_p_q  <= {x_enq_p_q == r_deq_p_q, x_deq_p_q == r_deq_p_q};
    x_hit_enq_p_q  <= {x_enq_p_q == r_enq_p_q, x_deq_p_q == r_enq_p_q};
    x_deq_port_q   <= r_deq_port_q;
    x_enq_port_q   <= r_enq_port_q;
    x_deq_queue_q  <= r_deq_queue_q;
    x_enq_queue_q  <= r_enq_queue_q;
    x_deq_cells_q  <= r_deq_cells_q;
    x_enq_cells_q  <= r_enq_cells_q;
    x_deq_q_q      <= rd_deq_q;
    x_enq_q_q      <= rd_enq_q;
    x_deq_p_rec_q  <= rd_deq_p;
    x_enq_p_rec_q  <= rd_enq_p;
    x_deq_qpause_q <= rd_deq_qpause;
    x_enq_qpause_q <= rd_enq_qpause;
    x_enq_drops_q  <= rd_enq_drops;
    x_enq_ppause_q <= rd_enq_ppause;
  end

  // ------------------------------------------------------ stage E: execute
  // The thresholds in effect for the cycle in stage E.
  logic [ThrW-1:0] t_cur, x_qoff, x_qon;
  logic [XpW-1:0]  x_poff, x_pon;

  dsh_thresh_pipe #(.CellW(CellW), .Dsh(Dsh), .ThreshLatency(ThreshLatency)) u_thresh_pipe (
    .clk_i, .s_i(s_q), .cfg_shared_cells_i, .cfg_alpha_log2_i, .cfg_headroom_cells_i,
    .cfg_delta_q_i, .cfg_delta_p_i, .cfg_port_mult_log2_i,
    .t_o(t_cur), .x_qoff_o(x_qoff), .x_qon_o(x_qon), .x_poff_o(x_poff), .x_pon_o(x_pon)
  );

  // Records as of the previous cycle's results: stage W's registers hold
  // what stage E computed one cycle ago.
  logic [1:0]       eh_deq_q, eh_enq_q, eh_deq_p, eh_enq_p;
  logic [QRecW-1:0] ex_deq_q, ex_enq_q;
  logic [PRecW-1:0] ex_deq_p, ex_enq_p;
  logic [CntW-1:0]  ex_deq_qpause, ex_enq_qpause, ex_enq_drops, ex_enq_ppause;

  assign eh_deq_q = x_hit_deq_q_q & {w_enq_we_q, w_deq_we_q};
  assign eh_enq_q = x_hit_enq_q_q & {w_enq_we_q, w_deq_we_q};
  assign eh_deq_p = x_hit_deq_p_q & {w_enq_we_q, w_deq_we_q};
  assign eh_enq_p = x_hit_enq_p_q & {w_enq_we_q, w_deq_we_q};

  assign ex_deq_q      = eh_deq_q[1] ? w_enq_q_q : eh_deq_q[0] ? w_deq_q_q : x_deq_q_q;
  assign ex_enq_q      = eh_enq_q[1] ? w_enq_q_q : eh_enq_q[0] ? w_deq_q_q : x_enq_q_q;
  assign ex_deq_p      = eh_deq_p[1] ? w_enq_p_rec_q : eh_deq_p[0] ? w_deq_p_rec_q : x_deq_p_rec_q;
  assign ex_enq_p      = eh_enq_p[1] ? w_enq_p_rec_q : eh_enq_p[0] ? w_deq_p_rec_q : x_enq_p_rec_q;
  assign ex_deq_qpause = eh_deq_q[1] ? w_enq_qpause_q : (Dsh && eh_deq_q[0]) ? w_deq_qpause_q : x_deq_qpause_q;
  assign ex_enq_qpause = eh_enq_q[1] ? w_enq_qpause_q : (Dsh && eh_enq_q[0]) ? w_deq_qpause_q : x_enq_qpause_q;
  assign ex_enq_drops  = eh_enq_q[1] ? w_enq_drops_q : x_enq_drops_q;
  assign ex_enq_ppause = eh_enq_p[1] ? w_enq_ppause_q : x_enq_ppause_q;

  logic [CellW-1:0] dr_priv, dr_shared, dr_hdrm, er_priv, er_shared, er_hdrm;
  logic [CellW-1:0] dr_pshared, dr_phdrm, er_pshared, er_phdrm;
  logic             dr_qoff, dr_poff, er_qoff, er_poff;
  assign {dr_qoff, dr_hdrm, dr_shared, dr_priv} = ex_deq_q;
  assign {er_qoff, er_hdrm, er_shared, er_priv} = ex_enq_q;
  assign {dr_poff, dr_phdrm, dr_pshared}        = ex_deq_p;
  assign {er_poff, er_phdrm, er_pshared}        = ex_enq_p;

  // -------------------------------------------------------------- dequeue
  logic             deq_fits, deq_go, deq_err;
  logic [CellW-1:0] dq_priv, dq_shared, dq_hdrm;      // queue after the dequeue
  logic [CellW-1:0] dp_shared, dp_hdrm;               // port after the dequeue
  logic [SizeW-1:0] deq_from_shared, deq_from_hdrm;
  logic [CellW-1:0] s_after_deq;

  dsh_deq_drain #(.CellW(CellW), .SizeW(SizeW)) u_deq_drain (
    .priv_i(dr_priv), .shared_i(dr_shared), .hdrm_i(dr_hdrm),
    .cells_i(x_deq_cells_q), .ok_o(deq_fits),
    .priv_o(dq_priv), .shared_o(dq_shared), .hdrm_o(dq_hdrm),
    .from_shared_o(deq_from_shared), .from_hdrm_o(deq_from_hdrm)
  );

  assign deq_go      = x_deq_ok_q && deq_fits;
  assign deq_err     = x_deq_v_q && !deq_go;
  assign dp_shared   = dr_pshared - CellW'(deq_from_shared);
  assign dp_hdrm     = dr_phdrm - CellW'(deq_from_hdrm);
  assign s_after_deq = deq_go ? s_q - CellW'(deq_from_shared) : s_q;

  // -------------------------------------------------------------- enqueue
  // The enqueue sees the dequeue's result when both hit one queue or port.
  logic             enq_go, enq_err, same_q, same_p;
  logic [CellW-1:0] eq_priv, eq_shared, eq_hdrm, ep_shared, ep_hdrm;  // before
  logic [CellW-1:0] ea_priv, ea_shared, ea_hdrm, ea_pshared, ea_phdrm;  // after
  logic             eq_qoff, ep_poff;
  logic [2:0]       region;
  logic             adm_qpause, adm_ppause;  // PAUSE from admission to headroom
  logic [CellW-1:0] s_next;

  assign enq_go  = x_enq_ok_q;
  assign enq_err = x_enq_v_q && !enq_go;
  assign same_q  = deq_go && x_same_q_q;
  assign same_p  = deq_go && x_same_p_q;

  assign eq_priv   = same_q ? dq_priv   : er_priv;
  assign eq_shared = same_q ? dq_shared : er_shared;
  assign eq_hdrm   = same_q ? dq_hdrm   : er_hdrm;
  assign eq_qoff   = er_qoff;  // a dequeue's state machine does not run when the enqueue hits its queue
  assign ep_shared = same_p ? dp_shared : er_pshared;
  assign ep_hdrm   = same_p ? dp_hdrm   : er_phdrm;
  assign ep_poff   = er_poff;

  dsh_enq_decide #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_enq_decide (
    .cells_i(x_enq_cells_q), .priv_i(eq_priv), .shared_i(eq_shared), .hdrm_i(eq_hdrm),
    .qoff_i(eq_qoff), .port_shared_i(ep_shared), .port_hdrm_i(ep_hdrm), .poff_i(ep_poff),
    .s_i(s_after_deq), .x_qoff_i(x_qoff), .x_poff_i(x_poff),
    .cfg_private_cells_i, .cfg_headroom_cells_i, .cfg_shared_cells_i, .region_o(region)
  );

  // Sums of the admission outcomes, shared by the write-back and the
  // state-machine candidates below.
  logic [CellW-1:0] eq_priv_add, eq_shared_add, eq_hdrm_add, ep_shared_add, ep_hdrm_add;
  assign eq_priv_add   = eq_priv + CellW'(x_enq_cells_q);
  assign eq_shared_add = eq_shared + CellW'(x_enq_cells_q);
  assign eq_hdrm_add   = eq_hdrm + CellW'(x_enq_cells_q);
  assign ep_shared_add = ep_shared + CellW'(x_enq_cells_q);
  assign ep_hdrm_add   = ep_hdrm + CellW'(x_enq_cells_q);

  always_comb begin
    ea_priv    = eq_priv;
    ea_shared  = eq_shared;
    ea_hdrm    = eq_hdrm;
    ea_pshared = ep_shared;
    ea_phdrm   = ep_hdrm;
    s_next     = s_after_deq;
    adm_qpause = 1'b0;
    adm_ppause = 1'b0;
    if (enq_go) begin
      unique case (region)
        RegPriv: ea_priv = eq_priv_add;
        RegShared: begin
          ea_shared  = eq_shared_add;
          ea_pshared = ep_shared_add;
          s_next     = s_after_deq + CellW'(x_enq_cells_q);
        end
        RegHdrm: begin
          ea_hdrm    = eq_hdrm_add;
          ea_phdrm   = ep_hdrm_add;
          adm_qpause = !Dsh && !eq_qoff;
          adm_ppause = Dsh && !ep_poff;
        end
        default: ;  // drop: nothing buffered
      endcase
    end
  end

  // ------------------------------------------------------- state machines
  // Slot 0: the dequeue's queue and port, unless the enqueue touched them too.
  logic dq_qoff, dq_pause, dq_resume, dq_eval;
  logic dp_poff, dp_resume, dp_eval;

  assign dq_eval = deq_go && !(enq_go && same_q);
  assign dp_eval = deq_go && !(enq_go && same_p) && Dsh;

  dsh_queue_fsm #(.CellW(CellW), .Dsh(Dsh)) u_deq_queue_fsm (
    .qoff_i(dr_qoff), .shared_i(dq_shared), .hdrm_i(dq_hdrm),
    .x_qoff_i(x_qoff), .x_qon_i(x_qon), .qoff_o(dq_qoff), .pause_o(dq_pause), .resume_o(dq_resume)
  );
  dsh_port_fsm #(.CellW(CellW)) u_deq_port_fsm (
    .poff_i(dr_poff), .port_shared_i(dp_shared), .port_hdrm_i(dp_hdrm),
    .x_pon_i(x_pon), .poff_o(dp_poff), .resume_o(dp_resume)
  );

  // Slot 1: the enqueue's queue and port see the state after admission. The
  // three possible states (nothing buffered / shared / headroom) are known
  // before the region is, so all three are evaluated in parallel and the
  // region picks one: the comparisons stay off the admission path.
  // Candidate k in bits [k*CellW +: CellW]: 0 nothing buffered, 1 shared, 2 headroom.
  logic [3*CellW-1:0] cq_shared, cq_hdrm, cp_shared, cp_hdrm;
  logic [2:0]       cq_qoff, cp_poff;
  logic [2:0]       cq_qoff_n, cq_pause, cq_resume, cp_poff_n, cp_resume;
  logic [1:0]       pick;

  assign cq_shared = {eq_shared, eq_shared_add, eq_shared};
  assign cq_hdrm   = {eq_hdrm_add, eq_hdrm, eq_hdrm};
  assign cq_qoff   = {eq_qoff | !Dsh, eq_qoff, eq_qoff};  // SIH pauses on entering headroom
  assign cp_shared = {ep_shared, ep_shared_add, ep_shared};
  assign cp_hdrm   = {ep_hdrm_add, ep_hdrm, ep_hdrm};
  assign cp_poff   = {ep_poff | Dsh, ep_poff, ep_poff};   // DSH pauses on entering insurance
  assign pick      = (region == RegShared) ? 2'd1 : (region == RegHdrm) ? 2'd2 : 2'd0;

  for (genvar k = 0; k < 3; k++) begin : g_enq_fsm
    dsh_queue_fsm #(.CellW(CellW), .Dsh(Dsh)) u_queue_fsm (
      .qoff_i(cq_qoff[k]), .shared_i(cq_shared[k*CellW +: CellW]), .hdrm_i(cq_hdrm[k*CellW +: CellW]),
      .x_qoff_i(x_qoff),
      .x_qon_i(x_qon), .qoff_o(cq_qoff_n[k]), .pause_o(cq_pause[k]), .resume_o(cq_resume[k])
    );
    dsh_port_fsm #(.CellW(CellW)) u_port_fsm (
      .poff_i(cp_poff[k]), .port_shared_i(cp_shared[k*CellW +: CellW]),
      .port_hdrm_i(cp_hdrm[k*CellW +: CellW]),
      .x_pon_i(x_pon), .poff_o(cp_poff_n[k]), .resume_o(cp_resume[k])
    );
  end

  logic eq_qoff_n, eq_pause, eq_resume, ep_poff_n, ep_resume;
  assign eq_qoff_n = cq_qoff_n[pick];
  assign eq_pause  = cq_pause[pick];
  assign eq_resume = cq_resume[pick];
  assign ep_poff_n = cp_poff_n[pick];
  assign ep_resume = cp_resume[pick];

  // Events of the cycle, per slot.
  logic [1:0] qevt_valid, qevt_pause, pevt_valid, pevt_pause;
  assign qevt_valid[0] = dq_eval && (dq_pause || dq_resume);
  assign qevt_pause[0] = dq_pause;
  assign qevt_valid[1] = enq_go && (adm_qpause || eq_pause || eq_resume);
  assign qevt_pause[1] = adm_qpause || eq_pause;
  assign pevt_valid[0] = dp_eval && dp_resume;
  assign pevt_pause[0] = 1'b0;
  assign pevt_valid[1] = enq_go && (adm_ppause || (Dsh && ep_resume));
  assign pevt_pause[1] = adm_ppause;

  // A counter's + 1 does not wait for the event: the event only selects.
  function automatic [CntW-1:0] bump(input [CntW-1:0] c, input e);
    bump = e ? c + 1'b1 : c;
  endfunction

  // ------------------------------------------------- stage W: write back
  // The dequeue writes first; an enqueue to the same queue or port overrides
  // with values that include the dequeue (its state machine did not run).
  assign e_deq_we = deq_go;
  assign e_enq_we = enq_go;

  logic [2:0]        w_region_q;
  logic [ThrW-1:0]   w_t_q;
  logic [1:0]        w_error_q, w_qevt_valid_q, w_qevt_pause_q, w_pevt_valid_q, w_pevt_pause_q;
  logic [PortW-1:0]  w_deq_port_q, w_enq_port_q;
  logic [QueueW-1:0] w_deq_queue_q, w_enq_queue_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_deq_we_q     <= 1'b0;
      w_enq_we_q     <= 1'b0;
      w_region_q     <= RegNone;
      w_error_q      <= '0;
      w_qevt_valid_q <= '0;
      w_pevt_valid_q <= '0;
      s_q            <= '0;
    end else begin
      w_deq_we_q     <= e_deq_we;
      w_enq_we_q     <= e_enq_we;
      w_region_q     <= enq_go ? region : RegNone;
      w_error_q      <= {enq_err, deq_err};
      w_qevt_valid_q <= qevt_valid;
      w_pevt_valid_q <= pevt_valid;
      s_q            <= s_next;
    end
  end

  always_ff @(posedge clk_i) begin
    w_deq_idx_q    <= x_deq_idx_q;
    w_enq_idx_q    <= x_enq_idx_q;
    w_deq_p_q      <= x_deq_p_q;
    w_enq_p_q      <= x_enq_p_q;
    w_deq_q_q      <= {dq_qoff, dq_hdrm, dq_shared, dq_priv};
    w_enq_q_q      <= {eq_qoff_n, ea_hdrm, ea_shared, ea_priv};
    w_deq_p_rec_q  <= {Dsh && dp_poff, dp_hdrm, dp_shared};
    w_enq_p_rec_q  <= {Dsh && ep_poff_n, ea_phdrm, ea_pshared};
    w_deq_qpause_q <= bump(ex_deq_qpause, qevt_valid[0] && qevt_pause[0]);
    w_enq_qpause_q <= bump(ex_enq_qpause, qevt_valid[1] && qevt_pause[1]);
    w_enq_drops_q  <= bump(ex_enq_drops, region == RegDrop);
    w_enq_ppause_q <= bump(ex_enq_ppause, pevt_valid[1] && pevt_pause[1]);
    w_t_q          <= t_cur;
    w_qevt_pause_q <= qevt_pause;
    w_pevt_pause_q <= pevt_pause;
    w_deq_port_q   <= x_deq_port_q;
    w_enq_port_q   <= x_enq_port_q;
    w_deq_queue_q  <= x_deq_queue_q;
    w_enq_queue_q  <= x_enq_queue_q;
  end

  always_ff @(posedge clk_i) begin
    if (w_deq_we_q) begin
      {hdrm_q[w_deq_idx_q], shared_q[w_deq_idx_q], priv_q[w_deq_idx_q]} <= w_deq_q_q[QRecW-2:0];
      if (Dsh) qpause_q[w_deq_idx_q] <= w_deq_qpause_q;
      {port_hdrm_q[w_deq_p_q], port_shared_q[w_deq_p_q]} <= w_deq_p_rec_q[PRecW-2:0];
    end
    if (w_enq_we_q) begin
      {hdrm_q[w_enq_idx_q], shared_q[w_enq_idx_q], priv_q[w_enq_idx_q]} <= w_enq_q_q[QRecW-2:0];
      qpause_q[w_enq_idx_q] <= w_enq_qpause_q;
      drops_q[w_enq_idx_q]  <= w_enq_drops_q;
      {port_hdrm_q[w_enq_p_q], port_shared_q[w_enq_p_q]} <= w_enq_p_rec_q[PRecW-2:0];
      ppause_q[w_enq_p_q]   <= w_enq_ppause_q;
    end
  end

  // Valid bits, flow-control states and globals, with reset.
  logic [NumQ-1:0]     qvalid_d, qoff_d;
  logic [NumPorts-1:0] pvalid_d, poff_d;
  always_comb begin
    qvalid_d = qvalid_q;
    qoff_d   = qoff_q;
    pvalid_d = pvalid_q;
    poff_d   = poff_q;
    if (w_deq_we_q) begin
      qoff_d[w_deq_idx_q] = w_deq_q_q[QRecW-1];
      poff_d[w_deq_p_q]   = w_deq_p_rec_q[PRecW-1];
    end
    if (w_enq_we_q) begin
      qvalid_d[w_enq_idx_q] = 1'b1;
      qoff_d[w_enq_idx_q]   = w_enq_q_q[QRecW-1];
      pvalid_d[w_enq_p_q]   = 1'b1;
      poff_d[w_enq_p_q]     = w_enq_p_rec_q[PRecW-1];
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
      err_cnt_q    <= err_cnt_q + CntW'(w_error_q[0]) + CntW'(w_error_q[1]);
      err_sticky_q <= err_sticky_q | (|w_error_q);
    end
  end

  // Registered per-cycle results and counter reads.
  logic [QIdxW-1:0] rd_idx;
  logic [PortW-1:0] rd_p;
  assign rd_p   = (32'(stat_rd_port_i) < NumPorts) ? stat_rd_port_i : '0;
  assign rd_idx = (32'(stat_rd_port_i) < NumPorts && 32'(stat_rd_queue_i) < NumQueues)
                  ? QIdxW'(stat_rd_port_i) * QIdxW'(NumQueues) + QIdxW'(stat_rd_queue_i) : '0;

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
      stat_drop_o            <= w_region_q == RegDrop;
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
      stat_rd_drops_o        <= qvalid_q[rd_idx] ? drops_q[rd_idx]   : '0;
      stat_rd_pauses_o       <= qvalid_q[rd_idx] ? qpause_q[rd_idx]  : '0;
      stat_rd_resumes_o      <= qvalid_q[rd_idx] ? qpause_q[rd_idx] - CntW'(qoff_q[rd_idx]) : '0;
      stat_rd_port_pauses_o  <= pvalid_q[rd_p]   ? ppause_q[rd_p]    : '0;
      stat_rd_port_resumes_o <= pvalid_q[rd_p]   ? ppause_q[rd_p] - CntW'(poff_q[rd_p]) : '0;
      stat_rd_port_shared_o  <= pvalid_q[rd_p]   ? port_shared_q[rd_p] : '0;
      stat_rd_port_hdrm_o    <= pvalid_q[rd_p]   ? port_hdrm_q[rd_p]   : '0;
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
