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
// Reset: rst_ni active low, asynchronous; hold it for at least 3 clock edges
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

  // Counters count by one: x + 1 and x - 1 with a log-depth carry (a prefix
  // AND, Kogge-Stone). Yosys maps `x + 1` as a ripple carry, which ABC left
  // as a 5 ns chain of AND3 gates on the 32-bit counters.
  function automatic [CntW-1:0] inc_fast(input logic [CntW-1:0] x);
    logic [CntW-1:0] p;  // p[i] = &x[i:0]: bit i+1 toggles
    p = x;
    for (int s = 1; s < CntW; s = s * 2) p = p & ((p << s) | ~({CntW{1'b1}} << s));
    inc_fast = x ^ ((p << 1) | CntW'(1));
  endfunction
  function automatic [CntW-1:0] dec_fast(input logic [CntW-1:0] x);
    dec_fast = ~inc_fast(~x);
  endfunction

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
  logic [CellW-1:0]    s_q;     // S after the cycle in stage E
  logic [CellW-1:0]    free_q;  // B_s - s_q: the threshold pipeline's input
  logic [CntW-1:0]     err_cnt_q;
  logic                err_sticky_q;

  // ------------------------------------------------------ stage A: inputs
  // Registers feeding stage R (r_*), stage E (x_*) and stage W (w_*).
  // Slot "deq" is the dequeue, slot "enq" the enqueue. Stage R reads with
  // one-hot selects decoded here (an AND-OR read: no select fan-out tree in
  // front of a P*Q:1 multiplexer); the binary indices serve the hazard
  // compares and the writes.
  logic              deq_in_range, enq_in_range;
  logic              r_deq_ok_q, r_enq_ok_q;  // valid, in range, cells != 0
  logic              r_deq_v_q, r_enq_v_q;
  logic [QIdxW-1:0]  r_deq_idx_q, r_enq_idx_q;
  logic [PortW-1:0]  r_deq_p_q, r_enq_p_q;                // 0 when out of range
  logic [NumQ-1:0]   r_deq_qsel_q, r_enq_qsel_q;          // one-hot, 0 when out of range
  logic [NumPorts-1:0] r_deq_psel_q, r_enq_psel_q;
  logic [PortW-1:0]  r_deq_port_q, r_enq_port_q;          // as presented, for the outputs
  logic [QueueW-1:0] r_deq_queue_q, r_enq_queue_q;
  logic [SizeW-1:0]  r_deq_cells_q, r_enq_cells_q;

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
    r_deq_idx_q   <= deq_in_range ? queue_idx(deq_port_i, deq_queue_i) : '0;
    r_enq_idx_q   <= enq_in_range ? queue_idx(enq_port_i, enq_queue_i) : '0;
    r_deq_p_q     <= deq_in_range ? deq_port_i : '0;
    r_enq_p_q     <= enq_in_range ? enq_port_i : '0;
    r_deq_qsel_q  <= queue_sel(deq_port_i, deq_queue_i);
    r_enq_qsel_q  <= queue_sel(enq_port_i, enq_queue_i);
    r_deq_psel_q  <= port_sel(deq_port_i, deq_in_range);
    r_enq_psel_q  <= port_sel(enq_port_i, enq_in_range);
    r_deq_port_q  <= deq_port_i;
    r_enq_port_q  <= enq_port_i;
    r_deq_queue_q <= deq_queue_i;
    r_enq_queue_q <= enq_queue_i;
    r_deq_cells_q <= deq_cells_i;
    r_enq_cells_q <= enq_cells_i;
  end

  // --------------------------------------------------- stage R: read records
  // The arrays as flat vectors (entry i in slice i) for dsh_onehot_read.
  logic [NumQ*QRecW-1:0]       qrec_all;
  logic [NumPorts*PRecW-1:0]   prec_all;
  logic [NumQ*CntW-1:0]        qpause_all;
  logic [NumQ*CntW-1:0]        drops_all;
  logic [NumPorts*CntW-1:0]    ppause_all;
  // (Loops, not generate blocks: Verilator then fills each vector slice by
  // slice, where it would build it as a chain of ever wider concatenations.)
  always_comb begin
    for (int unsigned i = 0; i < NumQ; i++) begin
      qrec_all[i*QRecW +: QRecW]   = {qoff_q[i], hdrm_q[i], shared_q[i], priv_q[i]};
      qpause_all[i*CntW +: CntW]   = qpause_q[i];
      drops_all[i*CntW +: CntW]    = drops_q[i];
    end
  end
  always_comb begin
    for (int unsigned i = 0; i < NumPorts; i++) begin
      prec_all[i*PRecW +: PRecW] = {poff_q[i], port_hdrm_q[i], port_shared_q[i]};
      ppause_all[i*CntW +: CntW] = ppause_q[i];
    end
  end

  // Stage W writes at the end of this cycle what stage E computed in the
  // previous one: take its values instead of the array's (the enqueue's
  // first: when both slots hit one record, it holds the final values).
  // Counters are written as w_*_n (stage W selects count or count + 1).
  logic             w_deq_we_q, w_enq_we_q;   // slot writes its queue and port
  logic [QIdxW-1:0] w_deq_idx_q, w_enq_idx_q;
  logic [PortW-1:0] w_deq_p_q, w_enq_p_q;
  logic [QRecW-1:0] w_deq_q_q, w_enq_q_q;
  logic [PRecW-1:0] w_deq_p_rec_q, w_enq_p_rec_q;
  logic [CntW-1:0]  w_deq_qpause_n, w_enq_qpause_n, w_enq_drops_n, w_enq_ppause_n;

  logic [1:0]       rh_deq_q, rh_enq_q, rh_deq_p, rh_enq_p;
  logic [QRecW-1:0] rd_deq_q, rd_enq_q;
  logic [PRecW-1:0] rd_deq_p, rd_enq_p;
  logic [CntW-1:0]  rd_deq_qpause, rd_enq_qpause, rd_enq_drops, rd_enq_ppause;
  logic [QRecW-1:0] ar_deq_q, ar_enq_q;   // from the arrays
  logic [PRecW-1:0] ar_deq_p, ar_enq_p;
  logic [CntW-1:0]  ar_deq_qpause, ar_enq_qpause, ar_enq_drops, ar_enq_ppause;
  logic [NumQ-1:0]  deq_qsel_v, enq_qsel_v;
  logic [NumPorts-1:0] deq_psel_v, enq_psel_v;

  assign deq_qsel_v = r_deq_qsel_q & qvalid_q;  // unwritten records read as 0
  assign enq_qsel_v = r_enq_qsel_q & qvalid_q;
  assign deq_psel_v = r_deq_psel_q & pvalid_q;
  assign enq_psel_v = r_enq_psel_q & pvalid_q;

  dsh_onehot_read #(.Entries(NumQ), .Width(QRecW)) u_read_deq_q (
    .data_i(qrec_all), .sel_i(deq_qsel_v), .data_o(ar_deq_q));
  dsh_onehot_read #(.Entries(NumQ), .Width(QRecW)) u_read_enq_q (
    .data_i(qrec_all), .sel_i(enq_qsel_v), .data_o(ar_enq_q));
  dsh_onehot_read #(.Entries(NumPorts), .Width(PRecW)) u_read_deq_p (
    .data_i(prec_all), .sel_i(deq_psel_v), .data_o(ar_deq_p));
  dsh_onehot_read #(.Entries(NumPorts), .Width(PRecW)) u_read_enq_p (
    .data_i(prec_all), .sel_i(enq_psel_v), .data_o(ar_enq_p));
  // Counters: the dequeue reads queue pauses under DSH only (SIH's dequeue
  // never pauses), and drops and port pauses never.
  dsh_onehot_read #(.Entries(NumQ), .Width(CntW)) u_read_deq_qpause (
    .data_i(qpause_all), .sel_i({NumQ{Dsh}} & deq_qsel_v), .data_o(ar_deq_qpause));
  dsh_onehot_read #(.Entries(NumQ), .Width(CntW)) u_read_enq_qpause (
    .data_i(qpause_all), .sel_i(enq_qsel_v), .data_o(ar_enq_qpause));
  dsh_onehot_read #(.Entries(NumQ), .Width(CntW)) u_read_enq_drops (
    .data_i(drops_all), .sel_i(enq_qsel_v), .data_o(ar_enq_drops));
  dsh_onehot_read #(.Entries(NumPorts), .Width(CntW)) u_read_enq_ppause (
    .data_i(ppause_all), .sel_i(enq_psel_v), .data_o(ar_enq_ppause));

  // Which stage-W slot holds a record: bit 1 the enqueue's, bit 0 the dequeue's.
  assign rh_deq_q = {w_enq_we_q && w_enq_idx_q == r_deq_idx_q, w_deq_we_q && w_deq_idx_q == r_deq_idx_q};
  assign rh_enq_q = {w_enq_we_q && w_enq_idx_q == r_enq_idx_q, w_deq_we_q && w_deq_idx_q == r_enq_idx_q};
  assign rh_deq_p = {w_enq_we_q && w_enq_p_q == r_deq_p_q, w_deq_we_q && w_deq_p_q == r_deq_p_q};
  assign rh_enq_p = {w_enq_we_q && w_enq_p_q == r_enq_p_q, w_deq_we_q && w_deq_p_q == r_enq_p_q};

  assign rd_deq_q = rh_deq_q[1] ? w_enq_q_q : rh_deq_q[0] ? w_deq_q_q : ar_deq_q;
  assign rd_enq_q = rh_enq_q[1] ? w_enq_q_q : rh_enq_q[0] ? w_deq_q_q : ar_enq_q;
  assign rd_deq_p = rh_deq_p[1] ? w_enq_p_rec_q : rh_deq_p[0] ? w_deq_p_rec_q : ar_deq_p;
  assign rd_enq_p = rh_enq_p[1] ? w_enq_p_rec_q : rh_enq_p[0] ? w_deq_p_rec_q : ar_enq_p;
  // Counters: the dequeue slot writes queue pauses under DSH only.
  assign rd_deq_qpause = rh_deq_q[1] ? w_enq_qpause_n : (Dsh && rh_deq_q[0]) ? w_deq_qpause_n : ar_deq_qpause;
  assign rd_enq_qpause = rh_enq_q[1] ? w_enq_qpause_n : (Dsh && rh_enq_q[0]) ? w_deq_qpause_n : ar_enq_qpause;
  assign rd_enq_drops  = rh_enq_q[1] ? w_enq_drops_n : ar_enq_drops;
  assign rd_enq_ppause = rh_enq_p[1] ? w_enq_ppause_n : ar_enq_ppause;

  // Stage E writes at the end of this cycle what stage R reads now: flag
  // the hits, stage E then takes its own last results from stage W.
  logic             x_deq_v_q, x_enq_v_q, x_deq_ok_q, x_enq_ok_q, x_same_q_q, x_same_p_q;
  logic [QIdxW-1:0] x_deq_idx_q, x_enq_idx_q;
  logic [PortW-1:0] x_deq_p_q, x_enq_p_q;
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
  // The one loop that closes in a cycle: records -> dequeue -> admission ->
  // state machines -> stage W -> (bypass) records. Every candidate outcome
  // is computed and compared in parallel, for each of four scenarios (see
  // "enqueue"); the dequeue's compare results only pick a scenario.
  logic [ThrW-1:0] t_cur, x_qoff, x_qon;
  logic [XpW-1:0]  x_poff, x_pon;

  dsh_thresh_pipe #(.CellW(CellW), .Dsh(Dsh), .ThreshLatency(ThreshLatency)) u_thresh_pipe (
    .clk_i, .free_i(free_q), .cfg_alpha_log2_i, .cfg_headroom_cells_i,
    .cfg_delta_q_i, .cfg_delta_p_i, .cfg_port_mult_log2_i,
    .t_o(t_cur), .x_qoff_o(x_qoff), .x_qon_o(x_qon), .x_poff_o(x_poff), .x_pon_o(x_pon)
  );

  // Records as of the previous cycle's results: stage W's registers hold
  // what stage E computed one cycle ago. The selects are registered (stage
  // R compares the indices, stage E says whether it wrote) and each is kept
  // once per field it steers, so that no select drives a buffer tree for a
  // whole record. Bit 1 of a select: stage W's enqueue slot, bit 0 its
  // dequeue slot (the enqueue's wins: it holds the final values).
  // Copies: priv, shared, hdrm + qoff, queue pauses, drops (enqueue only);
  // port shared, port hdrm + poff, port pauses (enqueue only).
  localparam int unsigned QSelN = 5, PSelN = 3;
  logic [2*QSelN-3:0] eh_deq_q_q;
  logic [2*QSelN-2:0] eh_enq_q_q;  // the last copy: bit 1 only
  logic [2*PSelN-3:0] eh_deq_p_q;
  logic [2*PSelN-2:0] eh_enq_p_q;
  logic [QRecW-1:0]   ex_deq_q, ex_enq_q;
  logic [PRecW-1:0]   ex_deq_p, ex_enq_p;
  logic [CntW-1:0]    ex_deq_qpause, ex_enq_qpause, ex_enq_drops, ex_enq_ppause;

  // Queue record {qoff, hdrm, shared, priv}: fields 0..2 with selects 0..2.
  for (genvar f = 0; f < 3; f++) begin : g_byp_q
    localparam int unsigned Lo = f * CellW;
    localparam int unsigned Wd = (f == 2) ? CellW + 1 : CellW;
    assign ex_deq_q[Lo +: Wd] = eh_deq_q_q[2*f+1] ? w_enq_q_q[Lo +: Wd]
                              : eh_deq_q_q[2*f]   ? w_deq_q_q[Lo +: Wd] : x_deq_q_q[Lo +: Wd];
    assign ex_enq_q[Lo +: Wd] = eh_enq_q_q[2*f+1] ? w_enq_q_q[Lo +: Wd]
                              : eh_enq_q_q[2*f]   ? w_deq_q_q[Lo +: Wd] : x_enq_q_q[Lo +: Wd];
  end
  // Port record {poff, hdrm, shared}: fields 0..1 with selects 0..1.
  for (genvar f = 0; f < 2; f++) begin : g_byp_p
    localparam int unsigned Lo = f * CellW;
    localparam int unsigned Wd = (f == 1) ? CellW + 1 : CellW;
    assign ex_deq_p[Lo +: Wd] = eh_deq_p_q[2*f+1] ? w_enq_p_rec_q[Lo +: Wd]
                              : eh_deq_p_q[2*f]   ? w_deq_p_rec_q[Lo +: Wd] : x_deq_p_rec_q[Lo +: Wd];
    assign ex_enq_p[Lo +: Wd] = eh_enq_p_q[2*f+1] ? w_enq_p_rec_q[Lo +: Wd]
                              : eh_enq_p_q[2*f]   ? w_deq_p_rec_q[Lo +: Wd] : x_enq_p_rec_q[Lo +: Wd];
  end
  // Counters: the dequeue slot writes queue pauses under DSH only, and
  // drops and port pauses never.
  assign ex_deq_qpause = eh_deq_q_q[7] ? w_enq_qpause_n : (Dsh && eh_deq_q_q[6]) ? w_deq_qpause_n : x_deq_qpause_q;
  assign ex_enq_qpause = eh_enq_q_q[7] ? w_enq_qpause_n : (Dsh && eh_enq_q_q[6]) ? w_deq_qpause_n : x_enq_qpause_q;
  assign ex_enq_drops  = eh_enq_q_q[8] ? w_enq_drops_n : x_enq_drops_q;
  assign ex_enq_ppause = eh_enq_p_q[4] ? w_enq_ppause_n : x_enq_ppause_q;

  logic [CellW-1:0] dr_priv, dr_shared, dr_hdrm, er_priv, er_shared, er_hdrm;
  logic [CellW-1:0] dr_pshared, dr_phdrm, er_pshared, er_phdrm;
  logic             dr_qoff, dr_poff, er_qoff, er_poff;
  assign {dr_qoff, dr_hdrm, dr_shared, dr_priv} = ex_deq_q;
  assign {er_qoff, er_hdrm, er_shared, er_priv} = ex_enq_q;
  assign {dr_poff, dr_phdrm, dr_pshared}        = ex_deq_p;
  assign {er_poff, er_phdrm, er_pshared}        = ex_enq_p;

  // Values in linear form a + b + c - d ({d, c, b, a}, see dsh_lin_cmp).
  localparam int unsigned LinW = 4 * CellW;
  localparam logic [CellW-1:0] Z = '0;
  localparam logic [SizeW-1:0] NoCells = '0;
  function automatic [CellW-1:0] lin_val(input logic [LinW-1:0] v, input logic [SizeW-1:0] add);
    lin_val = v[0 +: CellW] + v[CellW +: CellW] + v[2*CellW +: CellW] - v[3*CellW +: CellW] + CellW'(add);
  endfunction
  // sat0(B_s - lin_val(v, add)) as one sum, wide enough not to wrap: exact
  // for every S a cycle can end with (0 <= S <= B_s).
  localparam int unsigned FreeW = CellW + 3;
  function automatic [CellW-1:0] lin_free(input logic [LinW-1:0] v, input logic [SizeW-1:0] add);
    logic signed [FreeW-1:0] f;
    f = FreeW'(cfg_shared_cells_i) - FreeW'(v[0 +: CellW]) - FreeW'(v[CellW +: CellW])
      - FreeW'(v[2*CellW +: CellW]) + FreeW'(v[3*CellW +: CellW]) - FreeW'(add);
    lin_free = f < 0 ? '0 : f[CellW-1:0];
  endfunction

  // -------------------------------------------------------------- dequeue
  // Outcome k of the drain's case k in bits [k*LinW +: LinW].
  logic              deq_fits, deq_go, deq_err;
  logic [2:0]        dcase;
  logic [3*LinW-1:0] dc_priv, dc_shared, dc_hdrm, dc_pshared, dc_phdrm, dc_s;

  dsh_deq_drain #(.CellW(CellW), .SizeW(SizeW)) u_deq_drain (
    .priv_i(dr_priv), .shared_i(dr_shared), .hdrm_i(dr_hdrm),
    .port_shared_i(dr_pshared), .port_hdrm_i(dr_phdrm), .s_i(s_q),
    .cells_i(x_deq_cells_q), .ok_o(deq_fits), .case_o(dcase),
    .priv_o(dc_priv), .shared_o(dc_shared), .hdrm_o(dc_hdrm),
    .port_shared_o(dc_pshared), .port_hdrm_o(dc_phdrm), .s_o(dc_s)
  );

  assign deq_go  = x_deq_ok_q && deq_fits;
  assign deq_err = x_deq_v_q && !deq_go;

  // A one-hot select of 3 or 4 values.
  function automatic [CellW-1:0] sel3(input logic [2:0] oh, input logic [3*CellW-1:0] v);
    sel3 = ({CellW{oh[0]}} & v[0 +: CellW]) | ({CellW{oh[1]}} & v[CellW +: CellW])
         | ({CellW{oh[2]}} & v[2*CellW +: CellW]);
  endfunction
  function automatic [CellW-1:0] sel4(input logic [3:0] oh, input logic [4*CellW-1:0] v);
    sel4 = sel3(oh[2:0], v[0 +: 3*CellW]) | ({CellW{oh[3]}} & v[3*CellW +: CellW]);
  endfunction

  // -------------------------------------------------------------- enqueue
  // The enqueue sees the dequeue's result when both hit one queue or port,
  // and S after the dequeue always. Four candidates each: 0 its own record
  // (or S), 1..3 the dequeue's outcome in case 0..2. Four scenarios j: 0 no
  // dequeue, 1..3 the dequeue in drain case j-1; each names its candidates
  // from registered bits alone. Every scenario's outcome (region, records,
  // state machines, events) is computed in parallel, and the dequeue's
  // compare results pick one scenario at the very end (scen, one-hot).
  logic              enq_go, enq_err;
  logic [3:0]        scen;
  logic [15:0]       qsel, psel, ssel;  // scenario j's candidates in bits [j*4 +: 4]
  logic [4*LinW-1:0] ec_priv, ec_shared, ec_hdrm, ec_pshared, ec_phdrm, ec_s;
  logic [15:0]       region_s;          // scenario j's region, one-hot, bits [j*4 +: 4]

  assign enq_go  = x_enq_ok_q;
  assign enq_err = x_enq_v_q && !enq_go;
  assign scen    = {{3{deq_go}} & dcase, !deq_go};
  for (genvar j = 0; j < 4; j++) begin : g_scen_sel
    assign qsel[j*4 +: 4] = (j > 0 && x_same_q_q) ? 4'(1 << j) : 4'b0001;
    assign psel[j*4 +: 4] = (j > 0 && x_same_p_q) ? 4'(1 << j) : 4'b0001;
    assign ssel[j*4 +: 4] = 4'(1 << j);
  end

  assign ec_priv    = {dc_priv, {Z, Z, Z, er_priv}};
  assign ec_shared  = {dc_shared, {Z, Z, Z, er_shared}};
  assign ec_hdrm    = {dc_hdrm, {Z, Z, Z, er_hdrm}};
  assign ec_pshared = {dc_pshared, {Z, Z, Z, er_pshared}};
  assign ec_phdrm   = {dc_phdrm, {Z, Z, Z, er_phdrm}};
  assign ec_s       = {dc_s, {Z, Z, Z, s_q}};

  dsh_enq_decide #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .NumCand(4), .NumScen(4)) u_enq_decide (
    .cells_i(x_enq_cells_q), .qsel_i(qsel), .psel_i(psel), .ssel_i(ssel),
    .priv_i(ec_priv), .shared_i(ec_shared), .hdrm_i(ec_hdrm),
    .port_shared_i(ec_pshared), .port_hdrm_i(ec_phdrm), .s_i(ec_s),
    .qoff_i(er_qoff), .poff_i(er_poff), .x_qoff_i(x_qoff), .x_poff_i(x_poff),
    .cfg_private_cells_i, .cfg_headroom_cells_i, .cfg_shared_cells_i, .region_o(region_s)
  );

  // Where the packet went, per scenario and as picked (none when the enqueue
  // is not valid).
  logic [3:0] s_priv, s_shared, s_hdrm, s_drop;
  for (genvar j = 0; j < 4; j++) begin : g_scen_in
    assign {s_drop[j], s_hdrm[j], s_shared[j], s_priv[j]} = {4{enq_go}} & region_s[j*4 +: 4];
  end
  logic in_priv, in_shared, in_hdrm, in_drop;
  assign in_priv   = |(scen & s_priv);
  assign in_shared = |(scen & s_shared);
  assign in_hdrm   = |(scen & s_hdrm);
  assign in_drop   = |(scen & s_drop);

  // The records after the cycle: every candidate's value, with and without
  // the packet; each scenario takes its candidate's, then scen picks.
  logic [3*CellW-1:0] dv_priv, dv_shared, dv_hdrm, dv_pshared, dv_phdrm;
  for (genvar c = 0; c < 3; c++) begin : g_deq_val
    assign dv_priv[c*CellW +: CellW]    = lin_val(dc_priv[c*LinW +: LinW], NoCells);
    assign dv_shared[c*CellW +: CellW]  = lin_val(dc_shared[c*LinW +: LinW], NoCells);
    assign dv_hdrm[c*CellW +: CellW]    = lin_val(dc_hdrm[c*LinW +: LinW], NoCells);
    assign dv_pshared[c*CellW +: CellW] = lin_val(dc_pshared[c*LinW +: LinW], NoCells);
    assign dv_phdrm[c*CellW +: CellW]   = lin_val(dc_phdrm[c*LinW +: LinW], NoCells);
  end
  logic [4*CellW-1:0] ev_priv, ev_shared, ev_hdrm, ev_pshared, ev_phdrm, ev_s, ev_free;  // without the packet
  logic [4*CellW-1:0] ea_priv_c, ea_shared_c, ea_hdrm_c, ea_pshared_c, ea_phdrm_c, ea_s_c, ea_free_c;  // with it
  logic [4*CellW-1:0] sv_priv, sv_shared, sv_hdrm, sv_pshared, sv_phdrm, sv_s, sv_free;  // per scenario
  for (genvar k = 0; k < 4; k++) begin : g_enq_val
    assign ev_priv[k*CellW +: CellW]      = lin_val(ec_priv[k*LinW +: LinW], NoCells);
    assign ev_shared[k*CellW +: CellW]    = lin_val(ec_shared[k*LinW +: LinW], NoCells);
    assign ev_hdrm[k*CellW +: CellW]      = lin_val(ec_hdrm[k*LinW +: LinW], NoCells);
    assign ev_pshared[k*CellW +: CellW]   = lin_val(ec_pshared[k*LinW +: LinW], NoCells);
    assign ev_phdrm[k*CellW +: CellW]     = lin_val(ec_phdrm[k*LinW +: LinW], NoCells);
    assign ev_s[k*CellW +: CellW]         = lin_val(ec_s[k*LinW +: LinW], NoCells);
    assign ev_free[k*CellW +: CellW]      = lin_free(ec_s[k*LinW +: LinW], NoCells);
    assign ea_priv_c[k*CellW +: CellW]    = lin_val(ec_priv[k*LinW +: LinW], x_enq_cells_q);
    assign ea_shared_c[k*CellW +: CellW]  = lin_val(ec_shared[k*LinW +: LinW], x_enq_cells_q);
    assign ea_hdrm_c[k*CellW +: CellW]    = lin_val(ec_hdrm[k*LinW +: LinW], x_enq_cells_q);
    assign ea_pshared_c[k*CellW +: CellW] = lin_val(ec_pshared[k*LinW +: LinW], x_enq_cells_q);
    assign ea_phdrm_c[k*CellW +: CellW]   = lin_val(ec_phdrm[k*LinW +: LinW], x_enq_cells_q);
    assign ea_s_c[k*CellW +: CellW]       = lin_val(ec_s[k*LinW +: LinW], x_enq_cells_q);
    assign ea_free_c[k*CellW +: CellW]    = lin_free(ec_s[k*LinW +: LinW], x_enq_cells_q);
  end
  // The early selects first, the late region last.
  function automatic [CellW-1:0] scen_val(input logic [3:0] sel, input logic in,
                                         input logic [4*CellW-1:0] with_pkt, input logic [4*CellW-1:0] without);
    scen_val = in ? sel4(sel, with_pkt) : sel4(sel, without);
  endfunction
  for (genvar j = 0; j < 4; j++) begin : g_scen_val
    localparam int unsigned L = j * CellW;
    assign sv_priv[L +: CellW]    = scen_val(qsel[j*4 +: 4], s_priv[j], ea_priv_c, ev_priv);
    assign sv_shared[L +: CellW]  = scen_val(qsel[j*4 +: 4], s_shared[j], ea_shared_c, ev_shared);
    assign sv_hdrm[L +: CellW]    = scen_val(qsel[j*4 +: 4], s_hdrm[j], ea_hdrm_c, ev_hdrm);
    assign sv_pshared[L +: CellW] = scen_val(psel[j*4 +: 4], s_shared[j], ea_pshared_c, ev_pshared);
    assign sv_phdrm[L +: CellW]   = scen_val(psel[j*4 +: 4], s_hdrm[j], ea_phdrm_c, ev_phdrm);
    assign sv_s[L +: CellW]       = scen_val(ssel[j*4 +: 4], s_shared[j], ea_s_c, ev_s);
    assign sv_free[L +: CellW]    = scen_val(ssel[j*4 +: 4], s_shared[j], ea_free_c, ev_free);
  end

  logic [CellW-1:0] dq_priv, dq_shared, dq_hdrm, dp_shared, dp_hdrm;
  logic [CellW-1:0] ea_priv, ea_shared, ea_hdrm, ea_pshared, ea_phdrm, s_next, free_next;
  assign dq_priv    = sel3(dcase, dv_priv);
  assign dq_shared  = sel3(dcase, dv_shared);
  assign dq_hdrm    = sel3(dcase, dv_hdrm);
  assign dp_shared  = sel3(dcase, dv_pshared);
  assign dp_hdrm    = sel3(dcase, dv_phdrm);
  assign ea_priv    = sel4(scen, sv_priv);
  assign ea_shared  = sel4(scen, sv_shared);
  assign ea_hdrm    = sel4(scen, sv_hdrm);
  assign ea_pshared = sel4(scen, sv_pshared);
  assign ea_phdrm   = sel4(scen, sv_phdrm);
  assign s_next     = sel4(scen, sv_s);
  assign free_next  = sel4(scen, sv_free);

  // ------------------------------------------------------- state machines
  // Slot 0: the dequeue's queue and port, one evaluation per drain case,
  // unless the enqueue touched them too.
  logic [2:0] dq_qoff_c, dq_pause_c, dq_resume_c, dp_poff_c, dp_resume_c;
  for (genvar c = 0; c < 3; c++) begin : g_deq_fsm
    dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm (
      .qoff_i(dr_qoff), .shared_i(dc_shared[c*LinW +: LinW]), .shared_add_i(NoCells),
      .hdrm_i(dc_hdrm[c*LinW +: LinW]), .hdrm_add_i(NoCells), .x_qoff_i(x_qoff), .x_qon_i(x_qon),
      .qoff_o(dq_qoff_c[c]), .pause_o(dq_pause_c[c]), .resume_o(dq_resume_c[c])
    );
    dsh_port_fsm #(.CellW(CellW), .SizeW(SizeW)) u_port_fsm (
      .poff_i(dr_poff), .port_shared_i(dc_pshared[c*LinW +: LinW]), .shared_add_i(NoCells),
      .port_hdrm_i(dc_phdrm[c*LinW +: LinW]), .hdrm_add_i(NoCells),
      .x_pon_i(x_pon), .poff_o(dp_poff_c[c]), .resume_o(dp_resume_c[c])
    );
  end

  logic dq_eval, dp_eval, dq_qoff, dq_pause, dq_resume, dp_poff, dp_resume;
  assign dq_eval   = deq_go && !(enq_go && x_same_q_q);
  assign dp_eval   = deq_go && !(enq_go && x_same_p_q) && Dsh;
  assign dq_qoff   = |(dcase & dq_qoff_c);
  assign dq_pause  = |(dcase & dq_pause_c);
  assign dq_resume = |(dcase & dq_resume_c);
  assign dp_poff   = |(dcase & dp_poff_c);
  assign dp_resume = |(dcase & dp_resume_c);

  // Slot 1: the enqueue's queue and port after admission, for each of the
  // 4 candidates (k) and 3 outcomes (r: 0 nothing buffered, 1 shared,
  // 2 headroom), all in parallel; index k*3+r. Each scenario picks its
  // candidate's and its region's, then scen picks a scenario.
  logic [11:0] eq_qoff_c, eq_pause_c, eq_resume_c, ep_poff_c, ep_resume_c;
  for (genvar k = 0; k < 4; k++) begin : g_enq_cand
    for (genvar r = 0; r < 3; r++) begin : g_enq_fsm
      dsh_queue_fsm #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh)) u_queue_fsm (
        .qoff_i(r == 2 && !Dsh ? 1'b1 : er_qoff),  // SIH pauses on entering headroom
        .shared_i(ec_shared[k*LinW +: LinW]), .shared_add_i(r == 1 ? x_enq_cells_q : NoCells),
        .hdrm_i(ec_hdrm[k*LinW +: LinW]), .hdrm_add_i(r == 2 ? x_enq_cells_q : NoCells),
        .x_qoff_i(x_qoff), .x_qon_i(x_qon),
        .qoff_o(eq_qoff_c[k*3+r]), .pause_o(eq_pause_c[k*3+r]), .resume_o(eq_resume_c[k*3+r])
      );
      dsh_port_fsm #(.CellW(CellW), .SizeW(SizeW)) u_port_fsm (
        .poff_i(r == 2 && Dsh ? 1'b1 : er_poff),   // DSH pauses on entering insurance
        .port_shared_i(ec_pshared[k*LinW +: LinW]), .shared_add_i(r == 1 ? x_enq_cells_q : NoCells),
        .port_hdrm_i(ec_phdrm[k*LinW +: LinW]), .hdrm_add_i(r == 2 ? x_enq_cells_q : NoCells),
        .x_pon_i(x_pon), .poff_o(ep_poff_c[k*3+r]), .resume_o(ep_resume_c[k*3+r])
      );
    end
  end

  // Per scenario: the queue's and port's next state, and the slot-1 events
  // (valid, pause) with the counter increments they imply.
  logic [3:0] s_qoff, s_qv, s_qp, s_poff, s_pv, s_pp;
  for (genvar j = 0; j < 4; j++) begin : g_scen_fsm
    logic [2:0]  rsel;
    logic [11:0] qpick, ppick;
    logic        pause, resume, presume, adm_qpause, adm_ppause;
    assign rsel = {s_hdrm[j], s_shared[j], !(s_hdrm[j] || s_shared[j])};
    for (genvar k = 0; k < 4; k++) begin : g_pick
      assign qpick[k*3 +: 3] = {3{qsel[j*4+k]}} & rsel;
      assign ppick[k*3 +: 3] = {3{psel[j*4+k]}} & rsel;
    end
    assign pause      = |(qpick & eq_pause_c);
    assign resume     = |(qpick & eq_resume_c);
    assign presume    = |(ppick & ep_resume_c);
    assign adm_qpause = !Dsh && s_hdrm[j] && !er_qoff;  // PAUSE from admission to headroom
    assign adm_ppause = Dsh && s_hdrm[j] && !er_poff;
    assign s_qoff[j]  = |(qpick & eq_qoff_c);
    assign s_poff[j]  = Dsh && |(ppick & ep_poff_c);
    assign s_qv[j]    = enq_go && (adm_qpause || pause || resume);
    assign s_qp[j]    = adm_qpause || pause;
    assign s_pv[j]    = enq_go && (adm_ppause || (Dsh && presume));
    assign s_pp[j]    = adm_ppause;
  end

  logic eq_qoff_n, ep_poff_n;
  assign eq_qoff_n = |(scen & s_qoff);
  assign ep_poff_n = |(scen & s_poff);

  // Events of the cycle, per slot.
  logic [1:0] qevt_valid, qevt_pause, pevt_valid, pevt_pause;
  logic       enq_qpause_inc, enq_ppause_inc;
  assign qevt_valid[0] = dq_eval && (dq_pause || dq_resume);
  assign qevt_pause[0] = dq_pause;
  assign qevt_valid[1] = |(scen & s_qv);
  assign qevt_pause[1] = |(scen & s_qp);
  assign pevt_valid[0] = dp_eval && dp_resume;
  assign pevt_pause[0] = 1'b0;
  assign pevt_valid[1] = |(scen & s_pv);
  assign pevt_pause[1] = |(scen & s_pp);
  assign enq_qpause_inc = |(scen & s_qv & s_qp);
  assign enq_ppause_inc = |(scen & s_pv & s_pp);

  // ------------------------------------------------- stage W: write back
  // The dequeue writes first; an enqueue to the same queue or port overrides
  // with values that include the dequeue (its state machine did not run).
  // Counters: stage E registers each count and the count + 1 (computed in
  // parallel with everything else), stage W selects with the late flag.
  logic              w_deq_qpause_inc_q, w_enq_qpause_inc_q, w_enq_drops_inc_q, w_enq_ppause_inc_q;
  logic [CntW-1:0]   w_deq_qpause_q, w_enq_qpause_q, w_enq_drops_q, w_enq_ppause_q;
  logic [CntW-1:0]   w_deq_qpause_p1_q, w_enq_qpause_p1_q, w_enq_drops_p1_q, w_enq_ppause_p1_q;
  logic [2:0]        w_region_q;
  logic [ThrW-1:0]   w_t_q;
  logic [1:0]        w_error_q, w_qevt_valid_q, w_qevt_pause_q, w_pevt_valid_q, w_pevt_pause_q;
  logic [PortW-1:0]  w_deq_port_q, w_enq_port_q;
  logic [QueueW-1:0] w_deq_queue_q, w_enq_queue_q;

  // Stage R's records that stage E writes now (bit 1 its enqueue slot, bit 0
  // its dequeue slot): next cycle stage E takes them from stage W.
  logic [1:0] nh_deq_q, nh_enq_q, nh_deq_p, nh_enq_p;
