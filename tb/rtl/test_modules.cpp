// SPDX-License-Identifier: Apache-2.0
// RTL tests per module: each combinational stage of dsh_mmu against the
// golden model (T, thresholds) or the specification's rule written out here
// (drain order, enqueue table, state machines), on exhaustive or random
// inputs; the sequential blocks (record store, counter memory, statistics)
// against a few lines of C++ that say what they hold, on random traffic;
// the egress OR gate on an event sequence. CellW = 12, SizeW = 6.
#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <iterator>
#include <random>

#include "Vcnt_ram.h"
#include "Vdeq_drain.h"
#include "Vdt_calc.h"
#include "Vegress_pause.h"
#include "Venq_admit_dsh.h"
#include "Venq_admit_sih.h"
#include "Vlimits_dsh.h"
#include "Vlimits_sih.h"
#include "Vrec_store.h"
#include "Vport_fsm.h"
#include "Vsize_terms.h"
#include "Vstats.h"
#include "Vstats_banks.h"
#include "Vqueue_fsm_dsh.h"
#include "Vqueue_fsm_sih.h"
#include "mmu.h"
#include "rtl_coverage.h"

namespace {

// A context in which a named assertion (rtl/dsh_assert.svh) that failed
// fails the test.
struct Ctx : VerilatedContext {
  Ctx() {
    fatalOnError(false);
    Verilated::threadContextp(this);
  }
  ~Ctx() { EXPECT_FALSE(gotError()) << "an RTL assertion failed (its name is in the %Error line above)"; }
};
// Declared after a test's last model: writes the context's coverage while
// the models that hold the counters still live.
struct CoverageAtEnd {
  VerilatedContext& ctx;
  ~CoverageAtEnd() { dsh::rtl_coverage::write(ctx); }
};

using dsh::Config;
using dsh::Scheme;
constexpr uint32_t kCellMax = (1u << 12) - 1;
constexpr uint32_t kSizeMax = (1u << 6) - 1;
constexpr unsigned kLimW = 12 + 9;  // dsh_limits' signed limits, full width

uint32_t lim_bits(int64_t v) { return uint32_t(v) & ((1u << kLimW) - 1); }
int64_t lim_value(uint32_t bits) {
  return (bits >> (kLimW - 1)) & 1 ? int64_t(bits) - (int64_t(1) << kLimW) : int64_t(bits);
}

// A golden model whose B_s is `bs`: one port, one queue, no private buffer.
dsh::Mmu golden_with_bs(Scheme s, uint32_t bs, uint32_t eta, int alpha, unsigned pm, uint32_t dq, uint32_t dp) {
  Config c;
  c.scheme = s;
  c.n_ports = c.n_queues = 1;
  c.private_cells = 0;
  c.headroom_cells = eta;
  c.buffer_cells = bs + eta;
  c.alpha_log2 = alpha;
  c.port_mult_log2 = pm;
  c.delta_q = dq;
  c.delta_p = dp;
  c.thresh_latency = 1;
  return dsh::Mmu(c, dsh::RtlWidths{12, 6, 8});
}

// T and X_poff = T << port_mult_log2 for every S, alpha and multiplier.
TEST(DtCalc, ExhaustiveOverSAlphaAndPortMult) {
  Ctx ctx;
  Vdt_calc dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  const uint32_t bs = 3001;
  for (int a = dsh::kAlphaLog2Min; a <= dsh::kAlphaLog2Max; ++a)
    for (unsigned m = 0; m <= dsh::kPortMultLog2Max; ++m) {
      auto g = golden_with_bs(Scheme::DSH, bs, 10, a, m, 0, 0);
      for (uint32_t s = 0; s <= bs; ++s) {
        dut.cfg_alpha_log2_i = uint8_t(a) & 0x1f;
        dut.cfg_port_mult_log2_i = m;
        dut.free_i = bs - s;  // dsh_mmu registers B_s - S
        dut.eval();
        const dsh::Thresholds x = g.thresholds_for(s);
        ASSERT_EQ(dut.t_o, x.t) << "alpha_log2=" << a << " S=" << s;
        ASSERT_EQ(dut.t_m_o, x.x_poff) << "alpha_log2=" << a << " port_mult_log2=" << m << " S=" << s;
      }
    }
}

// Each limit decides its condition of the specification as the golden thresholds do, for
// values around the threshold and anywhere: dsh_size_terms, then dsh_limits. The
// enqueue's and the dequeue's ports have eta of their own (spec §9.3): X_qoff
// and X_qon of each against a golden model with that eta.
template <class V>
void check_limits(Scheme scheme) {
  Ctx ctx;
  V dut(&ctx);
  Vsize_terms terms(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  const bool dsh = scheme == Scheme::DSH;
  std::mt19937 rng(dsh ? 7 : 8);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  for (int i = 0; i < 100000; ++i) {
    const uint32_t eta = r(300), dq = r(i % 3 ? 50 : kCellMax), dp = r(i % 3 ? 200 : kCellMax), pm = r(5);
    const uint32_t eta_deq = i % 4 ? r(300) : eta;
    const uint32_t bs = 1 + r(kCellMax - std::max(eta, eta_deq) - 1), S = r(bs), phi = r(20), s = 1 + r(kSizeMax - 1);
    const int a = int(r(13)) - 10;
    auto g = golden_with_bs(scheme, bs, eta, a, pm, dq, dp);
    auto g_deq = golden_with_bs(scheme, bs, eta_deq, a, pm, dq, dp);  // the same B_s, T
    const dsh::Thresholds x = g.thresholds_for(S), xd = g_deq.thresholds_for(S);
    terms.cells_i = s;
    terms.pool_cells_i = s;  // one lane: P_0 + s = s (spec §4.9)
    terms.cfg_shared_cells_i = bs;
    terms.cfg_private_cells_i = phi;
    terms.eta_i = eta;
    terms.eval();
    dut.t_i = uint32_t(x.t);
    dut.t_m_i = uint32_t(x.t << pm);
    dut.cells_i = s;
    dut.terms_i = terms.terms_o;  // 5 terms of 21 bits
    dut.eta_i = (eta_deq << 12) | eta;  // {dequeue's port, enqueue's}, CellW = 12 each
    dut.eta_dq_i = ((eta_deq + dq) << 13) | (eta + dq);  // CellW + 1 = 13 each
    dut.cfg_delta_q_i = dq;
    dut.cfg_delta_p_i = dp;
    dut.eval();
    const int64_t pool = lim_value(dut.pool_o), priv = lim_value(dut.priv_o), hdrm = lim_value(dut.hdrm_o),
                  shared = lim_value(dut.shared_o), qoff = lim_value(dut.qoff_o), qon = lim_value(dut.qon_o),
                  pon = lim_value(dut.pon_o), qoff_deq = lim_value(dut.qoff_deq_o), qon_deq = lim_value(dut.qon_deq_o);
    // v: near each threshold, or anywhere in the counter's range.
    const uint64_t near[] = {x.x_qoff, x.x_qon, x.x_poff, x.x_pon, bs, phi, eta, xd.x_qoff, xd.x_qon};
    constexpr int kNear = int(std::size(near));
    for (int k = 0; k <= kNear; ++k) {
      const int64_t v0 = k < kNear ? int64_t(near[k]) - s + int64_t(r(4)) - 2 : int64_t(r(kCellMax));
      const uint64_t v = uint64_t(std::clamp<int64_t>(v0, 0, kCellMax));
      const std::string at = "T=" + std::to_string(x.t) + " s=" + std::to_string(s) + " v=" + std::to_string(v);
      ASSERT_EQ(int64_t(v) <= pool, v + s <= bs) << "pool " << at;
      ASSERT_EQ(int64_t(v) <= priv, v + s <= phi) << "priv " << at;
      ASSERT_EQ(int64_t(v) <= hdrm, v + s <= eta) << "hdrm " << at;
      if (dsh) {
        ASSERT_EQ(int64_t(v) <= shared, v + s <= x.x_poff) << "X_poff " << at;
        ASSERT_EQ(!(int64_t(v) <= qoff) && v != 0, v > x.x_qoff) << "X_qoff " << at;
        ASSERT_EQ(int64_t(v) <= qon || v == 0, v <= x.x_qon) << "X_qon " << at;
        ASSERT_EQ(!(int64_t(v + s) <= qoff), v + s > x.x_qoff) << "X_qoff with s " << at;  // w + s
        ASSERT_EQ(int64_t(v + s) <= qon, v + s <= x.x_qon) << "X_qon with s " << at;
        ASSERT_EQ(int64_t(v) <= pon || v == 0, v <= x.x_pon) << "X_pon " << at;
        // The dequeue's queue: no enqueue adds to it (slot 0).
        ASSERT_EQ(!(int64_t(v) <= qoff_deq) && v != 0, v > xd.x_qoff) << "dequeue's X_qoff " << at;
        ASSERT_EQ(int64_t(v) <= qon_deq || v == 0, v <= xd.x_qon) << "dequeue's X_qon " << at;
      } else {
        ASSERT_EQ(int64_t(v) <= shared, v + s <= x.x_qoff) << "X_off " << at;
        ASSERT_EQ(int64_t(v) <= qon || v == 0, v <= x.x_qon) << "X_on " << at;
        ASSERT_EQ(qon_deq, qon) << "X_on of the dequeue's queue " << at;  // X_on uses no eta
      }
    }
  }
}
TEST(Limits, DshDecidesAsGoldenThresholds) { check_limits<Vlimits_dsh>(Scheme::DSH); }
TEST(Limits, SihDecidesAsGoldenThresholds) { check_limits<Vlimits_sih>(Scheme::SIH); }

// The previous cycle's enqueue (region r, to this queue or not), then the
// dequeue: headroom first, then shared, then private (spec §4). The
// outputs other than go_o only matter when the dequeue goes.
TEST(DeqDrain, EnqueueThenHeadroomSharedPrivate) {
  Ctx ctx;
  Vdeq_drain dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  std::mt19937 rng(3);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  int cases[4] = {}, regions[4] = {};
  for (int i = 0; i < 400000; ++i) {
    const uint32_t lim = i % 2 ? 20 : kCellMax / 4;
    uint32_t p = r(lim), w = r(lim), h = r(lim);
    const uint32_t cells = r(kSizeMax), s = 1 + r(kSizeMax - 1);
    const bool ok = r(9) != 0, to_queue = r(2);
    const unsigned region = r(3);  // 0 none or drop, 1 private, 2 shared, 3 headroom
    const uint32_t add = to_queue ? s : 0;
    dut.ok_i = ok;
    dut.cells_i = cells;
    dut.add_i = add;
    dut.add_less_cells_i = add + (1u << 6) - cells;  // a + 2^SizeW - c
    dut.h_i = h;  // prefix sums in drain order
    dut.hs_i = h + w;
    dut.hsp_i = h + w + p;
    dut.region_i = region ? 1u << (region - 1) : 0;
    dut.eval();
    if (to_queue) (region == 1 ? p : region == 2 ? w : h) += region ? s : 0;  // the enqueue first
    ++regions[region];
    const bool go = ok && uint64_t(p) + w + h >= cells;
    ASSERT_EQ(bool(dut.go_o), go) << "case " << i;
    if (!go) {  // the other outputs are meaningless
      ++cases[3];
      continue;
    }
    const uint32_t fh = std::min(cells, h), fs = std::min(cells - fh, w), fp = cells - fh - fs;
    ++cases[fh == cells ? 0 : fs == cells - fh ? 1 : 2];
    const std::string at = "case " + std::to_string(i) + " region " + std::to_string(region);
    ASSERT_EQ(uint32_t(dut.h_o), h - fh) << at;
    ASSERT_EQ(uint32_t(dut.hs_o), h - fh + w - fs) << at;
    ASSERT_EQ(uint32_t(dut.hsp_o), h - fh + w - fs + p - fp) << at;
    ASSERT_EQ(uint32_t(dut.dh_o), fh) << at;
    ASSERT_EQ(uint32_t(dut.dw_o), fs) << at;
  }
  for (int k = 0; k < 4; ++k) EXPECT_GT(cases[k], 10000) << "drain case " << k << " (3: no drain) rarely exercised";
  for (int k = 0; k < 4; ++k) EXPECT_GT(regions[k], 50000) << "region " << k;
}

// spec §4 table: the region comes out one-hot {drop, headroom/insurance,
// shared, private}.
template <class V>
void check_admit(bool dsh) {
  Ctx ctx;
  V dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  std::mt19937 rng(dsh ? 11 : 12);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  int seen[4] = {};
  for (int i = 0; i < 200000; ++i) {
    const uint32_t phi = r(12), eta = r(40), bs = 50 + r(400), s = 1 + r(kSizeMax - 1);
    const bool qoff = r(3) == 0, poff = r(3) == 0 && dsh;  // POFF exists only under DSH
    const uint32_t xoff = r(600);  // SIH X_off = T; DSH X_poff
    const uint32_t p = r(phi), w = r(bs), h = r(eta), ps = r(bs), ph = r(eta), S = r(bs);
    // The port and S before the dequeue, and what it drained from them.
    const uint32_t dwp = r(std::min(ps, kSizeMax)), dhp = r(std::min(ph, kSizeMax)), dw = r(std::min(S, kSizeMax));
    dut.h_i = h;  // prefix sums in drain order, after the dequeue
    dut.hs_i = h + w;
    dut.hsp_i = h + w + p;
    dut.qoff_i = qoff;
    dut.port_shared_i = ps + dwp;
    dut.port_hdrm_i = ph + dhp;
    dut.port_deq_shared_i = dwp;
    dut.port_deq_hdrm_i = dhp;
    dut.poff_i = poff;
    dut.s_i = S + dw;
    dut.deq_shared_i = dw;
    dut.pool_lim_i = lim_bits(int64_t(bs) - s);
    dut.priv_lim_i = lim_bits(int64_t(phi) - s);
    dut.shared_lim_i = lim_bits(int64_t(xoff) - s);
    dut.hdrm_lim_i = lim_bits(int64_t(eta) - s);
    dut.eval();
    int want;  // bit of the one-hot region
    if (p + s <= phi) want = 0;
    else if (dsh ? (!poff && ps + s <= xoff && S + s <= bs) : (!qoff && w + s <= xoff && S + s <= bs))
      want = 1;
    else if ((dsh ? ph : h) + s <= eta) want = 2;
    else want = 3;
    ASSERT_EQ(uint32_t(dut.region_o), 1u << want) << "case " << i;
    ++seen[want];
  }
  for (int k = 0; k < 4; ++k) EXPECT_GT(seen[k], 5000) << "region bit " << k << " rarely exercised";
}
TEST(EnqAdmit, DshTable) { check_admit<Venq_admit_dsh>(true); }
TEST(EnqAdmit, SihTable) { check_admit<Venq_admit_sih>(false); }

// The queue's state after an enqueue into `region` (0 none or drop, 1
// private, 2 shared, 3 headroom) of s cells, as the golden model's
// admission and run_queue_fsm do; T from 0 to 60 so that T - eta and
// T - eta - dq cross zero.
template <class V>
void check_queue_fsm(bool dsh) {
  Ctx ctx;
  V dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  std::mt19937 rng(dsh ? 21 : 22);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  const uint32_t eta = dsh ? 8 : 0;
  for (int qoff = 0; qoff < 2; ++qoff)
    for (uint32_t w = 0; w < 40; ++w)
      for (uint32_t h = 0; h < 3; ++h)
        for (uint32_t t = 0; t < 60; t += 3)
          for (unsigned region = 0; region < 4; ++region) {
            if (!dsh && region == 2 && qoff) continue;  // SIH admits to shared only in QON
            const uint32_t dq = r(6), s = 1 + r(10);
            const int64_t x_off = dsh ? std::max<int64_t>(int64_t(t) - eta, 0) : t;
            const int64_t x_on = std::max<int64_t>(x_off - dq, 0);
            dut.qoff_i = qoff;
            dut.h_i = h;  // prefix sums in drain order
            dut.hs_i = h + w;
            dut.region_i = region ? 1u << (region - 1) : 0;
            dut.cells_i = s;
            dut.qoff_lim_i = lim_bits(int64_t(t) - eta);
            dut.qon_lim_i = lim_bits(int64_t(t) - eta - dq);
            dut.eval();
            const uint32_t w2 = w + (region == 2 ? s : 0), h2 = h + (region == 3 ? s : 0);
            bool pause, resume;
            if (dsh) {
              pause = !qoff && w2 > x_off;
              resume = qoff && !pause && w2 <= x_on;
            } else {
              pause = !qoff && region == 3;  // on entering the headroom
              resume = qoff && h2 == 0 && w2 <= x_on;
            }
            const std::string at = "qoff " + std::to_string(qoff) + " w " + std::to_string(w) + " h " +
                                   std::to_string(h) + " T " + std::to_string(t) + " region " +
                                   std::to_string(region) + " s " + std::to_string(s) + " dq " + std::to_string(dq);
            ASSERT_EQ(bool(dut.pause_o), pause) << at;
            ASSERT_EQ(bool(dut.resume_o), resume) << at;
            ASSERT_EQ(bool(dut.qoff_o), pause || (qoff && !resume)) << at;
          }
}
TEST(QueueFsm, Dsh) { check_queue_fsm<Vqueue_fsm_dsh>(true); }
TEST(QueueFsm, Sih) { check_queue_fsm<Vqueue_fsm_sih>(false); }

TEST(PortFsm, PauseOnInsuranceResumeOnEmptyInsuranceAndXpon) {
  Ctx ctx;
  Vport_fsm dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  std::mt19937 rng(23);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  for (int poff = 0; poff < 2; ++poff)
    for (uint32_t ps = 0; ps < 60; ++ps)
      for (uint32_t ph = 0; ph < 3; ++ph)
        for (uint32_t xpoff = 0; xpoff < 60; xpoff += 2)
          for (unsigned region = 0; region < 4; ++region) {
            if (region == 2 && poff) continue;  // a shared admission needs PON
            const uint32_t dp = r(8), s = 1 + r(10);
            const uint32_t dws = r(20), dhs = r(4);  // drained this cycle by a dequeue
            dut.poff_i = poff;
            dut.shared_i = ps + dws;  // before the dequeue
            dut.hdrm_i = ph + dhs;
            dut.deq_shared_i = dws;
            dut.deq_hdrm_i = dhs;
            dut.region_i = region ? 1u << (region - 1) : 0;
            dut.pon_lim_i = lim_bits(int64_t(xpoff) - dp);
            dut.eval();
            const uint32_t ph2 = ph + (region == 3 ? s : 0);
            const bool pause = !poff && region == 3;
            const bool resume = poff && ph2 == 0 && ps <= std::max<int64_t>(int64_t(xpoff) - dp, 0);
            ASSERT_EQ(bool(dut.pause_o), pause);
            ASSERT_EQ(bool(dut.resume_o), resume) << poff << ' ' << ps << ' ' << ph << ' ' << xpoff << ' ' << region;
            ASSERT_EQ(bool(dut.poff_o), pause || (poff && !resume));
          }
}

// A clocked DUT: reset for three edges, then one edge per call.
template <class D>
void reset(D& dut) {
  dut.clk_i = 0;
  dut.rst_ni = 0;
  dut.eval();
  for (int i = 0; i < 3; ++i) {
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
    dut.eval();
  }
  dut.rst_ni = 1;
  dut.eval();
}
template <class D>
void edge(D& dut) {
  dut.clk_i = 1;
  dut.eval();
  dut.clk_i = 0;
  dut.eval();
}

// dsh_rec_store, 3 ports x 2 queues, CellW 12: records read as zero until
// their first write (an enqueue's), reads return what the last write left,
// slot 1 wins when both slots write one record, and the state bits leave as
// vectors.
TEST(RecStore, HoldsWhatWasWrittenSlotOneWins) {
  Ctx ctx;
  Vrec_store dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  reset(dut);
  constexpr unsigned kQ = 6, kP = 3;
  struct QRec { uint64_t bits = 0; bool valid = false; };  // {qoff, hsp, hs, h}
  struct PRec { uint64_t bits = 0; bool valid = false; };  // {poff, hdrm, shared}
  QRec q[kQ];
  PRec p[kP];
  std::mt19937_64 rng(17);
  const uint64_t qmask = (uint64_t(1) << 37) - 1, pmask = (uint64_t(1) << 25) - 1;
  unsigned both_same = 0;
  for (int i = 0; i < 20000; ++i) {
    const unsigned rq0 = rng() % kQ, rq1 = rng() % kQ, rp0 = rng() % kP, rp1 = rng() % kP, rps = rng() % kP;
    // Each read's index comes in copies: the valid bits, the state bits and
    // one per memory slice (3-bit queue indices x 11, 2-bit port indices x 8).
    auto copies = [](uint64_t i, unsigned bits, unsigned n) {
      uint64_t v = 0;
      for (unsigned k = 0; k < n; ++k) v |= i << (k * bits);
      return v;
    };
    dut.rd_deq_idx_i = copies(rq0, 3, 11);
    dut.rd_enq_idx_i = copies(rq1, 3, 11);
    dut.rd_deq_p_i = copies(rp0, 2, 8);
    dut.rd_enq_p_i = copies(rp1, 2, 8);
    dut.rd_stat_p_i = rps;
    dut.eval();
    auto qv = [&](unsigned k) { return q[k].valid ? q[k].bits : 0; };
    auto pv = [&](unsigned k) { return p[k].valid ? p[k].bits : 0; };
    ASSERT_EQ(dut.rd_deq_qrec_o, qv(rq0)) << "step " << i;
    ASSERT_EQ(dut.rd_enq_qrec_o, qv(rq1)) << "step " << i;
    ASSERT_EQ(dut.rd_deq_prec_o, pv(rp0)) << "step " << i;
    ASSERT_EQ(dut.rd_enq_prec_o, pv(rp1)) << "step " << i;
    ASSERT_EQ(dut.rd_stat_prec_o, pv(rps)) << "step " << i;
    uint64_t qoff = 0, poff = 0;
    // Entry k is queue k / kP of port k % kP (queue-major); qoff_o's bit of
    // queue (p, q) is p * 2 + q.
    for (unsigned k = 0; k < kQ; ++k) qoff |= uint64_t(qv(k) >> 36 & 1) << (k % kP * 2 + k / kP);
    for (unsigned k = 0; k < kP; ++k) poff |= uint64_t(pv(k) >> 24 & 1) << k;
    ASSERT_EQ(dut.qoff_o, qoff) << "step " << i;
    ASSERT_EQ(dut.poff_o, poff) << "step " << i;
    // A dequeue writes only a record an enqueue wrote before.
    const bool w0 = rng() % 2 && q[rq0].valid && p[rq0 % kP].valid, w1 = rng() % 3 != 0;
    const unsigned wq0 = rq0, wq1 = rng() % 4 == 0 ? rq0 : rng() % kQ;
    const unsigned wp0 = wq0 % kP, wp1 = wq1 % kP;
    const uint64_t d0 = rng() & qmask, d1 = rng() & qmask, e0 = rng() & pmask, e1 = rng() & pmask;
    dut.wr_deq_i = w0;
    dut.wr_deq_idx_i = wq0;
    dut.wr_deq_bit_i = wq0 % kP * 2 + wq0 / kP;  // its bit of qoff_o
    dut.wr_deq_p_i = wp0;
    dut.wr_deq_qrec_i = d0;
    dut.wr_deq_prec_i = e0;
    dut.wr_enq_i = w1;
    dut.wr_enq_idx_i = wq1;
    dut.wr_enq_bit_i = wq1 % kP * 2 + wq1 / kP;
    dut.wr_enq_p_i = wp1;
    dut.wr_enq_qrec_i = d1;
    dut.wr_enq_prec_i = e1;
    edge(dut);
    if (w0) q[wq0].bits = d0, p[wp0].bits = e0;
    if (w1) q[wq1] = {d1, true}, p[wp1] = {e1, true};
    both_same += w0 && w1 && wq0 == wq1;
  }
  EXPECT_GT(both_same, 100u);
}

// dsh_cnt_ram, 5 entries of 6 bits, 2 slots: every count lands, through
// back-to-back counts of one entry (the two-deep bypass) and wraps; entries
// read 0 until their first count. Entries are named two cycles before the
// cycle that counts them (stage D, then E, then W counts). Each index in 3
// copies, each reading 2 bits of the count.
TEST(CntRam, CountsEveryEventBackToBack) {
  Ctx ctx;
  Vcnt_ram dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  reset(dut);
  uint32_t ref[5] = {};
  std::mt19937 rng(23);
  unsigned name0[2] = {0, 0}, name1[2] = {1, 1};  // [0] named last cycle, [1] the cycle before
  unsigned back_to_back = 0, last0 = 9, last1 = 9;
  for (int i = 0; i < 40000; ++i) {
    // Mostly the same entries again; never one entry counted in both slots.
    const unsigned i0 = rng() % 3 ? name0[0] : rng() % 5, i1 = rng() % 3 ? name1[0] : rng() % 5;
    const bool inc0 = i > 1 && rng() % 2;
    const bool inc1 = i > 1 && rng() % 2 && !(inc0 && name0[1] == name1[1]);
    dut.rmw_idx_i = (i1 << 3 | i0) * 0x1041u;  // 3 copies of {slot 1, slot 0}, 6 bits apart
    dut.inc_i = unsigned(inc1) << 1 | unsigned(inc0);
    // The read port is a registered read: what the entry held before the edge.
    const unsigned rd = rng() % 5;
    dut.rd_idx_i = rd * 0x49u;  // 3 copies, 3 bits apart
    const uint32_t want = ref[rd];
    edge(dut);
    ASSERT_EQ(dut.rd_o, want) << "step " << i << " entry " << rd;
    if (inc0) ref[name0[1]] = (ref[name0[1]] + 1) & 63;
    if (inc1) ref[name1[1]] = (ref[name1[1]] + 1) & 63;
    back_to_back += (inc0 && last0 == name0[1]) + (inc1 && last1 == name1[1]);
    last0 = inc0 ? name0[1] : 9;
    last1 = inc1 ? name1[1] : 9;
    name0[1] = name0[0], name0[0] = i0;
    name1[1] = name1[0], name1[0] = i1;
  }
  EXPECT_GT(back_to_back, 1000u);
  dut.inc_i = 0;
  for (unsigned e = 0; e < 5; ++e) {
    dut.rd_idx_i = e * 0x49u;
    edge(dut);
    EXPECT_EQ(dut.rd_o, ref[e]);
  }
}

// dsh_stats with dsh_rd_port and dsh_err_count (tb/rtl/dsh_stats_tb.sv), 3
// ports x 2 queues, DSH, 6-bit counters: the read port answers three edges
// after the request with the counts (resumes = pauses - state bit), the
// error count adds one per erroneous event and wraps. Both arrangements of
// the PAUSE counters: one memory with two counting slots, and a bank per
// slot (PauseBanks = 2).
template <class Dut>
void stats_read_port_and_error_count() {
  Ctx ctx;
  Dut dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  reset(dut);
  uint32_t drops[6] = {}, qpauses[6] = {}, ppauses[3] = {}, errors = 0;
  bool sticky = false;
  std::mt19937 rng(29);
  // Entries named two cycles before the cycle that counts them: [1] oldest.
  unsigned deq[2] = {0, 0}, enq[2] = {1, 1};
  for (int i = 0; i < 20000; ++i) {
    const bool qp0 = i > 1 && rng() % 4 == 0, qp1 = i > 1 && rng() % 4 == 0 && !(qp0 && deq[1] == enq[1]);
    const bool drop = i > 1 && rng() % 3 == 0, pp = i > 1 && rng() % 5 == 0;
    const unsigned err = rng() % 4;
    dut.w_qpause0_i = qp0;
    dut.w_qpause1_i = qp1;
    dut.w_drop_i = drop;
    dut.w_ppause_i = pp;
    dut.w_error_i = err;
    const unsigned nd = rng() % 6, ne = rng() % 6;
    dut.deq_idx_i = nd;
    dut.enq_idx_i = ne << 3 | ne;  // a copy for each counter memory
    dut.enq_p_i = ne % 3;  // entries are queue-major: entry = queue * 3 + port
    dut.stat_rd_port_i = 0;
    dut.stat_rd_queue_i = 0;
    dut.qoff_i = 0;
    dut.rd_prec_i = 0;
    edge(dut);
    if (qp0) qpauses[deq[1]] = (qpauses[deq[1]] + 1) & 63;
    if (qp1) qpauses[enq[1]] = (qpauses[enq[1]] + 1) & 63;
    if (drop) drops[enq[1]] = (drops[enq[1]] + 1) & 63;
    if (pp) ppauses[enq[1] % 3] = (ppauses[enq[1] % 3] + 1) & 63;
    errors = (errors + (err & 1) + (err >> 1)) & 63;
    sticky |= err != 0;
    ASSERT_EQ(dut.error_count_o, errors) << "step " << i;
    ASSERT_EQ(dut.error_sticky_o, sticky) << "step " << i;
    deq[1] = deq[0], deq[0] = nd;
    enq[1] = enq[0], enq[0] = ne;
  }
  dut.w_qpause0_i = dut.w_qpause1_i = dut.w_drop_i = dut.w_ppause_i = 0;
  dut.w_error_i = 0;
  const uint64_t qoff = 0b101101;  // state bits the store would show
  for (unsigned port = 0; port < 4; ++port)
    for (unsigned queue = 0; queue < 2; ++queue) {
      dut.stat_rd_port_i = port;
      dut.stat_rd_queue_i = queue;
      dut.qoff_i = qoff;
      edge(dut);
      ASSERT_EQ(dut.rd_p_o, port < 3 ? port : 0u);
      const bool poff = port % 2;
      dut.rd_prec_i = uint64_t(poff) << 24 | uint64_t(port + 7) << 12 | (port + 9);
      edge(dut);
      edge(dut);
      const unsigned i = queue * 3 + port, b = port * 2 + queue;  // counter entry, qoff_i bit
      const bool ok = port < 3;
      const std::string at = "read " + std::to_string(port) + "." + std::to_string(queue);
      EXPECT_EQ(dut.stat_rd_drops_o, ok ? drops[i] : 0) << at;
      EXPECT_EQ(dut.stat_rd_pauses_o, ok ? qpauses[i] : 0) << at;
      EXPECT_EQ(dut.stat_rd_resumes_o, ok ? (qpauses[i] - (qoff >> b & 1)) & 63 : 0) << at;
      EXPECT_EQ(dut.stat_rd_port_pauses_o, ok ? ppauses[port] : 0) << at;
      EXPECT_EQ(dut.stat_rd_port_resumes_o, ok ? (ppauses[port] - poff) & 63 : 0) << at;
      EXPECT_EQ(dut.stat_rd_port_hdrm_o, ok ? port + 7 : 0) << at;
      EXPECT_EQ(dut.stat_rd_port_shared_o, ok ? port + 9 : 0) << at;
    }
}

TEST(Stats, ReadPortAndErrorCount) { stats_read_port_and_error_count<Vstats>(); }
TEST(Stats, ReadPortAndErrorCountTwoPauseBanks) { stats_read_port_and_error_count<Vstats_banks>(); }

TEST(EgressPause, OrGateOfQueueAndPortState) {
  Ctx ctx;
  Vegress_pause dut(&ctx);
  CoverageAtEnd coverage_at_end{ctx};
  auto clock = [&] {
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
    dut.eval();
  };
  dut.clk_i = 0;
  dut.rst_ni = 1;
  dut.eval();
  dut.rst_ni = 0;  // a falling edge: the asynchronous reset runs
  dut.eval();
  dut.rst_ni = 1;
  dut.eval();
  EXPECT_EQ(dut.tx_pause_o, 0u);
  std::mt19937 rng(5);
  uint32_t q_paused = 0;
  bool port_paused = false;
  for (int i = 0; i < 20000; ++i) {
    const bool qv = rng() % 2, qp = rng() % 2, pv = rng() % 5 == 0, pp = rng() % 2;
    const uint32_t q = rng() % 8;
    dut.q_evt_valid_i = qv;
    dut.q_evt_pause_i = qp;
    dut.q_evt_queue_i = q;
    dut.p_evt_valid_i = pv;
    dut.p_evt_pause_i = pp;
    clock();
    if (qv) q_paused = qp ? (q_paused | (1u << q)) : (q_paused & ~(1u << q));
    if (pv) port_paused = pp;
    ASSERT_EQ(dut.tx_pause_o, port_paused ? 0xffu : q_paused) << "step " << i;
  }
}

}  // namespace
