// SPDX-License-Identifier: Apache-2.0
#include "sweep.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>

#include "exit_status.h"
#include "harness.h"
#include "output.h"
#include "sweep_state.h"

namespace dsh::sc {

std::string csv_header() {
  return "scheme,burst_bytes,burst_pct,burst_cells,fanin_pause_us,fanin_pause_frames,pause_frames,resume_frames,"
         "drops,peak_shared_cells,peak_queue_hdrm_cells,peak_port_hdrm_cells,max_enq_wait_ns,sim_us,wall_s,"
         "mmu_cycles,mmu_busy_cycles,fanin_start_us,refine,status";
}

// status: ok, lossy (run.allow_lossy), or invalid (the stimulus did not happen).
std::string csv_row(const Metrics& m, const std::string& status, bool reproducible) {
  char wall[32] = "";
  if (!reproducible) std::snprintf(wall, sizeof wall, "%.3f", m.wall_s);
  char b[600];
  std::snprintf(b, sizeof b, "%s,%llu,%.4f,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%.1f,%.2f,%s,%llu,%llu,%.2f,%d",
                lower_name(Scheme(m.scheme)), (unsigned long long)m.burst_bytes, m.burst_pct,
                (unsigned long long)m.burst_cells, m.fanin_pause_us, (unsigned long long)m.fanin_pause_frames,
                (unsigned long long)m.pause_frames, (unsigned long long)m.resume_frames, (unsigned long long)m.drops,
                (unsigned long long)m.peak_shared_cells, (unsigned long long)m.peak_queue_hdrm_cells,
                (unsigned long long)m.peak_port_hdrm_cells, m.max_enq_wait_ns, m.sim_us, wall,
                (unsigned long long)m.mmu_cycles, (unsigned long long)m.mmu_busy_cycles, m.fanin_start_us, m.refine);
  return std::string(b) + "," + status;
}

void print_point(FILE* f, const Metrics& m) {
  std::fprintf(f,
               "%s burst %.2f%% (%llu B): fan-in paused %.2f us, PAUSE frames to fan-in %llu (all %llu), drops %llu, "
               "peak S %llu, peak hdrm queue %llu / port %llu cells, max enqueue wait %.0f ns; fan-in at %.1f us, %.0f us "
               "simulated in %.2f s, %llu MMU cycles\n",
               lower_name(Scheme(m.scheme)), m.burst_pct, (unsigned long long)m.burst_bytes, m.fanin_pause_us,
               (unsigned long long)m.fanin_pause_frames, (unsigned long long)m.pause_frames,
               (unsigned long long)m.drops, (unsigned long long)m.peak_shared_cells,
               (unsigned long long)m.peak_queue_hdrm_cells, (unsigned long long)m.peak_port_hdrm_cells, m.max_enq_wait_ns,
               m.fanin_start_us, m.sim_us, m.wall_s, (unsigned long long)m.mmu_cycles);
}

namespace {

// One run of the sweep: the chains of its chips and schemes, the point files
// already there, the points still to run (grid first, then each chain's
// bisection steps), and the tally of every result.
class Sweep {
 public:
  Sweep(const Params& p, const SweepOptions& o) : p_(p), o_(o), t0_(std::chrono::steady_clock::now()) {}
  int run(const KeyValues& infeasible);

 private:
  std::optional<int> plan(const KeyValues& infeasible);
  std::optional<int> read_point_files();
  std::optional<KeyValues> params_of(const PointRecord& f) const;
  size_t chain_index(const SweepPoint& pt) const {
    return chain_of_key_.at(chips_[pt.chip].label + "/" + lower_name(pt.spec.scheme));
  }
  std::string take(Chain& e, const Metrics& m, bool refine);
  std::optional<PointSpec> next();
  void finished(const PointResult& r);
  std::string partial_kept();