`ifndef DSH_PLANTED_FAULT_BYPASS
  assign nh_deq_q = {enq_go && x_enq_idx_q == r_deq_idx_q, deq_go && x_deq_idx_q == r_deq_idx_q};
  assign nh_enq_q = {enq_go && x_enq_idx_q == r_enq_idx_q, deq_go && x_deq_idx_q == r_enq_idx_q};
  assign nh_deq_p = {enq_go && x_enq_p_q == r_deq_p_q, deq_go && x_deq_p_q == r_deq_p_q};
  assign nh_enq_p = {enq_go && x_enq_p_q == r_enq_p_q, deq_go && x_deq_p_q == r_enq_p_q};
`else
  // Test-only mutation (tb/lockstep): stage E misses its own last results
  // on back-to-back events to one queue or port. The checker must catch it.
  assign nh_deq_q = '0;
  assign nh_enq_q = '0;
  assign nh_deq_p = '0;
  assign nh_enq_p = '0;
`endif

  // One register per copy (`keep`: synthesis would merge equal registers).
  for (genvar g = 0; g < QSelN - 1; g++) begin : g_eh_q
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        eh_enq_q_q[2*g +: 2] <= '0;
        eh_deq_q_q[2*g +: 2] <= '0;
      end else begin
        eh_enq_q_q[2*g +: 2] <= nh_enq_q;
        eh_deq_q_q[2*g +: 2] <= nh_deq_q;
      end
    end
  end
  for (genvar g = 0; g < PSelN - 1; g++) begin : g_eh_p
    (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        eh_enq_p_q[2*g +: 2] <= '0;
        eh_deq_p_q[2*g +: 2] <= '0;
      end else begin
        eh_enq_p_q[2*g +: 2] <= nh_enq_p;
        eh_deq_p_q[2*g +: 2] <= nh_deq_p;
      end
    end
  end
  (* keep *) always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      eh_enq_q_q[2*QSelN-2] <= 1'b0;
      eh_enq_p_q[2*PSelN-2] <= 1'b0;
    end else begin
      eh_enq_q_q[2*QSelN-2] <= nh_enq_q[1];
      eh_enq_p_q[2*PSelN-2] <= nh_enq_p[1];
    end
  end

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
      w_deq_we_q     <= deq_go;
      w_enq_we_q     <= enq_go;
      w_region_q     <= in_priv ? RegPriv : in_shared ? RegShared : in_hdrm ? RegHdrm : in_drop ? RegDrop : RegNone;
      w_error_q      <= {enq_err, deq_err};
      w_qevt_valid_q <= qevt_valid;
      w_pevt_valid_q <= pevt_valid;
      s_q            <= s_next;
    end
  end

  always_ff @(posedge clk_i) begin
    w_deq_idx_q        <= x_deq_idx_q;
    w_enq_idx_q        <= x_enq_idx_q;
    w_deq_p_q          <= x_deq_p_q;
    w_enq_p_q          <= x_enq_p_q;
    w_deq_q_q          <= {dq_qoff, dq_hdrm, dq_shared, dq_priv};
    w_enq_q_q          <= {eq_qoff_n, ea_hdrm, ea_shared, ea_priv};
    w_deq_p_rec_q      <= {Dsh && dp_poff, dp_hdrm, dp_shared};
    w_enq_p_rec_q      <= {ep_poff_n, ea_phdrm, ea_pshared};
    w_deq_qpause_q     <= ex_deq_qpause;
    w_enq_qpause_q     <= ex_enq_qpause;
    w_enq_drops_q      <= ex_enq_drops;
    w_enq_ppause_q     <= ex_enq_ppause;
    w_deq_qpause_p1_q  <= inc_fast(ex_deq_qpause);
    w_enq_qpause_p1_q  <= inc_fast(ex_enq_qpause);
    w_enq_drops_p1_q   <= inc_fast(ex_enq_drops);
    w_enq_ppause_p1_q  <= inc_fast(ex_enq_ppause);
    w_deq_qpause_inc_q <= qevt_valid[0] && qevt_pause[0];
    w_enq_qpause_inc_q <= enq_qpause_inc;
    w_enq_drops_inc_q  <= in_drop;
    w_enq_ppause_inc_q <= enq_ppause_inc;
    w_t_q              <= t_cur;
    free_q             <= free_next;  // no reset: B_s one edge into reset (S = 0)
    w_qevt_pause_q     <= qevt_pause;
    w_pevt_pause_q     <= pevt_pause;
    w_deq_port_q       <= x_deq_port_q;
    w_enq_port_q       <= x_enq_port_q;
    w_deq_queue_q      <= x_deq_queue_q;
    w_enq_queue_q      <= x_enq_queue_q;
  end

  assign w_deq_qpause_n = w_deq_qpause_inc_q ? w_deq_qpause_p1_q : w_deq_qpause_q;
  assign w_enq_qpause_n = w_enq_qpause_inc_q ? w_enq_qpause_p1_q : w_enq_qpause_q;
  assign w_enq_drops_n  = w_enq_drops_inc_q ? w_enq_drops_p1_q : w_enq_drops_q;
  assign w_enq_ppause_n = w_enq_ppause_inc_q ? w_enq_ppause_p1_q : w_enq_ppause_q;

  always_ff @(posedge clk_i) begin
    if (w_deq_we_q) begin
      {hdrm_q[w_deq_idx_q], shared_q[w_deq_idx_q], priv_q[w_deq_idx_q]} <= w_deq_q_q[QRecW-2:0];
      if (Dsh) qpause_q[w_deq_idx_q] <= w_deq_qpause_n;
      {port_hdrm_q[w_deq_p_q], port_shared_q[w_deq_p_q]} <= w_deq_p_rec_q[PRecW-2:0];
    end
    if (w_enq_we_q) begin
      {hdrm_q[w_enq_idx_q], shared_q[w_enq_idx_q], priv_q[w_enq_idx_q]} <= w_enq_q_q[QRecW-2:0];
      qpause_q[w_enq_idx_q] <= w_enq_qpause_n;
      drops_q[w_enq_idx_q]  <= w_enq_drops_n;
      {port_hdrm_q[w_enq_p_q], port_shared_q[w_enq_p_q]} <= w_enq_p_rec_q[PRecW-2:0];
      ppause_q[w_enq_p_q]   <= w_enq_ppause_n;
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
      err_cnt_q    <= &w_error_q ? inc_fast(err_cnt_q >> 1) << 1 | CntW'(err_cnt_q[0])  // + 2
                    : |w_error_q ? inc_fast(err_cnt_q) : err_cnt_q;
      err_sticky_q <= err_sticky_q | (|w_error_q);
    end
  end

  // ------------------------------------------------------------ outputs
  // Counter read port: the request is registered as one-hot selects, read
  // (AND-OR) and registered, and the resume counts derived and registered:
  // three cycles of latency.
  logic [NumQ-1:0]     rq_sel_q;
  logic [NumPorts-1:0] rp_sel_q;
  always_ff @(posedge clk_i) begin
    rq_sel_q <= queue_sel(stat_rd_port_i, stat_rd_queue_i);
    rp_sel_q <= port_sel(stat_rd_port_i, 1'b1);
  end

  logic [NumQ-1:0]     rq_sel_v;
  logic [NumPorts-1:0] rp_sel_v;
  logic [CntW-1:0]     rd_drops, rd_qpauses, rd_ppauses;
  logic [PRecW-1:0]    rd_prec;
  assign rq_sel_v = rq_sel_q & qvalid_q;
  assign rp_sel_v = rp_sel_q & pvalid_q;
  dsh_onehot_read #(.Entries(NumQ), .Width(CntW)) u_read_stat_qpause (
    .data_i(qpause_all), .sel_i(rq_sel_v), .data_o(rd_qpauses));
  dsh_onehot_read #(.Entries(NumQ), .Width(CntW)) u_read_stat_drops (
    .data_i(drops_all), .sel_i(rq_sel_v), .data_o(rd_drops));
  dsh_onehot_read #(.Entries(NumPorts), .Width(CntW)) u_read_stat_ppause (
    .data_i(ppause_all), .sel_i(rp_sel_v), .data_o(rd_ppauses));
  dsh_onehot_read #(.Entries(NumPorts), .Width(PRecW)) u_read_stat_p (
    .data_i(prec_all), .sel_i(rp_sel_v), .data_o(rd_prec));

  logic [CntW-1:0]  rd_drops_q, rd_qpauses_q, rd_ppauses_q;
  logic             rd_qoff_q, rd_poff_q;
  logic [CellW-1:0] rd_pshared_q, rd_phdrm_q;
  always_ff @(posedge clk_i) begin
    rd_drops_q   <= rd_drops;
    rd_qpauses_q <= rd_qpauses;
    rd_ppauses_q <= rd_ppauses;
    rd_qoff_q    <= |(rq_sel_v & qoff_q);
    {rd_poff_q, rd_phdrm_q, rd_pshared_q} <= rd_prec;
  end

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
      stat_rd_drops_o        <= rd_drops_q;
      stat_rd_pauses_o       <= rd_qpauses_q;
      stat_rd_resumes_o      <= rd_qoff_q ? dec_fast(rd_qpauses_q) : rd_qpauses_q;
      stat_rd_port_pauses_o  <= rd_ppauses_q;
      stat_rd_port_resumes_o <= rd_poff_q ? dec_fast(rd_ppauses_q) : rd_ppauses_q;
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
