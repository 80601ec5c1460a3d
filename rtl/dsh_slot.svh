// SPDX-License-Identifier: Apache-2.0
// The pipeline slots of dsh_lane: what one event carries from a stage to
// the next, one packed struct per kind of slot, declared inside a module
// from its widths (as dsh_rec.svh declares the records; dsh_pkg says why
// not in the package). Ports carry a slot as a vector of its width
// (dsh_pkg::rslot_w and the others), assigned to and from these structs.
// A slot holds the event itself; what is read or computed for it, its
// queue and port records (qrec_t, prec_t) and its port's eta (eta_t),
// travels beside it on ports of its own, <slot>_qrec, <slot>_prec,
// <slot>_eta. Why: Verilator models a vector of up to 64 bits as one
// machine word and a wider one as an array of words that every field read
// and write shifts and masks across; with the records inside, the slots
// of the 32 x 7 chip were 124 to 183 bits and its light model 16 % slower
// (docs/design/performance.md "Slots").
//
// `DSH_STAGE_WIDTHS(NumPorts, NumQueues, CellW, SizeW), in a stage
// module's parameter list: the widths every stage derives, in one place:
//   PortW, QueueW  a port / queue index;
//   QIdxW          an entry of the queue records (port x queue);
//   QRecW, PRecW   a queue / port record (dsh_rec.svh);
//   EtaW           eta_t below;
//   RSlotW, DSlotW, ESlotW, WSlotW  the slots below (a stage uses those of
//                  its own slots; dsh_lint.vlt waives the others).
//
// `DSH_SLOT_TYPES, in the module body (after those widths): qrec_t and
// prec_t (`DSH_REC_TYPES), and
//   rslot_t  stage R (dsh_stage_in) to stage D (the dequeue) or E (the
//            enqueue): v valid; ok valid, in range and cells != 0; idx the
//            entry in the memories and p the port record (0 when out of
//            range); port, queue_id, cells as presented. Beside it: its
//            records as read, stage W's writes of the cycle forwarded over
//            them; its port's eta_t;
//   dslot_t  stage D (dsh_stage_deq) to stage E: the dequeue's v, ok, idx,
//            p, port, queue_id; go it drains, dh / dw what it drains from
//            headroom / shared (these three late: they wait for stage E's
//            region). Beside it: its queue after it (late too), its port
//            before stage E's cycle, its port's eta_t;
//   eslot_t  stage E (dsh_stage_exec) to stage W and dsh_fwd: v, ok, go
//            (the records change: the dequeue drained, the enqueue ok),
//            idx, p, port, queue_id. Beside it: its records after the
//            cycle (stages W and D take them);
//   wslot_t  stage W (dsh_stage_wb) to dsh_rec_store: we written at the
//            next clock edge, idx its queue's entry, qbit its queue's bit
//            of qoff_o, p its port. Beside it: the records written (stage
//            R forwards them);
//   eta_t    a port's eta and eta + delta_q (eta_dq), registered a stage
//            early so that no adder sits before the limits.
//
// `DSH_PICK4(name, w), in a module body: a function name(sel, v) that
// picks one of four w-bit records of v by the one-hot sel (0 when none) in
// one AND-OR level; the forwarding picks of stages D and E.
`ifndef DSH_SLOT_SVH
`define DSH_SLOT_SVH
`include "dsh_rec.svh"

`define DSH_STAGE_WIDTHS(num_ports, num_queues, cell_w, size_w) \
  localparam int unsigned PortW  = dsh_pkg::idx_w(num_ports), \
  localparam int unsigned QueueW = dsh_pkg::idx_w(num_queues), \
  localparam int unsigned QIdxW  = dsh_pkg::idx_w((num_ports) * (num_queues)), \
  localparam int unsigned QRecW  = dsh_pkg::qrec_w(cell_w), \
  localparam int unsigned PRecW  = dsh_pkg::prec_w(cell_w), \
  localparam int unsigned EtaW   = dsh_pkg::eta_w(cell_w), \
  localparam int unsigned RSlotW = dsh_pkg::rslot_w(num_ports, num_queues, size_w), \
  localparam int unsigned DSlotW = dsh_pkg::dslot_w(num_ports, num_queues, size_w), \
  localparam int unsigned ESlotW = dsh_pkg::eslot_w(num_ports, num_queues), \
  localparam int unsigned WSlotW = dsh_pkg::wslot_w(num_ports, num_queues)

`define DSH_SLOT_TYPES \
  `DSH_REC_TYPES(CellW) \
  typedef struct packed { \
    logic              v; \
    logic              ok; \
    logic [QIdxW-1:0]  idx; \
    logic [PortW-1:0]  p; \
    logic [PortW-1:0]  port; \
    logic [QueueW-1:0] queue_id; \
    logic [SizeW-1:0]  cells; \
  } rslot_t; \
  typedef struct packed { \
    logic              v; \
    logic              ok; \
    logic [QIdxW-1:0]  idx; \
    logic [PortW-1:0]  p; \
    logic [PortW-1:0]  port; \
    logic [QueueW-1:0] queue_id; \
    logic              go; \
    logic [SizeW-1:0]  dh; \
    logic [SizeW-1:0]  dw; \
  } dslot_t; \
  typedef struct packed { \
    logic              v; \
    logic              ok; \
    logic              go; \
    logic [QIdxW-1:0]  idx; \
    logic [PortW-1:0]  p; \
    logic [PortW-1:0]  port; \
    logic [QueueW-1:0] queue_id; \
  } eslot_t; \
  typedef struct packed { \
    logic              we; \
    logic [QIdxW-1:0]  idx; \
    logic [QIdxW-1:0]  qbit; \
    logic [PortW-1:0]  p; \
  } wslot_t; \
  typedef struct packed { \
    logic [CellW-1:0]  eta; \
    logic [CellW:0]    eta_dq; \
  } eta_t;

`define DSH_PICK4(name, w) \
  function automatic [(w)-1:0] name(input logic [3:0] sel, input logic [4*(w)-1:0] v); \
    name = '0; \
    for (int i = 0; i < 4; i++) name |= v[i*(w) +: (w)] & {(w){sel[i]}}; \
  endfunction

`endif  // DSH_SLOT_SVH
