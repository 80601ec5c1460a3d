// SPDX-License-Identifier: Apache-2.0
// dsh-run: constrained-random traffic through the MMU, by default the RTL in
// lockstep with the golden model on the paper's chip; prints admissions,
// flow-control events, peak occupancies and "matched N cycles", and writes an
// FST trace of the last cycles. A chip with lanes or several dequeue slots
// (--lanes, --deq-per-cycle) runs at full load (Traffic::next_lanes), its
// stimulus recorded in vector format 3.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli_common.h"
#include "gtkw.h"
#include "mmu_model.h"
#include "traffic.h"
#include "vectors.h"

namespace {

// A word as a POSIX shell reads it back: as is when it is safe, else quoted.
std::string shell_quoted(const std::string& w) {
  if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+./:=@%,") ==
                        std::string::npos)
    return w;
  std::string q = "'";
  for (char c : w) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// The command line as given: numbers as text, parsed strictly in check()
// (no wrap, no NaN).
struct Options {
  dsh::ConfigCli cfg_cli;
  std::string cycles_s = "1000000", seed_s = "1", trace_cycles_s = "20000", error_rate_s = "0.002";
  std::string backend_name = "lockstep", fst_path = "out/dsh_run.fst", stim_out, fault_s = "0";
  std::string full_every_s = std::to_string(dsh::kFullCompareEvery);
  bool full_compare = false;
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("-n,--cycles", o.cycles_s, "MMU cycles to run, 1..10^12")->capture_default_str();
  app.add_option("-s,--seed", o.seed_s, "traffic seed, 0..2^64-1")->capture_default_str();
  app.add_option("-b,--backend", o.backend_name, "golden | rtl | lockstep")->capture_default_str();
  app.add_option("--fst", o.fst_path,
                 "FST trace of the RTL ('' for none, '-' for stdout); a lockstep mismatch writes its window as "
                 "<stem>.mismatch_cycle<N>.fst beside it")
      ->capture_default_str();
  app.add_option("--trace-cycles", o.trace_cycles_s, "trace only the last N cycles, 1..10^12")->capture_default_str();
  app.add_option("--error-rate", o.error_rate_s, "share of events made protocol errors, 0..1")->capture_default_str();
  app.add_option("--stimulus-out", o.stim_out,
                 "also write the stimulus as a vector file for dsh-replay ('-' for stdout: the report goes to stderr; "
                 "format 3 for a chip with lanes or several dequeue slots)");
  app.add_option("--fault", o.fault_s,
                 "plant this fault in the RTL (tb/faults/dsh_faults.sv, 0..11; 0 none): see what a bug there looks like")
      ->capture_default_str();
  app.add_flag("--full-compare", o.full_compare, "lockstep: compare every queue and port every cycle (slow)");
  app.add_option("--full-compare-every", o.full_every_s,
                 "lockstep: compare every queue and port every N cycles (the outputs and the entries each cycle "
                 "touches every cycle), 1..10^12")
      ->capture_default_str();
  dsh::add_config_options(app, o.cfg_cli);
}

// The run, checked.
struct Run {
  uint64_t cycles = 0, seed = 0, trace_cycles = 0, full_every = 0;
  double error_rate = 0;
  dsh::Backend backend = dsh::Backend::Lockstep;
  unsigned fault = 0;
  dsh::Config cfg;
  dsh::RtlWidths widths;
  bool fst_on = false;
  bool lanes() const { return cfg.lanes > 1 || cfg.deq_per_cycle > 1; }
};

// Everything the run needs, checked before it starts (throws: exit 2).
Run check(const CLI::App& app, const Options& o) {
  using namespace dsh;
  Run r;
  r.cycles = parse_uint("--cycles", o.cycles_s, 1, 1000000000000ull);
  r.seed = parse_uint("--seed", o.seed_s, 0, ~uint64_t(0));
  r.trace_cycles = parse_uint("--trace-cycles", o.trace_cycles_s, 1, 1000000000000ull);
  r.full_every = parse_uint("--full-compare-every", o.full_every_s, 1, 1000000000000ull);
  r.error_rate = parse_real("--error-rate", o.error_rate_s, 0.0, 1.0);
  r.backend = backend_from_string(o.backend_name);
  if (!o.cfg_cli.file.empty()) check_input_file("--config", o.cfg_cli.file);
  if (app.count("--stimulus-out")) check_output_file("--stimulus-out", o.stim_out, {o.cfg_cli.file});
  r.fault = unsigned(parse_uint("--fault", o.fault_s, 0, kRtlFaults));
  if (r.fault && r.backend == Backend::Golden) throw InputError("--fault = " + o.fault_s + ": needs --backend rtl or lockstep");
  r.fst_on = r.backend != Backend::Golden && !o.fst_path.empty();
  if (r.fst_on) {
    check_output_file("--fst", o.fst_path, {o.cfg_cli.file});
    check_distinct_outputs({{"--stimulus-out", o.stim_out}, {"--fst", o.fst_path}});
  }
  r.cfg = resolve_config(o.cfg_cli);
  naming_flags(o.cfg_cli, [&] {
    r.cfg.validate_ranges();  // the fields' ranges first, then the backend's widths
    r.widths = widths_for(r.cfg, r.backend);
    r.cfg.validate(r.widths);
  });
  return r;
}

// What the report counts, from each cycle's results as they come.
struct Tally {
  uint64_t regions[5] = {}, kinds[4] = {}, errors = 0, peak_s = 0, peak_q_shared = 0, peak_hdrm = 0;

