// SPDX-License-Identifier: Apache-2.0
#include "sweep.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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

// One run of the sweep on the harness: its chips, grid and chains, the
// point list replayed from the results so far (each chain's grid, then its
// bisection steps up to the first without a result), the run of a point,
// its report and the outputs.
class Sweep {
 public:
  Sweep(const Params& p, const SweepOptions& o) : p_(p), o_(o), t0_(std::chrono::steady_clock::now()) {}
  int run(const KeyValues& infeasible);

 private:
  std::optional<int> plan(const KeyValues& infeasible);
  std::vector<std::string> points(const PointResults& results);
  void replay(size_t ci, const PointResults& results, std::vector<std::string>& steps);
  std::optional<KeyValues> params_of(const std::string& id) const;
  nlohmann::ordered_json run_one(const std::string& id) const;
  nlohmann::ordered_json failed(const std::string& id, const std::string& why) const;
  const Metrics& metrics(const std::string& id, const nlohmann::json& j);
  std::string status(size_t chip, const Metrics& m, std::string* fault = nullptr) const;
  void report(const std::string& id, const nlohmann::ordered_json& j);
  int point_status(const std::string& id, const nlohmann::json& j);
  int outputs(const SweepResults& res);
  std::string where(size_t chip) const { return gen_sweep_ ? chips_[chip].label + " Gb/s " : ""; }

  const Params& p_;
  const SweepOptions& o_;
  const std::chrono::steady_clock::time_point t0_;
  bool gen_sweep_ = false;
  std::vector<SweepChip> chips_;
  std::vector<KeyValues> chip_params_;  // point_params of each chip
  std::vector<SweepPoint> grid_pts_;    // chain by chain, burst ascending
  std::vector<double> grid_;
  std::vector<Chain> chains_;
  std::map<std::string, size_t> chain_of_key_;  // "<label>/<scheme>"
  std::map<std::string, size_t> chain_of_;      // every listed point's chain, by ID
  std::map<std::string, PointSpec> spec_;       // every listed point, by ID
  std::map<std::string, Metrics> metrics_;      // the results read so far, by ID
  size_t finished_ = 0, of_ = 0;                // the run log's count
};

// The chips, the grid and the chains; exit 2 on a bad sweep.
std::optional<int> Sweep::plan(const KeyValues& infeasible) {
  try {
    chips_ = sweep_chips(p_, infeasible);
    grid_pts_ = grid_points(p_, chips_);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitBadInput;
  }
  grid_ = sorted_grid(p_);
  gen_sweep_ = !p_.generations.empty();
  for (const auto& c : chips_) chip_params_.push_back(point_params(*c.params));
  for (size_t c = 0; c < chips_.size(); ++c)
    for (const auto& sch : chips_[c].params->schemes) {
      Chain ch;
      ch.chip = c;
      ch.scheme = scheme_from_string(sch);
      chain_of_key_[chips_[c].label + "/" + lower_name(ch.scheme)] = chains_.size();
      chains_.push_back(ch);
    }
  for (size_t i = 0; i < grid_pts_.size(); ++i) {  // grid_points lists chain by chain
    chain_of_[grid_pts_[i].id] = i / grid_.size();
    spec_[grid_pts_[i].id] = grid_pts_[i].spec;
  }
  of_ = grid_pts_.size() + chains_.size() * p_.refine_steps;
  return std::nullopt;
}

const Metrics& Sweep::metrics(const std::string& id, const nlohmann::json& j) {
  auto it = metrics_.find(id);
  if (it == metrics_.end()) it = metrics_.emplace(id, metrics_from_json(j)).first;
  return it->second;
}

// ok, lossy (run.allow_lossy), or invalid (the stimulus did not happen; *fault says why).
std::string Sweep::status(size_t chip, const Metrics& m, std::string* fault) const {
  const Params& cp = *chips_[chip].params;
  const std::string f = stimulus_fault(cp, m);
  if (fault) *fault = f;
  return f.empty() ? (cp.lossy() ? "lossy" : "ok") : "invalid";
}

