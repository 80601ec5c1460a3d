// Read of one entry of a register array by a one-hot select: each entry is
// masked by its select bit and the masked entries are ORed in a balanced
// binary tree (depth log2(Entries)). With the select decoded a stage early,
// no select bit drives more than Width gates, unlike a binary-index
// multiplexer whose low index bit steers half of the array.
// Written as a tree of named nodes: Yosys keeps an OR chained in a loop as a
// chain, and Verilator emits one word operation per node.
`default_nettype none

module dsh_onehot_read #(
  parameter int unsigned Entries = 2,
  parameter int unsigned Width   = 1
) (
  input  logic [Entries*Width-1:0] data_i,  // entry i in bits [i*Width +: Width]
  input  logic [Entries-1:0]       sel_i,   // one-hot, or zero to read 0
  output logic [Width-1:0]         data_o
);
  localparam int unsigned Levels = $clog2(Entries);

  // Node n of level l ORs nodes 2n and 2n+1 of level l+1; level Levels holds
  // the masked entries (zero past the last).
  for (genvar l = 0; l <= Levels; l++) begin : g_lvl
    for (genvar n = 0; n < (1 << l); n++) begin : g_n
      logic [Width-1:0] v;
      if (l == Levels) begin : g_leaf
        if (n < Entries) begin : g_used
          assign v = data_i[n*Width +: Width] & {Width{sel_i[n]}};
        end else begin : g_pad
          assign v = '0;
        end
      end else begin : g_or
        assign v = g_lvl[l+1].g_n[2*n].v | g_lvl[l+1].g_n[2*n+1].v;
      end
    end
  end
  assign data_o = g_lvl[0].g_n[0].v;
endmodule

`default_nettype wire
