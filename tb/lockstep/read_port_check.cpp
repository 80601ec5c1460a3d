// SPDX-License-Identifier: Apache-2.0
// The counter read port (stat_rd_*) and, through its resume counts, qoff_o,
// held to the golden model during traffic: outputs the lockstep's Comparer
// does not see (it reads the records and counters inside the RTL, and
// qoff_q rather than the qoff_o vector). Every --every cycles both models
// get idle cycles until the RTL's results are out, then every queue (and
// one index out of range, where it fits) is read through the read port
// while the golden model idles alike; the read values must equal the golden
// state: drops, pauses, resumes (= pauses - qoff_o's bit), the port's
// pauses, resumes (= pauses - poff_o's bit), shared and headroom sums.
//
// The RTL comes from find_rtl_variant: a built-in parameter set when one
// matches, else built on demand, from $DSH_RTL_DIR when set
// (scripts/mutate.sh runs this on each mutant). A difference prints
// "cycle C queue P.Q read_<field>: rtl=X golden=Y seed=S" (the lockstep's
// format) and exits 1; an RTL assertion exits 1 with "dsh_mmu assertion".
//
//   lockstep_read_port [--cycles N] [--seed S] [--every K] [--error-rate R] [--<config field> VALUE]...
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "mmu_model.h"
#include "traffic.h"

namespace dsh {
namespace {

struct Options {
  uint64_t cycles = 20000, seed = 1, every = 500;
  double error_rate = 0.002;
  Config cfg;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--", 0) != 0 || i + 1 >= argc) throw ConfigError("expected --name value, got '" + a + "'");
    const std::string name = a.substr(2), v = argv[++i];
    if (name == "cycles") o.cycles = std::strtoull(v.c_str(), nullptr, 10);
    else if (name == "seed") o.seed = std::strtoull(v.c_str(), nullptr, 10);
    else if (name == "every") o.every = std::strtoull(v.c_str(), nullptr, 10);
    else if (name == "error-rate") o.error_rate = std::strtod(v.c_str(), nullptr);
    else o.cfg.set(name, v);
  }
  if (o.cycles == 0 || o.every == 0) throw ConfigError("--cycles and --every must be at least 1");
  return o;
}

class Check {
 public:
  explicit Check(const Options& o)
      : o_(o), widths_(widths_for(o.cfg, Backend::Rtl)), rtl_(make_rtl(o.cfg)), gold_(make_golden(o.cfg, widths_)),
        tag_("seed=" + std::to_string(o.seed)) {
    rp_ = dynamic_cast<RtlReadPort*>(rtl_.get());
    if (!rp_) throw std::runtime_error(std::string("the RTL model ") + rtl_->name() + " has no read port");
  }

  // 0: every read matched; 1: a difference or an RTL assertion.
  int run() {
    TrafficOptions to;
    to.seed = o_.seed;
    to.error_rate = o_.error_rate;
    Traffic traffic(o_.cfg, widths_, to);
    try {
      for (uint64_t i = 0; i < o_.cycles; ++i) {
        step(traffic.next(*gold_));
        if ((i + 1) % o_.every == 0 || i + 1 == o_.cycles)
          if (!sweep()) return 1;
      }
    } catch (const RtlAssertionError& e) {
      std::printf("cycle %llu dsh_mmu assertion: %s %s\n", (unsigned long long)gold_->cycle(), e.what(), tag_.c_str());
      return 1;
    }
    std::printf("lockstep_read_port: %s: %llu reads in %llu sweeps matched the golden state (%llu not all zero, "
                "%llu of a queue in QOFF, %llu of a port in POFF; %llu cycles, %s)\n",
                rtl_->name(), (unsigned long long)reads_, (unsigned long long)sweeps_,
                (unsigned long long)nonzero_reads_, (unsigned long long)qoff_reads_, (unsigned long long)poff_reads_,
                (unsigned long long)gold_->cycle(), tag_.c_str());
    if (nonzero_reads_ == 0) {
      std::printf("lockstep_read_port: the traffic left nothing to read: not a check\n");
      return 1;
    }
    return 0;
  }

