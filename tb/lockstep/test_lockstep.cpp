// RTL against the golden model, every output and all state every cycle, on
// constrained-random bursty and adversarial traffic, for every parameter set
// built into this binary. A mismatch fails with the one-line-per-field report
// and the path of the FST trace around it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <random>

#include "mmu_model.h"
#include "traffic.h"

namespace dsh {
namespace {

uint64_t cycles_per_run() {
  const char* e = std::getenv("DSH_LOCKSTEP_CYCLES");
  return e ? std::strtoull(e, nullptr, 10) : 60000;
}

// A configuration for a variant: the paper's chip for 32 x 7 (with a smaller
// buffer on odd seeds, so it fills more often), else small sizes that the
// traffic fills quickly. Knobs drawn from the seed.
Config config_for(const RtlVariant& v, uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 17);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Config c;
  c.n_ports = v.ports;
  c.n_queues = v.queues;
  c.scheme = v.scheme;
  c.thresh_latency = v.latency;
  if (v.ports == 32 && v.queues == 7) {
    if (seed % 2) c.buffer_cells = v.scheme == Scheme::SIH ? 60000 : 16000;
    c.alpha_log2 = pick(-6, 1);
    c.delta_q = pick(0, 1) ? 0 : pick(1, 60);
    c.delta_p = pick(0, 1) ? 0 : pick(1, 200);
  } else {
    const uint64_t cell_max = (uint64_t(1) << v.widths.cell_w) - 1;
    const uint64_t nq = uint64_t(v.ports) * v.queues;
    c.private_cells = pick(0, 4);
    c.headroom_cells = pick(6, 24);
    const uint64_t fixed = nq * c.private_cells + (v.scheme == Scheme::SIH ? nq : v.ports) * c.headroom_cells;
    c.buffer_cells = std::min<uint64_t>(cell_max, fixed + uint64_t(pick(40, 400)));
    c.alpha_log2 = pick(kAlphaLog2Min, kAlphaLog2Max);
    c.delta_q = pick(0, 2) ? 0 : pick(1, 20);
    c.delta_p = pick(0, 2) ? 0 : pick(1, 40);
  }
  c.port_mult_log2 = unsigned(pick(0, int(kPortMultLog2Max)));
  return c;
}

std::string fst_dir() {
  const auto d = std::filesystem::current_path() / "lockstep_traces";
  std::filesystem::create_directories(d);
  return d.string();
}

struct Coverage {
  uint64_t cycles = 0, regions[5] = {}, kinds[4] = {}, errors = 0;
};

Coverage run_lockstep(const RtlVariant& v, const Config& c, uint64_t seed, uint64_t cycles, unsigned fault = 0) {
  LockstepOptions lo;
  lo.tag = "seed=" + std::to_string(seed) + " variant=" + v.name;
  lo.fst_dir = fst_dir();
  lo.fst_stem = std::string(v.name) + "_seed" + std::to_string(seed);
  RtlOptions ro;
  ro.fault = fault;
  auto m = make_lockstep(v, c, lo, ro);
  TrafficOptions to;
  to.seed = seed;
  Traffic t(c, v.widths, to);
  Coverage cov;
  for (uint64_t i = 0; i < cycles; ++i) {
    const CycleOut& o = m->step(t.next(*m));
    ++cov.regions[int(o.region)];
    for (unsigned k = 0; k < o.n_events; ++k) ++cov.kinds[o.events[k].kind];
    cov.errors += o.error();
  }
  m->finish();
  cov.cycles = m->cycle();
  return cov;
}

class Lockstep : public ::testing::TestWithParam<std::tuple<std::string, uint64_t>> {};

TEST_P(Lockstep, RandomTraffic) {
  const auto& [name, seed] = GetParam();
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (name == x.name) v = &x;
  ASSERT_NE(v, nullptr);
  const Config c = config_for(*v, seed);
  SCOPED_TRACE(c.describe());
  try {
    const Coverage cov = run_lockstep(*v, c, seed, cycles_per_run());
    std::printf("%s seed=%llu: matched %llu cycles; P/S/H/D %llu/%llu/%llu/%llu, PAUSE %llu RESUME %llu "
                "PORT_PAUSE %llu PORT_RESUME %llu, errors %llu\n",
                v->name, (unsigned long long)seed, (unsigned long long)cov.cycles,
                (unsigned long long)cov.regions[1], (unsigned long long)cov.regions[2],
                (unsigned long long)cov.regions[3], (unsigned long long)cov.regions[4],
                (unsigned long long)cov.kinds[0], (unsigned long long)cov.kinds[1], (unsigned long long)cov.kinds[2],
                (unsigned long long)cov.kinds[3], (unsigned long long)cov.errors);
    // The stimulus must reach every row of the table and every transition.
    EXPECT_GT(cov.regions[1], 0u) << "no private admission";
    EXPECT_GT(cov.regions[2], 0u) << "no shared admission";
    EXPECT_GT(cov.regions[3], 0u) << "no headroom/insurance admission";
    EXPECT_GT(cov.regions[4], 0u) << "no drop";
    EXPECT_GT(cov.kinds[Event::Pause], 0u);
    EXPECT_GT(cov.kinds[Event::Resume], 0u);
    if (c.scheme == Scheme::DSH) {
      EXPECT_GT(cov.kinds[Event::PortPause], 0u);
      EXPECT_GT(cov.kinds[Event::PortResume], 0u);
    }
    EXPECT_GT(cov.errors, 0u) << "no protocol error exercised";
  } catch (const MismatchError& e) {
    FAIL() << e.what();
  }
}

std::vector<std::tuple<std::string, uint64_t>> params() {
  std::vector<std::tuple<std::string, uint64_t>> p;
  for (const auto& v : rtl_variants())
    for (uint64_t seed : {1, 2}) p.emplace_back(v.name, seed);
  return p;
}

INSTANTIATE_TEST_SUITE_P(Variants, Lockstep, ::testing::ValuesIn(params()),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_seed" + std::to_string(std::get<1>(info.param));
                         });