  // The state an operation of a completed input left.
  void peaks(const dsh::Config& cfg, const dsh::MmuModel& m, const dsh::Op& op) {
    if (!op.valid || op.port >= cfg.n_ports || op.queue >= cfg.n_queues) return;
    const dsh::QueueState q = m.queue(op.port, op.queue);
    const dsh::PortState p = m.port(op.port);
    peak_q_shared = std::max(peak_q_shared, q.shared);
    peak_hdrm = std::max(peak_hdrm, cfg.scheme == dsh::Scheme::DSH ? p.hdrm : q.hdrm);
  }
  void add(const dsh::Config& cfg, const dsh::MmuModel& m, const dsh::CycleOut& o, const dsh::CycleIn& done) {
    ++regions[int(o.region)];
    for (unsigned i = 0; i < o.n_events; ++i) ++kinds[o.events[i].kind];
    errors += o.error();
    peak_s = std::max(peak_s, o.s);
    for (const dsh::Op* op : {&done.deq, &done.enq}) peaks(cfg, m, *op);
  }
  // Every lane's region; errors counted per slot.
  void add(const dsh::Config& cfg, const dsh::MmuModel& m, const dsh::LaneCycleOut& o, const dsh::LaneCycleIn& done) {
    for (unsigned l = 0; l < cfg.lanes; ++l) ++regions[int(o.region[l])];
    for (unsigned i = 0; i < o.n_events; ++i) ++kinds[o.events[i].kind];
    errors += o.n_errors;
    peak_s = std::max(peak_s, o.s);
    for (unsigned k = 0; k < cfg.deq_per_cycle; ++k) peaks(cfg, m, done.deq[k]);
    for (unsigned l = 0; l < cfg.lanes; ++l) peaks(cfg, m, done.enq[l]);
  }
};

// The one-event cycle (spec §4.1) and the multi-event one (spec §4.7), for
// the loop below.
struct OneEvent {
  using In = dsh::CycleIn;
  static In next(dsh::Traffic& t, const dsh::MmuModel& m) { return t.next(m); }
  static const dsh::CycleOut& step(dsh::MmuModel& m, const In& in) { return m.step(in); }
  static bool idle(const In& in, const dsh::Config&) { return in.idle(); }
  static void write_header(std::ostream& out, const dsh::Config& cfg) { dsh::write_stimulus_header(out, cfg); }
  static void write(std::ostream& out, uint64_t c, const In& in, const dsh::Config&) {
    dsh::write_stimulus_row(out, c, in);
  }
};
struct MultiEvent {
  using In = dsh::LaneCycleIn;
  static In next(dsh::Traffic& t, const dsh::MmuModel& m) { return t.next_lanes(m); }
  static const dsh::LaneCycleOut& step(dsh::MmuModel& m, const In& in) { return m.step_lanes(in); }
  static bool idle(const In& in, const dsh::Config& cfg) {
    for (unsigned l = 0; l < cfg.lanes; ++l)
      if (in.enq[l].valid) return false;
    for (unsigned k = 0; k < cfg.deq_per_cycle; ++k)
      if (in.deq[k].valid) return false;
    return true;
  }
  static void write_header(std::ostream& out, const dsh::Config& cfg) { dsh::write_lane_stimulus_header(out, cfg); }
  static void write(std::ostream& out, uint64_t c, const In& in, const dsh::Config& cfg) {
    dsh::write_lane_stimulus_row(out, c, in, cfg);
  }
};

// Runs the traffic through the model. A pipelined model (the RTL alone)
// shows a cycle's results and state latency() steps later: the traffic then
// reads a golden shadow's state (it must know what each queue holds now),
// and the tally follows the model's results as they come, idle steps at the
// end included.
template <class Cycle>
Tally drive(const Run& r, dsh::MmuModel& model, std::ostream* stim) {
  using namespace dsh;
  TrafficOptions to;
  to.seed = r.seed;
  to.error_rate = r.error_rate;
  Traffic traffic(r.cfg, r.widths, to);
  if (stim) Cycle::write_header(*stim, r.cfg);
  Tally t;
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  bool progressed = false;
  const unsigned lat = model.latency();
  std::unique_ptr<MmuModel> shadow;
  if (lat) shadow = make_golden(r.cfg, r.widths);
  std::deque<typename Cycle::In> in_flight;
  for (uint64_t c = 0; c < r.cycles + lat; ++c) {
    typename Cycle::In in{};
    if (c < r.cycles) {
      in = Cycle::next(traffic, shadow ? *shadow : model);
      if (shadow) Cycle::step(*shadow, in);
      if (stim && !Cycle::idle(in, r.cfg)) Cycle::write(*stim, c, in, r.cfg);
    }
    in_flight.push_back(in);
    const auto& o = Cycle::step(model, in);
    if (in_flight.size() <= lat) continue;
    t.add(r.cfg, model, o, in_flight.front());  // the cycle whose results o holds
    in_flight.pop_front();
    if ((c & 0xfff) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now - last > std::chrono::seconds(2)) {
        std::cerr << "  " << c << " / " << r.cycles << " cycles (" << (100 * c / r.cycles) << " %)\r" << std::flush;
        last = now;
        progressed = true;
      }
    }
  }
  model.finish();
  if (progressed) std::cerr << '\n';
  return t;
}

