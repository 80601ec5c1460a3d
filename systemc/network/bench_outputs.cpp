// SPDX-License-Identifier: Apache-2.0
// The benchmark's outputs from its points: flows.csv, summary.json,
// summary.txt and benchmark.png (benchmark.h).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "benchmark.h"
#include "exit_status.h"
#include "input.h"
#include "net_points.h"
#include "output.h"
#include "stats.h"

namespace dsh::net {

namespace {

// The merged summary of one (workload, buffer, cc, load, scheme) over seeds.
struct Cell {
  uint64_t flows[2] = {0, 0}, finished[2] = {0, 0}, unfinished[2] = {0, 0}, unfinished_bytes[2] = {0, 0};
  FctStats all[2], censored[2];
  std::map<std::string, FctStats> buckets[2], censored_buckets[2];
  uint64_t drops = 0, pauses = 0, port_pauses = 0, fanin_class_pauses = 0, ecn = 0, runs = 0;
  // Per seed: the average FCT of all flows, finished only and with the
  // unfinished counted (Fig. 5's y-axis).
  std::vector<double> mean_all, mean_all_with_unfinished;
};

// A set of flows' figures with the unfinished ones counted (a lower bound
// of each figure), and how many of them are unfinished.
nlohmann::ordered_json with_unfinished_json(const FctStats& finished, const FctStats& censored) {
  nlohmann::ordered_json j = fct_figures(counting_unfinished(finished, censored));
  j["censored"] = censored.n;
  return j;
}

// flows.csv: every point's rows, streamed from its file, its coordinates
// first. Returns how many points had no file.
size_t write_flows_csv(const std::vector<nlohmann::json>& ms, const std::vector<std::string>& ids,
                       const std::string& points_dir, bool merge, const std::string& out_dir) {
  std::map<std::string, std::string> flow_files;  // ID -> path
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(points_dir, ec)) {
    auto take = [&](const fs::directory_entry& e) {
      const std::string n = e.path().filename().string();
      if (e.is_regular_file() && n.size() > 10 && n.compare(n.size() - 10, 10, ".flows.csv") == 0)
        flow_files.emplace(n.substr(0, n.size() - 10), e.path().string());
    };
    if (merge) {
      for (const auto& e : fs::recursive_directory_iterator(points_dir)) take(e);
    } else {
      for (const auto& e : fs::directory_iterator(points_dir)) take(e);
    }
  }
  fs::create_directories(out_dir);
  const std::string csv_path = out_dir + "/flows.csv", csv_part = csv_path + ".part";
  size_t missing_rows = 0;
  {
    std::ofstream csv(csv_part);
    csv << "scheme,cc,workload,buffer_mb,load,seed,id,src,dst,class,kind,size,start_us,fct_us,ideal_fct_us,slowdown,"
           "finished,delivered\n";
    for (size_t i = 0; i < ms.size(); ++i) {
      const auto it = flow_files.find(ids[i]);
      if (it == flow_files.end()) {
        ++missing_rows;
        continue;
      }
      const BenchJob j = ms[i].get<BenchPoint>().job;
      const std::string prefix =
          j.scheme + "," + j.cc + "," + j.workload + "," + j.buffer_mb + "," + j.load + "," + std::to_string(j.seed) + ",";
      std::ifstream in(it->second);
      std::string line;
      std::getline(in, line);  // its header
      while (std::getline(in, line)) csv << prefix << line << "\n";
    }
    csv.flush();
    if (!csv) throw InputError("cannot write " + csv_part);
  }
  fs::rename(csv_part, csv_path);
  return missing_rows;
}

// Every point's figures added into its cell; the failed points' errors.
struct Totals {
  std::map<std::string, Cell> cells;  // "workload|buffer|cc|load|scheme"
  std::vector<std::string> errors;
  uint64_t fwd = 0;
  double cpu = 0, wall = 0, rss = 0;
};

Totals add_points(const std::vector<nlohmann::json>& ms) {
  Totals tot;
  for (const auto& m : ms) {
    const BenchPoint p = m.get<BenchPoint>();
    const BenchJob& j = p.job;
    if (!p.error.empty()) {
      tot.errors.push_back(j.scheme + " " + j.cc + " " + j.workload + " load " + j.load + " seed " +
                           std::to_string(j.seed) + ": " + p.error);
      continue;
    }
    Cell& c = tot.cells[j.workload + "|" + j.buffer_mb + "|" + j.cc + "|" + j.load + "|" + j.scheme];
    ++c.runs;
    c.drops += p.lossless_drops;
    c.pauses += p.pause_frames;
    c.port_pauses += p.port_pause_frames;
    c.fanin_class_pauses += p.fanin_class_pause_frames;
    c.ecn += p.ecn_marked;
    FctStats fin, lb;
    for (int i = 0; i < 2; ++i) {
      const auto& x = p.kinds[kBenchKinds[i]];
      fin.merge(FctStats::from_json(x["all"]));
      lb.merge(FctStats::from_json(x["all"]));
      if (x.contains("censored")) lb.merge(FctStats::from_json(x["censored"]["all"]));
    }
    if (fin.n) c.mean_all.push_back(fin.sum_fct_us / double(fin.n));
    if (lb.n) c.mean_all_with_unfinished.push_back(lb.sum_fct_us / double(lb.n));
    for (int i = 0; i < 2; ++i) {
      const auto& x = p.kinds[kBenchKinds[i]];
      if (x.contains("censored")) {
        c.censored[i].merge(FctStats::from_json(x["censored"]["all"]));
        for (const auto& [b, st] : x["censored"]["buckets"].items()) c.censored_buckets[i][b].merge(FctStats::from_json(st));
      }
      c.flows[i] += x["flows"].get<uint64_t>();
      c.finished[i] += x["finished"].get<uint64_t>();
      c.unfinished[i] += x["unfinished"].get<uint64_t>();
      c.unfinished_bytes[i] += x["unfinished_bytes"].get<uint64_t>();
      c.all[i].merge(FctStats::from_json(x["all"]));
      for (const auto& [b, st] : x["buckets"].items()) c.buckets[i][b].merge(FctStats::from_json(st));
    }
    tot.fwd += p.packets_forwarded;
    tot.cpu += p.cpu_s;
    tot.wall += p.wall_s;
    tot.rss = std::max(tot.rss, p.max_rss_mb);
  }
  return tot;
}

// summary.json's description of the run, before its results.
nlohmann::ordered_json run_json(const KeyStore& k, const Topology& t, const std::vector<uint64_t>& seeds,
                                const std::vector<std::string>& loads, bool full) {
  nlohmann::ordered_json j;
  j["scenario"] = k.text("scenario.name");
  j["kind"] = "benchmark";
  j["backend"] = k.text("run.backend");
  j["rtl_switches"] = k.list("net.rtl_switches");
  NetKeys n;
  k.fill(n);
  BenchKeys b;
  k.fill(b);
  j["topology"] = {{"generate", n.generate}, {"switches", t.n_switches()}, {"hosts", t.n_hosts()}};
  if (n.generate == "leaf-spine")
    j["topology"].update({{"leaves", n.leaves}, {"spines", n.spines}, {"hosts_per_leaf", n.hosts_per_leaf}});
  if (n.generate == "fat-tree") j["topology"]["k"] = n.fat_tree_k;
  j["traffic"] = {{"total_load", b.total_load},
                  {"background_loads", loads},
                  {"fanin_senders", b.fanin_senders},
                  {"fanin_bytes", b.fanin_bytes},
                  {"fanin_class", b.fanin_class}};
  j["duration_ms"] = b.duration_ms;
  j["drain_ms"] = b.drain_ms;
  j["seeds"] = seeds;
  j["full"] = full;
  if (!full)
    j["shrunk"] = "default run, a short version of --full: seeds (bench.seeds), background loads "
                  "(traffic.background_load) and window (bench.duration_ms, bench.drain_ms) cut from --full's "
                  "(bench.full_seeds, bench.full_background_load, bench.full_duration_ms, bench.full_drain_ms) to fit "
                  "a 2-core machine; the topology as --full";
  j["quantiles"] = "from 1 % log bins (within 0.5 %); means exact";
  j["paper"] = {{"fig14_max_reduction_pct",
                 {{"dcqcn", {{"background", 10.1}, {"fanin", 43.3}}}, {"powertcp", {{"background", 31.1}, {"fanin", 57.7}}}}},
                {"fig5", "average FCT with a 14 MB buffer 78.1 % above 30 MB (PowerTCP, web search, load 0.9)"}};
  return j;
}

// summary.json's results per cell; the lossless drops of them all.
uint64_t add_results(nlohmann::ordered_json& j, const std::map<std::string, Cell>& cells, const BenchKeys& b) {
  uint64_t drops = 0;
  const auto bnames = bucket_names(b.size_buckets);
  for (const auto& [kk, c] : cells) {
    std::vector<std::string> f;
    std::stringstream in(kk);
    std::string item;
    while (std::getline(in, item, '|')) f.push_back(item);
    const std::string buf = f[1].empty() ? "chip" : f[1];
    auto& x = j["results"][f[0]][buf][f[2]][f[3]][f[4]];
    x["runs"] = c.runs;
    x["lossless_drops"] = c.drops;
    x["pause_frames"] = c.pauses;
    x["port_pause_frames"] = c.port_pauses;
    x["fanin_class_pause_frames"] = c.fanin_class_pauses;
    x["ecn_marked"] = c.ecn;
    x["over_seeds"] = {{"mean_fct_us_all", interval_json(t_interval(c.mean_all))},
                       {"mean_fct_us_all_with_unfinished", interval_json(t_interval(c.mean_all_with_unfinished))}};
    drops += c.drops;
    for (int i = 0; i < 2; ++i) {
      auto& y = x[kBenchKinds[i]];
      y["flows"] = c.flows[i];
      y["finished"] = c.finished[i];
      y["unfinished"] = c.unfinished[i];
      y["unfinished_bytes"] = c.unfinished_bytes[i];
      y["all"] = fct_figures(c.all[i]);
      for (const auto& b : bnames)
        if (c.buckets[i].count(b)) y["buckets"][b] = fct_figures(c.buckets[i].at(b));
      auto& w = y["with_unfinished"];
      w["all"] = with_unfinished_json(c.all[i], c.censored[i]);
      for (const auto& b : bnames)
        if (c.buckets[i].count(b) || c.censored_buckets[i].count(b))
          w["buckets"][b] = with_unfinished_json(c.buckets[i].count(b) ? c.buckets[i].at(b) : FctStats(),
                                                 c.censored_buckets[i].count(b) ? c.censored_buckets[i].at(b) : FctStats());
    }
  }
  return drops;
}

// Each (workload, buffer, cc, load, kind) that both schemes ran, with the
// kind's records of SIH and DSH.
template <class F>
void for_each_pair(nlohmann::ordered_json& j, F&& f) {
  if (!j.contains("results")) return;
  for (auto& [wl, by_buf] : j["results"].items())
    for (auto& [buf, by_cc] : by_buf.items())
      for (auto& [cc, by_load] : by_cc.items())
        for (auto& [load, by_scheme] : by_load.items()) {
          if (!by_scheme.contains("sih") || !by_scheme.contains("dsh")) continue;
          for (const char* kind : kBenchKinds) f(wl, buf, cc, load, kind, by_scheme["sih"][kind], by_scheme["dsh"][kind]);
        }
}

// Average FCT normalised to SIH (the paper's Fig. 14/15 y-axis).
void normalised_table(nlohmann::ordered_json& j, std::ostringstream& txt) {
  txt << "workload    buffer cc       bgload kind        SIH mean us  DSH mean us  DSH/SIH  reduction  p99 SIH/DSH us   "
         "unfinished SIH/DSH\n";
  for_each_pair(j, [&](const std::string& wl, const std::string& buf, const std::string& cc, const std::string& load,
                       const char* kind, const nlohmann::ordered_json& a, const nlohmann::ordered_json& b) {
    if (a["all"]["n"].get<uint64_t>() == 0 || b["all"]["n"].get<uint64_t>() == 0) return;
    const double sm = a["all"]["mean_fct_us"], dm = b["all"]["mean_fct_us"];
    j["normalised"][wl][buf][cc][load][kind] = std::round(dm / sm * 10000) / 10000;
    const double sl = a["with_unfinished"]["all"]["mean_fct_us"], dl = b["with_unfinished"]["all"]["mean_fct_us"];
    j["normalised_with_unfinished"][wl][buf][cc][load][kind] = std::round(dl / sl * 10000) / 10000;
    char line[400];
    std::snprintf(line, sizeof line, "%-11s %-6s %-8s %-6s %-10s %12.2f %12.2f %8.3f %9.1f%% %8.1f/%-8.1f %6llu/%llu\n",
                  wl.c_str(), buf.c_str(), cc.c_str(), load.c_str(), kind, sm, dm, dm / sm, 100 * (1 - dm / sm),
                  a["all"]["p99_fct_us"].get<double>(), b["all"]["p99_fct_us"].get<double>(),
                  (unsigned long long)a["unfinished"].get<uint64_t>(),
                  (unsigned long long)b["unfinished"].get<uint64_t>());
    txt << line;
  });
}

// The same with each unfinished flow counted at its elapsed time (a lower
// bound of its FCT), and the DSH/SIH ratios of each seed's pair of runs
// with their mean and 95 % t interval over the seeds.
void seed_tables(nlohmann::ordered_json& j, std::ostringstream& txt) {
  if (!j.contains("results")) return;
  txt << "with the unfinished flows counted at their elapsed time (lower bounds):\n"
         "workload    buffer cc       bgload kind        SIH mean us  DSH mean us  DSH/SIH  p99 SIH/DSH us   censored "
         "SIH/DSH\n";
  for_each_pair(j, [&](const std::string& wl, const std::string& buf, const std::string& cc, const std::string& load,
                       const char* kind, const nlohmann::ordered_json& sih, const nlohmann::ordered_json& dsh) {
    const auto& a = sih["with_unfinished"]["all"];
    const auto& b = dsh["with_unfinished"]["all"];
    if (a["n"].get<uint64_t>() == 0 || b["n"].get<uint64_t>() == 0) return;
    const double sm = a["mean_fct_us"], dm = b["mean_fct_us"];
    char line[400];
    std::snprintf(line, sizeof line, "%-11s %-6s %-8s %-6s %-10s %12.2f %12.2f %8.3f %8.1f/%-8.1f %6llu/%llu\n",
                  wl.c_str(), buf.c_str(), cc.c_str(), load.c_str(), kind, sm, dm, dm / sm,
                  a["p99_fct_us"].get<double>(), b["p99_fct_us"].get<double>(),
                  (unsigned long long)a["censored"].get<uint64_t>(), (unsigned long long)b["censored"].get<uint64_t>());
    txt << line;
  });
  txt << "DSH/SIH per seed pair: mean [95 % t interval] over n seeds\n"
         "workload    buffer cc       bgload kind        metric                    mean   [lo, hi]          n\n";
  for (auto& [wl, by_buf] : j["ratios_over_seeds"].items())
    for (auto& [buf, by_cc] : by_buf.items())
      for (auto& [cc, by_load] : by_cc.items())
        for (auto& [load, by_kind] : by_load.items())
          for (auto& [kind, by_metric] : by_kind.items())
            for (auto& [metric, r] : by_metric.items()) {
              char iv[64] = "(one seed)";
              if (r.contains("lo"))
                std::snprintf(iv, sizeof iv, "[%.3f, %.3f]", r["lo"].get<double>(), r["hi"].get<double>());
              char line[400];
              std::snprintf(line, sizeof line, "%-11s %-6s %-8s %-6s %-10s %-24s %6.3f  %-17s %llu\n", wl.c_str(),
                            buf.c_str(), cc.c_str(), load.c_str(), kind.c_str(), metric.c_str(),
                            r["mean"].get<double>(), iv, (unsigned long long)r["n"].get<uint64_t>());
              txt << line;
            }
}

// Fig. 5's form: mean background FCT per buffer (one scheme at a time).
void buffer_table(nlohmann::ordered_json& j, std::ostringstream& txt) {
  if (j.contains("results"))
    for (auto& [wl, by_buf] : j["results"].items()) {
      if (by_buf.size() < 2) continue;
      txt << "average FCT (all flows) against the buffer, " << wl << ":\n";
      for (auto& [buf, by_cc] : by_buf.items())
        for (auto& [cc, by_load] : by_cc.items())
          for (auto& [load, by_scheme] : by_load.items())
            for (auto& [sch, x] : by_scheme.items()) {
              const uint64_t n = x["background"]["all"]["n"].get<uint64_t>() + x["fanin"]["all"]["n"].get<uint64_t>();
              double sum = 0;
              for (const char* kind : kBenchKinds)
                if (x[kind]["all"]["n"].get<uint64_t>())
                  sum += x[kind]["all"]["mean_fct_us"].get<double>() * x[kind]["all"]["n"].get<double>();
              x["mean_fct_us_all"] = n ? std::round(sum / double(n) * 1000) / 1000 : 0.0;
              uint64_t nl = 0;
              double suml = 0;
              for (const char* kind : kBenchKinds) {
                const auto& w = x[kind]["with_unfinished"]["all"];
                if (w["n"].get<uint64_t>() == 0) continue;
                nl += w["n"].get<uint64_t>();
                suml += w["mean_fct_us"].get<double>() * w["n"].get<double>();
              }
              x["mean_fct_us_all_with_unfinished"] = nl ? std::round(suml / double(nl) * 1000) / 1000 : 0.0;
              char line[200];
              std::snprintf(line, sizeof line, "  %6s MiB %-8s load %-5s %s: %10.2f us over %llu flows\n", buf.c_str(),
                            cc.c_str(), load.c_str(), sch.c_str(), n ? sum / double(n) : 0.0, (unsigned long long)n);
              txt << line;
              std::snprintf(line, sizeof line, "  %6s     %-8s      %-5s %s: %10.2f us with the %llu unfinished (lower bound)\n",
                            "", "", "", sch.c_str(), x["mean_fct_us_all_with_unfinished"].get<double>(),
                            (unsigned long long)(nl - n));
              txt << line;
            }
    }
}

}  // namespace

