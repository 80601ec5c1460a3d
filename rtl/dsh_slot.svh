// SPDX-License-Identifier: Apache-2.0
// The bundles that travel between dsh_mmu's pipeline stages, declared once
// (`DSH_SLOT_TYPES, inside a module whose parameter list is
// dsh_params.svh: the widths are its localparams; dsh_pkg says why a
// package cannot hold them). On ports they are vectors of SlotW, ExecW and
// WbW bits, assigned to and from these structs.
//   slot_t  an event (a dequeue or an enqueue) in one stage: what it is,
//           where it goes and its records as that stage sees them. Fields
//           a stage does not know yet, or no longer needs, are 0 or left
//           as the stage before had them (each stage's contract says).
//   exec_t  stage E's results of the cycle (dsh_stage_exec).
//   wb_t    stage W's results beside its two slots (dsh_stage_wb).
// and the record picks of the forwarding (pick3_*, pick4_*).
// The forwarding selects (dsh_fwd) depend on no parameter: dsh_pkg::fwd_t.
// `DSH_PARAMS_PASS passes dsh_params.svh's parameters to a stage.
// `DSH_SLOT_SHOW(out, regs, v, ok, go), a statement in an always_comb
// block: the slot `out` as a stage shows it, its registers `regs` with the
// control bits, which are registers of their own (they have a reset).
`ifndef DSH_SLOT_SVH
`define DSH_SLOT_SVH

`define DSH_PARAMS_PASS \
  .NumPorts(NumPorts), .NumQueues(NumQueues), .CellW(CellW), .SizeW(SizeW), .CntW(CntW), .Dsh(Dsh), \
  .ThreshLatency(ThreshLatency), .ReadSlices(ReadSlices)

`define DSH_SLOT_SHOW(out, regs, v_, ok_, go_) \
  out = regs; \
  out.v = v_; \
  out.ok = ok_; \
  out.go = go_;

`define DSH_SLOT_TYPES \
  typedef struct packed { \
    logic              v;       /* an event */ \
    logic              ok;      /* valid, in range, cells != 0 */ \
    logic              go;      /* its records change: a dequeue that drains (from D), an ok enqueue (from E) */ \
    logic [QIdxW-1:0]  idx;     /* its queue's entry in the memories, 0 when out of range */ \
    logic [PortW-1:0]  p;       /* its port's entry, 0 when out of range */ \
    logic [PortW-1:0]  port;    /* port, queue and cells as presented */ \
    logic [QueueW-1:0] queue; \
    logic [SizeW-1:0]  cells; \
    logic [CellW-1:0]  eta;     /* eta of its port (spec 9.1) */ \
    logic [CellW:0]    eta_dq;  /* eta + delta_q */ \
    logic [QRecW-1:0]  qrec;    /* its queue's record (qrec_t) */ \
    logic [PRecW-1:0]  prec;    /* its port's record (prec_t) */ \
  } slot_t; \
  typedef struct packed { \
    logic [3:0]       region;      /* one-hot {drop, headroom, shared, private}, 0 none */ \
    logic [2:0]       region_deq;  /* its admitting bits again, for stage D (late) */ \
    logic [ThrW-1:0]  t;           /* T in effect */ \
    logic [CellW-1:0] s;           /* S before the cycle (registered) */ \
    logic [CellW-1:0] s_d;         /* S after it */ \
    logic [CellW-1:0] free_d;      /* B_s - S after it */ \
    logic [1:0]       qevt_valid;  /* events per slot: [0] the dequeue's queue/port, [1] the enqueue's */ \
    logic [1:0]       qevt_pause; \
    logic [1:0]       pevt_valid; \
    logic [1:0]       pevt_pause; \
    logic [1:0]       error;       /* protocol error: [0] dequeue, [1] enqueue */ \
  } exec_t; \
  typedef struct packed { \
    logic [QIdxW-1:0] deq_bit;  /* the slots' queues' bits of qoff_o */ \
    logic [QIdxW-1:0] enq_bit; \
    logic             qpause0;  /* counts for dsh_stats: slot 0's queue paused */ \
    logic             qpause1;  /* slot 1's queue paused */ \
    logic             drop;     /* slot 1's packet dropped */ \
    logic             ppause;   /* slot 1's port paused */ \
    logic [1:0]       error;    /* the errors dsh_err_count counts */ \
    logic [CellW-1:0] free;     /* B_s - S after the cycle last in E (registered) */ \
  } wb_t; \
  /* One of three / four records by a one-hot select (the forwarding */ \
  /* picks, dsh_fwd's selects): one AND-OR level. */ \
  function automatic [QRecW-1:0] pick3_qrec(input logic [2:0] sel, input logic [3*QRecW-1:0] v); \
    pick3_qrec = '0; \
    for (int i = 0; i < 3; i++) pick3_qrec |= v[i*QRecW +: QRecW] & {QRecW{sel[i]}}; \
  endfunction \
  function automatic [PRecW-1:0] pick3_prec(input logic [2:0] sel, input logic [3*PRecW-1:0] v); \
    pick3_prec = '0; \
    for (int i = 0; i < 3; i++) pick3_prec |= v[i*PRecW +: PRecW] & {PRecW{sel[i]}}; \
  endfunction \
  function automatic [QRecW-1:0] pick4_qrec(input logic [3:0] sel, input logic [4*QRecW-1:0] v); \
    pick4_qrec = '0; \
    for (int i = 0; i < 4; i++) pick4_qrec |= v[i*QRecW +: QRecW] & {QRecW{sel[i]}}; \
  endfunction \
  function automatic [PRecW-1:0] pick4_prec(input logic [3:0] sel, input logic [4*PRecW-1:0] v); \
    pick4_prec = '0; \
    for (int i = 0; i < 4; i++) pick4_prec |= v[i*PRecW +: PRecW] & {PRecW{sel[i]}}; \
  endfunction \
  slot_t slot_w_check; \
  exec_t exec_w_check; \
  wb_t   wb_w_check; \
  if ($bits(slot_w_check) != SlotW || $bits(exec_w_check) != ExecW || $bits(wb_w_check) != WbW) begin : gen_bad_bundle_w \
    $error("dsh_slot.svh: a bundle's width differs from dsh_params.svh's"); \
  end

`endif  // DSH_SLOT_SVH