 private:
  void step(const CycleIn& in) {
    gold_->step(in);
    rtl_->step(in);
  }

  // Idle until the RTL's results are out, then read every queue.
  bool sweep() {
    for (unsigned k = 0; k < rtl_->latency(); ++k) step(CycleIn{});
    const Config& c = o_.cfg;
    std::vector<std::pair<uint32_t, uint32_t>> at;
    for (uint32_t p = 0; p < c.n_ports; ++p)
      for (uint32_t q = 0; q < c.n_queues; ++q) at.emplace_back(p, q);
    // Out of range (where the index can carry it): the queue's counts read 0.
    if ((1u << rtl_index_bits(c.n_queues)) > c.n_queues) at.emplace_back(0, c.n_queues);
    if ((1u << rtl_index_bits(c.n_ports)) > c.n_ports) at.emplace_back(c.n_ports, 0);
    std::vector<std::string> diffs;
    for (const auto& [p, q] : at) {
      const CounterRead r = rp_->read_port(p, q);
      for (unsigned k = 0; k < kRtlReadLatency; ++k) gold_->step(CycleIn{});
      const bool q_in = p < c.n_ports && q < c.n_queues, p_in = p < c.n_ports;
      const QueueState g = q_in ? gold_->queue(p, q) : QueueState{};
      const PortState gp = p_in ? gold_->port(p) : PortState{};
      const std::string entry = "queue " + std::to_string(p) + "." + std::to_string(q);
      diff(diffs, entry, "read_drops", r.drops, g.drops);
      diff(diffs, entry, "read_pauses", r.pauses, g.pauses);
      diff(diffs, entry, "read_resumes", r.resumes, g.resumes);
      diff(diffs, entry, "read_port_pauses", r.port_pauses, gp.pauses);
      diff(diffs, entry, "read_port_resumes", r.port_resumes, gp.resumes);
      diff(diffs, entry, "read_port_shared", r.port_shared, gp.shared);
      diff(diffs, entry, "read_port_hdrm", r.port_hdrm, gp.hdrm);
      ++reads_;
      qoff_reads_ += g.qoff;
      poff_reads_ += gp.poff;
      nonzero_reads_ += r.drops || r.pauses || r.port_pauses || r.port_shared || r.port_hdrm;
    }
    ++sweeps_;
    for (const auto& d : diffs) std::printf("%s\n", d.c_str());
    if (!diffs.empty())
      std::printf("lockstep_read_port: %s: read port differs from the golden state in sweep %llu\n", rtl_->name(),
                  (unsigned long long)sweeps_);
    return diffs.empty();
  }

  void diff(std::vector<std::string>& out, const std::string& entry, const char* field, uint64_t r, uint64_t g) {
    if (r == g) return;
    out.push_back("cycle " + std::to_string(gold_->cycle() - 1) + " " + entry + " " + field + ": rtl=" +
                  std::to_string(r) + " golden=" + std::to_string(g) + " " + tag_);
  }

  Options o_;
  RtlWidths widths_;
  std::unique_ptr<MmuModel> rtl_, gold_;
  RtlReadPort* rp_ = nullptr;
  std::string tag_;
  uint64_t reads_ = 0, sweeps_ = 0, nonzero_reads_ = 0, qoff_reads_ = 0, poff_reads_ = 0;
};

}  // namespace
}  // namespace dsh

int main(int argc, char** argv) {
  dsh::Options o;
  try {
    o = dsh::parse(argc, argv);
    o.cfg.validate_ranges();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lockstep_read_port: error: %s\n", e.what());
    return 2;
  }
  try {
    dsh::Check check(o);
    return check.run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lockstep_read_port: error: %s\n", e.what());
    return 3;
  }
}
