// SPDX-License-Identifier: Apache-2.0
// Admission of one enqueue (spec §4): the first row that fits wins.
//            SIH                                 DSH
//   private  priv+s <= phi                       priv+s <= phi
//   shared   !qoff & w+s <= X_off & S+s <= B_s   !poff & port_shared+s <= X_poff & S+s <= B_s
//   headroom hdrm+s <= eta                       port_hdrm+s <= eta   (insurance)
//   drop     otherwise                           otherwise
// Each row is one compare against a limit from dsh_limits (value <= X - s).
// The queue comes after the cycle's dequeue, as prefix sums (dsh_deq_drain):
// priv = hsp - hs and w = hs - h. The port and S come as they were before
// the cycle, with what the dequeue drained from them. With PoolEarly (a
// chip with lanes, spec §4.9) the pool row's compare was made a stage
// earlier and comes as pool_fit_i; s_i, deq_shared_i and pool_lim_i then
// only state the contract. Combinational.
`include "dsh_assert.svh"
`default_nettype none

module dsh_enq_admit #(
  parameter int unsigned CellW = 20,
  parameter int unsigned SizeW = 8,
  parameter bit          Dsh   = 1'b1,
  parameter bit          PoolEarly = 1'b0,
  localparam int unsigned LimW = dsh_pkg::lim_w(CellW)
) (
  input  logic [CellW-1:0]       h_i,            // the queue: headroom part
  input  logic [CellW-1:0]       hs_i,           // headroom + shared
  input  logic [CellW-1:0]       hsp_i,          // headroom + shared + private
  input  logic                   qoff_i,
  input  logic [CellW-1:0]       port_shared_i,  // its port
  input  logic [CellW-1:0]       port_hdrm_i,
  input  logic [SizeW-1:0]       port_deq_shared_i,  // drained from them by the dequeue
  input  logic [SizeW-1:0]       port_deq_hdrm_i,
  input  logic                   poff_i,
  input  logic [CellW-1:0]       s_i,            // S
  input  logic [SizeW-1:0]       deq_shared_i,   // drained from S by the dequeue
  input  logic signed [LimW-1:0] pool_lim_i,
  input  logic                   pool_fit_i,     // PoolEarly: the pool row holds
  input  logic signed [LimW-1:0] priv_lim_i,
  input  logic signed [LimW-1:0] shared_lim_i,
  input  logic signed [LimW-1:0] hdrm_lim_i,
  output logic [3:0]             region_o        // one-hot {drop, headroom, shared, private}
);
  logic fits_priv, fits_shared, fits_hdrm, fits_pool, fits_xoff;

  dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_priv (
    .a_i(hsp_i), .b_i(hs_i), .add_i(SizeW'(0)), .lim_i(priv_lim_i), .le_o(fits_priv));
  if (PoolEarly) begin : gen_pool_early
    assign fits_pool = pool_fit_i;
    logic unused_pool;
    assign unused_pool = ^pool_lim_i;
  end else begin : gen_pool
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_pool (
      .a_i(s_i), .b_i(CellW'(deq_shared_i)), .add_i(SizeW'(0)), .lim_i(pool_lim_i), .le_o(fits_pool));
    logic unused_fit;
    assign unused_fit = pool_fit_i;
  end
  if (Dsh) begin : gen_dsh
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_xoff (
      .a_i(port_shared_i), .b_i(CellW'(port_deq_shared_i)), .add_i(SizeW'(0)), .lim_i(shared_lim_i), .le_o(fits_xoff));
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_hdrm (
      .a_i(port_hdrm_i), .b_i(CellW'(port_deq_hdrm_i)), .add_i(SizeW'(0)), .lim_i(hdrm_lim_i), .le_o(fits_hdrm));
    assign fits_shared = !poff_i && fits_pool && fits_xoff;
    logic unused_sih;  // the queue's own shared and headroom parts do not decide
    assign unused_sih = ^{h_i, qoff_i};
  end else begin : gen_sih
    dsh_le_diff #(.CellW(CellW), .SizeW(SizeW)) u_xoff (
      .a_i(hs_i), .b_i(h_i), .add_i(SizeW'(0)), .lim_i(shared_lim_i), .le_o(fits_xoff));
    assign fits_shared = !qoff_i && fits_pool && fits_xoff;
    assign fits_hdrm   = $signed(LimW'(h_i)) <= hdrm_lim_i;
    logic unused_dsh;
    assign unused_dsh = ^{port_shared_i, port_hdrm_i, port_deq_shared_i, port_deq_hdrm_i, poff_i};
  end

  assign region_o = {!fits_priv && !fits_shared && !fits_hdrm, !fits_priv && !fits_shared && fits_hdrm,
                     !fits_priv && fits_shared, fits_priv};
  // Contract (spec §4): the first row that fits wins, so one region; the
  // queue's parts are not negative (prefix sums in order); a dequeue drains
  // no more than its port and S hold.
  `ASSERT_COMB(RegionOneHot_A, $onehot(region_o))
  `ASSUME_COMB(QueuePrefixSums_M, h_i <= hs_i && hs_i <= hsp_i)
  `ASSUME_COMB(DeqFromS_M, CellW'(deq_shared_i) <= s_i)
  if (Dsh) begin : gen_dsh_check
    `ASSUME_COMB(DeqFromPort_M, CellW'(port_deq_shared_i) <= port_shared_i && CellW'(port_deq_hdrm_i) <= port_hdrm_i)
  end else begin : gen_sih_check
    `ASSUME_COMB(SihNoPoff_M, !poff_i)  // POFF exists only under DSH
  end
  // Cover: each row of spec §4's table in each scheme, with and without a
  // dequeue that drained the same cycle (from S, or from the port). Counts
  // evaluations: a cycle without an enqueue decides too (the MMU drops it).
  logic deq_s;
  assign deq_s = deq_shared_i != '0;
  if (Dsh) begin : gen_dsh_cover
    logic deq_port;
    assign deq_port = port_deq_shared_i != '0 || port_deq_hdrm_i != '0;
    `COVER_COMB(DshPrivate_C, region_o[0] && !deq_s && !deq_port)
    `COVER_COMB(DshPrivateDeq_C, region_o[0] && (deq_s || deq_port))
    `COVER_COMB(DshShared_C, region_o[1] && !deq_s && !deq_port)
    `COVER_COMB(DshSharedDeq_C, region_o[1] && (deq_s || deq_port))
    `COVER_COMB(DshInsurance_C, region_o[2] && !deq_s && !deq_port)
    `COVER_COMB(DshInsuranceDeq_C, region_o[2] && (deq_s || deq_port))
    `COVER_COMB(DshDrop_C, region_o[3] && !deq_s && !deq_port)
    `COVER_COMB(DshDropDeq_C, region_o[3] && (deq_s || deq_port))
    `COVER_COMB(DshSharedDeniedByPoff_C, poff_i && fits_pool && fits_xoff && !fits_priv)
  end else begin : gen_sih_cover
    `COVER_COMB(SihPrivate_C, region_o[0] && !deq_s)
    `COVER_COMB(SihPrivateDeq_C, region_o[0] && deq_s)
    `COVER_COMB(SihShared_C, region_o[1] && !deq_s)
    `COVER_COMB(SihSharedDeq_C, region_o[1] && deq_s)
    `COVER_COMB(SihHeadroom_C, region_o[2] && !deq_s)
    `COVER_COMB(SihHeadroomDeq_C, region_o[2] && deq_s)
    `COVER_COMB(SihDrop_C, region_o[3] && !deq_s)
    `COVER_COMB(SihDropDeq_C, region_o[3] && deq_s)
    `COVER_COMB(SihSharedDeniedByQoff_C, qoff_i && fits_pool && fits_xoff && !fits_priv)
  end
endmodule

`default_nettype wire
