// SPDX-License-Identifier: Apache-2.0
// The record layouts of dsh_mmu's pipeline, declared inside a module whose
// CellW sets the counts' width (dsh_pkg says why not in the package):
//   qrec_t  a queue: qoff (QOFF state), hsp (total), hs (headroom + shared),
//           h (headroom): prefix sums in the order a dequeue drains;
//   prec_t  a port: poff (DSH POFF state), hdrm, shared.
// $bits(qrec_t) == dsh_pkg::qrec_w(CellW), $bits(prec_t) == dsh_pkg::prec_w(CellW):
// ports carry records as vectors of those widths (a module-local type
// cannot name a port), assigned to and from these structs.
`ifndef DSH_REC_SVH
`define DSH_REC_SVH

`define DSH_REC_TYPES(cell_w) \
  typedef struct packed { \
    logic              qoff; \
    logic [cell_w-1:0] hsp; \
    logic [cell_w-1:0] hs; \
    logic [cell_w-1:0] h; \
  } qrec_t; \
  typedef struct packed { \
    logic              poff; \
    logic [cell_w-1:0] hdrm; \
    logic [cell_w-1:0] shared; \
  } prec_t;

`endif  // DSH_REC_SVH
