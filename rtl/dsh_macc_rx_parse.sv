// SPDX-License-Identifier: Apache-2.0
// MAC Control frame parser (spec §6.5): reads the frames a MAC receives,
// one byte per beat of an AXI4-Stream without tready (a MAC's receive side
// cannot wait), each frame without its FCS; tuser on the tlast beat marks a
// frame the MAC found bad (FCS, symbol error). Layout as dsh_macc_tx_frame.
// A frame is MAC Control if its destination is 01-80-C2-00-00-01 or its
// EtherType is 0x8808. It is well-formed if its EtherType is 0x8808, it is
// 60 bytes long and tuser is 0; then, the cycle after its tlast beat,
// frame_valid_o is 1 and opcode_o and words_o (bytes 14..33) hold its
// fields, until byte 14 of a later frame. A MAC Control frame that is not
// well-formed pulses malformed_o instead, in the same cycle. Any other
// frame is data: neither. What an opcode means is the caller's.
// Reset: between frames.
`include "dsh_assert.svh"
`default_nettype none

module dsh_macc_rx_parse (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [7:0]      s_axis_tdata_i,
  input  logic            s_axis_tvalid_i,
  input  logic            s_axis_tlast_i,
  input  logic            s_axis_tuser_i,
  output logic            frame_valid_o,
  output logic            malformed_o,
  output logic [15:0]     opcode_o,
  output logic [9*16-1:0] words_o       // word k in bits [16k+15:16k]
);
  localparam logic [47:0] CtrlDst      = 48'h0180_C200_0001;
  localparam logic [15:0] CtrlType     = 16'h8808;
  localparam int unsigned FrameBytes   = 60;
  localparam int unsigned SatLen       = FrameBytes + 1;  // "longer than a control frame"

  logic [5:0]      len_d, len_q;       // bytes of this frame so far, saturating at SatLen
  logic            dst_ok_d, dst_ok_q; // every destination byte so far matched
  logic            type_ok_d, type_ok_q; // every EtherType byte so far matched
  logic [159:0]    cap_d, cap_q;       // bytes 14..33, shifted in
  logic            valid_d, valid_q, bad_d, bad_q;
  logic            is_ctrl, good;
  logic [5:0]      len_end;            // the frame's length at its tlast beat

  // The frame's flags with this beat's byte; cleared for the next frame at tlast.
  logic dst_ok_now, type_ok_now;
  always_comb begin
    dst_ok_now  = dst_ok_q;
    type_ok_now = type_ok_q;
    if (s_axis_tvalid_i && len_q < 6'd6)
      dst_ok_now = dst_ok_q && s_axis_tdata_i == CtrlDst[(5 - len_q) * 8 +: 8];
    if (s_axis_tvalid_i && (len_q == 6'd12 || len_q == 6'd13))
      type_ok_now = type_ok_q && s_axis_tdata_i == CtrlType[(13 - len_q) * 8 +: 8];
  end

  always_comb begin
    len_d     = len_q;
    dst_ok_d  = dst_ok_now;
    type_ok_d = type_ok_now;
    cap_d     = cap_q;
    valid_d   = 1'b0;
    bad_d     = 1'b0;
    is_ctrl   = 1'b0;
    good      = 1'b0;
    len_end   = len_q;
    if (s_axis_tvalid_i) begin
      if (len_q >= 6'd14 && len_q <= 6'd33) cap_d = {cap_q[151:0], s_axis_tdata_i};
      len_end = len_q == 6'(SatLen) ? len_q : len_q + 1'b1;
      len_d   = len_end;
      if (s_axis_tlast_i) begin
        is_ctrl   = (dst_ok_now && len_end >= 6'd6) || (type_ok_now && len_end >= 6'd14);
        good      = type_ok_now && len_end == 6'(FrameBytes) && !s_axis_tuser_i;
        valid_d   = good;
        bad_d     = is_ctrl && !good;
        len_d     = '0;
        dst_ok_d  = 1'b1;
        type_ok_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      len_q     <= '0;
      dst_ok_q  <= 1'b1;
      type_ok_q <= 1'b1;
      cap_q     <= '0;
      valid_q   <= 1'b0;
      bad_q     <= 1'b0;
    end else begin
      len_q     <= len_d;
      dst_ok_q  <= dst_ok_d;
      type_ok_q <= type_ok_d;
      cap_q     <= cap_d;
      valid_q   <= valid_d;
      bad_q     <= bad_d;
    end
  end

  assign frame_valid_o = valid_q;
  assign malformed_o   = bad_q;
  assign opcode_o      = cap_q[159:144];
  for (genvar k = 0; k < 9; k++) begin : gen_words
    assign words_o[k*16 +: 16] = cap_q[(8 - k) * 16 +: 16];
  end

  `ASSERT(ValidOrMalformed_A, !(frame_valid_o && malformed_o))
  `ASSERT(LengthSaturates_A, len_q <= 6'(SatLen))
  `COVER(WellFormed_C, frame_valid_o)
  `COVER(Malformed_C, malformed_o)
  `COVER(RuntControl_C, bad_d && len_end < 6'(FrameBytes))
  `COVER(LongControl_C, bad_d && len_end > 6'(FrameBytes))
  `COVER(BadFromMac_C, bad_d && len_end == 6'(FrameBytes) && type_ok_now)
  `COVER(WrongTypeForControlDst_C, bad_d && !type_ok_now && len_end >= 6'd14)
  `COVER(DataFrame_C, s_axis_tvalid_i && s_axis_tlast_i && !is_ctrl && len_end >= 6'd14)
endmodule

`default_nettype wire
