// SPDX-License-Identifier: Apache-2.0
// run_rounds_sweep (harness.h): the pool, the resume from point files,
// --point, --list-points, --merge, failed points and the interrupt.
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <set>
#include <utility>

#include "child_process.h"
#include "exit_status.h"
#include "harness.h"
#include "input.h"
#include "mmu_model.h"
#include "output.h"

namespace dsh::sc {

namespace {

int failed_status(bool mismatch) { return mismatch ? kExitCheckFailed : kExitToolFailed; }

std::string point_path(const std::string& dir, const std::string& id) { return dir + "/" + id + ".json"; }

// A point's result text from its process: its metrics, or the failed
// point's record when the process ended without one.
nlohmann::ordered_json result_of(const RoundsSweep& sw, const std::string& id, const std::string& out, int status) {
  try {
    return nlohmann::ordered_json::parse(out);
  } catch (...) {
    const std::string how = WIFSIGNALED(status) ? "was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                                                      strsignal(WTERMSIG(status)) + ")"
                                                : "exited with status " + std::to_string(WEXITSTATUS(status));
    return sw.failed_point(id, "point process " + how + " without a result");
  }
}

PoolTask task_of(const RoundsSweep& sw, const std::string& id) {
  return PoolTask{[&sw, id] {
                    try {
                      return sw.run_point(id).dump();
                    } catch (const std::exception& e) {
                      return sw.failed_point(id, e.what()).dump();
                    }
                  },
                  sw.partial_file ? sw.partial_file(id) : ""};
}

// One point by its ID: its result file, or the one already there.
int run_one_point(const RoundsSweep& sw, const HarnessOptions& o) {
  const std::vector<std::string> ids = sw.points({});
  if (std::find(ids.begin(), ids.end(), o.point) == ids.end()) {
    std::fprintf(stderr,
                 "dsh-sim: error: --point = %s: not a point of this run (%zu points; --list-points lists them, with "
                 "the same --set and --full options)\n",
                 quoted(o.point).c_str(), ids.size());
    return kExitBadInput;
  }
  const std::string& id = o.point;
  const KeyValues params = *sw.params(id);
  const std::string path = point_path(run_points_dir(o), id);
  if (const auto done = point_already_done(path, id, params, o.rerun, sw.check_metrics))
    return sw.point_status(id, *done);
  if (sw.starting) sw.starting({id}, 0);
  int status = kExitOk;
  bool asked = false;
  run_pool(
      1, [&]() -> std::optional<PoolTask> { return std::exchange(asked, true) ? std::nullopt : std::optional(task_of(sw, id)); },
      [&](size_t, const std::string& out, int st) {
        const nlohmann::ordered_json m = result_of(sw, id, out, st);
        sw.report(id, m);
        const std::string error = m.value("error", std::string());
        if (!error.empty()) {
          std::fprintf(stderr, "dsh-sim: point %s failed, no result file written: %s\n", id.c_str(), error.c_str());
          status = failed_status(is_lockstep_report(error));
          return true;
        }
        write_file_atomically(path, point_record_text(id, params, m));
        std::printf("wrote %s\n", path.c_str());
        status = sw.point_status(id, nlohmann::json::parse(m.dump()));
        return true;
      });
  if (pool_interrupted()) {
    std::fprintf(stderr, "dsh-sim: interrupted: nothing written\n");
    return pool_interrupted_status();
  }
  return status;
}

// The default run (results kept in out_dir/points, done ones skipped) or a merge.
class RoundsRun {
 public:
  RoundsRun(const RoundsSweep& sw, const HarnessOptions& o) : sw_(sw), o_(o), dir_(run_points_dir(o)) {}
  int run();

 private:
  std::optional<int> read_point_files();
  std::optional<int> open_partial();
  std::optional<PoolTask> next();
  bool finished(size_t task, const std::string& out, int status);
  std::string kept();
  int stopped_short();

