// Definitions every MMU module shares: the admission region encoding of
// stat_region_o, the widths derived from the occupancy width CellW (widths
// of instance parameters stay parameters, derived here in one place), the
// record widths and the copies of a record read's index.
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

  // Copies of a record read's index (dsh_rec_store): one for the state and
  // valid bits, one for each of ReadSlices slices of each occupancy memory
  // (queue records: h, hs, hsp; port records: shared, hdrm). Each copy
  // drives one slice's read multiplexers, so an index bit's fan-out (and
  // the buffer tree that synthesis builds for it) stays small: at 32 x 7 a
  // bit driving all 60 bits' multiplexers took 2 ns of buffers. The default
  // of dsh_mmu's ReadSlices (an FPGA, with LUT multiplexers and no buffer
  // trees, takes 1).
  localparam int unsigned ReadSlices  = 10;
  function automatic integer qread_copies(input integer slices);
    qread_copies = 1 + 3 * slices;
  endfunction
  function automatic integer pread_copies(input integer slices);
    pread_copies = 1 + 2 * slices;
  endfunction
  /* verilator lint_on UNUSEDPARAM */
endpackage