  const Params& p_;
  const SweepOptions& o_;
  const std::chrono::steady_clock::time_point t0_;
  bool gen_sweep_ = false;
  std::vector<SweepChip> chips_;
  std::vector<SweepPoint> grid_pts_;
  std::vector<double> grid_;
  std::map<std::string, size_t> grid_index_;
  std::vector<Chain> chains_;
  std::map<std::string, size_t> chain_of_key_;  // "<label>/<scheme>"
  std::map<std::string, PointFile> cached_;     // valid results of this sweep, by ID
  SweepTally tally_;
  std::string partial_path_;
  std::ofstream partial_;
  std::vector<const SweepPoint*> todo_;
  size_t ti_ = 0, planned_ = 0, finished_ = 0;
  std::map<std::string, size_t> running_chain_;  // id -> chain
  PointResult bad_;
  std::string write_error_;
};

// The chips, the grid and the chains; exit 2 on a bad sweep or points directory.
std::optional<int> Sweep::plan(const KeyValues& infeasible) {
  try {
    chips_ = sweep_chips(p_, infeasible);
    grid_pts_ = grid_points(p_, chips_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  try {
    if (!o_.merge) check_output_dir("-o", o_.points_dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  grid_ = sorted_grid(p_);
  gen_sweep_ = !p_.generations.empty();
  for (size_t i = 0; i < grid_pts_.size(); ++i) grid_index_[grid_pts_[i].id] = i;
  for (size_t c = 0; c < chips_.size(); ++c)
    for (const auto& sch : chips_[c].params->schemes) {
      Chain ch;
      ch.chip = c;
      ch.scheme = scheme_from_string(sch);
      ch.grid_left = grid_.size();
      ch.steps_left = p_.refine_steps;
      chain_of_key_[chips_[c].label + "/" + lower_name(ch.scheme)] = chains_.size();
      chains_.push_back(ch);
    }
  return std::nullopt;
}

// A file's chip: a grid ID, or a bisection step of one of this sweep's chains.
std::optional<KeyValues> Sweep::params_of(const PointRecord& f) const {
  const auto key = parse_point_id(f.id);
  const SweepChip* chip = nullptr;
  if (key && key->scenario == p_.name)
    for (const auto& c : chips_)
      if (c.label == key->generation && chain_of_key_.count(c.label + "/" + key->scheme)) chip = &c;
  const bool is_grid = grid_index_.count(f.id) != 0;
  bool is_step = false;
  if (chip && key->refine) {
    char* end = nullptr;
    const double b = std::strtod(key->burst.c_str(), &end);
    is_step = end && !*end && b > 0 && b <= kBurstPctMax && format_number(b) == key->burst;
  }
  if (!is_grid && !is_step) return std::nullopt;
  metrics_from_json(f.metrics);  // throws when they are not a pfc-avoidance point's
  return point_params(*chip->params);
}

// The point files already there; a merge's refusals (exit 2).
std::optional<int> Sweep::read_point_files() {
  std::vector<std::string> ids;
  for (const auto& pt : grid_pts_) ids.push_back(pt.id);
  PointScan scan;
  if (const auto st = scan_run_points(scan, o_.points_dir, o_.merge, o_.rerun, ids, "grid points",
                                      [&](const PointRecord& f) { return params_of(f); }))
    return st;
  for (auto& [id, r] : scan.valid) {
    PointFile f;
    f.path = r.path;
    f.id = id;
    f.params = r.params;
    f.m = metrics_from_json(r.metrics);
    cached_[id] = f;
  }
  return std::nullopt;
}

// Accounts a result, run here or read: the tally, the partial CSV, the
// chain's bracket. Returns why the point is invalid ("" valid).
std::string Sweep::take(Chain& e, const Metrics& m, bool refine) {
  const Params& cp = *chips_[e.chip].params;
  const std::string fault = stimulus_fault(cp, m);
  const std::string st = fault.empty() ? (cp.lossy() ? "lossy" : "ok") : "invalid";
  tally_.rows.push_back({e.chip, m, st});
  partial_ << (gen_sweep_ ? chips_[e.chip].label + "," : "") << csv_row(m, st, o_.reproducible) << "\n" << std::flush;
  if (fault.empty()) {
    e.done[m.burst_pct] = m;
    ++tally_.n_valid;
    tally_.drops += m.drops;
    tally_.sum_sim_us += m.sim_us;
    tally_.sum_wall += m.wall_s;
    tally_.sum_cycles += double(m.mmu_cycles);
  } else {
    char b[96];
    std::snprintf(b, sizeof b, "%s%s%s %.4g%%", gen_sweep_ ? chips_[e.chip].label.c_str() : "",
                  gen_sweep_ ? " Gb/s " : "", lower_name(Scheme(m.scheme)), m.burst_pct);
    tally_.invalid.push_back({{e.chip, {-m.scheme, m.burst_pct}}, std::string(b) + ": " + fault});
  }
  if (refine) {
    e.running = false;
    if (fault.empty()) (m.fanin_pause_frames == 0 ? e.lo : e.hi) = m.burst_pct;
    else e.steps_left = 0;  // no bisection on an invalid point
  } else if (--e.grid_left == 0) {
    e.settle(grid_);
  }
  return fault;
}

// The next point to run: a grid point, else a chain's bisection step (a
// step whose file exists is read instead).
std::optional<PointSpec> Sweep::next() {
  if (ti_ < todo_.size()) {
    const SweepPoint& pt = *todo_[ti_++];
    PointSpec s = pt.spec;
    s.out_dir = o_.out_dir;
    running_chain_[pt.id] = chain_index(pt);
    return s;
  }
  for (size_t ci = 0; ci < chains_.size(); ++ci) {
    Chain& e = chains_[ci];
    while (e.can_step()) {
      --e.steps_left;
      const double b = e.mid();
      const std::string id = point_id(p_, chips_[e.chip], e.scheme, b, true);
      if (cached_.count(id)) {
        take(e, cached_[id].m, true);
        ++tally_.from_files;
        continue;
      }
      e.running = true;
      PointSpec s;
      s.scheme = e.scheme;
      s.burst_pct = b;
      s.refine = true;
      s.out_dir = o_.out_dir;
      s.params = chips_[e.chip].params;
      s.id = id;
      running_chain_[id] = ci;
      return s;
    }
  }
  return std::nullopt;
}

// A point that ended: its file, its accounting, its line on stderr.
void Sweep::finished(const PointResult& r) {
  if (!r.ok()) {
    bad_ = r;
    return;
  }
  Chain& e = chains_.at(running_chain_.at(r.spec.id));
  const Params& cp = *chips_[e.chip].params;
  try {
    write_file_atomically(o_.points_dir + "/" + r.spec.id + ".json", point_file_text(r.spec.id, cp, r.m));
  } catch (const std::exception& x) {
    write_error_ = x.what();
  }
  const std::string fault = take(e, r.m, r.spec.refine);
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const std::string where = gen_sweep_ ? chips_[e.chip].label + " Gb/s " : "";
  const size_t of = planned_ - tally_.from_files;
  if (!fault.empty()) {
    std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s%s %6.2f%%%s: INVALID: %s\n", ++finished_, of, el, where.c_str(),
                 lower_name(Scheme(r.m.scheme)), r.m.burst_pct, r.spec.refine ? " (bisect)" : "", fault.c_str());
    return;
  }
  std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s%s %6.2f%%%s: fan-in paused %9.2f us, PAUSE %4llu, drops %llu (%.0f us sim, %.1f s)\n",
               ++finished_, of, el, where.c_str(), lower_name(Scheme(r.m.scheme)), r.m.burst_pct,
               r.spec.refine ? " (bisect)" : "", r.m.fanin_pause_us, (unsigned long long)r.m.fanin_pause_frames,
               (unsigned long long)r.m.drops, r.m.sim_us, r.m.wall_s);
}

std::string Sweep::partial_kept() {
  partial_.close();
  if (tally_.rows.empty()) {
    std::remove(partial_path_.c_str());
    return std::string("no point had finished; nothing kept");
  }
  return std::to_string(tally_.rows.size()) + " finished points kept in " + partial_path_ + " and as result files in " +
         o_.points_dir + " (a rerun skips them); no complete sweep, summary or plot written";
}

int Sweep::run(const KeyValues& infeasible) {
  if (const auto st = plan(infeasible)) return *st;
  if (const auto st = read_point_files()) return *st;
  partial_path_ = o_.out_dir + "/sweep.partial.csv";
  try {
    check_output_dir("-o", o_.out_dir);  // a merge reads its points elsewhere: -o may not exist yet
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  partial_.open(partial_path_, std::ios::trunc);
  if (!partial_) {
    std::fprintf(stderr, "dsh-sim: error: cannot write %s\n", partial_path_.c_str());
    return kExitToolFailed;
  }
  partial_ << (gen_sweep_ ? "rate_gbps," : "") << csv_header() << "\n" << std::flush;
  for (const auto& pt : grid_pts_)
    if (cached_.count(pt.id)) {
      take(chains_[chain_index(pt)], cached_[pt.id].m, false);
      ++tally_.from_files;
    }
  for (const auto& pt : grid_pts_)
    if (!cached_.count(pt.id)) todo_.push_back(&pt);
  planned_ = grid_pts_.size() + chains_.size() * p_.refine_steps;
  const bool ok = run_points(p_, p_.jobs, [&] { return next(); }, [&](const PointResult& r) { finished(r); });
  if (interrupted()) {
    std::fprintf(stderr, "dsh-sim: interrupted: the running points were stopped; %s\n", partial_kept().c_str());
    return pool_interrupted_status();
  }
  if (!ok) {
    std::fprintf(stderr, "dsh-sim: %s\n", partial_kept().c_str());
    std::fprintf(stderr, "dsh-sim: point %s failed:\n%s\n", bad_.spec.id.c_str(), bad_.error.c_str());
    return bad_.m.mismatch ? kExitCheckFailed : kExitToolFailed;
  }
  if (!write_error_.empty()) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", write_error_.c_str());
    return kExitToolFailed;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  partial_.close();  // removed once the complete outputs are written
  return write_sweep_outputs(p_, chips_, chains_, tally_, wall, o_);
}

}  // namespace

int run_sweep(const Params& p, const KeyValues& infeasible, const SweepOptions& o) { return Sweep(p, o).run(infeasible); }

}  // namespace dsh::sc
