// Next state of a statistics counter that counts by one in place (contract
// §5's drop and pause counters). The CntW bits form groups of GroupW; each
// group is a short incrementer, and a group that wraps sets its carry
// (carry_o[g], registered by the user) that the next group adds one cycle
// later. So no carry chain is longer than a group, and each counter needs
// no read port of its own: the value is
//   cnt + sum over g of carry[g] << GroupW*(g+1)   (modulo 2^CntW)
// which dsh_mmu's read port and the C++ backends compute. A carry out of
// the last group is dropped: the counter wraps. Combinational.
`default_nettype none

module dsh_cnt_step #(
  parameter int unsigned CntW   = 32,
  parameter int unsigned GroupW = 16,
  localparam int unsigned NumGroups = (CntW + GroupW - 1) / GroupW,
  localparam int unsigned CarryW    = (NumGroups > 1) ? NumGroups - 1 : 1
) (
  input  logic              inc_i,
  input  logic [CntW-1:0]   cnt_i,
  input  logic [CarryW-1:0] carry_i,
  output logic [CntW-1:0]   cnt_o,
  output logic [CarryW-1:0] carry_o
);
  logic [NumGroups-1:0] add, wrap;  // group g adds one; group g wraps
  for (genvar g = 0; g < NumGroups; g++) begin : g_grp
    localparam int unsigned Lo = g * GroupW;
    localparam int unsigned Wd = (Lo + GroupW <= CntW) ? GroupW : CntW - Lo;
    if (g == 0) begin : g_first
      assign add[g] = inc_i;
    end else begin : g_next
      assign add[g] = carry_i[g-1];
    end
    assign cnt_o[Lo +: Wd] = cnt_i[Lo +: Wd] + Wd'(add[g]);
    assign wrap[g] = add[g] && &cnt_i[Lo +: Wd];
  end
  if (NumGroups > 1) begin : g_carry
    assign carry_o = wrap[NumGroups-2:0];
    logic unused_last;  // the last group's wrap is the counter's
    assign unused_last = wrap[NumGroups-1];
  end else begin : g_no_carry
    assign carry_o = 1'b0;
    logic unused_carry;
    assign unused_carry = ^{carry_i, wrap};
  end
endmodule

`default_nettype wire