  const RoundsSweep& sw_;
  const HarnessOptions& o_;
  const std::string dir_;
  PointResults results_;
  std::set<std::string> from_files_, started_;
  std::deque<std::string> queue_;    // listed points without a result, not started
  std::vector<std::string> tasks_;   // the pool's tasks, by number
  bool ask_again_ = false;           // a point ended since the list was last asked for
  size_t finished_ = 0, failed_ = 0, partial_rows_ = 0;
  bool mismatch_ = false;
  std::string write_error_;
  std::ofstream partial_;
};

std::optional<int> RoundsRun::read_point_files() {
  PointScan found;
  const auto expected = [&](const PointRecord& r) -> std::optional<KeyValues> {
    auto params = sw_.params(r.id);
    if (params && sw_.check_metrics) sw_.check_metrics(r.metrics);
    return params;
  };
  if (const auto st = scan_run_points(found, dir_, !o_.merge_dir.empty(), o_.rerun, sw_.points({}),
                                      sw_.first_round_noun.c_str(), expected))
    return st;
  for (auto& [id, r] : found.valid) {
    results_[id] = std::move(r.metrics);
    from_files_.insert(id);
  }
  return std::nullopt;
}

std::optional<int> RoundsRun::open_partial() {
  if (sw_.partial.path.empty()) return std::nullopt;
  try {
    check_output_dir("-o", o_.out_dir);  // a merge reads its points elsewhere: -o may not exist yet
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", e.what());
    return kExitToolFailed;
  }
  partial_.open(sw_.partial.path, std::ios::trunc);
  if (!partial_) {
    std::fprintf(stderr, "dsh-sim: error: cannot write %s\n", sw_.partial.path.c_str());
    return kExitToolFailed;
  }
  partial_ << sw_.partial.header << "\n" << std::flush;
  return std::nullopt;
}

// The next listed point without a result; the list is asked for again
// when a point has ended since.
std::optional<PoolTask> RoundsRun::next() {
  if (queue_.empty() && ask_again_) {
    ask_again_ = false;
    for (const auto& id : sw_.points(results_))
      if (!results_.count(id) && !started_.count(id)) queue_.push_back(id);
  }
  if (queue_.empty()) return std::nullopt;
  const std::string id = queue_.front();
  queue_.pop_front();
  started_.insert(id);
  tasks_.push_back(id);
  return task_of(sw_, id);
}

// A point that ended: its report, its file and partial row; false stops the pool.
bool RoundsRun::finished(size_t task, const std::string& out, int status) {
  const std::string& id = tasks_[task];
  const nlohmann::ordered_json m = result_of(sw_, id, out, status);
  sw_.report(id, m);
  const std::string error = m.value("error", std::string());
  if (!error.empty()) {
    ++failed_;
    mismatch_ |= is_lockstep_report(error);
    return !sw_.stop_at_failure;
  }
  nlohmann::json& r = results_[id] = nlohmann::json::parse(m.dump());
  ask_again_ = true;
  ++finished_;
  try {
    write_file_atomically(point_path(dir_, id), point_record_text(id, *sw_.params(id), m));
  } catch (const std::exception& e) {
    write_error_ = e.what();
  }
  if (partial_.is_open()) {
    partial_ << sw_.partial.row(id, r) << "\n" << std::flush;
    ++partial_rows_;
  }
  return true;
}

// Where the finished points are, for a run that stopped short.
std::string RoundsRun::kept() {
  if (!partial_.is_open())
    return std::to_string(finished_) + " finished points kept in " + dir_ + ", no outputs written";
  partial_.close();
  if (!partial_rows_) {
    std::remove(sw_.partial.path.c_str());
    return "no point had finished; nothing kept";
  }
  return std::to_string(partial_rows_) + " finished points kept in " + sw_.partial.path + " and as result files in " +
         dir_ + ", no outputs written";
}

int RoundsRun::stopped_short() {
  if (pool_interrupted()) {  // the finished points keep their files; no output looks complete
    std::fprintf(stderr, "dsh-sim: interrupted: the running points were stopped; %s (the same command resumes)\n",
                 kept().c_str());
    return pool_interrupted_status();
  }
  if (sw_.stop_at_failure)
    std::fprintf(stderr, "dsh-sim: a point failed (above), the running points were stopped; %s (the same command "
                         "runs the rest)\n", kept().c_str());
  else  // a summary over the points that ran would read as a result
    std::fprintf(stderr, "dsh-sim: %zu of %zu points failed (above); %s (the same command runs the rest)\n", failed_,
                 tasks_.size(), kept().c_str());
  return failed_status(mismatch_);
}

int RoundsRun::run() {
  if (o_.merge_dir.empty()) check_output_dir("-o", dir_);
  if (const auto st = read_point_files()) return *st;
  if (const auto st = open_partial()) return *st;
  std::vector<std::string> todo;
  size_t done = 0;
  for (const auto& id : sw_.points(results_)) {
    if (!results_.count(id)) {
      todo.push_back(id);
      continue;
    }
    ++done;
    if (!partial_.is_open()) continue;
    partial_ << sw_.partial.row(id, results_.at(id)) << "\n" << std::flush;
    ++partial_rows_;
  }
  queue_.assign(todo.begin(), todo.end());
  if (!todo.empty() && sw_.starting) sw_.starting(todo, done);
  run_pool(sw_.jobs, [&] { return next(); },
           [&](size_t task, const std::string& out, int st) { return finished(task, out, st); });
  if (pool_interrupted() || failed_) return stopped_short();
  if (!write_error_.empty()) {
    std::fprintf(stderr, "dsh-sim: error: %s\n", write_error_.c_str());
    return kExitToolFailed;
  }
  SweepResults res;
  res.ids = sw_.points(results_);
  for (const auto& id : res.ids) {
    res.metrics.push_back(results_.at(id));
    res.from_files += from_files_.count(id);
  }
  partial_.close();
  const int status = sw_.write_outputs(res);
  if (!sw_.partial.path.empty() && status != kExitToolFailed) std::remove(sw_.partial.path.c_str());
  return status;
}

}  // namespace

int run_rounds_sweep(const RoundsSweep& sw, const HarnessOptions& o) {
  if (o.list_points) return list_points(sw.points({}));
  if (!o.point.empty()) return run_one_point(sw, o);
  return RoundsRun(sw, o).run();
}

}  // namespace dsh::sc
