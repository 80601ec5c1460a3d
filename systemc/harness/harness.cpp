// SPDX-License-Identifier: Apache-2.0
#include "harness.h"

#include <cstdio>
#include <map>

#include "exit_status.h"
#include "input.h"

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

int run_fixed_sweep(const FixedSweep& sw, const HarnessOptions& o) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < sw.ids.size(); ++i) index[sw.ids[i]] = i;
  RoundsSweep r;
  r.points = [&](const PointResults&) { return sw.ids; };
  r.params = [&](const std::string& id) -> std::optional<KeyValues> {
    if (!index.count(id)) return std::nullopt;
    return sw.params;
  };
  r.jobs = sw.jobs;
  r.run_point = [&](const std::string& id) { return sw.run_point(index.at(id)); };
  r.failed_point = [&](const std::string& id, const std::string& why) { return sw.failed_point(index.at(id), why); };
  if (sw.starting)
    r.starting = [&](const std::vector<std::string>& todo, size_t) {
      std::vector<size_t> points;
      for (const auto& id : todo) points.push_back(index.at(id));
      sw.starting(points);
    };
  r.report = [&](const std::string& id, const nlohmann::ordered_json& m) { sw.report(index.at(id), m); };
  if (sw.partial_file) r.partial_file = [&](const std::string& id) { return sw.partial_file(index.at(id)); };
  r.point_status = [&](const std::string&, const nlohmann::json& m) { return sw.point_status(m); };
  r.write_outputs = [&](const SweepResults& res) { return sw.write_outputs(res.metrics); };
  return run_rounds_sweep(r, o);
}

}  // namespace dsh::sc
