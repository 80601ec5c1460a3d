// SPDX-License-Identifier: Apache-2.0
// dsh_mmu's parameters as every pipeline stage takes them, and the widths
// derived from them: the body of a parameter port list,
//   module dsh_stage_x #(
//   `include "dsh_params.svh"
//   ) ( ... );
// and passed on by name with `DSH_PARAMS_PASS (dsh_slot.svh). Every stage
// takes all of them, so that a stage instance names none and every stage
// has the same parameter interface; a stage leaves the ones it does not use
// unused. Ranges and meaning: dsh_mmu (which checks them).
/* verilator lint_off UNUSEDPARAM */
  parameter int unsigned NumPorts      = 32,
  parameter int unsigned NumQueues     = 7,    // lossless queues per port
  parameter int unsigned CellW         = 20,   // occupancy counters and cfg sizes
  parameter int unsigned SizeW         = 8,    // cells of one packet
  parameter int unsigned CntW          = 32,   // statistics counters
  parameter bit          Dsh           = 1'b1, // 1 DSH, 0 SIH
  parameter int unsigned ThreshLatency = 2,    // 1..3 cycles
  // record read index copies (ASIC: by size, dsh_pkg) or 1 (FPGA)
  parameter int unsigned ReadSlices    = dsh_pkg::read_slices(CellW, NumPorts * NumQueues),
  localparam int unsigned NumQ    = NumPorts * NumQueues,
  localparam int unsigned PortW   = dsh_pkg::idx_w(NumPorts),
  localparam int unsigned QueueW  = dsh_pkg::idx_w(NumQueues),
  localparam int unsigned QIdxW   = dsh_pkg::idx_w(NumQ),
  localparam int unsigned KeyW    = PortW + QueueW,            // {port, queue} (dsh_fwd)
  localparam int unsigned QRecW   = dsh_pkg::qrec_w(CellW),
  localparam int unsigned PRecW   = dsh_pkg::prec_w(CellW),
  localparam int unsigned ThrW    = dsh_pkg::thr_w(CellW),     // T
  localparam int unsigned TW      = dsh_pkg::term_w(CellW),    // dsh_size_terms
  localparam int unsigned LimW    = dsh_pkg::lim_w(CellW),     // stage E's limits
  localparam int unsigned QCopies = dsh_pkg::qread_copies(ReadSlices),
  localparam int unsigned PCopies = dsh_pkg::pread_copies(ReadSlices),
  // Copies of each counter read's index: the ASIC arrangement's, or one
  // with ReadSlices 1 (an FPGA's block RAM reads).
  localparam int unsigned CntCopies = ReadSlices == 1 ? 1 : dsh_pkg::cnt_read_copies(CntW, NumQ),
  // The bundles of dsh_slot.svh, as vectors on ports (a type declared in a
  // module cannot name its ports): `DSH_SLOT_TYPES checks these widths.
  localparam int unsigned SlotW   = 3 + QIdxW + 2 * PortW + QueueW + SizeW + 2 * CellW + 1 + QRecW + PRecW,
  localparam int unsigned ExecW   = 4 + 3 + ThrW + 3 * CellW + 5 * 2,
  localparam int unsigned WbW     = 2 * QIdxW + 4 + 2 + CellW
/* verilator lint_on UNUSEDPARAM */
