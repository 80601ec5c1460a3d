// Statistics counters of one kind (say the drops of every queue) in a
// memory, counted by read-modify-write: in stage E each counting slot reads
// the entry its event may count (rmw_idx_i) and forms its value + 1; in
// stage W, where the event is known (inc_i), it writes that. A read of an
// entry that stage W writes in the same cycle takes the new value (a bypass
// one write deep), so back-to-back events on one entry count every one. One
// adder per slot, none per entry. A valid bit per entry, cleared by reset,
// makes an entry read as 0 until its first count. A third read (rd_idx_i)
// serves the statistics read port: the counts after stage W's last write.
// Slots never count one entry in the same cycle (one event per queue and
// per port a cycle); counts wrap modulo 2^CntW.
`default_nettype none

module dsh_cnt_ram #(
  parameter int unsigned Entries = 2,
  parameter int unsigned CntW    = 32,
  parameter int unsigned Slots   = 1,   // counting slots, 1 or 2
  localparam int unsigned IdxW = dsh_pkg::idx_w(Entries)
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [Slots*IdxW-1:0] rmw_idx_i,  // stage E: slot k's entry
  input  logic [Slots-1:0]      inc_i,      // stage W: slot k counts the entry it read
  input  logic [IdxW-1:0]       rd_idx_i,
  output logic [CntW-1:0]       rd_o
);
`ifdef SYNTHESIS
  localparam int unsigned fault = dsh_pkg::FaultNone;
`else
  int unsigned fault;  // planted fault (+dsh_fault=N)
  initial if (!$value$plusargs("dsh_fault=%d", fault)) fault = dsh_pkg::FaultNone;
`endif

  logic [CntW-1:0]       mem_q [Entries];
  logic [Entries-1:0]    valid_q;
  logic [Slots*IdxW-1:0] idx_q;  // stage W: the entries read in stage E
  logic [Slots*CntW-1:0] nxt_q;  // their counts + 1: what stage W writes
  logic [Slots*CntW-1:0] val_d;

  // Stage E's reads, with stage W's writes of this cycle; the + 1 is formed
  // here, so that stage W only fans a register out to the entries.
  always_comb begin
    for (int k = 0; k < Slots; k++)
      val_d[k*CntW +: CntW] = valid_q[rmw_idx_i[k*IdxW +: IdxW]] ? mem_q[rmw_idx_i[k*IdxW +: IdxW]] : '0;
    for (int k = 0; k < Slots; k++)
      for (int j = 0; j < Slots; j++)
        if (inc_i[j] && idx_q[j*IdxW +: IdxW] == rmw_idx_i[k*IdxW +: IdxW] && fault != dsh_pkg::FaultCntBypass)
          val_d[k*CntW +: CntW] = nxt_q[j*CntW +: CntW];
  end

  always_ff @(posedge clk_i) begin
    idx_q <= rmw_idx_i;
    for (int k = 0; k < Slots; k++) begin
      nxt_q[k*CntW +: CntW] <= CntW'(dsh_pkg::inc64(64'(val_d[k*CntW +: CntW])));
      if (inc_i[k]) mem_q[idx_q[k*IdxW +: IdxW]] <= nxt_q[k*CntW +: CntW];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) valid_q <= '0;
    else
      for (int k = 0; k < Slots; k++)
        if (inc_i[k]) valid_q[idx_q[k*IdxW +: IdxW]] <= 1'b1;
  end

  assign rd_o = valid_q[rd_idx_i] ? mem_q[rd_idx_i] : '0;

`ifndef SYNTHESIS
  if (Slots == 2) begin : g_check
    always @(posedge clk_i)
      if (rst_ni && &inc_i) assert (idx_q[0 +: IdxW] != idx_q[IdxW +: IdxW]) else $error("dsh_cnt_ram: two counts of one entry");
  end
`endif
endmodule

`default_nettype wire