int write_benchmark_outputs(const KeyStore& k, const NetSetup& s, const std::vector<nlohmann::json>& ms,
                            const std::vector<std::string>& ids, const std::string& points_dir, bool merge,
                            const std::vector<uint64_t>& seeds, const std::vector<std::string>& loads,
                            const NetSweepOptions& o) {
  const Topology& t = *s.topo;
  const std::string& out_dir = o.out_dir;
  const size_t missing_rows = write_flows_csv(ms, ids, points_dir, merge, out_dir);
  const Totals tot = add_points(ms);
  const auto& errors = tot.errors;
  const uint64_t fwd = tot.fwd;
  const double cpu = tot.cpu, wall = tot.wall, rss = tot.rss;
  const bool full = o.full;
  nlohmann::ordered_json j = run_json(k, t, seeds, loads, full);
  BenchKeys b;
  k.fill(b);
  const uint64_t drops = add_results(j, tot.cells, b);
  std::ostringstream txt;
  txt << "benchmark (" << k.text("scenario.name") << "): " << k.text("net.generate") << " " << t.n_switches()
      << " switches, " << t.n_hosts() << " hosts; total load " << k.text("traffic.total_load") << ", flows arriving for "
      << k.text("bench.duration_ms") << " ms (+" << k.text("bench.drain_ms") << " ms drain), " << seeds.size()
      << " seed(s)"
      << (full ? " (--full)" : "; default run, a short version of --full: seeds, loads and window cut, not the topology")
      << "\n";
  normalised_table(j, txt);
  j["ratios_over_seeds"] = seed_ratios(ms);
  seed_tables(j, txt);
  buffer_table(j, txt);
  txt << "paper: Fig. 14 up to 10.1 % (background) / 43.3 % (fan-in) lower average FCT with DCQCN, 31.1 % / 57.7 % "
         "with PowerTCP; Fig. 5: 14 MB 78.1 % worse than 30 MB\n";
  for (const auto& e : errors) txt << "ERROR " << e << "\n";
  if (missing_rows)
    txt << missing_rows << " point(s) without their .flows.csv beside the result file: their rows are not in flows.csv\n";
  j["errors"] = errors;
  j["points_without_flow_rows"] = missing_rows;
  j["speed"] = {{"packets_forwarded", fwd},
                {"cpu_s", cpu},
                {"wall_s_sum", wall},
                {"packets_per_cpu_s", cpu > 0 ? double(fwd) / cpu : 0},
                {"max_rss_mb", rss}};
  if (o.reproducible) j["speed"]["cpu_s"] = j["speed"]["wall_s_sum"] = j["speed"]["packets_per_cpu_s"] = j["speed"]["max_rss_mb"] = nullptr;
  else {
    char b[200];
    std::snprintf(b, sizeof b, "speed: %.3g packets forwarded in %.1f CPU s (%.2f M/CPU s), peak memory of a point %.0f MiB\n",
                  double(fwd), cpu, cpu > 0 ? double(fwd) / cpu / 1e6 : 0, rss);
    txt << b;
  }
  write_file_atomically(out_dir + "/summary.json", j.dump(2) + "\n");
  write_file_atomically(out_dir + "/summary.txt", txt.str());
  std::fprintf(stderr, "%s", txt.str().c_str());
  const bool png = o.plot && plot_net(o, "--benchmark '" + out_dir + "/summary.json' '" + out_dir + "/benchmark.png'");
  std::fprintf(stderr, "wrote %s/flows.csv, summary.txt, summary.json%s\n", out_dir.c_str(), png ? ", benchmark.png" : "");
  return errors.empty() && drops == 0 ? kExitOk : kExitCheckFailed;
}

}  // namespace dsh::net
