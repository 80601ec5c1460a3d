// SPDX-License-Identifier: Apache-2.0
#include "net_points.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

#include "child_process.h"
#include "cli_common.h"
#include "input.h"
#include "output.h"
#include "resources.h"

namespace dsh::net {

std::string net_point_id(const std::string& name, const std::string& scheme, const std::string& cc,
                         const uint64_t* seed, const std::string& load, const KeyValues& extra) {
  KeyValues coords{{"scheme", scheme}, {"cc", cc}};
  for (const auto& kv : extra) coords.push_back(kv);
  if (!load.empty()) coords.emplace_back("load", load);
  if (seed) coords.emplace_back("seed", std::to_string(*seed));
  return sc::make_point_id(name, coords);
}

KeyValues net_point_params(const KeyStore& k, const std::vector<std::string>& drop, const KeyValues& set) {
  KeyValues kv;
  std::istringstream in(k.dump());
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    const std::string key = line.substr(0, eq);
    if (std::find(drop.begin(), drop.end(), key) != drop.end()) continue;
    auto s = std::find_if(set.begin(), set.end(), [&](const auto& x) { return x.first == key; });
    const std::string value = s != set.end() ? s->second : line.substr(eq + 3);
    if (!sc::implied_chip_default(key, value)) kv.emplace_back(key, value);
  }
  for (const auto& [key, v] : set)
    if (std::none_of(kv.begin(), kv.end(), [&](const auto& x) { return x.first == key; })) kv.emplace_back(key, v);
  return kv;
}

namespace {

std::string point_path(const std::string& dir, const NetPoint& p) { return dir + "/" + p.id + ".json"; }

// The valid result files of this sweep in dir (merge: and its subdirectories).
sc::PointScan scan(const NetSweep& sw, const std::string& dir, bool merge) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < sw.points.size(); ++i) index[sw.points[i].id] = i;
  return sc::scan_points(dir, merge, [&](const sc::PointRecord& r) -> std::optional<KeyValues> {
    if (!index.count(r.id)) return std::nullopt;
    return sw.params;
  });
}

// Runs the points `todo` in the pool and calls done as each ends.
void run_points(const NetSweep& sw, const std::vector<size_t>& todo, const NetPointDone& done) {
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

}  // namespace

std::string net_points_dir(const NetSweepOptions& o) {
  if (!o.point.empty()) return o.out_dir;
  return o.merge_dir.empty() ? o.out_dir + "/points" : o.merge_dir;
}

int run_net_sweep(const NetSweep& sw, const NetSweepOptions& o) {
  if (o.list_points) {
    for (const auto& p : sw.points) std::printf("%s\n", p.id.c_str());
    return kExitOk;
  }

  // One point by its ID: its result file, or the one already there.
  if (!o.point.empty()) {
    auto hit = std::find_if(sw.points.begin(), sw.points.end(), [&](const NetPoint& p) { return p.id == o.point; });
    if (hit == sw.points.end()) {
      std::fprintf(stderr,
                   "dsh-sim: error: --point = %s: not a point of this run (%zu points; --list-points lists them, with "
                   "the same --set and --full options)\n",
                   quoted(o.point).c_str(), sw.points.size());
      return kExitBadInput;
    }
    const std::string path = point_path(net_points_dir(o), *hit);
    if (!o.rerun) {
      try {
        const sc::PointRecord r = sc::read_point_record(path);
        if (r.id == hit->id && sc::params_difference(r.params, sw.params).empty()) {
          std::fprintf(stderr, "dsh-sim: point %s already done (%s), skipped; --rerun runs it again\n", hit->id.c_str(),
                       path.c_str());
          return sw.point_status(r.metrics);
        }
      } catch (const std::exception&) {
      }
    }
    int status = kExitOk;
    run_points(sw, {size_t(hit - sw.points.begin())}, [&](size_t, const nlohmann::ordered_json& m, const std::string& error) {
      if (!error.empty()) {
        std::fprintf(stderr, "dsh-sim: point %s failed, no result file written: %s\n", hit->id.c_str(), error.c_str());
        status = failed_status(is_lockstep_report(error));
        return;
      }
      write_file_atomically(path, sc::point_record_text(hit->id, sw.params, m));
      std::printf("wrote %s\n", path.c_str());
      status = sw.point_status(nlohmann::json::parse(m.dump()));
    });
    if (pool_interrupted()) {
      std::fprintf(stderr, "dsh-sim: interrupted: nothing written\n");
      return pool_interrupted_status();
    }
    return status;
  }

  // The default run (results kept in out_dir/points, done ones skipped) or a merge.
  const bool merge = !o.merge_dir.empty();
  const std::string dir = net_points_dir(o);
  if (!merge) check_output_dir("-o", dir);
  sc::PointScan found = scan(sw, dir, merge);
  if (merge) {
    std::vector<std::string> ids;
    for (const auto& p : sw.points) ids.push_back(p.id);
    sc::note_missing_points(found, ids, dir);
    if (sc::refuse_merge(found, dir)) return kExitBadInput;
  } else if (!found.problems.empty()) {
    for (const auto& m : found.problems) std::fprintf(stderr, "dsh-sim: %s\n", m.c_str());
    return kExitBadInput;
  }
  if (o.rerun) found.valid.clear();
  std::vector<nlohmann::json> metrics(sw.points.size());
  std::vector<size_t> todo;
  for (size_t i = 0; i < sw.points.size(); ++i) {
    auto it = found.valid.find(sw.points[i].id);
    if (it != found.valid.end()) metrics[i] = it->second.metrics;
    else todo.push_back(i);
  }
  if (!merge && (todo.size() < sw.points.size() || found.stale || found.ignored))
    std::fprintf(stderr, "dsh-sim: %zu of %zu points already done (valid result files in %s), skipped%s%s\n",
                 sw.points.size() - todo.size(), sw.points.size(), dir.c_str(),
                 found.stale ? (", " + std::to_string(found.stale) + " stale files (other parameters) to be replaced").c_str() : "",
                 found.ignored ? (", " + std::to_string(found.ignored) + " other files ignored").c_str() : "");
  size_t finished = 0, failed = 0;
  bool mismatch = false;
  if (!todo.empty())
    run_points(sw, todo, [&](size_t i, const nlohmann::ordered_json& m, const std::string& error) {
      metrics[i] = nlohmann::json::parse(m.dump());
      if (error.empty()) {
        write_file_atomically(point_path(dir, sw.points[i]), sc::point_record_text(sw.points[i].id, sw.params, m));
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

bool plot_net(const NetSweepOptions& o, const std::string& args) {
  try {
    const std::string cmd = "'" + o.python + "' '" + given_or_resource(o.plot_script, DSH_PLOT_NET_SCRIPT) + "' " + args;
    if (std::system(cmd.c_str()) == 0) return true;
    std::fprintf(stderr, "dsh-sim: plot failed: %s\n", cmd.c_str());
  } catch (const ResourceError& e) {
    std::fprintf(stderr, "dsh-sim: plot failed: %s\n", e.what());
  }
  return false;
}

}  // namespace dsh::net
