// SPDX-License-Identifier: Apache-2.0
// Formal harness of dsh_mmu (scripts/formal.sh): the environment as
// assumptions and the MMU's contract at its ports as named assertions, for
// Yosys (read_verilog -formal) and yosys-smtbmc. Every assertion and cover
// of the RTL below it is checked with these.
//
// Environment: reset for the first 3 clock edges, then never again;
// cfg_* constant: fixed by parameters, or any (anyconst) valid configuration (golden Config:
// B_s >= 1, B_s + private + headroom fits CellW bits, alpha_log2 -10..3,
// port_mult_log2 0..5); the event inputs free every cycle (protocol errors
// included); the read port asks for one fixed (port, queue) in range.
//
// The outputs show a cycle's results Lat = 5 clock edges after its inputs
// (dsh_mmu: after edge e + 4 for inputs sampled at edge e), so the harness
// delays the inputs by Lat and checks each output cycle against the inputs
// it answers. With one queue per port (NumQueues == 1) it also keeps a
// reference of every queue's occupancy in drain order (headroom, shared,
// private; spec §4), updated from the regions the MMU reports, and checks S,
// the port sums at the read port and every dequeue's error flag against it:
// a lost or doubled update anywhere in the pipeline shows there.
`include "dsh_assert.svh"
`default_nettype none

