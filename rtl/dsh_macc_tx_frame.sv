// SPDX-License-Identifier: Apache-2.0
// MAC Control frame builder (spec §6.4): serialises one minimum-size frame,
// 60 bytes without the FCS (the MAC appends it), to an AXI4-Stream of
// bytes, most significant byte of each field first:
//   bytes  0..5   cfg_dst_i            12..13 cfg_ethertype_i
//          6..11  cfg_src_i            14..15 opcode
//         16..33  nine 16-bit words (word 0 first)    34..59 zero padding
// PFC puts its class-enable vector in word 0 and the class times in words
// 1..8; PAUSE its one time in word 0. What the words mean is the caller's:
// another opcode reuses the builder as it is.
// A request (req_valid_i & req_ready_o) latches opcode and words; the
// frame's first byte is on m_axis the next cycle, one byte per beat,
// tlast on byte 59. req_ready_o = no frame in flight, so a frame takes 61
// cycles at least. cfg_* must hold still while a frame is sent. tdata is 0
// while tvalid is 0. Reset: idle.
`include "dsh_assert.svh"
`default_nettype none

module dsh_macc_tx_frame (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [47:0]    cfg_dst_i,
  input  logic [47:0]    cfg_src_i,
  input  logic [15:0]    cfg_ethertype_i,
  input  logic           req_valid_i,
  output logic           req_ready_o,
  input  logic [15:0]    req_opcode_i,
  input  logic [9*16-1:0] req_words_i,     // word k in bits [16k+15:16k]
  output logic [7:0]     m_axis_tdata_o,
  output logic           m_axis_tvalid_o,
  input  logic           m_axis_tready_i,
  output logic           m_axis_tlast_o
);
  localparam int unsigned LastByte = 59;

  logic           busy_d, busy_q;
  logic [5:0]     idx_d, idx_q;        // byte on the stream
  logic [15:0]    opcode_d, opcode_q;
  logic [9*16-1:0] words_d, words_q;
  logic           accept;

  assign req_ready_o = !busy_q;
  assign accept      = req_valid_i && req_ready_o;

  always_comb begin
    busy_d   = busy_q;
    idx_d    = idx_q;
    opcode_d = opcode_q;
    words_d  = words_q;
    if (accept) begin
      busy_d   = 1'b1;
      idx_d    = '0;
      opcode_d = req_opcode_i;
      words_d  = req_words_i;
    end else if (busy_q && m_axis_tready_i) begin
      if (idx_q == 6'(LastByte)) busy_d = 1'b0;
      else                       idx_d  = idx_q + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      idx_q    <= '0;
      opcode_q <= '0;
      words_q  <= '0;
    end else begin
      busy_q   <= busy_d;
      idx_q    <= idx_d;
      opcode_q <= opcode_d;
      words_q  <= words_d;
    end
  end

  // The header and words as one big-endian string; bytes past it are padding.
  logic [34*8-1:0] head;
  logic [7:0]      byte_at;
  assign head = {cfg_dst_i, cfg_src_i, cfg_ethertype_i, opcode_q,
                 words_q[0*16 +: 16], words_q[1*16 +: 16], words_q[2*16 +: 16],
                 words_q[3*16 +: 16], words_q[4*16 +: 16], words_q[5*16 +: 16],
                 words_q[6*16 +: 16], words_q[7*16 +: 16], words_q[8*16 +: 16]};
  always_comb begin
    byte_at = '0;
    if (idx_q < 6'd34) byte_at = head[(33 - idx_q) * 8 +: 8];
  end
  assign m_axis_tdata_o  = busy_q ? byte_at : '0;
  assign m_axis_tvalid_o = busy_q;
  assign m_axis_tlast_o  = busy_q && idx_q == 6'(LastByte);

  `ASSERT(IndexInFrame_A, idx_q <= 6'(LastByte))
  `ASSERT(IdleIndexZero_A, busy_q || idx_q == '0 || idx_q == 6'(LastByte))
  `ASSERT(NoRequestWhileBusy_A, !(busy_q && req_ready_o))
  `COVER(Backpressure_C, busy_q && !m_axis_tready_i)
  `COVER(LastByteSent_C, m_axis_tlast_o && m_axis_tready_i)
endmodule

`default_nettype wire
