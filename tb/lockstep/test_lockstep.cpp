// SPDX-License-Identifier: Apache-2.0
// RTL against the golden model, every output and all state every cycle, on
// constrained-random bursty and adversarial traffic, for every parameter set
// built into this binary. A mismatch fails with the one-line-per-field report
// and the path of the FST trace around it.
#include <gtest/gtest.h>
#include <verilated.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <deque>
#include <fstream>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "configs.h"
#include "gtkw.h"
#include "mmu_model.h"
#include "traffic.h"

namespace dsh {
namespace {

uint64_t cycles_per_run() {
  const char* e = std::getenv("DSH_LOCKSTEP_CYCLES");
  return e ? std::strtoull(e, nullptr, 10) : 60000;
}

std::string fst_dir() {
  const auto d = std::filesystem::current_path() / "lockstep_traces";
  std::filesystem::create_directories(d);
  return d.string();
}

struct Coverage {
  uint64_t cycles = 0, regions[5] = {}, kinds[4] = {}, errors = 0;
};

Coverage run_lockstep(const RtlVariant& v, const Config& c, uint64_t seed, uint64_t cycles, unsigned fault = 0,
                      bool full_compare = false) {
  LockstepOptions lo;
  lo.full_compare = full_compare;
  lo.tag = "seed=" + std::to_string(seed) + " variant=" + v.name;
  lo.fst_dir = fst_dir();
  lo.fst_stem = std::string(v.name) + "_seed" + std::to_string(seed) + (fault ? "_fault" + std::to_string(fault) : "") +
                (full_compare ? "_full" : "");
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

// The checker itself: the RTL with one planted fault (tb/faults/dsh_faults.sv:
// each removes one forwarding path, or drains shared before headroom) must
// be caught, reported one line per field and traced, or stopped by one of
// the RTL's named assertions before the outputs differ. One fault at a time,
// all in one build (RtlOptions::fault is the +dsh_fault plusarg the faults
// read).
const char* const kFaults[] = {"", "WQueue", "WPort", "DDeq", "DEnq", "DPort", "E0Queue",
                               "E1Queue", "E0Port", "E1Port", "CntBypass", "DrainOrder", "Merge",
                               "PoolPrefix"};

class PlantedFault : public ::testing::TestWithParam<unsigned> {};

// The text of a file.
std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Caught in the default mode (outputs and touched entries every cycle,
// everything every kFullCompareEvery cycles) no earlier than, and within
// kFullCompareEvery cycles of, the every-cycle full compare; the report
// names the cycle and the trace time of stage W's write, and the window's
// FST and .gtkw (marker at that time) exist.
TEST_P(PlantedFault, IsCaught) {
  const unsigned fault = GetParam();
  if (fault == kRtlFaultMerge || fault == kRtlFaultPoolPrefix)
    GTEST_SKIP() << "a fault of the lanes' blocks, which a one-lane chip has not: tb/lockstep/test_lanes.cpp";
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_dsh_l1") v = &x;
  ASSERT_NE(v, nullptr);
  Config c = config_for(*v, 3);
  c.private_cells = 0;
  uint64_t caught_at[2] = {0, 0};
  for (bool full : {true, false}) {
    bool caught = false;
    try {
      run_lockstep(*v, c, 3, 200000, fault, full);
    } catch (const MismatchError& e) {
      caught = true;
      caught_at[full] = e.cycle();
      ASSERT_FALSE(e.lines().empty());
      for (const auto& l : e.lines()) {
        EXPECT_EQ(l.rfind("cycle " + std::to_string(e.cycle()) + " ", 0), 0u) << l;
        EXPECT_NE(l.find("seed=3"), std::string::npos) << l;
        // A field that differs, or a named assertion of the RTL that saw it
        // first (faults 2, 5, 11: its name is in Verilator's line).
        if (l.find(" dsh_mmu assertion: ") != std::string::npos) continue;
        EXPECT_NE(l.find("rtl="), std::string::npos) << l;
        EXPECT_NE(l.find("golden="), std::string::npos) << l;
      }
      ASSERT_TRUE(std::filesystem::exists(e.fst_path())) << e.what();
      EXPECT_GT(std::filesystem::file_size(e.fst_path()), 100u);
      // One clock: cycle c's results are written at the edge c + 4, 10 ns a cycle.
      const uint64_t t_ps = (e.cycle() + 4) * 10000;
      const std::string what = e.what();
      EXPECT_NE(what.find("written by stage W at t" + std::string(what.find("full compare") == std::string::npos ? "=" : " in (")),
                std::string::npos) << what;
      EXPECT_NE(what.find(std::to_string(t_ps / 1000) + " ns"), std::string::npos) << what;
      const std::string gtkw = std::filesystem::path(e.fst_path()).replace_extension(".gtkw").string();
      ASSERT_TRUE(std::filesystem::exists(gtkw)) << what;
      EXPECT_NE(what.find("view: gtkwave " + gtkw), std::string::npos) << what;
      const std::string save = slurp(gtkw);
      EXPECT_NE(save.find("[dumpfile] \"" + std::filesystem::absolute(e.fst_path()).string() + "\""), std::string::npos);
      EXPECT_NE(save.find("\n*-10.000000 " + std::to_string(t_ps) + " "), std::string::npos) << save.substr(0, 600);
      std::printf("planted fault %u (%s), %s: caught at cycle %llu:\n%s\n", fault, kFaults[fault],
                  full ? "full compare every cycle" : "default compare", (unsigned long long)e.cycle(), e.what());
    }
    EXPECT_TRUE(caught) << "planted fault " << fault << " (" << kFaults[fault] << ") went unnoticed"
                        << (full ? " with the full compare" : " in the default mode");
  }
  EXPECT_GE(caught_at[0], caught_at[1]);
  EXPECT_LT(caught_at[0], caught_at[1] + kFullCompareEvery);
}

static_assert(std::size(kFaults) == kRtlFaults + 1, "a planted fault of tb/faults/dsh_faults.sv without a test");
INSTANTIATE_TEST_SUITE_P(Faults, PlantedFault, ::testing::Range(1u, unsigned(std::size(kFaults))),
                         [](const auto& info) { return std::string(kFaults[info.param]); });

// A test hook standing for a write to a wrong entry: the RTL with one
// queue's drop count one too high in the state after input cycle `from`
// and later.
class CorruptQueue final : public MmuModel {
 public:
  CorruptQueue(std::unique_ptr<MmuModel> inner, uint32_t p, uint32_t q, uint64_t from)
      : inner_(std::move(inner)), p_(p), q_(q), from_(from) {}
  const CycleOut& step(const CycleIn& in) override { return inner_->step(in); }
  const Config& config() const override { return inner_->config(); }
  uint64_t cycle() const override { return inner_->cycle(); }
  uint64_t s() const override { return inner_->s(); }
  uint64_t errors() const override { return inner_->errors(); }
  bool error_sticky() const override { return inner_->error_sticky(); }
  QueueState queue(uint32_t p, uint32_t q) const override {
    QueueState s = inner_->queue(p, q);
    // The state read after step k is that after input cycle k - 1 - latency().
    if (p == p_ && q == q_ && inner_->cycle() > from_ + inner_->latency()) ++s.drops;
    return s;
  }
  PortState port(uint32_t p) const override { return inner_->port(p); }
  const char* name() const override { return inner_->name(); }
  unsigned latency() const override { return inner_->latency(); }
  bool quiet() const override { return inner_->quiet(); }
  const CycleOut& skip_idle(uint64_t n) override { return inner_->skip_idle(n); }

 private:
  std::unique_ptr<MmuModel> inner_;
  uint32_t p_, q_;
  uint64_t from_;
};

// A queue the traffic never touches goes wrong at cycle 10000. The default
// mode finds it at the next full compare and names the window since the
// last one that matched; the every-cycle full compare finds it at once.
TEST(FullCompare, FindsUntouchedEntryInItsWindow) {
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_dsh_l1") v = &x;
  ASSERT_NE(v, nullptr);
  const Config c = config_for(*v, 4);
  const uint32_t tp = 2, tq = 1;  // entry tq * n_ports + tp = 5 of the memories
  const uint64_t from = 10000, k = kFullCompareEvery;
  RtlVariant hooked = *v;
  hooked.make = [v, from, tp, tq](const Config& cfg, const RtlOptions& o) -> std::unique_ptr<MmuModel> {
    return std::make_unique<CorruptQueue>(v->make(cfg, o), tp, tq, from);
  };
  for (bool full : {false, true}) {
    LockstepOptions lo;
    lo.full_compare = full;
    lo.tag = "untouched";
    lo.fst_dir = fst_dir();
    lo.fst_stem = full ? "untouched_full" : "untouched";
    auto m = make_lockstep(hooked, c, lo);
    TrafficOptions to;
    to.seed = 4;
    Traffic t(c, v->widths, to);
    try {
      for (uint64_t i = 0; i < 4 * k; ++i) {
        CycleIn in = t.next(*m);
        for (Op* op : {&in.deq, &in.enq})
          if (op->port == tp && op->queue == tq) op->valid = false;
        m->step(in);
      }
      m->finish();
      ADD_FAILURE() << "the corrupted entry went unnoticed" << (full ? " with the full compare" : "");
    } catch (const MismatchError& e) {
      const std::string what = e.what();
      ASSERT_EQ(e.lines().size(), 1u) << what;
      if (full) {
        EXPECT_EQ(e.cycle(), from) << what;
        EXPECT_EQ(e.lines()[0], "cycle 10000 queue 2.1 drops: rtl=1 golden=0 untouched");
        continue;
      }
      const uint64_t at = (from / k + 1) * k - 1, since = at - k;  // full compares after cycles k*n - 1
      EXPECT_EQ(e.cycle(), at) << what;
      EXPECT_EQ(e.lines()[0], "cycle " + std::to_string(at) + " queue 2.1 drops: rtl=1 golden=0 untouched");
      const std::string window = "queue 2.1 differs at full compare of cycle " + std::to_string(at) +
                                 "; last matched full compare at cycle " + std::to_string(since) +
                                 ": the fault lies in (" + std::to_string(since) + ", " + std::to_string(at) + "]";
      EXPECT_NE(what.find(window), std::string::npos) << what;
      EXPECT_NE(what.find("written by stage W at t in (" + std::to_string((since + 4) * 10) + " ns, " +
                          std::to_string((at + 4) * 10) + " ns]"),
                std::string::npos) << what;
      // The trace covers the window; the view marks both ends and shows entry 5.
      EXPECT_NE(what.find("trace of cycles " + std::to_string(since - 64 < since ? since : 0)), std::string::npos) << what;
      ASSERT_TRUE(std::filesystem::exists(e.fst_path())) << what;
      const std::string save = slurp(std::filesystem::path(e.fst_path()).replace_extension(".gtkw").string());
      EXPECT_NE(save.find("*-10.000000 " + std::to_string((at + 4) * 10000) + " " + std::to_string((since + 4) * 10000)),
                std::string::npos) << save.substr(0, 600);
      EXPECT_NE(save.find("tb.dsh_mmu.gen_lanes[0].u_lane.u_store.occ_hsp_q[5][11:0]"), std::string::npos);
      EXPECT_NE(save.find("tb.dsh_mmu.gen_lanes[0].u_lane.gen_stats.u_stats.u_drops.mem_q[5][5:0]"), std::string::npos);
      std::printf("%s\n", what.c_str());
    }
  }
}

// A failed RTL assertion: with fatalOnError(false), Verilator's $error
// sets the error flag of the thread's context and goes on (vl_stop). No
// input reaches one of dsh_mmu's assertions, so the flag is set here as an
// assertion would set it; the lockstep must stop at that cycle and report
// it with a trace and a view, like a mismatch.
TEST(Assertion, StopsTheLockstepWithATrace) {
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_sih_l3") v = &x;
  ASSERT_NE(v, nullptr);
  const Config c = config_for(*v, 6);
  LockstepOptions lo;
  lo.tag = "assertion";
  lo.fst_dir = fst_dir();
  lo.fst_stem = "assertion";
  auto m = make_lockstep(*v, c, lo);
  TrafficOptions to;
  to.seed = 6;
  Traffic t(c, v->widths, to);
  for (int i = 0; i < 500; ++i) m->step(t.next(*m));
  Verilated::threadContextp()->gotError(true);  // the context of the RTL model last stepped
  try {
    m->step(t.next(*m));
    ADD_FAILURE() << "the error flag went unnoticed";
  } catch (const MismatchError& e) {
    const std::string what = e.what();
    // The RTL's edge 500 writes the results of input cycle 500 - 4.
    EXPECT_EQ(e.cycle(), 496u) << what;
    ASSERT_EQ(e.lines().size(), 1u) << what;
    EXPECT_EQ(e.lines()[0].rfind("cycle 496 dsh_mmu assertion: an RTL assertion failed at the clock edge of cycle 500 "
                                 "(t=5000 ns",
                                 0),
              0u)
        << what;
    EXPECT_TRUE(std::filesystem::exists(e.fst_path())) << what;
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(e.fst_path()).replace_extension(".gtkw"))) << what;
  }
}

// The signal names of tb.dsh_mmu's FST as GTKWave spells them, read back
// with fst2vcd (GTKWave's package): "tb.dsh_mmu.gen_lanes[0].u_lane.u_store.occ_h_q[5][11:0]".
std::set<std::string> fst_signals(const std::string& fst) {
  std::set<std::string> names;
  FILE* p = popen(("fst2vcd '" + fst + "' 2>/dev/null").c_str(), "r");
  if (!p) return names;
  std::vector<std::string> scope;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    std::istringstream l(buf);
    std::string w;
    l >> w;
    if (w == "$scope") {
      std::string kind, name;
      l >> kind >> name;
      scope.push_back(name);
    } else if (w == "$upscope") {
      if (!scope.empty()) scope.pop_back();
    } else if (w == "$var") {
      std::string type, width, id, name, range;
      l >> type >> width >> id >> name >> range;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      names.insert(full + name + (range != "$end" ? range : ""));
    } else if (w == "$enddefinitions") {
      break;
    }
  }
  while (std::fgets(buf, sizeof buf, p)) {
  }
  pclose(p);
  return names;
}

// Every signal a .gtkw names is in the trace it opens (GTKWave drops the
// names it does not find without a word), on a DSH and an SIH parameter
// set; bit selects name a bit of their vector; the filters map the region
// codes to names.
TEST(Gtkw, NamesOnlySignalsOfTheTrace) {
  for (const char* name : {"p32q7_dsh_l2", "p4q8_sih_l1"}) {
    const RtlVariant* v = nullptr;
    for (const auto& x : rtl_variants())
      if (name == std::string(x.name)) v = &x;
    ASSERT_NE(v, nullptr) << name;
    const Config c = config_for(*v, 1);
    RtlOptions ro;
    ro.fst_path = fst_dir() + "/gtkw_" + name + ".fst";
    {
      auto rtl = v->make(c, ro);
      TrafficOptions to;
      Traffic t(c, v->widths, to);
      auto gold = make_golden(c, v->widths);
      for (int i = 0; i < 200; ++i) {
        const CycleIn in = t.next(*gold);
        gold->step(in);
        rtl->step(in);
      }
    }
    const std::set<std::string> have = fst_signals(ro.fst_path);
    ASSERT_GT(have.size(), 500u) << "fst2vcd read no signals from " << ro.fst_path << " (is gtkwave installed?)";
    GtkwView view;
    view.fst_path = ro.fst_path;
    view.marker_ps = 1000000;
    view.entries = {{TraceEntry::Queue, c.n_ports - 1, c.n_queues - 1}, {TraceEntry::Port, c.n_ports - 1, 0}};
    const std::string gtkw = fst_dir() + "/gtkw_" + name + ".gtkw";
    write_gtkw(gtkw, c, v->widths, view);
    std::istringstream save(slurp(gtkw));
    const std::regex bit_select(R"(\((\d+)\)(.*\[(\d+):0\]))");
    unsigned shown = 0;
    for (std::string l; std::getline(save, l);) {
      if (l.rfind("tb.", 0) != 0 && l.rfind("(", 0) != 0) continue;
      std::smatch m;
      std::string sig = l;
      if (std::regex_match(l, m, bit_select)) {
        sig = m[2];
        EXPECT_LE(std::stoul(m[1]), std::stoul(m[3])) << l;
      }
      EXPECT_TRUE(have.count(sig)) << name << ": " << sig << " is not in " << ro.fst_path;
      ++shown;
    }
    EXPECT_GT(shown, 60u);
    EXPECT_EQ(shown, gtkw_signals(c, v->widths, view.entries).size());
    const std::string stem = fst_dir() + "/gtkw_" + name;
    const std::string third = c.scheme == Scheme::DSH ? "insurance" : "headroom";
    EXPECT_EQ(slurp(stem + ".region.txt"), "0 none\n1 private\n2 shared\n3 " + third + "\n4 drop\n");
    EXPECT_EQ(slurp(stem + ".onehot.txt"), "0 none\n1 private\n2 shared\n4 " + third + "\n8 drop\n");
  }
}

// A named RTL assertion stops the run at its cycle and reaches the report:
// planted fault 5 (D's drain not forwarded into E's next enqueue to its
// port) cuts the port select of an enqueue whose queue select D still
// feeds, which dsh_fwd's SameQueueIsSamePort_A catches in that cycle,
// before the port's shared part (ExecEnqPortSharedWithinS_A) or the
// outputs differ.
TEST(RtlAssertion, StopsTheRunWithItsCycle) {
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_dsh_l1") v = &x;
  ASSERT_NE(v, nullptr);
  Config c = config_for(*v, 3);
  c.private_cells = 0;
  testing::internal::CaptureStdout();
  try {
    run_lockstep(*v, c, 3, 200000, 5);
    testing::internal::GetCapturedStdout();
    FAIL() << "planted fault 5 went unnoticed";
  } catch (const MismatchError& e) {
    const std::string out = testing::internal::GetCapturedStdout();
    ASSERT_EQ(e.lines().size(), 1u) << e.what();
    // The RTL's edge c + 4 writes the results of input cycle c.
    const uint64_t edge = e.cycle() + kRtlLatency;
    EXPECT_EQ(e.lines()[0].rfind("cycle " + std::to_string(e.cycle()) +
                                     " dsh_mmu assertion: an RTL assertion failed at the clock edge of cycle " +
                                     std::to_string(edge) + " (t=" + std::to_string(edge * 10) + " ns",
                                 0),
              0u)
        << e.lines()[0];
    // Verilator's line: the time of that edge in ps and the assertion's name.
    EXPECT_NE(out.find("[" + std::to_string(rtl_edge_ps(edge)) + "] %Error: dsh_fwd.sv:"), std::string::npos) << out;
    EXPECT_NE(out.find("Assertion failed in tb.dsh_mmu.gen_lanes[0].u_lane.u_fwd.SameQueueIsSamePort_A"), std::string::npos) << out;
  }
}

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

// A one-lane RTL takes the multi-event cycle through the base of
// MmuModel::step_lanes: its results, kRtlLatency steps later, are the golden
// model's own multi-event step's, field by field; deq_taken is of the input
// at once. A chip with two lanes is refused, naming the backend.
TEST(StepLanes, OneLaneRtlMatchesGoldenLaneStep) {
  const RtlVariant* v = nullptr;
  for (const auto& x : rtl_variants())
    if (std::string(x.name) == "p3q3_dsh_l1") v = &x;
  ASSERT_NE(v, nullptr);
  const Config c = config_for(*v, 11);
  auto rtl = make_rtl(c);
  Mmu gold(c, v->widths);
  Traffic t(c, v->widths, TrafficOptions{});
  std::deque<LaneCycleOut> want;
  for (int i = 0; i < 20000; ++i) {
    const CycleIn one = t.next(*rtl);
    LaneCycleIn in;
    in.enq[0] = one.enq;
    in.deq[0] = one.deq;
    want.push_back(gold.step(in));
    const LaneCycleOut& got = rtl->step_lanes(in);
    ASSERT_EQ(got.deq_taken[0], one.deq.valid) << "cycle " << i;
    if (want.size() <= kRtlLatency) continue;
    const LaneCycleOut& w = want.front();
    ASSERT_EQ(got.region[0], w.region[0]) << "cycle " << i;
    ASSERT_EQ(got.enq_error[0], w.enq_error[0]) << "cycle " << i;
    ASSERT_EQ(got.deq_error[0], w.deq_error[0]) << "cycle " << i;
    ASSERT_EQ(got.n_errors, w.n_errors) << "cycle " << i;
    ASSERT_EQ(got.s, w.s) << "cycle " << i;
    ASSERT_EQ(got.thr.t, w.thr.t) << "cycle " << i;
    ASSERT_EQ(got.n_events, w.n_events) << "cycle " << i;
    for (unsigned e = 0; e < w.n_events; ++e) ASSERT_EQ(got.events[e], w.events[e]) << "cycle " << i;
    want.pop_front();
  }
  Config two = c;
  two.lanes = 2;
  auto g2 = make_golden(two, v->widths);
  EXPECT_NO_THROW(g2->step_lanes(LaneCycleIn{}));
  try {
    struct TwoLanes final : MmuModel {
      explicit TwoLanes(const Config& c) : c_(c) {}
      const CycleOut& step(const CycleIn&) override { return o_; }
      const Config& config() const override { return c_; }
      uint64_t cycle() const override { return 0; }
      uint64_t s() const override { return 0; }
      uint64_t errors() const override { return 0; }
      bool error_sticky() const override { return false; }
      QueueState queue(uint32_t, uint32_t) const override { return {}; }
      PortState port(uint32_t) const override { return {}; }
      const char* name() const override { return "one-lane"; }
      bool quiet() const override { return true; }
      const CycleOut& skip_idle(uint64_t) override { return o_; }
      Config c_;
      CycleOut o_;
    } m(two);
    m.step_lanes(LaneCycleIn{});
    FAIL() << "a two-lane chip on a one-lane backend ran";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("one-lane backend has no multi-event cycle (lanes = 2"), std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------------------
// Without statistics (dsh_mmu's Stats = 0): p3q3_dsh_l1_nostats is
// p3q3_dsh_l1 without the drop, PAUSE and PORT_PAUSE counters, so the same
// seed gives both the same configuration and traffic. Its random-traffic
// lockstep runs with every other parameter set above (Variants/*); these
// check what differs.

const RtlVariant* variant_named(const std::string& name) {
  for (const auto& x : rtl_variants())
    if (name == x.name) return &x;
  return nullptr;
}

// What the build says of each parameter set is what its model has; a
// configuration never selects the one without counters.
TEST(NoStats, VariantsSayWhatTheirModelsHave) {
  unsigned without = 0;
  for (const auto& v : rtl_variants()) {
    const Config c = config_for(v, 1);
    EXPECT_EQ(v.make(c, RtlOptions{})->has_stats(), v.stats) << v.name;
    EXPECT_EQ(v.matches(c), v.stats) << v.name;
    without += !v.stats;
  }
  const RtlVariant* v = variant_named("p3q3_dsh_l1_nostats");
  ASSERT_NE(v, nullptr);
  EXPECT_FALSE(v->stats);
  EXPECT_EQ(without, 1u);
}

// One field of the RTL's state or results changed from cycle `from` on:
// the lockstep must report it unless it is a counter the RTL does not have.
class Tamper final : public MmuModel {
 public:
  Tamper(std::unique_ptr<MmuModel> inner, std::string field, uint64_t from)
      : inner_(std::move(inner)), field_(std::move(field)), from_(from) {}
  const CycleOut& step(const CycleIn& in) override { return inner_->step(in); }
  const Config& config() const override { return inner_->config(); }
  uint64_t cycle() const override { return inner_->cycle(); }
  uint64_t s() const override { return inner_->s(); }
  uint64_t errors() const override { return inner_->errors() + (on() && field_ == "error_count"); }
  bool error_sticky() const override { return inner_->error_sticky() != (on() && field_ == "error_sticky"); }
  QueueState queue(uint32_t p, uint32_t q) const override {
    QueueState s = inner_->queue(p, q);
    if (!on() || p != 1 || q != 2) return s;
    if (field_ == "priv") ++s.priv;
    if (field_ == "shared") ++s.shared;
    if (field_ == "hdrm") ++s.hdrm;
    if (field_ == "qoff") s.qoff = !s.qoff;
    if (field_ == "drops") ++s.drops;
    if (field_ == "pauses") ++s.pauses;
    if (field_ == "resumes") ++s.resumes;
    return s;
  }
  PortState port(uint32_t p) const override {
    PortState s = inner_->port(p);
    if (!on() || p != 1) return s;
    if (field_ == "port_shared") ++s.shared;
    if (field_ == "port_hdrm") ++s.hdrm;
    if (field_ == "poff") s.poff = !s.poff;
    if (field_ == "port_pauses") ++s.pauses;
    if (field_ == "port_resumes") ++s.resumes;
    return s;
  }
  const char* name() const override { return inner_->name(); }
  unsigned latency() const override { return inner_->latency(); }
  bool quiet() const override { return inner_->quiet(); }
  const CycleOut& skip_idle(uint64_t n) override { return inner_->skip_idle(n); }
  bool has_stats() const override { return inner_->has_stats(); }

 private:
  // The state read after step k is that after input cycle k - 1 - latency().
  bool on() const { return inner_->cycle() > from_ + inner_->latency(); }
  std::unique_ptr<MmuModel> inner_;
  std::string field_;
  uint64_t from_;
};

// The lockstep skips the five counters without statistics, and only them:
// every other field tampered with is reported, at the cycle it went wrong,
// in the RTL without counters as in its twin with them (where the counters
// are reported too).
TEST(NoStats, LockstepSkipsOnlyTheCounters) {
  const std::set<std::string> counters = {"drops", "pauses", "resumes", "port_pauses", "port_resumes"};
  const char* const fields[] = {"priv",  "shared",      "hdrm",      "qoff",         "drops",
                                "pauses", "resumes",    "port_shared", "port_hdrm", "poff",
                                "port_pauses", "port_resumes", "error_count", "error_sticky"};
  for (const char* name : {"p3q3_dsh_l1_nostats", "p3q3_dsh_l1"}) {
    const RtlVariant* v = variant_named(name);
    ASSERT_NE(v, nullptr) << name;
    const Config c = config_for(*v, 8);
    for (const std::string field : fields) {
      const uint64_t from = 700;
      RtlVariant hooked = *v;
      hooked.make = [v, field, from](const Config& cfg, const RtlOptions& o) -> std::unique_ptr<MmuModel> {
        return std::make_unique<Tamper>(v->make(cfg, o), field, from);
      };
      LockstepOptions lo;
      lo.full_compare = true;  // queue 1.2 and port 1 every cycle, touched or not
      lo.tag = "tampered";
      lo.fst_dir = fst_dir();
      lo.fst_stem = std::string(name) + "_tampered_" + field;
      auto m = make_lockstep(hooked, c, lo);
      TrafficOptions to;
      to.seed = 8;
      Traffic t(c, v->widths, to);
      std::string caught;
      try {
        for (int i = 0; i < 1500; ++i) m->step(t.next(*m));
        m->finish();
      } catch (const MismatchError& e) {
        caught = e.lines().empty() ? e.what() : e.lines()[0];
        EXPECT_EQ(e.cycle(), from) << name << " " << field << ": " << e.what();
      }
      const bool skipped = !v->stats && counters.count(field);
      if (skipped)
        EXPECT_EQ(caught, "") << name << ": counter " << field << " compared without statistics";
      else
        EXPECT_NE(caught.find(" " + field + ": rtl="), std::string::npos)
            << name << ": " << field << " not reported (" << caught << ")";
    }
  }
}

// Every planted fault of tb/faults/dsh_faults.sv but the counters' own (10)
// is caught without the counters too, no earlier than with them (the same
// traffic; the counters are part of what the twin compares), and no report
// line names a counter.
class NoStatsFault : public ::testing::TestWithParam<unsigned> {};

TEST_P(NoStatsFault, IsCaught) {
  const unsigned fault = GetParam();
  uint64_t caught_at[2] = {0, 0};
  for (const char* name : {"p3q3_dsh_l1", "p3q3_dsh_l1_nostats"}) {
    const RtlVariant* v = variant_named(name);
    ASSERT_NE(v, nullptr) << name;
    Config c = config_for(*v, 3);
    c.private_cells = 0;
    bool caught = false;
    try {
      run_lockstep(*v, c, 3, 200000, fault);
    } catch (const MismatchError& e) {
      caught = true;
      caught_at[v->stats] = e.cycle();
      for (const auto& l : e.lines())
        for (const char* f : {" drops:", " pauses:", " resumes:", " port_pauses:", " port_resumes:"})
          EXPECT_TRUE(v->stats || l.find(f) == std::string::npos) << name << ": " << l;
      std::printf("%s, planted fault %u (%s): caught at cycle %llu: %s\n", name, fault, kFaults[fault],
                  (unsigned long long)e.cycle(), e.lines().empty() ? "" : e.lines()[0].c_str());
    }
    EXPECT_TRUE(caught) << name << ": planted fault " << fault << " (" << kFaults[fault] << ") went unnoticed";
  }
  EXPECT_GE(caught_at[0], caught_at[1]);
}

std::vector<unsigned> faults_without_counters() {
  std::vector<unsigned> f;
  for (unsigned i = 1; i <= kRtlFaults; ++i)
    if (i != kRtlFaultCntBypass && i != kRtlFaultMerge && i != kRtlFaultPoolPrefix) f.push_back(i);
  return f;
}
INSTANTIATE_TEST_SUITE_P(Faults, NoStatsFault, ::testing::ValuesIn(faults_without_counters()),
                         [](const auto& info) { return std::string(kFaults[info.param]); });

// The counters' fault has nothing to plant without them: the model refuses
// it, naming the fault and the parameter, rather than run a check that
// cannot fail. Its twin takes it.
TEST(NoStats, CounterFaultIsRefused) {
  ASSERT_EQ(std::string(kFaults[kRtlFaultCntBypass]), "CntBypass");
  const RtlVariant* v = variant_named("p3q3_dsh_l1_nostats");
  const RtlVariant* twin = variant_named("p3q3_dsh_l1");
  ASSERT_NE(v, nullptr);
  ASSERT_NE(twin, nullptr);
  const Config c = config_for(*v, 3);
  RtlOptions ro;
  ro.fault = kRtlFaultCntBypass;
  for (bool lockstep : {false, true}) {
    try {
      if (lockstep) make_lockstep(*v, c, LockstepOptions{}, ro);
      else v->make(c, ro);
      ADD_FAILURE() << "fault 10 taken by an RTL without counters" << (lockstep ? " (lockstep)" : "");
    } catch (const ConfigError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("fault 10 (FaultCntBypass)"), std::string::npos) << what;
      EXPECT_NE(what.find("p3q3_dsh_l1_nostats"), std::string::npos) << what;
      EXPECT_NE(what.find("Stats = 0"), std::string::npos) << what;
    }
  }
  EXPECT_NO_THROW(twin->make(c, ro));
  ro.fault = kRtlFaultCntBypass - 1;
  EXPECT_NO_THROW(v->make(c, ro));
}

// The read port without counters: the five counters read 0 where the golden
// model (and the twin with counters) have counted, the port's two sums are
// the golden model's.
TEST(NoStats, ReadPortCountersReadZero) {
  const RtlVariant* v = variant_named("p3q3_dsh_l1_nostats");
  const RtlVariant* twin = variant_named("p3q3_dsh_l1");
  ASSERT_NE(v, nullptr);
  ASSERT_NE(twin, nullptr);
  const Config c = config_for(*v, 7);
  auto rtl = v->make(c, RtlOptions{});
  auto with = twin->make(c, RtlOptions{});
  auto gold = make_golden(c, v->widths);
  TrafficOptions to;
  to.seed = 7;
  to.error_rate = 0;
  Traffic t(c, v->widths, to);
  for (int i = 0; i < 20000; ++i) {
    const CycleIn in = t.next(*gold);
    gold->step(in);
    rtl->step(in);
    with->step(in);
  }
  for (unsigned i = 0; i < rtl->latency(); ++i) {  // results all out
    rtl->step(CycleIn{});
    with->step(CycleIn{});
  }
  auto* rp = dynamic_cast<RtlReadPort*>(rtl.get());
  auto* rp_with = dynamic_cast<RtlReadPort*>(with.get());
  ASSERT_NE(rp, nullptr);
  ASSERT_NE(rp_with, nullptr);
  uint64_t counted = 0, sums = 0;
  for (uint32_t p = 0; p < c.n_ports; ++p)
    for (uint32_t q = 0; q < c.n_queues; ++q) {
      const CounterRead r = rp->read_port(p, q), w = rp_with->read_port(p, q);
      const QueueState g = gold->queue(p, q);
      const PortState gp = gold->port(p);
      const std::string at = "queue " + std::to_string(p) + "." + std::to_string(q);
      EXPECT_EQ(r.drops, 0u) << at;
      EXPECT_EQ(r.pauses, 0u) << at;
      EXPECT_EQ(r.resumes, 0u) << at;
      EXPECT_EQ(r.port_pauses, 0u) << at;
      EXPECT_EQ(r.port_resumes, 0u) << at;
      EXPECT_EQ(r.port_shared, gp.shared) << at;
      EXPECT_EQ(r.port_hdrm, gp.hdrm) << at;
      EXPECT_EQ(w.drops, g.drops) << at;
      EXPECT_EQ(w.pauses, g.pauses) << at;
      EXPECT_EQ(w.port_pauses, gp.pauses) << at;
      // The state accessors agree with the read port.
      EXPECT_EQ(rtl->queue(p, q).drops + rtl->queue(p, q).pauses + rtl->queue(p, q).resumes, 0u) << at;
      EXPECT_EQ(rtl->port(p).pauses + rtl->port(p).resumes, 0u) << at;
      counted += g.drops + g.pauses + g.resumes + gp.pauses;
      sums += r.port_shared + r.port_hdrm;
    }
  EXPECT_GT(counted, 0u) << "the traffic left nothing counted";
  EXPECT_GT(sums, 0u) << "the traffic left the ports empty";
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
