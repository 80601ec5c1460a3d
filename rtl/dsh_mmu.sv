// MMU threshold pipeline of a shared-buffer switch: DSH (Dynamic and Shared
// Headroom) or SIH (static headroom), as docs/spec/mmu.md defines it (the
// RTL's own choices in spec §9).
//
// Each cycle: at most one dequeue and one enqueue (one packet each). The
// dequeue is applied first, then the enqueue's admission (private, shared,
// headroom/insurance or drop), then the flow-control state machines of the
// queues and ports either touched.
//
// Pipeline (spec §9.2). The specification's cycle c is split in two: its
// dequeue drains in stage D, and one cycle later its enqueue, the state
// machines and the events run in stage E, in the same clock cycle as the
// dequeue of cycle c+1 in stage D. spec §4.1 applies enqueue c before
// dequeue c+1, and that is the one dependence inside a clock cycle: stage D
// computes the dequeue for each region the enqueue in E may take and E's
// region picks one at the end. An enqueue changes one count by its size, so these variants
// are cheap, and every compare in E is on registered counts.
//   A  the enqueue's inputs wait one cycle (the dequeue's go straight to R);
//   R  records are read from the memories by index (dsh_rec_store), with
//      what W writes now; at the end of the cycle the results of D and E are
//      forwarded into the records read (dsh_fwd says which);
//   D  the dequeue drains (dsh_deq_drain);
//   E  admission, state machines, events; the limits it compares with come
//      registered from dsh_thresh_pipe;
//   W  records written, counters counted (dsh_stats reads them a stage
//      before E), outputs registered.
// The results of the inputs presented before clock edge e are visible after
// edge e + 4 (spec §5.1 says e), outputs and records alike.
//
// Headroom per port (spec §9.1): cfg_headroom_cells_i is a table, port p's
// eta at [p*CellW +: CellW]. Each event registers copies of its port index
// as it arrives and reads its port's entry a stage later (the enqueue in A,
// the dequeue in R), into registers that carry eta and eta + dq with it;
// the limits see only registers, as with one eta.
//
// Reset: rst_ni active low, asynchronous; hold it for at least 3 clock edges
// with cfg_* stable (fills the threshold pipeline). Occupancies, states and
// counters reset to 0 (the memories through valid bits, spec §9.4). cfg_*
// are static while not in reset.
// Counters wrap modulo 2^CntW. Protocol errors (cells = 0, index out of range,
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
  parameter int unsigned PauseBanks    = 1,    // DSH PAUSE counters: 1 memory, 2 write ports (ASIC) or 2 banks (FPGA)
  parameter int unsigned ReadSlices    = dsh_pkg::ReadSlices,  // record read index copies (ASIC) or 1 (FPGA)
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
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
  // after the request (dsh_stats).
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
  localparam int unsigned QIdxW = dsh_pkg::idx_w(NumQ);
  localparam int unsigned LimW  = dsh_pkg::lim_w(CellW);   // stage E's limits (dsh_limits)
  localparam int unsigned TW    = dsh_pkg::term_w(CellW);  // dsh_size_terms
  // A queue record {qoff, hsp, hs, h} and a port record {poff, hdrm, shared}
  // (dsh_rec_store) travel through the pipeline as one vector each.
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
  if (PauseBanks < 1 || PauseBanks > 2) begin : g_bad_pause_banks
    $error("dsh_mmu: PauseBanks must be 1 or 2");
  end
  if (ReadSlices < 1 || ReadSlices > CellW) begin : g_bad_read_slices
    $error("dsh_mmu: ReadSlices must be in 1..CellW");
  end

  // One of three or four records by a one-hot select: one AND-OR level.
  function automatic [QRecW-1:0] pick_q(input logic [3:0] sel, input logic [4*QRecW-1:0] v);
    pick_q = '0;
    for (int i = 0; i < 4; i++) pick_q |= v[i*QRecW +: QRecW] & {QRecW{sel[i]}};
  endfunction
  function automatic [PRecW-1:0] pick_p(input logic [3:0] sel, input logic [4*PRecW-1:0] v);
    pick_p = '0;
    for (int i = 0; i < 4; i++) pick_p |= v[i*PRecW +: PRecW] & {PRecW{sel[i]}};
  endfunction
  // A queue's entry in the memories, queue-major (spec §9.7): with a
  // power-of-two port count it is {q, p}, no adder between the dequeue's
  // input pins and the read index copies.
  function automatic [QIdxW-1:0] queue_idx(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    queue_idx = QIdxW'(q) * QIdxW'(NumPorts) + QIdxW'(p);
  endfunction
  // The same queue's bit of qoff_o (a write is always in range).
  function automatic [QIdxW-1:0] out_bit(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    out_bit = QIdxW'(p) * QIdxW'(NumQueues) + QIdxW'(q);
  endfunction
  function automatic logic in_range(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    in_range = 32'(p) < NumPorts && 32'(q) < NumQueues;
  endfunction
  // The eta table read by port index, in slices of EtaSliceW bits, each
  // addressed by its own copy of the index, so that an index bit drives the
  // multiplexers of a few bits only (as dsh_rec_store's reads; an index bit
  // driving the whole 20-bit read took 2.5 ns of buffers at 32 ports).
  localparam int unsigned EtaSliceW = 4;
  localparam int unsigned EtaSlices = (CellW + EtaSliceW - 1) / EtaSliceW;
  logic [CellW-1:0] eta_table [NumPorts];
  for (genvar i = 0; i < NumPorts; i++) begin : g_eta_table
    assign eta_table[i] = cfg_headroom_cells_i[i*CellW +: CellW];
  end
  function automatic [CellW-1:0] eta_slice_mask(input integer sl);
    for (int b = 0; b < CellW; b++) eta_slice_mask[b] = b / EtaSliceW == sl;
  endfunction
  function automatic [CellW-1:0] eta_read(input logic [EtaSlices*PortW-1:0] c);
    eta_read = '0;
    for (int sl = 0; sl < EtaSlices; sl++) eta_read |= eta_table[c[sl*PortW +: PortW]] & eta_slice_mask(sl);
  endfunction
  // A port index for the table: 0 beyond NumPorts (a protocol error, whose
  // eta nothing uses).
  function automatic [PortW-1:0] table_port(input logic [PortW-1:0] p);
    table_port = 32'(p) < NumPorts ? p : '0;
  endfunction

  // ------------------------------------------------- stages A and R: inputs
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
  // The same again, one copy per memory the read addresses (dsh_rec_store).
  localparam int unsigned QCopies = dsh_pkg::qread_copies(ReadSlices);
  localparam int unsigned PCopies = dsh_pkg::pread_copies(ReadSlices);
  logic [QCopies*QIdxW-1:0] r_deq_ridx_q, r_enq_ridx_q;
  logic [PCopies*PortW-1:0] r_deq_rp_q, r_enq_rp_q;
  logic [PortW-1:0]    r_deq_port_q, r_enq_port_q;  // as presented, for the outputs
  logic [QueueW-1:0]   r_deq_queue_q, r_enq_queue_q;
  logic [SizeW-1:0]    r_deq_cells_q, r_enq_cells_q;
  // Each event's eta (its port's) and eta + dq: the index copies registered
  // at the input, the table read in the next stage (the enqueue's in A, the
  // dequeue's in R), and the values carried stage by stage to the limits
  // (dsh_thresh_pipe).
  logic [EtaSlices*PortW-1:0] a_enq_etap_q, r_deq_etap_q;
  logic [CellW-1:0] a_enq_eta, r_deq_eta;
  logic [CellW-1:0] r_enq_eta_q, e_enq_eta_q, d_eta_q, e_deq_eta_q;
  logic [CellW:0]   r_enq_eta_dq_q, e_enq_eta_dq_q, d_eta_dq_q, e_deq_eta_dq_q;
  assign a_enq_eta = eta_read(a_enq_etap_q);
  assign r_deq_eta = eta_read(r_deq_etap_q);
  // The enqueue's terms of its cells alone for the limits (dsh_size_terms),
  // formed in stage R (where its eta is a register); registered for stage E
  // for ThreshLatency 1.
  localparam int unsigned NumTerms = 3;
  logic [NumTerms*TW-1:0] r_enq_terms, e_enq_terms_q;
  dsh_size_terms #(.CellW(CellW), .SizeW(SizeW)) u_size_terms (
    .cells_i(r_enq_cells_q), .cfg_shared_cells_i, .cfg_private_cells_i, .eta_i(r_enq_eta_q),
    .terms_o(r_enq_terms)
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
  logic [QIdxW-1:0] deq_idx, enq_idx;
  logic [PortW-1:0] deq_p, enq_p;
  assign deq_in   = in_range(deq_port_i, deq_queue_i);
  assign a_enq_in = in_range(a_enq_port_q, a_enq_queue_q);
  assign deq_idx  = deq_in ? queue_idx(deq_port_i, deq_queue_i) : '0;
  assign deq_p    = deq_in ? deq_port_i : '0;
  assign enq_idx  = a_enq_in ? queue_idx(a_enq_port_q, a_enq_queue_q) : '0;
  assign enq_p    = a_enq_in ? a_enq_port_q : '0;
  // The index copies (`keep`: synthesis would merge equal registers).
  for (genvar k = 0; k < QCopies; k++) begin : g_qidx_copy
    (* keep *) always_ff @(posedge clk_i) begin
      r_deq_ridx_q[k*QIdxW +: QIdxW] <= deq_idx;
      r_enq_ridx_q[k*QIdxW +: QIdxW] <= enq_idx;
    end
  end
  // And copies for the counters (dsh_stats reads them a stage before E).
  logic [QIdxW-1:0]   r_deq_cnt_idx_q, d_cnt_idx_q;
  logic [2*QIdxW-1:0] r_enq_cnt_idx_q;  // drop and PAUSE counters
  logic [PortW-1:0]   r_enq_cnt_p_q;
  (* keep *) always_ff @(posedge clk_i) begin
    r_deq_cnt_idx_q <= deq_idx;
    r_enq_cnt_idx_q <= {2{enq_idx}};
    r_enq_cnt_p_q   <= enq_p;
    d_cnt_idx_q     <= r_deq_cnt_idx_q;
  end
  for (genvar k = 0; k < PCopies; k++) begin : g_pidx_copy
    (* keep *) always_ff @(posedge clk_i) begin
      r_deq_rp_q[k*PortW +: PortW] <= deq_p;
      r_enq_rp_q[k*PortW +: PortW] <= enq_p;
    end
  end
  (* keep *) always_ff @(posedge clk_i) begin
    a_enq_etap_q <= {EtaSlices{table_port(enq_port_i)}};
    r_deq_etap_q <= {EtaSlices{table_port(deq_port_i)}};
  end
  always_ff @(posedge clk_i) begin
    r_enq_eta_q    <= a_enq_eta;
    r_enq_eta_dq_q <= {1'b0, a_enq_eta} + {1'b0, cfg_delta_q_i};
    d_eta_q        <= r_deq_eta;
    d_eta_dq_q     <= {1'b0, r_deq_eta} + {1'b0, cfg_delta_q_i};
    e_enq_eta_q    <= r_enq_eta_q;
    e_enq_eta_dq_q <= r_enq_eta_dq_q;
    e_deq_eta_q    <= d_eta_q;
    e_deq_eta_dq_q <= d_eta_dq_q;
  end
  always_ff @(posedge clk_i) begin
    a_enq_port_q  <= enq_port_i;
    a_enq_queue_q <= enq_queue_i;
    a_enq_cells_q <= enq_cells_i;
    r_deq_idx_q   <= deq_idx;
    r_deq_p_q     <= deq_p;
    r_deq_port_q  <= deq_port_i;
    r_deq_queue_q <= deq_queue_i;
    r_deq_cells_q <= deq_cells_i;
    r_enq_idx_q   <= enq_idx;
    r_enq_p_q     <= enq_p;
    r_enq_port_q  <= a_enq_port_q;
    r_enq_queue_q <= a_enq_queue_q;
    r_enq_cells_q <= a_enq_cells_q;
  end

  // ------------------------------------------------------------ the records
  // Stage W writes at the end of this cycle what stage E computed in the
  // previous one (slot 1, the enqueue's, holds the final values when both
  // slots hit one record).
  logic             w_deq_we_q, w_enq_we_q;
  logic [QIdxW-1:0] w_deq_idx_q, w_enq_idx_q;
  logic [PortW-1:0] w_deq_p_q, w_enq_p_q;
  logic [QRecW-1:0] w_deq_rec_q, w_enq_rec_q;
  logic [PRecW-1:0] w_deq_prec_q, w_enq_prec_q;
  logic [PortW-1:0]  w_deq_port_q, w_enq_port_q;
  logic [QueueW-1:0] w_deq_queue_q, w_enq_queue_q;
  logic [QIdxW-1:0]  w_deq_bit_q, w_enq_bit_q;  // the queues' bits of qoff_o

  logic [QRecW-1:0] ar_deq_qrec, ar_enq_qrec;  // from the memories
  logic [PRecW-1:0] ar_deq_prec, ar_enq_prec;
  logic [PortW-1:0] stat_rd_p;
  logic [PRecW-1:0] stat_rd_prec;
  dsh_rec_store #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .ReadSlices(ReadSlices)) u_store (
    .clk_i, .rst_ni,
    .rd_deq_idx_i(r_deq_ridx_q), .rd_enq_idx_i(r_enq_ridx_q),
    .rd_deq_qrec_o(ar_deq_qrec), .rd_enq_qrec_o(ar_enq_qrec),
    .rd_deq_p_i(r_deq_rp_q), .rd_enq_p_i(r_enq_rp_q), .rd_stat_p_i(stat_rd_p),
    .rd_deq_prec_o(ar_deq_prec), .rd_enq_prec_o(ar_enq_prec), .rd_stat_prec_o(stat_rd_prec),
    .wr_deq_i(w_deq_we_q), .wr_deq_idx_i(w_deq_idx_q), .wr_deq_bit_i(w_deq_bit_q),
    .wr_deq_p_i(w_deq_p_q),
    .wr_deq_qrec_i(w_deq_rec_q), .wr_deq_prec_i(w_deq_prec_q),
    .wr_enq_i(w_enq_we_q), .wr_enq_idx_i(w_enq_idx_q), .wr_enq_bit_i(w_enq_bit_q),
    .wr_enq_p_i(w_enq_p_q),
    .wr_enq_qrec_i(w_enq_rec_q), .wr_enq_prec_i(w_enq_prec_q),
    .qoff_o, .poff_o
  );

  // Forwarding (dsh_fwd): its selects, and the signals of stages D and E it
  // looks at (defined below).
  logic [2:0] w_deq_qsel, w_enq_qsel, w_deq_psel, w_enq_psel;
  logic [3:0] f_deq_qsel, f_enq_qsel, f_deq_psel, f_enq_psel, f_d_psel;
  logic       same_q_n, same_p_n, d_enq_q_n, d_deq_q_n;
  logic              d_v_q, d_ok_q;
  logic [QIdxW-1:0]  d_idx_q;
  logic [PortW-1:0]  d_p_q;
  logic              dd_go;
  logic e_deq_ok_q, e_deq_go_q, e_enq_ok_q;
  logic [QIdxW-1:0] e_deq_idx_q, e_enq_idx_q;
  logic [PortW-1:0] e_deq_p_q, e_enq_p_q;
  logic [PortW+QueueW-1:0] deq_key, enq_key;  // {port, queue}, 0 when out of range
  assign deq_key = deq_in ? {deq_port_i, deq_queue_i} : '0;
  assign enq_key = a_enq_in ? {a_enq_port_q, a_enq_queue_q} : '0;
  dsh_fwd #(.NumPorts(NumPorts), .NumQueues(NumQueues)) u_fwd (
    .clk_i, .nx_deq_key_i(deq_key), .nx_enq_key_i(enq_key),
    .r_enq_ok_i(r_enq_ok_q), .d_ok_i(d_ok_q), .d_go_i(dd_go),
    .e_deq_ok_i(e_deq_ok_q), .e_deq_go_i(e_deq_go_q), .e_enq_ok_i(e_enq_ok_q),
    .w_deq_we_i(w_deq_we_q), .w_enq_we_i(w_enq_we_q),
    .w_deq_qsel_o(w_deq_qsel), .w_enq_qsel_o(w_enq_qsel), .w_deq_psel_o(w_deq_psel), .w_enq_psel_o(w_enq_psel),
    .f_deq_qsel_o(f_deq_qsel), .f_enq_qsel_o(f_enq_qsel), .f_deq_psel_o(f_deq_psel),
    .f_enq_psel_o(f_enq_psel), .f_d_psel_o(f_d_psel),
    .same_queue_o(same_q_n), .same_port_o(same_p_n), .r_same_queue_o(d_enq_q_n), .d_same_queue_o(d_deq_q_n)
  );

  // Stage R's records with stage W's writes of this cycle.
  logic [QRecW-1:0] r_deq_qrec, r_enq_qrec;
  logic [PRecW-1:0] r_deq_prec, r_enq_prec;
  assign r_deq_qrec = pick_q({1'b0, w_deq_qsel}, {{QRecW{1'b0}}, ar_deq_qrec, w_deq_rec_q, w_enq_rec_q});
  assign r_enq_qrec = pick_q({1'b0, w_enq_qsel}, {{QRecW{1'b0}}, ar_enq_qrec, w_deq_rec_q, w_enq_rec_q});
  assign r_deq_prec = pick_p({1'b0, w_deq_psel}, {{PRecW{1'b0}}, ar_deq_prec, w_deq_prec_q, w_enq_prec_q});
  assign r_enq_prec = pick_p({1'b0, w_enq_psel}, {{PRecW{1'b0}}, ar_enq_prec, w_deq_prec_q, w_enq_prec_q});

  // ------------------------------------------------------ stage D: dequeue
  logic [PortW-1:0]  d_port_q;
  logic [QueueW-1:0] d_queue_q;
  logic [SizeW-1:0]  d_cells_q;
  logic [SizeW-1:0]  d_add_q;    // what stage E's enqueue adds to this queue: its cells or 0
  logic [SizeW:0]    d_alc_q;    // d_add_q + 2^SizeW - d_cells_q (see dsh_deq_drain)
  logic [QRecW-1:0]  d_rec_q;    // the queue before stage E's enqueue
  logic [PRecW-1:0]  d_prec_q;   // the port before stage E's cycle
  logic              d_enq_q_q;  // stage E's enqueue is to this queue
  logic              d_deq_q_q;  // stage E's dequeue (slot 0) is from this queue
  logic [SizeW-1:0]  d_add_n;

  // Stage E's results used in this cycle's forwarding (defined below).
  logic [3:0]       e_region;    // one-hot {drop, headroom, shared, private}, 0 none
  logic [2:0]       e_region_d;  // its admitting bits, computed again for stage D
  logic             e_enq_qoff_n, e_deq_qoff_n;
  logic [QRecW-1:0] e_enq_rec_n, e_deq_rec_n;
  logic [PRecW-1:0] e_enq_prec_n, e_deq_prec_n;
  logic [SizeW-1:0] e_enq_cells_q;

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

  assign d_add_n = d_enq_q_n ? r_enq_cells_q : '0;
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
    d_rec_q   <= pick_q(f_deq_qsel, {r_deq_qrec, e_deq_rec_n, e_enq_rec_n, d_rec_n});
    d_prec_q  <= pick_p(f_deq_psel, {r_deq_prec, e_deq_prec_n, e_enq_prec_n, {PRecW{1'b0}}});
    d_enq_q_q <= d_enq_q_n;
    d_deq_q_q <= d_deq_q_n;
  end

  // ------------------------------------------------------ stage E: execute
  // Slot 0: the dequeue that stage D drained: its queue after it, its port
  // before it and what it drained. Slot 1: the enqueue, its queue after the
  // dequeue, its port before it. S before the cycle.
  logic              e_deq_v_q, e_enq_v_q, e_same_q_q, e_same_p_q;
  logic [PortW-1:0]  e_deq_port_q, e_enq_port_q;
  logic [QueueW-1:0] e_deq_queue_q, e_enq_queue_q;
  logic [QRecW-1:0]  e_deq_rec_q, e_enq_rec_q;
  logic [PRecW-1:0]  e_deq_prec_q, e_enq_prec_q;
  logic [SizeW-1:0]  e_dh_q, e_dw_q;    // the dequeue drained from headroom / shared
  logic [SizeW-1:0]  e_dh1_q, e_dw1_q;  // the same if from the enqueue's port, else 0
  logic [CellW-1:0]  s_q;               // S after the cycle last in stage E

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
    e_deq_prec_q  <= pick_p(f_d_psel, {d_prec_q, e_deq_prec_n, e_enq_prec_n, {PRecW{1'b0}}});
    e_enq_idx_q   <= r_enq_idx_q;
    e_enq_p_q     <= r_enq_p_q;
    e_enq_port_q  <= r_enq_port_q;
    e_enq_queue_q <= r_enq_queue_q;
    e_enq_cells_q <= r_enq_cells_q;
    e_enq_terms_q <= r_enq_terms;
    e_enq_prec_q  <= pick_p(f_enq_psel, {r_enq_prec, e_deq_prec_n, e_enq_prec_n, {PRecW{1'b0}}});
    e_same_q_q    <= same_q_n;
    e_same_p_q    <= same_p_n;
  end

  // The enqueue's queue twice: the region that stage D's dequeue waits for
  // is computed from its own copy, so that each region drives half the
  // loads (`keep`: synthesis merges equal registers).
  logic [QRecW-1:0] e_enq_rec_d_q;
  logic [QRecW-1:0] e_enq_rec_n0;
  assign e_enq_rec_n0 = pick_q(f_enq_qsel, {r_enq_qrec, e_deq_rec_n, e_enq_rec_n, d_rec_n});
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_q <= e_enq_rec_n0;
  (* keep *) always_ff @(posedge clk_i) e_enq_rec_d_q <= e_enq_rec_n0;

  logic [ThrW-1:0]        t_cur;
  logic signed [LimW-1:0] lim_pool, lim_priv, lim_hdrm, lim_shared, lim_qoff, lim_qon, lim_pon;
  logic signed [LimW-1:0] lim_qoff_deq, lim_qon_deq;  // X_qoff, X_qon of the dequeue's port
  dsh_thresh_pipe #(.CellW(CellW), .SizeW(SizeW), .Dsh(Dsh), .ThreshLatency(ThreshLatency)) u_thresh_pipe (
    .clk_i, .free_i(free_q), .cells_now_i(e_enq_cells_q), .terms_now_i(e_enq_terms_q),
    .cells_next_i(r_enq_cells_q), .terms_next_i(r_enq_terms),
    .eta_now_i({e_deq_eta_q, e_enq_eta_q}), .eta_dq_now_i({e_deq_eta_dq_q, e_enq_eta_dq_q}),
    .eta_next_i({d_eta_q, r_enq_eta_q}), .eta_dq_next_i({d_eta_dq_q, r_enq_eta_dq_q}),
    .cfg_alpha_log2_i, .cfg_delta_q_i,
    .cfg_delta_p_i, .cfg_port_mult_log2_i, .t_o(t_cur), .pool_o(lim_pool),
    .priv_o(lim_priv), .hdrm_o(lim_hdrm), .shared_o(lim_shared), .qoff_o(lim_qoff), .qon_o(lim_qon),
    .qoff_deq_o(lim_qoff_deq), .qon_deq_o(lim_qon_deq), .pon_o(lim_pon)
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
    .qoff_lim_i(lim_qoff_deq), .qon_lim_i(lim_qon_deq),
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
  logic [CellW-1:0]  free_q;  // B_s - S after the cycle last in stage E (thresholds)

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
      w_deq_we_q     <= e_deq_go_q;
      w_enq_we_q     <= e_enq_ok_q;
      w_qpause0_q    <= qevt_valid[0] && qevt_pause[0];
      w_qpause1_q    <= qevt_valid[1] && qevt_pause[1];
      w_drop_q       <= e_region[3];
      w_ppause_q     <= pevt_valid[1] && pevt_pause[1];
      w_region_q     <= e_region[0] ? dsh_pkg::RegPriv : e_region[1] ? dsh_pkg::RegShared
                      : e_region[2] ? dsh_pkg::RegHdrm : e_region[3] ? dsh_pkg::RegDrop : dsh_pkg::RegNone;
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
    w_deq_bit_q    <= out_bit(e_deq_port_q, e_deq_queue_q);
    w_enq_bit_q    <= out_bit(e_enq_port_q, e_enq_queue_q);
    w_enq_port_q   <= e_enq_port_q;
    w_deq_queue_q  <= e_deq_queue_q;
    w_enq_queue_q  <= e_enq_queue_q;
    free_q         <= free_n;
  end

  // ------------------------------------------- statistics and the read port
  dsh_stats #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .CntW(CntW), .Dsh(Dsh),
              .PauseBanks(PauseBanks)) u_stats (
    .clk_i, .rst_ni,
    .deq_idx_i(d_cnt_idx_q), .enq_idx_i(r_enq_cnt_idx_q), .enq_p_i(r_enq_cnt_p_q),
    .w_qpause0_i(w_qpause0_q), .w_qpause1_i(w_qpause1_q), .w_drop_i(w_drop_q), .w_ppause_i(w_ppause_q),
    .w_error_i(w_error_q),
    .error_count_o(stat_error_count_o), .error_sticky_o(stat_error_sticky_o),
    .stat_rd_port_i, .stat_rd_queue_i, .qoff_i(qoff_o), .rd_p_o(stat_rd_p), .rd_prec_i(stat_rd_prec),
    .stat_rd_drops_o, .stat_rd_pauses_o, .stat_rd_resumes_o, .stat_rd_port_pauses_o,
    .stat_rd_port_resumes_o, .stat_rd_port_shared_o, .stat_rd_port_hdrm_o
  );

  // ------------------------------------------------------------ outputs
  logic [CellW-1:0] s_out_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s_out_q           <= '0;
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
      s_out_q           <= s_q;
      stat_region_o     <= w_region_q;
      stat_t_o          <= w_t_q;
      stat_drop_o       <= w_drop_q;
      stat_drop_port_o  <= w_enq_port_q;
      stat_drop_queue_o <= w_enq_queue_q;
      stat_error_o      <= w_error_q;
      stat_qevt_valid_o <= w_qevt_valid_q;
      stat_qevt_pause_o <= w_qevt_pause_q;
      stat_qevt_port_o  <= {w_enq_port_q, w_deq_port_q};
      stat_qevt_queue_o <= {w_enq_queue_q, w_deq_queue_q};
      stat_pevt_valid_o <= w_pevt_valid_q;
      stat_pevt_pause_o <= w_pevt_pause_q;
      stat_pevt_port_o  <= {w_enq_port_q, w_deq_port_q};
    end
  end
  assign stat_s_o = s_out_q;

  // Quiet: nothing valid in A, R, D, E or W, the outputs show an idle
  // cycle, and S (hence B_s - S, the threshold pipeline's input) has not
  // changed for ThreshLatency + 3 cycles, so the limits, T and stat_t_o have
  // settled. An idle cycle then changes no state and no output.
  localparam int unsigned QuietW = ThreshLatency + 3;
  logic [QuietW-1:0] s_still_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_still_q <= '0;
    else         s_still_q <= {s_still_q[QuietW-2:0], s_n == s_q};
  end
  assign quiet_o = &s_still_q
      && !(a_enq_v_q || r_deq_v_q || r_enq_v_q || d_v_q || e_deq_v_q || e_enq_v_q || w_deq_we_q || w_enq_we_q)
      && w_error_q == '0 && w_region_q == dsh_pkg::RegNone
      && stat_error_o == '0 && stat_region_o == dsh_pkg::RegNone && !stat_drop_o
      && stat_qevt_valid_o == '0 && stat_pevt_valid_o == '0;

`ifndef SYNTHESIS
  // Invariants that hold at the boundary of every cycle.
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (s_q <= cfg_shared_cells_i) else $error("dsh_mmu: S exceeds B_s");
      if (!Dsh) assert (poff_o == '0) else $error("dsh_mmu: POFF set under SIH");
    end
  end
`endif
endmodule

`default_nettype wire