// Headroom per port (spec §1.2): ports of two or three different eta, so
// that the RTL's per-port table, the eta each event carries and the two
// slots' X_qoff/X_qon (spec §9.1, §9.3) are held to the golden model. 32 x 7:
// the mixed-speed chip's 228/828 scaled down by 6 so that random traffic
// fills both kinds; others: eta 6, 15, 24 in turn from a drawn start.
Config config_with_port_eta(const RtlVariant& v, uint64_t seed) {
  Config c = config_for(v, seed);
  std::mt19937_64 rng(seed * 104729 + 3);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  if (v.ports == 32 && v.queues == 7) {
    c.port_headroom_cells.assign(24, 38);
    c.port_headroom_cells.insert(c.port_headroom_cells.end(), 8, 138);
    c.buffer_cells = v.scheme == Scheme::SIH ? 30000 : 9000;
  } else {
    const uint64_t cell_max = (uint64_t(1) << v.widths.cell_w) - 1;
    const uint64_t nq = uint64_t(v.ports) * v.queues;
    const uint64_t levels[] = {6, 15, 24};
    uint64_t sum = 0;
    const int first = pick(0, 2);  // neighbouring ports differ
    for (unsigned p = 0; p < v.ports; ++p) {
      c.port_headroom_cells.push_back(levels[(p + first) % 3]);
      sum += c.port_headroom_cells.back();
    }
    const uint64_t fixed = nq * c.private_cells + (v.scheme == Scheme::SIH ? v.queues : 1) * sum;
    c.buffer_cells = std::min<uint64_t>(cell_max, fixed + uint64_t(pick(40, 400)));
  }
  return c;
}

class LockstepPortHeadroom : public ::testing::TestWithParam<std::string> {};

TEST_P(LockstepPortHeadroom, RandomTraffic) {
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (GetParam() == x.name) v = &x;
  ASSERT_NE(v, nullptr);
  const uint64_t seed = 11;
  const Config c = config_with_port_eta(*v, seed);
  SCOPED_TRACE(c.describe());
  LockstepOptions lo;
  lo.tag = "seed=" + std::to_string(seed) + " variant=" + v->name + " eta per port";
  lo.fst_dir = fst_dir();
  lo.fst_stem = std::string(v->name) + "_port_eta";
  try {
    auto m = make_lockstep(*v, c, lo, RtlOptions{});
    TrafficOptions to;
    to.seed = seed;
    Traffic t(c, v->widths, to);
    uint64_t hdrm = 0;
    for (uint64_t i = 0; i < cycles_per_run(); ++i) hdrm += m->step(t.next(*m)).region == Region::Headroom;
    m->finish();
    // Drops on ports of the smallest and of the largest eta: both limits were reached.
    const uint64_t lo_eta = *std::min_element(c.port_headroom_cells.begin(), c.port_headroom_cells.end());
    const uint64_t hi_eta = *std::max_element(c.port_headroom_cells.begin(), c.port_headroom_cells.end());
    uint64_t drops_lo = 0, drops_hi = 0;
    for (uint32_t p = 0; p < c.n_ports; ++p)
      for (uint32_t q = 0; q < c.n_queues; ++q) {
        if (c.headroom_of(p) == lo_eta) drops_lo += m->queue(p, q).drops;
        if (c.headroom_of(p) == hi_eta) drops_hi += m->queue(p, q).drops;
      }
    std::printf("%s eta per port %s: matched %llu cycles; headroom/insurance %llu, drops at eta %llu: %llu, at %llu: %llu\n",
                v->name, port_headroom_text(c.port_headroom_cells).c_str(), (unsigned long long)m->cycle(),
                (unsigned long long)hdrm, (unsigned long long)lo_eta, (unsigned long long)drops_lo,
                (unsigned long long)hi_eta, (unsigned long long)drops_hi);
    EXPECT_GT(hdrm, 0u) << "no headroom/insurance admission";
    EXPECT_GT(drops_lo, 0u) << "no port of eta " << lo_eta << " filled";
    if (v->ports > 1) {
      EXPECT_NE(lo_eta, hi_eta) << "the ports' eta do not differ";
      EXPECT_GT(drops_hi, 0u) << "no port of eta " << hi_eta << " filled";
    }
  } catch (const MismatchError& e) {
    FAIL() << e.what();
  }
}

