// SPDX-License-Identifier: Apache-2.0
// Definitions every MMU module shares: the admission region encoding of
// stat_region_o, the widths derived from the occupancy width CellW (widths
// of instance parameters stay parameters, derived here in one place), the
// record and pipeline slot widths and the copies of a record read's index.
package dsh_pkg;
  // A module that uses a part of the package leaves the rest unused.
  /* verilator lint_off UNUSEDPARAM */
  // stat_region_o: where the cycle's enqueue went.
  localparam logic [2:0] RegNone = 3'd0, RegPriv = 3'd1, RegShared = 3'd2, RegHdrm = 3'd3, RegDrop = 3'd4;

  // Bits of an index of n entries ($clog2, at least 1).
  function automatic integer idx_w(input integer n);
    idx_w = (n > 1) ? $clog2(n) : 1;
  endfunction
  // T = (B_s - S) scaled by 2^alpha_log2, alpha_log2 up to 3: B_s << 3.
  function automatic integer thr_w(input integer cell_w);
    thr_w = cell_w + 3;
  endfunction
  // X_poff = T << port_mult_log2, port_mult_log2 up to 5.
  function automatic integer xp_w(input integer cell_w);
    xp_w = cell_w + 8;
  endfunction
  // Stage E's limits: X_poff's width and a sign bit (dsh_limits).
  function automatic integer lim_w(input integer cell_w);
    lim_w = cell_w + 9;
  endfunction
  // Records (dsh_rec_store) as they travel through dsh_mmu's pipeline: a
  // queue's {qoff, hsp, hs, h} and a port's {poff, hdrm, shared}, each
  // count CellW bits. Their widths are derived here only; the field names
  // are the packed structs qrec_t and prec_t that `DSH_REC_TYPES(CellW)
  // (dsh_rec.svh) declares inside a module. Why not typedefs in this
  // package: CellW is a module parameter, a package has none, and Yosys
  // 0.23 reads neither `parameter type` nor parameterized classes; a
  // struct declared in a module with a parameter width it does read. A
  // struct at the largest CellW would widen every record (to 128 bits
  // in the simulator for a 61-bit record) and cost simulation speed.
  function automatic integer qrec_w(input integer cell_w);
    qrec_w = 3 * cell_w + 1;
  endfunction
  function automatic integer prec_w(input integer cell_w);
    prec_w = 2 * cell_w + 1;
  endfunction
  // The pipeline's slots (dsh_slot.svh: rslot_t, dslot_t, eslot_t, wslot_t)
  // as they travel between the stages, from the port count, queue count
  // and SizeW; the field names are the structs' (as for the records).
  function automatic integer rslot_w(input integer np, input integer nq, input integer size_w);
    rslot_w = 2 + idx_w(np * nq) + 2 * idx_w(np) + idx_w(nq) + size_w;
  endfunction
  function automatic integer dslot_w(input integer np, input integer nq, input integer size_w);
    dslot_w = 3 + idx_w(np * nq) + 2 * idx_w(np) + idx_w(nq) + 2 * size_w;
  endfunction
  function automatic integer eslot_w(input integer np, input integer nq);
    eslot_w = 3 + idx_w(np * nq) + 2 * idx_w(np) + idx_w(nq);
  endfunction
  function automatic integer wslot_w(input integer np, input integer nq);
    wslot_w = 1 + 2 * idx_w(np * nq) + idx_w(np);
  endfunction
  // A port's eta and eta + delta_q beside a slot (dsh_slot.svh eta_t).
  function automatic integer eta_w(input integer cell_w);
    eta_w = 2 * cell_w + 1;
  endfunction
  // A count less a packet's size, signed, with a carry (dsh_size_terms,
  // dsh_deq_drain).
  function automatic integer term_w(input integer cell_w);
    term_w = cell_w + 2;
  endfunction

  // x + 1 modulo 2^64 with a log-depth carry (a prefix AND): counters take
  // the bits they need (Yosys maps a plain + 1 as a ripple that ABC keeps).
  function automatic logic [63:0] inc64(input logic [63:0] x);
    logic [63:0] p;  // p[i] = &x[i:0]: bit i+1 toggles
    p = x;
    for (int s = 1; s < 64; s = s * 2) p = p & ((p << s) | ~({64{1'b1}} << s));
    inc64 = x ^ ((p << 1) | 64'd1);
  endfunction

  // Copies of a memory read's index (dsh_idx_copies): each copy addresses
  // one slice of the word's bits, so that an index bit's fan-out (and the
  // buffer tree synthesis builds for it) stays small. An index's low bits
  // drive the first level of the read multiplexers, a quarter of the
  // entries per bit of a slice: with one copy for a record's 20 bits at
  // 32 x 7 a bit drove 1,120 loads, and a counter's 32 bits 1,792, through
  // 2 to 3 ns of buffers. copies_for(): enough copies that a bit drives at
  // most `loads` of them, 1..most.
  function automatic integer copies_for(input integer bits, input integer entries,
                                        input integer loads, input integer most);
    copies_for = (bits * ((entries + 3) / 4) + loads - 1) / loads;
    if (copies_for > most) copies_for = most;
    if (copies_for < 1) copies_for = 1;
  endfunction
  // Records (dsh_rec_store): one copy for the valid bits, one for the state
  // bits, one for each of ReadSlices slices of each occupancy memory (queue
  // records: h, hs, hsp; port records: shared, hdrm). dsh_mmu's default:
  // read_slices(CellW, queues), 56 loads a bit, at most ReadSlices (20 at
  // 32 x 7, 2 at 4 x 4); an FPGA, with LUT multiplexers and no buffer
  // trees, takes 1.
  localparam int unsigned ReadSlices  = 20;
  function automatic integer read_slices(input integer cell_w, input integer entries);
    read_slices = copies_for(cell_w, entries, 56, cell_w < ReadSlices ? cell_w : ReadSlices);
  endfunction
  function automatic integer qread_copies(input integer slices);
    qread_copies = 2 + 3 * slices;
  endfunction
  function automatic integer pread_copies(input integer slices);
    pread_copies = 2 + 2 * slices;
  endfunction
  // Counters (dsh_cnt_ram): a copy per slice of the count, 112 loads a bit
  // (16 copies of two bits at 32 x 7, CntW 32). dsh_mmu takes 1 with
  // ReadSlices 1 (an FPGA's block RAM reads, or a design that small).
  function automatic integer cnt_read_copies(input integer cnt_w, input integer entries);
    cnt_read_copies = copies_for(cnt_w, entries, 112, cnt_w);
  endfunction
  /* verilator lint_on UNUSEDPARAM */
endpackage