// Chain ci from its results: the grid, then each bisection step until one
// has no result (it is listed in `steps`, to run next) or the bisection ends.
void Sweep::replay(size_t ci, const PointResults& results, std::vector<std::string>& steps) {
  Chain& e = chains_[ci];
  const size_t chip = e.chip;
  const Scheme scheme = e.scheme;
  e = Chain();
  e.chip = chip;
  e.scheme = scheme;
  e.grid_left = grid_.size();
  e.steps_left = p_.refine_steps;
  for (size_t k = 0; k < grid_.size(); ++k) {
    const std::string& id = grid_pts_[ci * grid_.size() + k].id;
    const auto it = results.find(id);
    if (it == results.end()) continue;
    const Metrics& m = metrics(id, it->second);
    if (status(e.chip, m) != "invalid") e.done[m.burst_pct] = m;  // an invalid point: no result
    --e.grid_left;
  }
  if (e.grid_left) return;
  e.settle(grid_);
  while (e.can_step()) {
    --e.steps_left;
    const double b = e.mid();
    const std::string id = point_id(p_, chips_[e.chip], e.scheme, b, true);
    steps.push_back(id);
    if (!spec_.count(id)) {
      PointSpec s;
      s.scheme = e.scheme;
      s.burst_pct = b;
      s.refine = true;
      s.params = chips_[e.chip].params;
      s.id = id;
      spec_[id] = s;
      chain_of_[id] = ci;
    }
    const auto it = results.find(id);
    if (it == results.end()) return;
    const Metrics& m = metrics(id, it->second);
    if (status(e.chip, m) == "invalid") return;  // no bisection on an invalid point
    e.done[m.burst_pct] = m;
    (m.fanin_pause_frames == 0 ? e.lo : e.hi) = m.burst_pct;
  }
}

std::vector<std::string> Sweep::points(const PointResults& results) {
  std::vector<std::string> list, steps;
  for (const auto& pt : grid_pts_) list.push_back(pt.id);
  for (size_t ci = 0; ci < chains_.size(); ++ci) replay(ci, results, steps);
  list.insert(list.end(), steps.begin(), steps.end());
  return list;
}

// A file's chip: a grid ID, or a bisection step of one of this sweep's chains.
std::optional<KeyValues> Sweep::params_of(const std::string& id) const {
  if (const auto it = chain_of_.find(id); it != chain_of_.end()) return chip_params_[chains_[it->second].chip];
  const auto key = parse_point_id(id);
  if (!key || key->scenario != p_.name || !key->refine) return std::nullopt;
  const auto ch = chain_of_key_.find(key->generation + "/" + key->scheme);
  if (ch == chain_of_key_.end()) return std::nullopt;
  char* end = nullptr;
  const double b = std::strtod(key->burst.c_str(), &end);
  if (!(end && !*end && b > 0 && b <= kBurstPctMax && format_number(b) == key->burst)) return std::nullopt;
  return chip_params_[chains_[ch->second].chip];
}

// In the point's own process.
nlohmann::ordered_json Sweep::run_one(const std::string& id) const {
  PointSpec s = spec_.at(id);
  s.out_dir = o_.out_dir;
  const PointResult r = run_point(*s.params, s);
  nlohmann::ordered_json j = metrics_json(r.m);
  if (!r.ok()) j["error"] = r.error;
  return j;
}

nlohmann::ordered_json Sweep::failed(const std::string& id, const std::string& why) const {
  const PointSpec& s = spec_.at(id);
  Metrics m;
  m.scheme = int(s.scheme);
  m.refine = s.refine;
  m.burst_pct = s.burst_pct;
  nlohmann::ordered_json j = metrics_json(m);
  j["error"] = why;
  return j;
}

// A point's line: --point ID's on stdout, the sweep's run log on stderr.
void Sweep::report(const std::string& id, const nlohmann::ordered_json& j) {
  const std::string error = j.value("error", std::string());
  if (!o_.point.empty()) {
    if (error.empty()) {
      std::printf("%s\n", id.c_str());
      print_point(stdout, metrics_from_json(nlohmann::json::parse(j.dump())));
    }
    return;
  }
  if (!error.empty()) {
    std::fprintf(stderr, "dsh-sim: point %s failed:\n%s\n", id.c_str(), error.c_str());
    return;
  }
  const Metrics m = metrics_from_json(nlohmann::json::parse(j.dump()));
  const size_t chip = chains_[chain_of_.at(id)].chip;
  std::string fault;
  status(chip, m, &fault);
  const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  const char* bisect = m.refine ? " (bisect)" : "";
  if (!fault.empty()) {
    std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s%s %6.2f%%%s: INVALID: %s\n", ++finished_, of_, el, where(chip).c_str(),
                 lower_name(Scheme(m.scheme)), m.burst_pct, bisect, fault.c_str());
    return;
  }
  std::fprintf(stderr, "[%2zu/%zu %5.1f s] %s%s %6.2f%%%s: fan-in paused %9.2f us, PAUSE %4llu, drops %llu (%.0f us sim, %.1f s)\n",
               ++finished_, of_, el, where(chip).c_str(), lower_name(Scheme(m.scheme)), m.burst_pct, bisect,
               m.fanin_pause_us, (unsigned long long)m.fanin_pause_frames, (unsigned long long)m.drops, m.sim_us,
               m.wall_s);
}