std::vector<std::string> variant_names() {
  std::vector<std::string> n;
  for (const auto& v : rtl_variants()) n.emplace_back(v.name);
  return n;
}
INSTANTIATE_TEST_SUITE_P(Variants, LockstepPortHeadroom, ::testing::ValuesIn(variant_names()),
                         [](const auto& info) { return info.param; });

// The counter read port: after random traffic, every queue's and port's
// counters and port occupancy read through stat_rd_* match the golden state
// (6-bit counters that wrap on the small variants).
TEST(ReadPort, MatchesGoldenStateAfterTraffic) {
  for (const char* name : {"p3q3_dsh_l1", "p3q3_sih_l3", "p5q6_dsh_l3"}) {
    const RtlVariant* v = nullptr;
    for (const auto& x : rtl_variants())
      if (name == std::string(x.name)) v = &x;
    ASSERT_NE(v, nullptr) << name;
    const Config c = config_for(*v, 7);
    auto rtl = v->make(c, RtlOptions{});
    auto gold = make_golden(c, v->widths);
    TrafficOptions to;
    to.seed = 7;
    to.error_rate = 0;
    Traffic t(c, v->widths, to);
    for (int i = 0; i < 20000; ++i) {
      const CycleIn in = t.next(*gold);
      gold->step(in);
      rtl->step(in);
    }
    for (unsigned i = 0; i < rtl->latency(); ++i) rtl->step(CycleIn{});  // results all out
    auto* rp = dynamic_cast<RtlReadPort*>(rtl.get());
    ASSERT_NE(rp, nullptr);
    uint64_t nonzero = 0;
    for (uint32_t p = 0; p < c.n_ports; ++p)
      for (uint32_t q = 0; q < c.n_queues; ++q) {
        const CounterRead r = rp->read_port(p, q);
        const QueueState g = gold->queue(p, q);
        const PortState gp = gold->port(p);
        const std::string at = std::string(name) + " queue " + std::to_string(p) + "." + std::to_string(q);
        EXPECT_EQ(r.drops, g.drops) << at;
        EXPECT_EQ(r.pauses, g.pauses) << at;
        EXPECT_EQ(r.resumes, g.resumes) << at;
        EXPECT_EQ(r.port_pauses, gp.pauses) << at;
        EXPECT_EQ(r.port_resumes, gp.resumes) << at;
        EXPECT_EQ(r.port_shared, gp.shared) << at;
        EXPECT_EQ(r.port_hdrm, gp.hdrm) << at;
        nonzero += r.drops + r.pauses + r.resumes + r.port_shared;
      }
    EXPECT_GT(nonzero, 0u) << name << ": the traffic left nothing to read";
  }
}

// The checker itself: the RTL with one planted fault (rtl/dsh_pkg.sv: each
// removes one forwarding path, or drains shared before headroom) must be
// caught, reported one line per field and traced, or stopped by one of the
// RTL's named assertions before the outputs differ. One fault at a time, all
// in one build (RtlOptions::fault is the +dsh_fault plusarg).
const char* const kFaults[] = {"", "WQueue", "WPort", "DDeq", "DEnq", "DPort", "E0Queue",
                               "E1Queue", "E0Port", "E1Port", "CntBypass", "DrainOrder"};

class PlantedFault : public ::testing::TestWithParam<unsigned> {};

