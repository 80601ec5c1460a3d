// SPDX-License-Identifier: Apache-2.0
// MMU threshold pipeline of a shared-buffer switch: DSH (Dynamic and Shared
// Headroom) or SIH (static headroom), as docs/spec/mmu.md defines it (the
// RTL's own choices in spec §9).
//
// Each cycle: at most one dequeue and one enqueue (one packet each). The
// dequeue is applied first, then the enqueue's admission (private, shared,
// headroom/insurance or drop), then the flow-control state machines of the
// queues and ports either touched.
//
// Lanes (spec §4.7-§4.10, §9.12): with NumLanes > 1 or NumDeq > 1 a cycle
// takes one enqueue per lane (slot l: a port p with p mod NumLanes = l) and
// NumDeq dequeues for any queues. Each lane (dsh_lane, generate block
// gen_lanes) is the pipeline below for its ports; beside them sit what the
// lanes share: the dequeue router (dsh_deq_route: one merged dequeue per
// lane, deq_taken_o combinational from the slots), the pool (S, B_s - S and
// the pool rule's sums A_{c-1} + P_l + s), the error count and the read
// port's lane select. With NumLanes = NumDeq = 1 the lane takes the inputs
// as they come and the ports are those of the one-lane chip.
//
// Pipeline (spec §9.2). The specification's cycle c is split in two: its
// dequeue drains in stage D, and one cycle later its enqueue, the state
// machines and the events run in stage E, in the same clock cycle as the
// dequeue of cycle c+1 in stage D. spec §4.1 applies enqueue c before
// dequeue c+1, and that is the one dependence inside a clock cycle: stage D
// computes the dequeue for each region the enqueue in E may take and E's
// region picks one at the end. An enqueue changes one count by its size, so
// these variants are cheap, and every compare in E is on registered counts.
// dsh_lane wires one module per stage (docs/design/rtl.md):
//   A, R  dsh_stage_in   inputs registered, read index copies, eta table;
//   D     dsh_stage_deq  the dequeue drains (dsh_deq_drain);
//   E     dsh_stage_exec admission, S, state machines, events, errors; the
//                        limits come registered from dsh_thresh_pipe;
//   W     dsh_stage_wb   records written, counts counted, outputs
//                        registered, quiet_o;
// and the state they share: the records (dsh_rec_store, read in R, written
// in W), the counters (dsh_stats, read a stage before E), and which
// stage's result each record read takes instead of the memories' (dsh_fwd;
// each stage picks with its selects); beside them the read port
// (dsh_rd_port) and the error count (dsh_err_count).
//
// Statistics (Stats): with Stats = 0 the drop, PAUSE and PORT_PAUSE
// counters (dsh_stats) are left out and the stat_rd_* counter outputs read
// 0; everything else (admission, events, qoff_o/poff_o, the error count,
// the read port's port sums) is the same, cycle for cycle. It measures
// what the counters cost beside the threshold pipeline (docs/design/synthesis.md).
// The results of the inputs presented before clock edge e are visible after
// edge e + 4 (spec §5.1 says e), outputs and records alike.
//
// Headroom per port (spec §9.1): cfg_headroom_cells_i is a table, port p's
// eta at [p*CellW +: CellW], read by port index in stage A (the enqueue) or
// R (the dequeue) into registers that carry it to the limits.
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
`include "dsh_assert.svh"

module dsh_mmu #(
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
  parameter int unsigned NumLanes      = 1,    // enqueue slots a cycle: a power of two dividing NumPorts, <= 64
  parameter int unsigned NumDeq        = 1,    // dequeue slots a cycle, 1..64
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

  // NumDeq dequeue slots and NumLanes enqueue slots per cycle, slot k's
  // fields at [k*W +: W] (one of each with one lane and one slot).
  input  logic [NumDeq-1:0]         deq_valid_i,
  input  logic [NumDeq*PortW-1:0]   deq_port_i,
  input  logic [NumDeq*QueueW-1:0]  deq_queue_i,
  input  logic [NumDeq*SizeW-1:0]   deq_cells_i,
  input  logic [NumLanes-1:0]       enq_valid_i,
  input  logic [NumLanes*PortW-1:0] enq_port_i,
  input  logic [NumLanes*QueueW-1:0] enq_queue_i,
  input  logic [NumLanes*SizeW-1:0] enq_cells_i,
  // Which dequeue slots this cycle takes (spec §4.8): combinational from
  // the dequeue inputs, the one result not delayed by the pipeline.
  output logic [NumDeq-1:0]         deq_taken_o,

  // Flow-control state: bit p*NumQueues+q is queue (p,q) in QOFF; a port's
  // NumQueues-bit slice is its PFC request vector. poff_o: DSH port in POFF.
  output logic [NumQ-1:0]       qoff_o,
  output logic [NumPorts-1:0]   poff_o,

  // Results of the cycle; per lane l at [l*W +: W].
  output logic [NumLanes*3-1:0] stat_region_o,   // 0 none, 1 private, 2 shared, 3 headroom, 4 drop
  output logic [ThrW-1:0]       stat_t_o,        // T in effect during the cycle
  output logic [CellW-1:0]      stat_s_o,        // S at its end
  output logic [NumLanes-1:0]   stat_drop_o,
  output logic [NumLanes*PortW-1:0] stat_drop_port_o,
  output logic [NumLanes*QueueW-1:0] stat_drop_queue_o,
  output logic [1:0]            stat_error_o,    // protocol error: [0] a dequeue slot, [1] an enqueue slot
  output logic [NumLanes-1:0]   stat_enq_error_o,  // per enqueue slot
  output logic [NumDeq-1:0]     stat_deq_error_o,  // per dequeue slot
  output logic                  stat_error_sticky_o,
  output logic [CntW-1:0]       stat_error_count_o,
  // Flow-control events, two slots of each kind per lane (slot 2l + k):
  // k = 0 from the lane's dequeue's queue/port, 1 from its enqueue's (a
  // queue or port touched by both reports in slot 1 only).
  output logic [2*NumLanes-1:0]        stat_qevt_valid_o,
  output logic [2*NumLanes-1:0]        stat_qevt_pause_o,  // 1 PAUSE, 0 RESUME
  output logic [2*NumLanes*PortW-1:0]  stat_qevt_port_o,
  output logic [2*NumLanes*QueueW-1:0] stat_qevt_queue_o,
  output logic [2*NumLanes-1:0]        stat_pevt_valid_o,
  output logic [2*NumLanes-1:0]        stat_pevt_pause_o,  // 1 PORT_PAUSE, 0 PORT_RESUME
  output logic [2*NumLanes*PortW-1:0]  stat_pevt_port_o,

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
  // Lanes: a port's lane is its low LgL bits, its index in the lane the rest.
  localparam bit          Multi     = NumLanes > 1 || NumDeq > 1;
  localparam int unsigned LgL       = NumLanes > 1 ? $clog2(NumLanes) : 0;
  localparam int unsigned LaneW     = NumLanes > 1 ? LgL : 1;
  localparam int unsigned LanePorts = NumPorts / NumLanes;
  localparam int unsigned LPortW    = dsh_pkg::idx_w(LanePorts);
  localparam int unsigned LNumQ     = LanePorts * NumQueues;
  // A lane's dequeue is a merged group: SizeW + log2 NumDeq bits, never
  // wrapped (spec §4.8); its enqueue takes the same width.
  localparam int unsigned LSizeW    = SizeW + (NumDeq > 1 ? $clog2(NumDeq) : 0);
  // A_{c-1} + P_l + s: the sizes of up to 2 NumLanes enqueues.
  localparam int unsigned PoolW     = NumLanes > 1 ? SizeW + LgL + 1 : SizeW;  // A_{c-1} + P_l + s
  localparam bit          LanePoolIn = NumLanes > 1;
  localparam int unsigned ErrBits    = Multi ? NumLanes + NumDeq : 2;  // error bits a cycle (dsh_err_count)
  localparam int unsigned LPoolW    = NumLanes > 1 ? PoolW : LSizeW;  // the lanes' (unused with one)

  // Parameter checks stop elaboration (Verilator and Yosys alike).
  if (NumPorts < 1 || NumPorts > 1024) begin : gen_bad_num_ports
    $error("dsh_mmu: NumPorts must be in 1..1024");
  end
  if (NumQueues < 1 || NumQueues > 64) begin : gen_bad_num_queues
    $error("dsh_mmu: NumQueues must be in 1..64");
  end
  if (CellW < 4 || CellW > 40) begin : gen_bad_cell_w
    $error("dsh_mmu: CellW must be in 4..40");
  end
  if (SizeW < 1 || SizeW > CellW) begin : gen_bad_size_w
    $error("dsh_mmu: SizeW must be in 1..CellW");
  end
  if (CntW < 1 || CntW > 64) begin : gen_bad_cnt_w
    $error("dsh_mmu: CntW must be in 1..64");
  end
  if (ThreshLatency < 1 || ThreshLatency > 3) begin : gen_bad_thresh_latency
    $error("dsh_mmu: ThreshLatency must be in 1..3");
  end
  if (PauseBanks < 1 || PauseBanks > 2) begin : gen_bad_pause_banks
    $error("dsh_mmu: PauseBanks must be 1 or 2");
  end
  if (ReadSlices < 1 || ReadSlices > CellW) begin : gen_bad_read_slices
    $error("dsh_mmu: ReadSlices must be in 1..CellW");
  end
  // An int, not a bit: a bit would take 2 as 0 without a word.
  if (Stats > 1) begin : gen_bad_stats
    $error("dsh_mmu: Stats must be 0 or 1");
  end
  if (NumLanes < 1 || NumLanes > 64 || (NumLanes & (NumLanes - 1)) != 0) begin : gen_bad_num_lanes
    $error("dsh_mmu: NumLanes must be a power of two in 1..64");
  end
  if (NumPorts % NumLanes != 0) begin : gen_bad_lane_ports
    $error("dsh_mmu: NumLanes must divide NumPorts");
  end
  if (NumDeq < 1 || NumDeq > 64) begin : gen_bad_num_deq
    $error("dsh_mmu: NumDeq must be in 1..64");
  end
  if (LSizeW > CellW || PoolW > CellW) begin : gen_bad_slot_sums
    $error("dsh_mmu: SizeW + log2 NumDeq and SizeW + log2 NumLanes + 1 must be at most CellW");
  end

  // Each lane's share of the chip's ports (lane-local port index i).
  function automatic [LPortW-1:0] local_port(input logic [PortW-1:0] p);
    local_port = LPortW'(p >> LgL);
  endfunction
  function automatic [PortW-1:0] chip_port(input logic [LPortW-1:0] i, input integer l);
    chip_port = PortW'((32'(i) << LgL) | l);
  endfunction
  function automatic logic in_range(input logic [PortW-1:0] p, input logic [QueueW-1:0] q);
    in_range = 32'(p) < NumPorts && 32'(q) < NumQueues;
  endfunction

  // ------------------------------------------------ the dequeue slots
  // Per lane: the dequeue its stage R takes.
  logic [NumLanes-1:0]        ln_deq_valid;
  logic [NumLanes*PortW-1:0]  ln_deq_port;   // chip port
  logic [NumLanes*QueueW-1:0] ln_deq_queue;
  logic [NumLanes*LSizeW-1:0] ln_deq_cells;
  // Per slot, for its errors in stage W (Multi).
  logic [NumDeq-1:0]          own_error, merged;
  logic [NumDeq*LaneW-1:0]    slot_lane;
  if (Multi) begin : gen_route
    dsh_deq_route #(.NumPorts(NumPorts), .NumQueues(NumQueues), .SizeW(SizeW), .NumLanes(NumLanes),
                    .NumDeq(NumDeq)) u_deq_route (
      .valid_i(deq_valid_i), .port_i(deq_port_i), .queue_i(deq_queue_i), .cells_i(deq_cells_i),
      .taken_o(deq_taken_o), .own_error_o(own_error), .merged_o(merged), .lane_o(slot_lane),
      .lane_valid_o(ln_deq_valid), .lane_port_o(ln_deq_port), .lane_queue_o(ln_deq_queue),
      .lane_cells_o(ln_deq_cells)
    );
  end else begin : gen_no_route
    // One slot, one lane: the lane takes the dequeue as it comes (its own
    // errors included).
    assign deq_taken_o  = deq_valid_i;
    assign ln_deq_valid = deq_valid_i;
    assign ln_deq_port  = deq_port_i;
    assign ln_deq_queue = deq_queue_i;
    assign ln_deq_cells = deq_cells_i;
    assign own_error    = '0;
    assign merged       = '0;
    assign slot_lane    = '0;
    logic unused_slots;
    assign unused_slots = ^{own_error, merged, slot_lane};
  end

  // ---------------------------------- the pool rule's sums (spec §4.9)
  // dsh_pool_prefix: A_{c-1} + P_l + s of each lane in stage R, beside the
  // lanes' stage R enqueues.
  logic [NumLanes*LPoolW-1:0] r_pool_cells;
  if (NumLanes > 1) begin : gen_prefix
    logic [NumLanes-1:0] enq_ok;
    for (genvar l = 0; l < NumLanes; l++) begin : gen_ok
      logic [PortW-1:0] p;
      assign p = enq_port_i[l*PortW +: PortW];
      assign enq_ok[l] = enq_valid_i[l] && in_range(p, enq_queue_i[l*QueueW +: QueueW])
                         && enq_cells_i[l*SizeW +: SizeW] != '0 && 32'(p[LaneW-1:0]) == l;
    end
    dsh_pool_prefix #(.NumLanes(NumLanes), .SizeW(SizeW)) u_pool_prefix (
      .clk_i, .rst_ni, .ok_i(enq_ok), .cells_i(enq_cells_i), .sum_o(r_pool_cells));
  end else begin : gen_no_prefix
    assign r_pool_cells = '0;
  end

  // ------------------------------------------------------------ the lanes
  logic [CellW-1:0]           s_q, s_d, free_d;   // S before / after the cycle in E, B_s - S after
  logic [LSizeW-1:0]          deq_shared_all;
  logic [NumLanes*LSizeW-1:0] ln_e_dw, ln_e_cells;
  logic [NumLanes-1:0]        ln_e_shared;
  logic [NumLanes*2-1:0]      ln_w_error, ln_stat_error;
  logic [NumLanes-1:0]        ln_quiet;
  logic [NumLanes*ThrW-1:0]   ln_stat_t;
  logic [NumLanes*CellW-1:0]  ln_stat_s, ln_rd_shared, ln_rd_hdrm;
  logic [NumLanes*CntW-1:0]   ln_rd_drops, ln_rd_pauses, ln_rd_resumes, ln_rd_ppauses, ln_rd_presumes;
  logic chip_idle;
  assign chip_idle = !(|deq_valid_i) && !(|enq_valid_i);

  for (genvar l = 0; l < NumLanes; l++) begin : gen_lanes
    // Lane l's ports (p = i * NumLanes + l): its eta table, its enqueue
    // (an enqueue slot naming another lane's port is an error: it reaches
    // the lane with 0 cells).
    logic [LanePorts*CellW-1:0] eta;
    for (genvar i = 0; i < LanePorts; i++) begin : gen_eta
      assign eta[i*CellW +: CellW] = cfg_headroom_cells_i[(i*NumLanes + l)*CellW +: CellW];
    end
    logic [PortW-1:0]  enq_p, deq_p;
    logic [SizeW-1:0]  enq_s;
    logic              wrong_lane;
    assign enq_p = enq_port_i[l*PortW +: PortW];
    assign deq_p = ln_deq_port[l*PortW +: PortW];
    assign enq_s = enq_cells_i[l*SizeW +: SizeW];
    if (NumLanes > 1) begin : gen_wrong
      assign wrong_lane = 32'(enq_p[LaneW-1:0]) != l;
    end else begin : gen_right
      assign wrong_lane = 1'b0;
    end
    logic [LPortW-1:0]   deq_lp, enq_lp, rd_lp;
    logic [LSizeW-1:0]   enq_lane_cells;
    assign deq_lp = local_port(deq_p);
    assign enq_lp = local_port(enq_p);
    assign rd_lp  = local_port(stat_rd_port_i);
    assign enq_lane_cells = wrong_lane ? '0 : LSizeW'(enq_s);
    logic [LPortW-1:0]   qevt_lp0, qevt_lp1, pevt_lp0, pevt_lp1, drop_lp;
    logic [2*LPortW-1:0] qevt_port, pevt_port;
    logic [LNumQ-1:0]    qoff;
    logic [LanePorts-1:0] poff;

    dsh_lane #(.NumPorts(LanePorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(LSizeW), .CntW(CntW),
               .Dsh(Dsh), .ThreshLatency(ThreshLatency), .PauseBanks(PauseBanks), .ReadSlices(ReadSlices),
               .Stats(Stats), .PoolIn(LanePoolIn), .PoolW(LPoolW)) u_lane (
      .clk_i, .rst_ni,
      .cfg_shared_cells_i, .cfg_private_cells_i, .cfg_headroom_cells_i(eta), .cfg_alpha_log2_i,
      .cfg_port_mult_log2_i, .cfg_delta_q_i, .cfg_delta_p_i,
      .deq_valid_i(ln_deq_valid[l]), .deq_port_i(deq_lp),
      .deq_queue_i(ln_deq_queue[l*QueueW +: QueueW]), .deq_cells_i(ln_deq_cells[l*LSizeW +: LSizeW]),
      .enq_valid_i(enq_valid_i[l]), .enq_port_i(enq_lp),
      .enq_queue_i(enq_queue_i[l*QueueW +: QueueW]), .enq_cells_i(enq_lane_cells),
      .r_enq_pool_cells_i(r_pool_cells[l*LPoolW +: LPoolW]),
      .s_i(s_q), .deq_shared_all_i(deq_shared_all), .s_d_i(s_d), .free_d_i(free_d),
      .e_dw_o(ln_e_dw[l*LSizeW +: LSizeW]), .e_cells_o(ln_e_cells[l*LSizeW +: LSizeW]),
      .e_shared_o(ln_e_shared[l]),
      .w_error_o(ln_w_error[l*2 +: 2]), .chip_quiet_i(quiet_o), .chip_idle_i(chip_idle),
      .qoff_o(qoff), .poff_o(poff),
      .stat_region_o(stat_region_o[l*3 +: 3]), .stat_t_o(ln_stat_t[l*ThrW +: ThrW]),
      .stat_s_o(ln_stat_s[l*CellW +: CellW]), .stat_drop_o(stat_drop_o[l]), .stat_drop_port_o(drop_lp),
      .stat_drop_queue_o(stat_drop_queue_o[l*QueueW +: QueueW]), .stat_error_o(ln_stat_error[l*2 +: 2]),
      .stat_qevt_valid_o(stat_qevt_valid_o[l*2 +: 2]), .stat_qevt_pause_o(stat_qevt_pause_o[l*2 +: 2]),
      .stat_qevt_port_o(qevt_port), .stat_qevt_queue_o(stat_qevt_queue_o[l*2*QueueW +: 2*QueueW]),
      .stat_pevt_valid_o(stat_pevt_valid_o[l*2 +: 2]), .stat_pevt_pause_o(stat_pevt_pause_o[l*2 +: 2]),
      .stat_pevt_port_o(pevt_port),
      .stat_rd_port_i(rd_lp), .stat_rd_queue_i,
      .stat_rd_drops_o(ln_rd_drops[l*CntW +: CntW]), .stat_rd_pauses_o(ln_rd_pauses[l*CntW +: CntW]),
      .stat_rd_resumes_o(ln_rd_resumes[l*CntW +: CntW]), .stat_rd_port_pauses_o(ln_rd_ppauses[l*CntW +: CntW]),
      .stat_rd_port_resumes_o(ln_rd_presumes[l*CntW +: CntW]),
      .stat_rd_port_shared_o(ln_rd_shared[l*CellW +: CellW]), .stat_rd_port_hdrm_o(ln_rd_hdrm[l*CellW +: CellW]),
      .quiet_o(ln_quiet[l])
    );
    // Chip ports and bits of the lane's results and state.
    assign {qevt_lp1, qevt_lp0} = qevt_port;
    assign {pevt_lp1, pevt_lp0} = pevt_port;
    assign stat_qevt_port_o[l*2*PortW +: 2*PortW] = {chip_port(qevt_lp1, l), chip_port(qevt_lp0, l)};
    assign stat_pevt_port_o[l*2*PortW +: 2*PortW] = {chip_port(pevt_lp1, l), chip_port(pevt_lp0, l)};
    assign stat_drop_port_o[l*PortW +: PortW] = chip_port(drop_lp, l);
    for (genvar i = 0; i < LanePorts; i++) begin : gen_state
      assign qoff_o[(i*NumLanes + l)*NumQueues +: NumQueues] = qoff[i*NumQueues +: NumQueues];
      assign poff_o[i*NumLanes + l] = poff[i];
    end
  end

  // ------------------------------------------------------------ the pool
  // S after the cycle in E: every lane's dequeue drained its part, every
  // lane's shared admission added its size (spec §4.7); B_s - S for the
  // threshold pipeline. With lanes each lane compares S_{c-2} <= B_s -
  // (A_{c-1} + P_l + s) in its stage D (S is S_{c-2} there) and registers
  // the result, so S's loop in E is the regions, the sum of the shared
  // admissions and S; with one lane the compare is S - drained <= B_s - s
  // in E (spec §4.9).
  // Both sums are trees (dsh_sum_tree): a running sum over 32 lanes is a
  // chain of 31 adders from a lane's stage E to S.
  logic [PoolW-1:0]           shared_add;
  logic [NumLanes*LSizeW-1:0] shared_cells;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_shared_cells
    assign shared_cells[l*LSizeW +: LSizeW] = ln_e_shared[l] ? ln_e_cells[l*LSizeW +: LSizeW] : '0;
  end
  dsh_sum_tree #(.N(NumLanes), .InW(LSizeW), .OutW(LSizeW)) u_drained_sum (
    .terms_i(ln_e_dw), .sum_o(deq_shared_all)
  );
  dsh_sum_tree #(.N(NumLanes), .InW(LSizeW), .OutW(PoolW)) u_shared_sum (
    .terms_i(shared_cells), .sum_o(shared_add)
  );
  // The regions are E's late signals. With one lane both results are summed
  // before the region is known and the region picks one, so no carry chain
  // follows it (the one-lane pipeline's timing); with lanes the shared
  // admissions' sizes are summed after their regions.
  logic [CellW-1:0] s_base, free_base;
  assign s_base    = s_q - CellW'(deq_shared_all);
  assign free_base = cfg_shared_cells_i - s_q + CellW'(deq_shared_all);
  if (NumLanes == 1) begin : gen_pool_one
    assign s_d    = ln_e_shared[0] ? s_base + CellW'(ln_e_cells[0 +: LSizeW]) : s_base;
    assign free_d = ln_e_shared[0] ? free_base - CellW'(ln_e_cells[0 +: LSizeW]) : free_base;
  end else begin : gen_pool_lanes
    assign s_d    = s_base + CellW'(shared_add);
    assign free_d = free_base - CellW'(shared_add);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s_q <= '0;
    else         s_q <= s_d;
  end
  assign stat_s_o = ln_stat_s[0 +: CellW];
  assign stat_t_o = ln_stat_t[0 +: ThrW];

  // ------------------------------------------------------------ errors
  // Stage W's erroneous slots: each lane's enqueue; each dequeue slot that
  // was an error on its own, or in a group whose lane's check failed (its
  // lane's dequeue error). A slot's own error and group travel beside the
  // lanes' stages R, D, E, W.
  logic [NumDeq-1:0] w_deq_error;
  logic [NumLanes-1:0] w_enq_error, stat_enq_err;
  logic [ErrBits-1:0]  err_bits;
  for (genvar l = 0; l < NumLanes; l++) begin : gen_enq_err
    assign w_enq_error[l]  = ln_w_error[l*2 + 1];
    assign stat_enq_err[l] = ln_stat_error[l*2 + 1];
  end
  if (Multi) begin : gen_slot_err
    logic [4*NumDeq-1:0]       own_q, merged_q;
    logic [4*NumDeq*LaneW-1:0] lane_q;
    logic [NumDeq-1:0]         stat_deq_error_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        own_q            <= '0;
        merged_q         <= '0;
        stat_deq_error_q <= '0;
      end else begin
        own_q            <= {own_q[0 +: 3*NumDeq], own_error};
        merged_q         <= {merged_q[0 +: 3*NumDeq], merged};
        stat_deq_error_q <= w_deq_error;
      end
    end
    always_ff @(posedge clk_i) lane_q <= {lane_q[0 +: 3*NumDeq*LaneW], slot_lane};
    for (genvar k = 0; k < NumDeq; k++) begin : gen_slot
      logic [LaneW-1:0] ln;
      assign ln = lane_q[3*NumDeq*LaneW + k*LaneW +: LaneW];
      assign w_deq_error[k] = own_q[3*NumDeq + k] || (merged_q[3*NumDeq + k] && ln_w_error[32'(ln)*2]);
    end
    assign stat_deq_error_o = stat_deq_error_q;
    // In flight: an own error or a merged slot still to report.
    logic slots_busy;
    assign slots_busy = |own_q || stat_deq_error_q != '0;
    assign quiet_o = &ln_quiet && !slots_busy;
    assign err_bits = {w_enq_error, w_deq_error};
    logic unused_lane_deq_err;
    assign unused_lane_deq_err = ^ln_stat_error;
  end else begin : gen_lane_err
    assign w_deq_error      = ln_w_error[0];
    assign stat_deq_error_o = ln_stat_error[0];
    assign quiet_o          = ln_quiet[0];
    assign err_bits = ln_w_error[1:0];
    logic unused_w_error;  // the lane's own pair counts
    assign unused_w_error = ^{w_deq_error, w_enq_error};
  end
  dsh_err_count #(.CntW(CntW), .NumErr(ErrBits)) u_errors (
    .clk_i, .rst_ni, .w_error_i(err_bits), .error_count_o(stat_error_count_o), .error_sticky_o(stat_error_sticky_o)
  );
  assign stat_enq_error_o = stat_enq_err;
  assign stat_error_o     = {|stat_enq_error_o, |stat_deq_error_o};

  // ------------------------------------------------------------ read port
  // Every lane reads its entry of the port's lane-local index; the answer
  // is the asked lane's, three edges later.
  if (NumLanes > 1) begin : gen_rd_lane
    logic [3*LaneW-1:0] rd_lane_q;
    always_ff @(posedge clk_i) rd_lane_q <= {rd_lane_q[0 +: 2*LaneW], stat_rd_port_i[LaneW-1:0]};
    logic [LaneW-1:0] ln;
    assign ln = rd_lane_q[2*LaneW +: LaneW];
    assign stat_rd_drops_o        = ln_rd_drops[32'(ln)*CntW +: CntW];
    assign stat_rd_pauses_o       = ln_rd_pauses[32'(ln)*CntW +: CntW];
    assign stat_rd_resumes_o      = ln_rd_resumes[32'(ln)*CntW +: CntW];
    assign stat_rd_port_pauses_o  = ln_rd_ppauses[32'(ln)*CntW +: CntW];
    assign stat_rd_port_resumes_o = ln_rd_presumes[32'(ln)*CntW +: CntW];
    assign stat_rd_port_shared_o  = ln_rd_shared[32'(ln)*CellW +: CellW];
    assign stat_rd_port_hdrm_o    = ln_rd_hdrm[32'(ln)*CellW +: CellW];
  end else begin : gen_rd_one
    assign stat_rd_drops_o        = ln_rd_drops;
    assign stat_rd_pauses_o       = ln_rd_pauses;
    assign stat_rd_resumes_o      = ln_rd_resumes;
    assign stat_rd_port_pauses_o  = ln_rd_ppauses;
    assign stat_rd_port_resumes_o = ln_rd_presumes;
    assign stat_rd_port_shared_o  = ln_rd_shared;
    assign stat_rd_port_hdrm_o    = ln_rd_hdrm;
  end

  // ------------------------------------------------------------ assertions
  // (The lanes and their stages check their own: docs/design/rtl.md lists them.)
  // S never above the buffer; the pool rule keeps every cycle's S within
  // it, summed at full width (spec §4.9).
  `ASSERT(SWithinBuffer_A, stat_s_o <= cfg_shared_cells_i)
  logic [CellW+PoolW:0] s_d_wide;
  assign s_d_wide = (CellW+PoolW+1)'(s_q) - (CellW+PoolW+1)'(deq_shared_all) + (CellW+PoolW+1)'(shared_add);
  `ASSERT(PoolRuleWithinBuffer_A, s_d_wide <= (CellW+PoolW+1)'(cfg_shared_cells_i))
  // Out of reset no output is unknown (X or Z) in a 4-state simulator with
  // known inputs: every flop behind them resets or loads from ones that do
  // within the reset (see Reset above). What follows an event's inputs (a
  // dequeue slot's taken bit, an event's or a drop's port and queue) is
  // checked with its valid bit, as a bench may leave the inputs of an idle
  // slot unknown; the read port's answer follows its request, which has no
  // valid bit, and is not checked.
  `ASSERT_KNOWN(KnownOutputs_A, {qoff_o, poff_o, stat_region_o, stat_t_o, stat_s_o, stat_drop_o, stat_error_o,
                                 stat_enq_error_o, stat_deq_error_o, stat_error_sticky_o, stat_error_count_o,
                                 stat_qevt_valid_o, stat_qevt_pause_o, stat_pevt_valid_o, stat_pevt_pause_o,
                                 quiet_o})
  `ASSERT_KNOWN(KnownDeqTaken_A, deq_taken_o & deq_valid_i)
  for (genvar k = 0; k < 2 * NumLanes; k++) begin : gen_known_evt
    `ASSERT_KNOWN(KnownQevt_A, stat_qevt_valid_o[k] ? {stat_qevt_port_o[k*PortW +: PortW],
                                                       stat_qevt_queue_o[k*QueueW +: QueueW]} : '0)
    `ASSERT_KNOWN(KnownPevt_A, stat_pevt_valid_o[k] ? stat_pevt_port_o[k*PortW +: PortW] : '0)
  end
  for (genvar l = 0; l < NumLanes; l++) begin : gen_known_drop
    `ASSERT_KNOWN(KnownDrop_A, stat_drop_o[l] ? {stat_drop_port_o[l*PortW +: PortW],
                                                 stat_drop_queue_o[l*QueueW +: QueueW]} : '0)
  end
  // Every lane sees one S and one T.
  for (genvar l = 1; l < NumLanes; l++) begin : gen_one_s
    `ASSERT(LanesOneSAndT_A, ln_stat_s[l*CellW +: CellW] == stat_s_o && ln_stat_t[l*ThrW +: ThrW] == stat_t_o)
  end
  if (NumLanes > 1) begin : gen_lane_cover
    // Every lane enqueuing at once; an enqueue slot naming another lane's
    // port (an error).
    `COVER(AllLanesEnqueue_C, &enq_valid_i)
    logic [NumLanes-1:0] wrong;
    for (genvar l = 0; l < NumLanes; l++) begin : gen_wrong_cover
      assign wrong[l] = enq_valid_i[l] && 32'(enq_port_i[l*PortW +: LaneW]) != l;
    end
    `COVER(EnqWrongLane_C, |wrong)
    // The pool within one cycle's packets of full while lanes admit.
    `COVER(PoolNearFull_C, shared_add != '0 && free_d < CellW'(NumLanes) * CellW'(2))
  end
endmodule

`default_nettype wire