void print_tally(const Run& r, const Tally& t) {
  using namespace dsh;
  const Config& cfg = r.cfg;
  const uint64_t adm = t.regions[1] + t.regions[2] + t.regions[3] + t.regions[4];
  auto pct = [&](uint64_t n) { return adm ? 100.0 * double(n) / double(adm) : 0.0; };
  std::printf("admissions   %llu: private %llu (%.1f %%), shared %llu (%.1f %%), %s %llu (%.1f %%), drop %llu (%.1f %%)\n",
              (unsigned long long)adm, (unsigned long long)t.regions[1], pct(t.regions[1]),
              (unsigned long long)t.regions[2], pct(t.regions[2]), cfg.scheme == Scheme::DSH ? "insurance" : "headroom",
              (unsigned long long)t.regions[3], pct(t.regions[3]), (unsigned long long)t.regions[4], pct(t.regions[4]));
  std::printf("flow control PAUSE %llu, RESUME %llu, PORT_PAUSE %llu, PORT_RESUME %llu\n",
              (unsigned long long)t.kinds[0], (unsigned long long)t.kinds[1], (unsigned long long)t.kinds[2],
              (unsigned long long)t.kinds[3]);
  const std::string eta_text = cfg.per_port_headroom() ? port_headroom_text(cfg.port_headroom_cells) + " (per port)"
                                                       : std::to_string(cfg.headroom_cells);
  std::printf("peaks        S %llu of B_s %lld, queue shared %llu, %s %llu of eta %s\n", (unsigned long long)t.peak_s,
              (long long)cfg.shared_cells(), (unsigned long long)t.peak_q_shared,
              cfg.scheme == Scheme::DSH ? "port insurance" : "queue headroom", (unsigned long long)t.peak_hdrm,
              eta_text.c_str());
  std::printf("protocol errors %llu (injected on purpose)\n", (unsigned long long)t.errors);
}

// The lines after the tally: the trace (with a GTKWave view beside it:
// stages grouped, regions by name) and the replay command of the stimulus.
void print_outputs(const Run& r, const Options& o, const dsh::RtlOptions& ro, unsigned lat, const char* argv0) {
  using namespace dsh;
  if (r.fst_on && o.fst_path != "-") {
    const std::string gtkw = std::filesystem::path(o.fst_path).replace_extension(".gtkw").string();
    GtkwView view;
    view.fst_path = o.fst_path;
    view.start_ps = view.marker_ps = rtl_edge_ps(ro.trace_from);
    write_gtkw(gtkw, r.cfg, r.widths, view);
    std::printf("trace        %s (cycles %llu..%llu, t = cycle x 10 ns; gtkwave %s)\n", o.fst_path.c_str(),
                (unsigned long long)ro.trace_from, (unsigned long long)(r.cycles + lat - 1), gtkw.c_str());
  } else if (r.fst_on) {
    std::printf("trace        stdout (cycles %llu..%llu, t = cycle x 10 ns)\n", (unsigned long long)ro.trace_from,
                (unsigned long long)(r.cycles + lat - 1));
  }
  if (!o.stim_out.empty() && o.stim_out != "-") {
    // The chip is in the file's header: the command needs no configuration.
    const std::string tool = argv0;
    const auto slash = tool.rfind('/');
    const std::string replay_cmd = shell_quoted((slash == std::string::npos ? "" : tool.substr(0, slash + 1)) +
                                                "dsh-replay") + " " + shell_quoted(o.stim_out) +
                                   (r.backend == Backend::Lockstep ? "" : std::string(" -b ") + to_string(r.backend));
    std::printf("stimulus     %s; replay it with: %s\n", o.stim_out.c_str(), replay_cmd.c_str());
  }
}

