// RTL tests per module: each combinational stage of dsh_mmu against the
// golden model (thresholds) or the contract's rule written out here (drain
// order, enqueue table, state machines), on exhaustive or random inputs;
// the egress OR gate on an event sequence. CellW = 12, SizeW = 6.
#include <gtest/gtest.h>
#include <verilated.h>

#include <random>

#include "Vdt_calc.h"
#include "Vdeq_drain.h"
#include "Vegress_pause.h"
#include "Vlin_cmp.h"
#include "Vonehot_read.h"
#include "Venq_decide_dsh.h"
#include "Venq_decide_sih.h"
#include "Vport_fsm.h"
#include "Vqueue_fsm_dsh.h"
#include "Vqueue_fsm_sih.h"
#include "Vthresholds_dsh.h"
#include "Vthresholds_sih.h"
#include "mmu.h"

namespace {

using dsh::Config;
using dsh::Scheme;
constexpr uint32_t kCellMax = (1u << 12) - 1;
constexpr uint32_t kSizeMax = (1u << 6) - 1;

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

TEST(DtCalc, ExhaustiveOverSAndAlpha) {
  VerilatedContext ctx;
  Vdt_calc dut(&ctx);
  const uint32_t bs = 3001;
  for (int a = dsh::kAlphaLog2Min; a <= dsh::kAlphaLog2Max; ++a) {
    auto g = golden_with_bs(Scheme::DSH, bs, 10, a, 0, 0, 0);
    for (uint32_t s = 0; s <= bs; ++s) {
      dut.cfg_alpha_log2_i = uint8_t(a) & 0x1f;
      dut.free_i = bs - s;  // dsh_mmu registers B_s - S beside S
      dut.eval();
      ASSERT_EQ(dut.t_o, g.thresholds_for(s).t) << "alpha_log2=" << a << " S=" << s;
    }
  }
}

template <class V>
void check_thresholds(Scheme scheme) {
  VerilatedContext ctx;
  V dut(&ctx);
  std::mt19937 rng(7);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  for (int i = 0; i < 200000; ++i) {
    const uint32_t eta = r(300), dq = r(i % 3 ? 50 : kCellMax), dp = r(i % 3 ? 200 : kCellMax), pm = r(5);
    const uint32_t bs = 1 + r(kCellMax - eta - 1), s = r(bs);
    const int a = int(r(13)) - 10;
    auto g = golden_with_bs(scheme, bs, eta, a, pm, dq, dp);
    const dsh::Thresholds want = g.thresholds_for(s);
    dut.t_i = uint32_t(want.t);
    dut.cfg_headroom_cells_i = eta;
    dut.cfg_delta_q_i = dq;
    dut.cfg_delta_p_i = dp;
    dut.cfg_port_mult_log2_i = pm;
    dut.eval();
    ASSERT_EQ(dut.x_qoff_o, want.x_qoff) << "T=" << want.t << " eta=" << eta;
    ASSERT_EQ(dut.x_qon_o, want.x_qon) << "T=" << want.t << " eta=" << eta << " delta_q=" << dq;
    ASSERT_EQ(dut.x_poff_o, want.x_poff) << "T=" << want.t << " port_mult_log2=" << pm;
    ASSERT_EQ(dut.x_pon_o, want.x_pon) << "T=" << want.t << " delta_p=" << dp;
  }
}
TEST(Thresholds, DshMatchesGolden) { check_thresholds<Vthresholds_dsh>(Scheme::DSH); }
TEST(Thresholds, SihMatchesGolden) { check_thresholds<Vthresholds_sih>(Scheme::SIH); }

// A value in the RTL's linear form a + b + c - d: four 12-bit fields
// {d, c, b, a} (dsh_lin_cmp).
uint64_t lin(uint32_t a, uint32_t b = 0, uint32_t c = 0, uint32_t d = 0) {
  return uint64_t(a) | uint64_t(b) << 12 | uint64_t(c) << 24 | uint64_t(d) << 36;
}
uint32_t lin_value(uint64_t v) {
  auto f = [&](int k) { return uint32_t(v >> (12 * k)) & kCellMax; };
  return (f(0) + f(1) + f(2) - f(3)) & kCellMax;
}
// v (<= kCellMax - 200) split at random into a + b + c - d.
template <class R>
uint64_t random_lin(uint32_t v, R& rng) {
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  const uint32_t d = r(100), b = r(std::min(v, 50u)), c = r(std::min(v - b, 50u));
  return lin(v - b - c + d, b, c, d);
}
// Packed vectors of 48-bit linear forms (Verilator words).
template <class W>
void put_lin(W& w, unsigned k, uint64_t v) {
  for (unsigned i = 0; i < 48; ++i) {
    const unsigned bit = 48 * k + i;
    if ((v >> i) & 1) w[bit / 32] |= 1u << (bit % 32);
    else w[bit / 32] &= ~(1u << (bit % 32));
  }
}
template <class W>
uint64_t get_lin(const W& w, unsigned k) {
  uint64_t v = 0;
  for (unsigned i = 0; i < 48; ++i) {
    const unsigned bit = 48 * k + i;
    v |= uint64_t((w[bit / 32] >> (bit % 32)) & 1) << i;
  }
  return v;
}

TEST(LinCmp, SumOfTermsAgainstLimit) {
  VerilatedContext ctx;
  Vlin_cmp dut(&ctx);
  std::mt19937 rng(5);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  for (int i = 0; i < 300000; ++i) {
    const uint32_t v = r(i % 2 ? 60 : kCellMax - 200), add = r(kSizeMax);
    const uint32_t k = i % 3 ? v + add + r(4) - 2 : r((1u << 14) - 1);  // near the boundary, or anywhere
    dut.v_i = random_lin(v, rng);
    dut.add_i = add;
    dut.k_i = k & ((1u << 14) - 1);
    dut.eval();
    ASSERT_EQ(bool(dut.le_o), int64_t(v) + add <= int64_t(k & ((1u << 14) - 1))) << v << '+' << add << " <= " << k;
  }
}

// Entries = 5 (padded to 8 leaves), Width = 7.
TEST(OnehotRead, ReadsTheSelectedEntryOrZero) {
  VerilatedContext ctx;
  Vonehot_read dut(&ctx);
  std::mt19937_64 rng(11);
  for (int i = 0; i < 2000; ++i) {
    const uint64_t data = rng() & ((uint64_t(1) << 35) - 1);
    dut.data_i = data;
    for (int e = -1; e < 5; ++e) {
      dut.sel_i = e < 0 ? 0 : 1u << e;
      dut.eval();
      const uint64_t want = e < 0 ? 0 : (data >> (7 * e)) & 0x7f;
      ASSERT_EQ(uint64_t(dut.data_o), want) << "entry " << e << " data 0x" << std::hex << data;
    }
  }
}

TEST(DeqDrain, HeadroomThenSharedThenPrivate) {
  VerilatedContext ctx;
  Vdeq_drain dut(&ctx);
  std::mt19937 rng(3);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  int cases[3] = {};
  for (int i = 0; i < 300000; ++i) {
    const uint32_t lim = i % 2 ? 20 : kCellMax / 4;
    const uint32_t p = r(lim), s = r(lim), h = r(lim);
    // Port sums and S hold at least the queue's own parts (contract §2).
    const uint32_t ps = s + r(lim), ph = h + r(lim), S = ps + r(lim);
    const uint32_t cells = r(kSizeMax);
    dut.priv_i = p;
    dut.shared_i = s;
    dut.hdrm_i = h;
    dut.port_shared_i = ps;
    dut.port_hdrm_i = ph;
    dut.s_i = S;
    dut.cells_i = cells;
    dut.eval();
    const bool ok = uint64_t(p) + s + h >= cells;
    ASSERT_EQ(bool(dut.ok_o), ok);
    if (!ok) continue;
    const uint32_t fh = std::min(cells, h), fs = std::min(cells - fh, s), fp = cells - fh - fs;
    const unsigned k = fh == cells ? 0 : fs == cells - fh ? 1 : 2;  // the contract's case
    ASSERT_EQ(uint32_t(dut.case_o), 1u << k) << p << ' ' << s << ' ' << h << ' ' << cells;
    ++cases[k];
    ASSERT_EQ(lin_value(get_lin(dut.hdrm_o, k)), h - fh);
    ASSERT_EQ(lin_value(get_lin(dut.shared_o, k)), s - fs);
    ASSERT_EQ(lin_value(get_lin(dut.priv_o, k)), p - fp);
    ASSERT_EQ(lin_value(get_lin(dut.port_shared_o, k)), ps - fs);
    ASSERT_EQ(lin_value(get_lin(dut.port_hdrm_o, k)), ph - fh);
    ASSERT_EQ(lin_value(get_lin(dut.s_o, k)), S - fs);
  }
  for (int k = 0; k < 3; ++k) EXPECT_GT(cases[k], 10000) << "drain case " << k << " rarely exercised";
}

// Contract §4 table, for 4 scenarios at once: each names its queue, port
// and S candidate (of 4) with one-hot selects; the region comes out one-hot
// {drop, headroom/insurance, shared, private} per scenario. Every candidate
// holds a plausible state, so a wrong select gives a wrong region.
template <class V>
void check_enqueue(bool dsh) {
  VerilatedContext ctx;
  V dut(&ctx);
  std::mt19937 rng(dsh ? 11 : 12);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  int seen[4] = {};
  for (int i = 0; i < 100000; ++i) {
    const uint32_t phi = r(12), eta = r(40), bs = 50 + r(400), cells = 1 + r(kSizeMax - 1);
    const bool qoff = r(3) == 0, poff = r(3) == 0;
    const uint32_t xq = r(600), xp = r(3000);
    uint32_t priv[4], shared[4], hdrm[4], pshared[4], phdrm[4], s[4];
    for (unsigned k = 0; k < 4; ++k) {
      priv[k] = r(phi), shared[k] = r(bs), hdrm[k] = r(eta), pshared[k] = r(bs), phdrm[k] = r(eta), s[k] = r(bs);
      put_lin(dut.priv_i, k, random_lin(priv[k], rng));
      put_lin(dut.shared_i, k, random_lin(shared[k], rng));
      put_lin(dut.hdrm_i, k, random_lin(hdrm[k], rng));
      put_lin(dut.port_shared_i, k, random_lin(pshared[k], rng));
      put_lin(dut.port_hdrm_i, k, random_lin(phdrm[k], rng));
      put_lin(dut.s_i, k, random_lin(s[k], rng));
    }
    unsigned kq[4], kp[4], ks[4];
    uint32_t qsel = 0, psel = 0, ssel = 0;
    for (unsigned j = 0; j < 4; ++j) {
      kq[j] = r(3), kp[j] = r(3), ks[j] = r(3);
      qsel |= 1u << (4 * j + kq[j]);
      psel |= 1u << (4 * j + kp[j]);
      ssel |= 1u << (4 * j + ks[j]);
    }
    dut.cells_i = cells;
    dut.qsel_i = qsel;
    dut.psel_i = psel;
    dut.ssel_i = ssel;
    dut.qoff_i = qoff;
    dut.poff_i = poff;
    dut.x_qoff_i = xq;
    dut.x_poff_i = xp;
    dut.cfg_private_cells_i = phi;
    dut.cfg_headroom_cells_i = eta;
    dut.cfg_shared_cells_i = bs;
    dut.eval();
    for (unsigned j = 0; j < 4; ++j) {
      const unsigned q = kq[j], p = kp[j], t = ks[j];
      int want;  // bit of the one-hot region
      if (priv[q] + cells <= phi) want = 0;
      else if (dsh ? (!poff && pshared[p] + cells <= xp && s[t] + cells <= bs)
                   : (!qoff && shared[q] + cells <= xq && s[t] + cells <= bs))
        want = 1;
      else if ((dsh ? phdrm[p] : hdrm[q]) + cells <= eta) want = 2;
      else want = 3;
      ASSERT_EQ((uint32_t(dut.region_o) >> (4 * j)) & 0xf, 1u << want) << "case " << i << " scenario " << j;
      ++seen[want];
    }
  }
  for (int k = 0; k < 4; ++k) EXPECT_GT(seen[k], 4000) << "region bit " << k << " rarely exercised";
}
TEST(EnqDecide, DshTable) { check_enqueue<Venq_decide_dsh>(true); }
TEST(EnqDecide, SihTable) { check_enqueue<Venq_decide_sih>(false); }

// The occupancies come as a random linear form plus a random part of them
// as the added packet.
template <class V>
void check_queue_fsm(bool dsh) {
  VerilatedContext ctx;
  V dut(&ctx);
  std::mt19937 rng(dsh ? 21 : 22);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  for (int qoff = 0; qoff < 2; ++qoff)
    for (uint32_t w = 0; w < 40; ++w)
      for (uint32_t h = 0; h < 3; ++h)
        for (uint32_t xoff = 0; xoff < 40; xoff += 3)
          for (uint32_t xon = 0; xon <= xoff; xon += 2) {
            const uint32_t wa = r(w), ha = r(h);
            dut.qoff_i = qoff;
            dut.shared_i = random_lin(w - wa, rng);
            dut.shared_add_i = wa;
            dut.hdrm_i = random_lin(h - ha, rng);
            dut.hdrm_add_i = ha;
            dut.x_qoff_i = xoff;
            dut.x_qon_i = xon;
            dut.eval();
            const bool pause = dsh && !qoff && w > xoff;
            const bool resume = qoff && w <= xon && (dsh || h == 0);
            ASSERT_EQ(bool(dut.pause_o), pause) << qoff << ' ' << w << ' ' << h << ' ' << xoff << ' ' << xon;
            ASSERT_EQ(bool(dut.resume_o), resume) << qoff << ' ' << w << ' ' << h << ' ' << xoff << ' ' << xon;
            ASSERT_EQ(bool(dut.qoff_o), pause || (qoff && !resume));
          }
}
TEST(QueueFsm, Dsh) { check_queue_fsm<Vqueue_fsm_dsh>(true); }
TEST(QueueFsm, Sih) { check_queue_fsm<Vqueue_fsm_sih>(false); }

TEST(PortFsm, ResumeNeedsEmptyInsuranceAndSharedAtXpon) {
  VerilatedContext ctx;
  Vport_fsm dut(&ctx);
  std::mt19937 rng(23);
  auto r = [&](uint32_t hi) { return std::uniform_int_distribution<uint32_t>(0, hi)(rng); };
  for (int poff = 0; poff < 2; ++poff)
    for (uint32_t ps = 0; ps < 60; ++ps)
      for (uint32_t ph = 0; ph < 3; ++ph)
        for (uint32_t xpon = 0; xpon < 60; ++xpon) {
          const uint32_t sa = r(ps), ha = r(ph);
          dut.poff_i = poff;
          dut.port_shared_i = random_lin(ps - sa, rng);
          dut.shared_add_i = sa;
          dut.port_hdrm_i = random_lin(ph - ha, rng);
          dut.hdrm_add_i = ha;
          dut.x_pon_i = xpon;
          dut.eval();
          const bool resume = poff && ph == 0 && ps <= xpon;
          ASSERT_EQ(bool(dut.resume_o), resume);
          ASSERT_EQ(bool(dut.poff_o), poff && !resume);
        }
}

TEST(EgressPause, OrGateOfQueueAndPortState) {
  VerilatedContext ctx;
  Vegress_pause dut(&ctx);
  auto clock = [&] {
    dut.clk_i = 1;
    dut.eval();
    dut.clk_i = 0;
    dut.eval();
  };
  dut.rst_ni = 0;
  dut.clk_i = 0;
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
