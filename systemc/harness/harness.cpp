// SPDX-License-Identifier: Apache-2.0
#include "harness.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "child_process.h"
#include "exit_status.h"
#include "input.h"
#include "mmu_model.h"
#include "output.h"

namespace dsh::sc {

std::string run_points_dir(const HarnessOptions& o) {
  if (!o.point.empty()) return o.out_dir;
  return o.merge_dir.empty() ? o.out_dir + "/points" : o.merge_dir;
}

int list_points(const std::vector<std::string>& ids) {
  for (const auto& id : ids) std::printf("%s\n", id.c_str());
  return kExitOk;
}

std::optional<nlohmann::json> point_already_done(const std::string& path, const std::string& id,
                                                 const KeyValues& params, bool rerun,
                                                 const std::function<void(const nlohmann::json&)>& check) {
  if (rerun) return std::nullopt;
  try {
    PointRecord r = read_point_record(path);
    if (check) check(r.metrics);
    if (r.id != id || !params_difference(r.params, params).empty()) return std::nullopt;
    std::fprintf(stderr, "dsh-sim: point %s already done (%s), skipped; --rerun runs it again\n", id.c_str(),
                 path.c_str());
    return std::move(r.metrics);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<int> scan_run_points(PointScan& scan, const std::string& dir, bool merge, bool rerun,
                                   const std::vector<std::string>& ids, const char* noun,
                                   const std::function<std::optional<KeyValues>(const PointRecord&)>& expected) {
  scan = scan_points(dir, merge, expected);
  if (merge) {
    note_missing_points(scan, ids, dir);
    if (refuse_merge(scan, dir)) return kExitBadInput;
  } else if (!scan.problems.empty()) {  // duplicates cannot happen in one flat directory; say so if they do
    for (const auto& m : scan.problems) std::fprintf(stderr, "dsh-sim: %s\n", m.c_str());
    return kExitBadInput;
  }
  if (rerun) scan.valid.clear();
  size_t done = 0;
  for (const auto& id : ids) done += scan.valid.count(id);
  if (!merge && (done || scan.stale || scan.ignored))
    std::fprintf(stderr, "dsh-sim: %zu of %zu %s already done (valid result files in %s), skipped%s%s\n", done,
                 ids.size(), noun, dir.c_str(),
                 scan.stale ? (", " + std::to_string(scan.stale) + " stale files (other parameters) to be replaced").c_str() : "",
                 scan.ignored ? (", " + std::to_string(scan.ignored) + " other files ignored").c_str() : "");
  return std::nullopt;
}

namespace {

// A result handed back by a point: the metrics (a JSON object) and, when
// the run failed, why (an error is reported, never kept as a point file).
using PointDone = std::function<void(size_t point, const nlohmann::ordered_json& metrics, const std::string& error)>;

// Runs the points `todo` in the pool and calls done as each ends.
void run_points(const FixedSweep& sw, const std::vector<size_t>& todo, const PointDone& done) {
  if (sw.starting) sw.starting(todo);
  size_t next = 0;
  run_pool(
      sw.jobs,
      [&]() -> std::optional<PoolTask> {
        if (next == todo.size()) return std::nullopt;
        const size_t i = todo[next++];
        return PoolTask{[&sw, i] {
                          try {
                            return sw.run_point(i).dump();
                          } catch (const std::exception& e) {
                            return sw.failed_point(i, e.what()).dump();
                          }
                        },
                        sw.partial_file ? sw.partial_file(i) : ""};
      },
      [&](size_t task, const std::string& out, int st) {
        const size_t i = todo[task];
        nlohmann::ordered_json m;
        try {
          m = nlohmann::ordered_json::parse(out);
        } catch (...) {
          m = sw.failed_point(i, "point process ended without a result (status " + std::to_string(st) + ")");
        }
        sw.report(i, m);
        done(i, m, m.value("error", std::string()));
        return true;  // a failed point is reported; the others go on
      });
}

int failed_status(bool mismatch) { return mismatch ? kExitCheckFailed : kExitToolFailed; }

std::string point_path(const std::string& dir, const std::string& id) { return dir + "/" + id + ".json"; }

// One point by its ID: its result file, or the one already there.
int run_one_point(const FixedSweep& sw, const HarnessOptions& o) {
  auto hit = std::find(sw.ids.begin(), sw.ids.end(), o.point);
  if (hit == sw.ids.end()) {
    std::fprintf(stderr,
                 "dsh-sim: error: --point = %s: not a point of this run (%zu points; --list-points lists them, with "
                 "the same --set and --full options)\n",
                 quoted(o.point).c_str(), sw.ids.size());
    return kExitBadInput;
  }
  const std::string path = point_path(run_points_dir(o), *hit);
  if (const auto done = point_already_done(path, *hit, sw.params, o.rerun)) return sw.point_status(*done);
  int status = kExitOk;
  run_points(sw, {size_t(hit - sw.ids.begin())}, [&](size_t, const nlohmann::ordered_json& m, const std::string& error) {
    if (!error.empty()) {
      std::fprintf(stderr, "dsh-sim: point %s failed, no result file written: %s\n", hit->c_str(), error.c_str());
      status = failed_status(is_lockstep_report(error));
      return;
    }
    write_file_atomically(path, point_record_text(*hit, sw.params, m));
    std::printf("wrote %s\n", path.c_str());
    status = sw.point_status(nlohmann::json::parse(m.dump()));
  });
  if (pool_interrupted()) {
    std::fprintf(stderr, "dsh-sim: interrupted: nothing written\n");
    return pool_interrupted_status();
  }
  return status;
}

}  // namespace

int run_fixed_sweep(const FixedSweep& sw, const HarnessOptions& o) {
  if (o.list_points) return list_points(sw.ids);
  if (!o.point.empty()) return run_one_point(sw, o);

  // The default run (results kept in out_dir/points, done ones skipped) or a merge.
  const bool merge = !o.merge_dir.empty();
  const std::string dir = run_points_dir(o);
  if (!merge) check_output_dir("-o", dir);
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < sw.ids.size(); ++i) index[sw.ids[i]] = i;
  PointScan found;
  if (const auto st = scan_run_points(found, dir, merge, o.rerun, sw.ids, "points",
                                      [&](const PointRecord& r) -> std::optional<KeyValues> {
                                        if (!index.count(r.id)) return std::nullopt;
                                        return sw.params;
                                      }))
    return *st;
  std::vector<nlohmann::json> metrics(sw.ids.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < sw.ids.size(); ++i) {
    auto it = found.valid.find(sw.ids[i]);
    if (it != found.valid.end()) metrics[i] = it->second.metrics;
    else todo.push_back(i);
  }
  size_t finished = 0, failed = 0;
  bool mismatch = false;
  if (!todo.empty())
    run_points(sw, todo, [&](size_t i, const nlohmann::ordered_json& m, const std::string& error) {
      metrics[i] = nlohmann::json::parse(m.dump());
      if (error.empty()) {
        write_file_atomically(point_path(dir, sw.ids[i]), point_record_text(sw.ids[i], sw.params, m));
        ++finished;
      } else {
        ++failed;
        mismatch |= is_lockstep_report(error);
      }
    });
  if (pool_interrupted()) {  // the finished points keep their files; no output looks complete
    std::fprintf(stderr, "dsh-sim: interrupted: the running points were stopped; %zu finished points kept in %s, no "
                         "outputs written (the same command resumes)\n", finished, dir.c_str());
    return pool_interrupted_status();
  }
  if (failed) {  // a summary over the points that ran would read as a result
    std::fprintf(stderr, "dsh-sim: %zu of %zu points failed (above), no outputs written; %zu finished points kept in %s "
                         "(the same command runs the rest)\n", failed, todo.size(), finished, dir.c_str());
    return failed_status(mismatch);
  }
  return sw.write_outputs(metrics);
}

}  // namespace dsh::sc