TEST_P(PlantedFault, IsCaught) {
  const unsigned fault = GetParam();
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_dsh_l1") v = &x;
  ASSERT_NE(v, nullptr);
  Config c = config_for(*v, 3);
  c.private_cells = 0;
  bool caught = false;
  try {
    run_lockstep(*v, c, 3, 200000, fault);
  } catch (const MismatchError& e) {
    caught = true;
    ASSERT_FALSE(e.lines().empty());
    for (const auto& l : e.lines()) {
      EXPECT_EQ(l.rfind("cycle " + std::to_string(e.cycle()) + " ", 0), 0u) << l;
      EXPECT_NE(l.find("rtl="), std::string::npos) << l;
      EXPECT_NE(l.find("golden="), std::string::npos) << l;
      EXPECT_NE(l.find("seed=3"), std::string::npos) << l;
    }
    ASSERT_TRUE(std::filesystem::exists(e.fst_path())) << e.what();
    EXPECT_GT(std::filesystem::file_size(e.fst_path()), 100u);
    std::printf("planted fault %u (%s) caught at cycle %llu:\n%s\n", fault, kFaults[fault],
                (unsigned long long)e.cycle(), e.what());
  } catch (const RtlAssertionError& e) {  // a named assertion saw it first (its name is printed above)
    caught = true;
    std::printf("planted fault %u (%s) caught by an RTL assertion: %s\n", fault, kFaults[fault], e.what());
  }
  EXPECT_TRUE(caught) << "planted fault " << fault << " (" << kFaults[fault] << ") went unnoticed";
}

static_assert(std::size(kFaults) == kRtlFaults + 1, "a planted fault of rtl/dsh_pkg.sv without a test");
INSTANTIATE_TEST_SUITE_P(Faults, PlantedFault, ::testing::Range(1u, unsigned(std::size(kFaults))),
                         [](const auto& info) { return std::string(kFaults[info.param]); });

// Idle gaps: skip_idle() jumps over them once golden and RTL are quiet; the
// lockstep compares the whole state after each jump, and the RTL's results
// after traffic resumes, so a skip that lost or changed state fails.
TEST(SkipIdle, LockstepMatchesAcrossGaps) {
  for (const char* name : {"p3q3_dsh_l1", "p3q3_sih_l3", "p5q6_dsh_l3"}) {
    const RtlVariant* v = nullptr;
    for (const auto& x : rtl_variants())
      if (name == std::string(x.name)) v = &x;
    ASSERT_NE(v, nullptr) << name;
    const Config c = config_for(*v, 5);
    LockstepOptions lo;
    lo.tag = std::string("variant=") + name;
    lo.fst_dir = fst_dir();
    lo.fst_stem = std::string(name) + "_skip";
    auto m = make_lockstep(*v, c, lo);
    auto plain = make_golden(c, v->widths);  // the same stimulus, every idle cycle stepped
    TrafficOptions to;
    to.seed = 5;
    to.error_rate = 0;
    Traffic t(c, v->widths, to);
    std::mt19937_64 rng(5);
    try {
      for (int burst = 0; burst < 40; ++burst) {
        for (int i = 0; i < 300; ++i) {
          const CycleIn in = t.next(*plain);
          m->step(in);
          plain->step(in);
        }
        const uint64_t gap = burst % 3 == 0 ? 1 + rng() % 8 : 20 + rng() % 5000;
        const CycleOut& o = m->skip_idle(gap);
        for (uint64_t i = 0; i < gap; ++i) plain->step(CycleIn{});
        ASSERT_EQ(m->cycle(), plain->cycle());
        EXPECT_EQ(o.thr.t, plain->step(CycleIn{}).thr.t);
        m->step(CycleIn{});
      }
      m->finish();
    } catch (const MismatchError& e) {
      FAIL() << e.what();
    }
    for (uint32_t p = 0; p < c.n_ports; ++p)
      for (uint32_t q = 0; q < c.n_queues; ++q) {
        EXPECT_EQ(m->queue(p, q).total(), plain->queue(p, q).total()) << name;
        EXPECT_EQ(m->queue(p, q).pauses, plain->queue(p, q).pauses) << name;
      }
    EXPECT_EQ(m->s(), plain->s()) << name;
  }
}

// An RTL model skips a 10^12-cycle gap in O(1): it counts the cycles.
TEST(SkipIdle, HugeGapIsCounted) {
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p2q1_sih_l2") v = &x;
  ASSERT_NE(v, nullptr);
  const Config c = config_for(*v, 1);
  auto m = v->make(c, RtlOptions{});
  m->step(CycleIn{{}, Op{true, 1, 0, 3}});
  EXPECT_FALSE(m->quiet());
  const uint64_t gap = 1000000000000ull;
  m->skip_idle(gap);
  EXPECT_TRUE(m->quiet());
  EXPECT_EQ(m->cycle(), gap + 1);
  EXPECT_EQ(m->queue(1, 0).total(), 3u);
}

}  // namespace
}  // namespace dsh