// The run and its report; the outputs are renamed into place when it is
// complete.
void run(const Run& r, const Options& o, const char* argv0) {
  using namespace dsh;
  RtlOptions ro;
  ro.fault = r.fault;
  std::unique_ptr<AtomicFile> fst_file;
  if (r.fst_on) {
    fst_file = std::make_unique<AtomicFile>(o.fst_path, false);
    ro.fst_path = fst_file->temp_path();
    ro.trace_from = r.cycles > r.trace_cycles ? r.cycles - r.trace_cycles : 0;
  }
  // The window of a mismatch gets a name of its own beside the trace
  // (docs/guide/tools.md): <stem>.mismatch_cycle<N>.fst; ./dsh_run.* without a
  // trace file (--fst '' or -), where no directory may be missing.
  const std::filesystem::path trace_name = r.fst_on && o.fst_path != "-" ? o.fst_path : "dsh_run.fst";
  LockstepOptions lo;
  lo.tag = "seed=" + std::to_string(r.seed);
  lo.full_compare = o.full_compare;
  lo.full_compare_every = r.full_every;
  lo.fst_dir = trace_name.parent_path().string();
  if (lo.fst_dir.empty()) lo.fst_dir = ".";
  lo.fst_stem = trace_name.stem().string() + ".mismatch";
  auto model = make_model(r.backend, r.cfg, lo, ro);
  std::unique_ptr<AtomicFile> stim_file;
  if (!o.stim_out.empty()) stim_file = std::make_unique<AtomicFile>(o.stim_out);
  std::ostream* stim = stim_file ? &stim_file->out() : nullptr;

  std::cout << "dsh-run: " << r.cfg.describe() << "\n         backend " << to_string(r.backend) << ", seed " << r.seed
            << ", " << r.cycles << " cycles, B_s " << r.cfg.shared_cells() << " cells\n";
  const auto t0 = std::chrono::steady_clock::now();
  const unsigned lat = model->latency();
  const Tally t = r.lanes() ? drive<MultiEvent>(r, *model, stim) : drive<OneEvent>(r, *model, stim);
  const uint64_t model_cycles = model->cycle();
  model.reset();  // closes the trace
  if (fst_file) fst_file->commit();
  if (stim_file) stim_file->commit();
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  print_tally(r, t);
  if (r.backend == Backend::Lockstep) std::printf("matched %llu cycles\n", (unsigned long long)model_cycles);
  if (lat) std::printf("latency      results %u cycles after their inputs (realigned above)\n", lat);
  std::printf("%.2f s, %.0f cycles/s\n", secs, double(r.cycles) / secs);
  print_outputs(r, o, ro, lat, argv0);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dsh;
  CLI::App app{"Random bursty and adversarial MMU traffic through the golden model, the RTL or both in lockstep."};
  Options o;
  add_options(app, o);
  const int parsed = parse_command_line(app, argc, argv, "dsh-run");
  if (parsed >= 0) return parsed;
  Run r;
  try {
    r = check(app, o);
  } catch (const std::exception& e) {
    return bad_input("dsh-run", e);
  }
  // An output on stdout takes it: the report goes to stderr.
  if (o.stim_out == "-" || (r.fst_on && o.fst_path == "-")) report_to_stderr();
  install_interrupt_cleanup("dsh-run", o.stim_out.empty() ? "no stimulus file written" : "no " + o.stim_out + " written");
  try {
    run(r, o, argv[0]);
  } catch (const MismatchError& e) {
    std::cerr << e.what() << '\n';
    if (!o.stim_out.empty()) std::cerr << "dsh-run: lockstep mismatch; " << o.stim_out << " not written (the seed reproduces the run)\n";
    if (r.fst_on) std::cerr << "dsh-run: lockstep mismatch; " << o.fst_path << " not written (the window above is this run's trace)\n";
    return kExitCheckFailed;
  } catch (const std::exception& e) {
    std::cerr << "dsh-run: error: " << e.what() << '\n';
    return kExitToolFailed;
  }
  return kExitOk;
}