module dsh_mmu_formal #(
  parameter int unsigned NumPorts      = 2,
  parameter int unsigned NumQueues     = 2,
  parameter int unsigned CellW         = 4,
  parameter int unsigned SizeW         = 2,
  parameter int unsigned CntW          = 3,
  parameter bit          Dsh           = 1'b1,
  parameter int unsigned ThreshLatency = 1,
  // The configuration: fixed by these (FreeCfg = 0: a search a solver can
  // afford on this design), or any valid one (FreeCfg = 1, anyconst).
  parameter bit          FreeCfg       = 1'b0,
  parameter int unsigned CfgShared     = 8,
  parameter int unsigned CfgPrivate    = 2,
  parameter int unsigned CfgHeadroom   = 4,
  parameter int          CfgAlphaLog2  = 0,
  parameter int unsigned CfgPortMult   = 1,
  parameter int unsigned CfgDeltaQ     = 1,
  parameter int unsigned CfgDeltaP     = 1,
  localparam int unsigned PortW  = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned NumQ   = NumPorts * NumQueues,
  localparam int unsigned ThrW   = dsh_pkg::thr_w(CellW)
) (
  input logic              clk_i,
  input logic              deq_valid_i,
  input logic [PortW-1:0]  deq_port_i,
  input logic [QueueW-1:0] deq_queue_i,
  input logic [SizeW-1:0]  deq_cells_i,
  input logic              enq_valid_i,
  input logic [PortW-1:0]  enq_port_i,
  input logic [QueueW-1:0] enq_queue_i,
  input logic [SizeW-1:0]  enq_cells_i
);
  localparam int unsigned Lat = 5;
  localparam int unsigned RefW = CellW + 2;  // the reference's counts: no wrap

  // ---------------------------------------------------------- environment
  logic [1:0] rst_cnt_q = 2'd0;
  logic       rst_ni;
  always_ff @(posedge clk_i) if (rst_cnt_q != 2'd3) rst_cnt_q <= rst_cnt_q + 2'd1;
  assign rst_ni = rst_cnt_q == 2'd3;

  logic [CellW-1:0]          cfg_shared, cfg_private, cfg_delta_q, cfg_delta_p;
  logic [NumPorts*CellW-1:0] cfg_headroom;
  logic signed [4:0]         cfg_alpha_log2;
  logic [2:0]                cfg_port_mult_log2;
  if (FreeCfg) begin : g_free_cfg
    (* anyconst *) logic [CellW-1:0]          any_shared, any_private, any_delta_q, any_delta_p;
    (* anyconst *) logic [NumPorts*CellW-1:0] any_headroom;
    (* anyconst *) logic signed [4:0]         any_alpha_log2;
    (* anyconst *) logic [2:0]                any_port_mult_log2;
    assign {cfg_shared, cfg_private, cfg_delta_q, cfg_delta_p} = {any_shared, any_private, any_delta_q, any_delta_p};
    assign {cfg_headroom, cfg_alpha_log2, cfg_port_mult_log2} = {any_headroom, any_alpha_log2, any_port_mult_log2};
  end else begin : g_fixed_cfg
    assign cfg_shared         = CellW'(CfgShared);
    assign cfg_private        = CellW'(CfgPrivate);
    assign cfg_headroom       = {NumPorts{CellW'(CfgHeadroom)}};
    assign cfg_alpha_log2     = 5'(CfgAlphaLog2);
    assign cfg_port_mult_log2 = 3'(CfgPortMult);
    assign cfg_delta_q        = CellW'(CfgDeltaQ);
    assign cfg_delta_p        = CellW'(CfgDeltaP);
  end
  (* anyconst *) logic [PortW-1:0]          rd_port;
  (* anyconst *) logic [QueueW-1:0]         rd_queue;

  localparam int unsigned SumW = CellW + 16;
  logic [SumW-1:0] eta_sum, buffer_cells;
  always_comb begin
    eta_sum = '0;
    for (int p = 0; p < NumPorts; p++) eta_sum += SumW'(cfg_headroom[p*CellW +: CellW]);
  end
  assign buffer_cells = SumW'(cfg_shared) + SumW'(NumQ) * SumW'(cfg_private)
                      + (Dsh ? eta_sum : SumW'(NumQueues) * eta_sum);
  `ASSUME(CfgShared_M, cfg_shared != '0)
  `ASSUME(CfgBuffer_M, buffer_cells < (SumW'(1) << CellW))
  `ASSUME(CfgAlpha_M, cfg_alpha_log2 >= -5'sd10 && cfg_alpha_log2 <= 5'sd3)
  `ASSUME(CfgPortMult_M, cfg_port_mult_log2 <= 3'd5)
  `ASSUME(ReadInRange_M, 32'(rd_port) < NumPorts && 32'(rd_queue) < NumQueues)

  // ------------------------------------------------------------ the MMU
  logic [NumQ-1:0]       qoff_o;
  logic [NumPorts-1:0]   poff_o;
  logic [2:0]            stat_region_o;
  logic [ThrW-1:0]       stat_t_o;
  logic [CellW-1:0]      stat_s_o;
  logic                  stat_drop_o;
  logic [PortW-1:0]      stat_drop_port_o;
  logic [QueueW-1:0]     stat_drop_queue_o;
  logic [1:0]            stat_error_o;
  logic                  stat_error_sticky_o;
  logic [CntW-1:0]       stat_error_count_o;
  logic [1:0]            stat_qevt_valid_o, stat_qevt_pause_o, stat_pevt_valid_o, stat_pevt_pause_o;
  logic [2*PortW-1:0]    stat_qevt_port_o, stat_pevt_port_o;
  logic [2*QueueW-1:0]   stat_qevt_queue_o;
  logic [CntW-1:0]       stat_rd_drops_o, stat_rd_pauses_o, stat_rd_resumes_o;
  logic [CntW-1:0]       stat_rd_port_pauses_o, stat_rd_port_resumes_o;
  logic [CellW-1:0]      stat_rd_port_shared_o, stat_rd_port_hdrm_o;
  logic                  quiet_o;

  dsh_mmu #(.NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW), .CntW(CntW),
            .Dsh(Dsh), .ThreshLatency(ThreshLatency), .PauseBanks(1), .ReadSlices(1)) u_dut (
    .clk_i, .rst_ni,
    .cfg_shared_cells_i(cfg_shared), .cfg_private_cells_i(cfg_private), .cfg_headroom_cells_i(cfg_headroom),
    .cfg_alpha_log2_i(cfg_alpha_log2), .cfg_port_mult_log2_i(cfg_port_mult_log2),
    .cfg_delta_q_i(cfg_delta_q), .cfg_delta_p_i(cfg_delta_p),
    .deq_valid_i, .deq_port_i, .deq_queue_i, .deq_cells_i,
    .enq_valid_i, .enq_port_i, .enq_queue_i, .enq_cells_i,
    .qoff_o, .poff_o, .stat_region_o, .stat_t_o, .stat_s_o, .stat_drop_o, .stat_drop_port_o,
    .stat_drop_queue_o, .stat_error_o, .stat_error_sticky_o, .stat_error_count_o,
    .stat_qevt_valid_o, .stat_qevt_pause_o, .stat_qevt_port_o, .stat_qevt_queue_o,
    .stat_pevt_valid_o, .stat_pevt_pause_o, .stat_pevt_port_o,
    .stat_rd_port_i(rd_port), .stat_rd_queue_i(rd_queue),
    .stat_rd_drops_o, .stat_rd_pauses_o, .stat_rd_resumes_o, .stat_rd_port_pauses_o,
    .stat_rd_port_resumes_o, .stat_rd_port_shared_o, .stat_rd_port_hdrm_o, .quiet_o
  );

  // ------------------------------------- the inputs each output cycle answers
  localparam int unsigned EvW = 1 + PortW + QueueW + SizeW;
  logic [EvW-1:0] deq_line_q [Lat], enq_line_q [Lat];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < Lat; i++) begin
        deq_line_q[i] <= '0;
        enq_line_q[i] <= '0;
      end
    end else begin
      deq_line_q[0] <= {deq_valid_i, deq_port_i, deq_queue_i, deq_cells_i};
      enq_line_q[0] <= {enq_valid_i, enq_port_i, enq_queue_i, enq_cells_i};
      for (int i = 1; i < Lat; i++) begin
        deq_line_q[i] <= deq_line_q[i-1];
        enq_line_q[i] <= enq_line_q[i-1];
      end
    end
  end
  logic              dv, ev, d_ok, e_ok;
  logic [PortW-1:0]  dp, ep;
  logic [QueueW-1:0] dq, eq;
  logic [SizeW-1:0]  dc, ec;
  assign {dv, dp, dq, dc} = deq_line_q[Lat-1];
  assign {ev, ep, eq, ec} = enq_line_q[Lat-1];
  assign d_ok = dv && 32'(dp) < NumPorts && 32'(dq) < NumQueues && dc != '0;
  assign e_ok = ev && 32'(ep) < NumPorts && 32'(eq) < NumQueues && ec != '0;

  // --------------------------------------------------- each cycle's results
  `ASSERT(RegionRange_A, stat_region_o <= dsh_pkg::RegDrop)
  `ASSERT(EnqAdmitted_A, (stat_region_o != dsh_pkg::RegNone) == e_ok)
  `ASSERT(EnqError_A, stat_error_o[1] == (ev && !e_ok))
  `ASSERT(DeqError_A, (dv && !d_ok ? stat_error_o[0] : 1'b1) && (dv || !stat_error_o[0]))
  `ASSERT(DropRegion_A, stat_drop_o == (stat_region_o == dsh_pkg::RegDrop))
  `ASSERT(DropWhere_A, !stat_drop_o || (stat_drop_port_o == ep && stat_drop_queue_o == eq))
  `ASSERT(SNotAboveBs_A, stat_s_o <= cfg_shared)
  `ASSERT(SihNoPoff_A, Dsh || poff_o == '0)
  `ASSERT(SihNoPortEvent_A, Dsh || stat_pevt_valid_o == '0)

  // The state bits change exactly with the events reported: an event
  // toggles its queue's (port's) bit to what it reports.
  logic [NumQ-1:0]     qoff_prev_q, qoff_exp;
  logic [NumPorts-1:0] poff_prev_q, poff_exp;
  logic                qevt_toggles, pevt_toggles;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      qoff_prev_q <= '0;
      poff_prev_q <= '0;
    end else begin
      qoff_prev_q <= qoff_o;
      poff_prev_q <= poff_o;
    end
  end
  always_comb begin
    qoff_exp = qoff_prev_q;
    poff_exp = poff_prev_q;
    qevt_toggles = 1'b1;
    pevt_toggles = 1'b1;
    for (int s = 0; s < 2; s++) begin  // slot 1 after slot 0
      if (stat_qevt_valid_o[s]) begin
        qevt_toggles &= qoff_prev_q[32'(stat_qevt_port_o[s*PortW +: PortW]) * NumQueues
                                    + 32'(stat_qevt_queue_o[s*QueueW +: QueueW])] != stat_qevt_pause_o[s];
        qoff_exp[32'(stat_qevt_port_o[s*PortW +: PortW]) * NumQueues + 32'(stat_qevt_queue_o[s*QueueW +: QueueW])]
          = stat_qevt_pause_o[s];
      end
      if (stat_pevt_valid_o[s]) begin
        pevt_toggles &= poff_prev_q[stat_pevt_port_o[s*PortW +: PortW]] != stat_pevt_pause_o[s];
        poff_exp[stat_pevt_port_o[s*PortW +: PortW]] = stat_pevt_pause_o[s];
      end
    end
  end
  `ASSERT(QoffFollowsEvents_A, qoff_o == qoff_exp)
  `ASSERT(QevtToggles_A, qevt_toggles)
  `ASSERT(PoffFollowsEvents_A, poff_o == poff_exp)
  `ASSERT(PevtToggles_A, pevt_toggles)

  // Counters, counted again from the reported results: the error count
  // includes the cycle shown; the read port answers, for a request held
  // constant, with the counts after the results shown two cycles earlier.
  logic [CntW-1:0] err_q, err_n;
  logic            sticky_q, sticky_n;
  logic [CntW-1:0] drops_q, pauses_q, resumes_q, ppauses_q, presumes_q;
  logic [CntW-1:0] drops_qq, pauses_qq, resumes_qq, ppauses_qq, presumes_qq;
  logic [1:0]      qhit, phit;
  assign err_n    = err_q + CntW'(stat_error_o[0]) + CntW'(stat_error_o[1]);
  assign sticky_n = sticky_q || stat_error_o != '0;
  for (genvar s = 0; s < 2; s++) begin : g_hit
    assign qhit[s] = stat_qevt_valid_o[s] && stat_qevt_port_o[s*PortW +: PortW] == rd_port
                  && stat_qevt_queue_o[s*QueueW +: QueueW] == rd_queue;
    assign phit[s] = stat_pevt_valid_o[s] && stat_pevt_port_o[s*PortW +: PortW] == rd_port;
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {err_q, sticky_q} <= '0;
      {drops_q, pauses_q, resumes_q, ppauses_q, presumes_q} <= '0;
      {drops_qq, pauses_qq, resumes_qq, ppauses_qq, presumes_qq} <= '0;
    end else begin
      err_q      <= err_n;
      sticky_q   <= sticky_n;
      drops_q    <= drops_q + CntW'(stat_drop_o && stat_drop_port_o == rd_port && stat_drop_queue_o == rd_queue);
      pauses_q   <= pauses_q + CntW'(qhit[0] && stat_qevt_pause_o[0]) + CntW'(qhit[1] && stat_qevt_pause_o[1]);
      resumes_q  <= resumes_q + CntW'(qhit[0] && !stat_qevt_pause_o[0]) + CntW'(qhit[1] && !stat_qevt_pause_o[1]);
      ppauses_q  <= ppauses_q + CntW'(phit[0] && stat_pevt_pause_o[0]) + CntW'(phit[1] && stat_pevt_pause_o[1]);
      presumes_q <= presumes_q + CntW'(phit[0] && !stat_pevt_pause_o[0]) + CntW'(phit[1] && !stat_pevt_pause_o[1]);
      {drops_qq, pauses_qq, resumes_qq, ppauses_qq, presumes_qq}
        <= {drops_q, pauses_q, resumes_q, ppauses_q, presumes_q};
    end
  end
  `ASSERT(ErrorCount_A, stat_error_count_o == err_n && stat_error_sticky_o == sticky_n)
  `ASSERT(ReadDrops_A, stat_rd_drops_o == drops_qq)
  `ASSERT(ReadPauses_A, stat_rd_pauses_o == pauses_qq && stat_rd_resumes_o == resumes_qq)
  `ASSERT(ReadPortPauses_A, stat_rd_port_pauses_o == ppauses_qq && stat_rd_port_resumes_o == presumes_qq)

  // ------------------------------ reference occupancy (one queue per port)
  if (NumQueues == 1) begin : g_ref
    logic [RefW-1:0] h_q [NumPorts], w_q [NumPorts], v_q [NumPorts];  // headroom, shared, private
    logic [RefW-1:0] h_n [NumPorts], w_n [NumPorts], v_n [NumPorts];
    logic [RefW-1:0] s_sum, c, dh, dw;
    logic            deq_go;
    always_comb begin
      for (int p = 0; p < NumPorts; p++) begin
        h_n[p] = h_q[p];
        w_n[p] = w_q[p];
        v_n[p] = v_q[p];
      end
      // The dequeue first (spec §4.1): headroom, then shared, then private.
      c = RefW'(dc);
      deq_go = d_ok && c <= h_q[dp] + w_q[dp] + v_q[dp];
      dh = c < h_q[dp] ? c : h_q[dp];
      dw = c - dh < w_q[dp] ? c - dh : w_q[dp];
      if (deq_go) begin
        h_n[dp] = h_q[dp] - dh;
        w_n[dp] = w_q[dp] - dw;
        v_n[dp] = v_q[dp] - (c - dh - dw);
      end
      // Then the enqueue, where the MMU says it went.
      if (stat_region_o == dsh_pkg::RegPriv)   v_n[ep] = v_n[ep] + RefW'(ec);
      if (stat_region_o == dsh_pkg::RegShared) w_n[ep] = w_n[ep] + RefW'(ec);
      if (stat_region_o == dsh_pkg::RegHdrm)   h_n[ep] = h_n[ep] + RefW'(ec);
      s_sum = '0;
      for (int p = 0; p < NumPorts; p++) s_sum += w_n[p];
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      for (int p = 0; p < NumPorts; p++) begin
        if (!rst_ni) begin
          h_q[p] <= '0;
          w_q[p] <= '0;
          v_q[p] <= '0;
        end else begin
          h_q[p] <= h_n[p];
          w_q[p] <= w_n[p];
          v_q[p] <= v_n[p];
        end
      end
    end
    logic [RefW-1:0] rd_w_q, rd_h_q;  // port rd_port's sums a cycle ago
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) {rd_w_q, rd_h_q} <= '0;
      else         {rd_w_q, rd_h_q} <= {w_q[rd_port], h_q[rd_port]};
    end
    `ASSERT(RefDeqError_A, stat_error_o[0] == (dv && !deq_go))
    `ASSERT(RefS_A, RefW'(stat_s_o) == s_sum)
    `ASSERT(RefPortShared_A, RefW'(stat_rd_port_shared_o) == rd_w_q)
    `ASSERT(RefPortHdrm_A, RefW'(stat_rd_port_hdrm_o) == rd_h_q)
  end

  // ------------------------------------------------------------ cover points
  `COVER(Private_C, stat_region_o == dsh_pkg::RegPriv)
  `COVER(Shared_C, stat_region_o == dsh_pkg::RegShared)
  `COVER(Headroom_C, stat_region_o == dsh_pkg::RegHdrm)
  `COVER(Drop_C, stat_region_o == dsh_pkg::RegDrop)
  `COVER(SharedFull_C, stat_s_o == cfg_shared)
  `COVER(QueuePause_C, |(stat_qevt_valid_o & stat_qevt_pause_o))
  `COVER(QueueResume_C, |(stat_qevt_valid_o & ~stat_qevt_pause_o))
  `COVER(TwoQueueEvents_C, &stat_qevt_valid_o)
  `COVER(DeqError_C, stat_error_o[0])
  `COVER(QuietBusy_C, quiet_o && stat_s_o != '0)
  if (Dsh) begin : g_dsh_covers
    `COVER(DeqPause_C, stat_qevt_valid_o[0] && stat_qevt_pause_o[0])
    `COVER(PortPause_C, |(stat_pevt_valid_o & stat_pevt_pause_o))
    `COVER(PortResume_C, |(stat_pevt_valid_o & ~stat_pevt_pause_o))
  end
endmodule

`default_nettype wire