// --point ID's exit status: 4 invalid stimulus, 1 drops (not lossy by configuration).
int Sweep::point_status(const std::string& id, const nlohmann::json& j) {
  const Metrics m = metrics_from_json(j);
  const Params& cp = *chips_[chains_[chain_of_.at(id)].chip].params;
  const std::string fault = stimulus_fault(cp, m);
  if (!fault.empty()) {
    std::fprintf(stderr, "dsh-sim: invalid point %s: %s\n", id.c_str(), fault.c_str());
    return kExitInvalidExperiment;
  }
  return m.drops && !cp.lossy() ? kExitCheckFailed : kExitOk;
}

int Sweep::outputs(const SweepResults& res) {
  PointResults results;
  for (size_t i = 0; i < res.ids.size(); ++i) results[res.ids[i]] = res.metrics[i];
  points(results);  // the chains' final brackets
  SweepTally t;
  t.from_files = res.from_files;
  for (const auto& id : res.ids) {
    const Metrics& m = metrics(id, results.at(id));
    const size_t chip = chains_[chain_of_.at(id)].chip;
    std::string fault;
    t.rows.push_back({chip, m, status(chip, m, &fault)});
    if (fault.empty()) {
      ++t.n_valid;
      t.drops += m.drops;
      t.sum_sim_us += m.sim_us;
      t.sum_wall += m.wall_s;
      t.sum_cycles += double(m.mmu_cycles);
      continue;
    }
    char b[96];
    std::snprintf(b, sizeof b, "%s%s %.4g%%", where(chip).c_str(), lower_name(Scheme(m.scheme)), m.burst_pct);
    t.invalid.push_back({{chip, {-m.scheme, m.burst_pct}}, std::string(b) + ": " + fault});
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  return write_sweep_outputs(p_, chips_, chains_, t, wall, o_);
}

int Sweep::run(const KeyValues& infeasible) {
  if (const auto st = plan(infeasible)) return *st;
  RoundsSweep sw;
  sw.points = [this](const PointResults& r) { return points(r); };
  sw.params = [this](const std::string& id) { return params_of(id); };
  sw.check_metrics = [](const nlohmann::json& j) { metrics_from_json(j); };
  sw.first_round_noun = "grid points";
  sw.jobs = p_.jobs;
  sw.stop_at_failure = true;
  sw.run_point = [this](const std::string& id) { return run_one(id); };
  sw.failed_point = [this](const std::string& id, const std::string& why) { return failed(id, why); };
  sw.starting = [this](const std::vector<std::string>&, size_t done) { of_ -= done; };
  sw.report = [this](const std::string& id, const nlohmann::ordered_json& j) { report(id, j); };
  sw.point_status = [this](const std::string& id, const nlohmann::json& j) { return point_status(id, j); };
  sw.partial = {o_.out_dir + "/sweep.partial.csv", (gen_sweep_ ? "rate_gbps," : "") + csv_header(),
                [this](const std::string& id, const nlohmann::json& j) {
                  const Metrics& m = metrics(id, j);
                  const size_t chip = chains_[chain_of_.at(id)].chip;
                  return (gen_sweep_ ? chips_[chip].label + "," : "") + csv_row(m, status(chip, m), o_.reproducible);
                }};
  sw.write_outputs = [this](const SweepResults& res) { return outputs(res); };
  return run_rounds_sweep(sw, o_);
}

}  // namespace

int run_sweep(const Params& p, const KeyValues& infeasible, const SweepOptions& o) { return Sweep(p, o).run(infeasible); }

}  // namespace dsh::sc
