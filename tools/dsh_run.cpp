// SPDX-License-Identifier: Apache-2.0
// dsh-run: constrained-random traffic through the MMU, by default the RTL in
// lockstep with the golden model on the paper's chip; prints admissions,
// flow-control events, peak occupancies and "matched N cycles", and writes an
// FST trace of the last cycles.
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

}  // namespace

int main(int argc, char** argv) {
  using namespace dsh;
  CLI::App app{"Random bursty and adversarial MMU traffic through the golden model, the RTL or both in lockstep."};
  ConfigCli cfg_cli;
  // Numbers are taken as text and parsed strictly below (no wrap, no NaN).
  std::string cycles_s = "1000000", seed_s = "1", trace_cycles_s = "20000", error_rate_s = "0.002";
  std::string backend_name = "lockstep", fst_path = "out/dsh_run.fst", stim_out;
  app.add_option("-n,--cycles", cycles_s, "MMU cycles to run, 1..10^12")->capture_default_str();
  app.add_option("-s,--seed", seed_s, "traffic seed, 0..2^64-1")->capture_default_str();
  app.add_option("-b,--backend", backend_name, "golden | rtl | lockstep")->capture_default_str();
  app.add_option("--fst", fst_path,
                 "FST trace of the RTL ('' for none, '-' for stdout); a lockstep mismatch writes its window as "
                 "<stem>.mismatch_cycle<N>.fst beside it")
      ->capture_default_str();
  app.add_option("--trace-cycles", trace_cycles_s, "trace only the last N cycles, 1..10^12")->capture_default_str();
  app.add_option("--error-rate", error_rate_s, "share of events made protocol errors, 0..1")->capture_default_str();
  app.add_option("--stimulus-out", stim_out,
                 "also write the stimulus as a vector file for dsh-replay ('-' for stdout: the report goes to stderr)");
  std::string fault_s = "0";
  unsigned fault = 0;
  app.add_option("--fault", fault_s,
                 "plant this fault in the RTL (tb/faults/dsh_faults.sv, 0..11; 0 none): see what a bug there looks like")
      ->capture_default_str();
  bool full_compare = false;
  std::string full_every_s = std::to_string(kFullCompareEvery);
  app.add_flag("--full-compare", full_compare, "lockstep: compare every queue and port every cycle (slow)");
  app.add_option("--full-compare-every", full_every_s,
                 "lockstep: compare every queue and port every N cycles (the outputs and the entries each cycle "
                 "touches every cycle), 1..10^12")
      ->capture_default_str();
  add_config_options(app, cfg_cli);
  const int parsed = parse_command_line(app, argc, argv, "dsh-run");
  if (parsed >= 0) return parsed;

  // Everything the run needs is checked before it starts (exit 2).
  uint64_t cycles = 0, seed = 0, trace_cycles = 0, full_every = 0;
  double error_rate = 0;
  Backend backend = Backend::Lockstep;
  Config cfg;
  RtlWidths widths;
  try {
    cycles = parse_uint("--cycles", cycles_s, 1, 1000000000000ull);
    seed = parse_uint("--seed", seed_s, 0, ~uint64_t(0));
    trace_cycles = parse_uint("--trace-cycles", trace_cycles_s, 1, 1000000000000ull);
    full_every = parse_uint("--full-compare-every", full_every_s, 1, 1000000000000ull);
    error_rate = parse_real("--error-rate", error_rate_s, 0.0, 1.0);
    backend = backend_from_string(backend_name);
    if (!cfg_cli.file.empty()) check_input_file("--config", cfg_cli.file);
    if (app.count("--stimulus-out")) check_output_file("--stimulus-out", stim_out, {cfg_cli.file});
    fault = unsigned(parse_uint("--fault", fault_s, 0, kRtlFaults));
    if (fault && backend == Backend::Golden) throw InputError("--fault = " + fault_s + ": needs --backend rtl or lockstep");
    if (backend != Backend::Golden && !fst_path.empty()) {
      check_output_file("--fst", fst_path, {cfg_cli.file});
      check_distinct_outputs({{"--stimulus-out", stim_out}, {"--fst", fst_path}});
    }
    cfg = resolve_config(cfg_cli);
    cfg.validate_ranges();  // the fields' ranges first, then the backend's widths
    widths = widths_for(cfg, backend);
    cfg.validate(widths);
  } catch (const std::exception& e) {
    std::cerr << "dsh-run: error: " << e.what() << '\n';
    if (std::string(e.what()).find("no RTL model") != std::string::npos)
      std::cerr << "dsh-run: the golden model runs any configuration: --backend golden\n";
    return kExitBadInput;
  }

  const bool fst_on = backend != Backend::Golden && !fst_path.empty();
  // An output on stdout takes it: the report goes to stderr.
  if (stim_out == "-" || (fst_on && fst_path == "-")) report_to_stderr();
  install_interrupt_cleanup("dsh-run", stim_out.empty() ? "no stimulus file written" : "no " + stim_out + " written");
  try {
    RtlOptions ro;
    ro.fault = fault;
    std::unique_ptr<AtomicFile> fst_file;  // renamed into place when the run is complete
    if (fst_on) {
      fst_file = std::make_unique<AtomicFile>(fst_path, false);
      ro.fst_path = fst_file->temp_path();
      ro.trace_from = cycles > trace_cycles ? cycles - trace_cycles : 0;
    }
    // The window of a mismatch gets a name of its own beside the trace
    // (docs/guide/tools.md): <stem>.mismatch_cycle<N>.fst; ./dsh_run.* without a
    // trace file (--fst '' or -), where no directory may be missing.
    const bool fst_file_named = fst_on && fst_path != "-";
    const std::filesystem::path trace_name = fst_file_named ? fst_path : "dsh_run.fst";
    LockstepOptions lo;
    lo.tag = "seed=" + std::to_string(seed);
    lo.full_compare = full_compare;
    lo.full_compare_every = full_every;
    lo.fst_dir = trace_name.parent_path().string();
    if (lo.fst_dir.empty()) lo.fst_dir = ".";
    lo.fst_stem = trace_name.stem().string() + ".mismatch";
    auto model = make_model(backend, cfg, lo, ro);
    TrafficOptions to;
    to.seed = seed;
    to.error_rate = error_rate;
    Traffic traffic(cfg, widths, to);
    std::unique_ptr<AtomicFile> stim_file;
    std::ostream* stim = nullptr;
    if (!stim_out.empty()) {
      stim_file = std::make_unique<AtomicFile>(stim_out);
      stim = &stim_file->out();
      write_stimulus_header(*stim, cfg);
    }

    std::cout << "dsh-run: " << cfg.describe() << "\n         backend " << to_string(backend) << ", seed " << seed
              << ", " << cycles << " cycles, B_s " << cfg.shared_cells() << " cells\n";
    uint64_t regions[5] = {}, kinds[4] = {}, errors = 0, peak_s = 0, peak_q_shared = 0, peak_hdrm = 0;
    const auto t0 = std::chrono::steady_clock::now();
    auto last = t0;
    bool progressed = false;
    // A pipelined model (the RTL alone) shows a cycle's results and state
    // latency() steps later: the traffic then reads a golden shadow's state
    // (it must know what each queue holds now), and the statistics follow
    // the model's results as they come, idle steps at the end included.
    const unsigned lat = model->latency();
    std::unique_ptr<MmuModel> shadow;
    if (lat) shadow = make_golden(cfg, widths);
    std::deque<CycleIn> in_flight;
    for (uint64_t c = 0; c < cycles + lat; ++c) {
      CycleIn in;
      if (c < cycles) {
        in = traffic.next(shadow ? *shadow : *model);
        if (shadow) shadow->step(in);
        if (stim && !in.idle()) write_stimulus_row(*stim, c, in);
      }
      in_flight.push_back(in);
      const CycleOut& o = model->step(in);
      if (in_flight.size() <= lat) continue;
      const CycleIn done = in_flight.front();  // the cycle whose results o holds
      in_flight.pop_front();
      ++regions[int(o.region)];
      for (unsigned i = 0; i < o.n_events; ++i) ++kinds[o.events[i].kind];
      errors += o.error();
      peak_s = std::max(peak_s, o.s);
      for (const Op* op : {&done.deq, &done.enq}) {
        if (!op->valid || op->port >= cfg.n_ports || op->queue >= cfg.n_queues) continue;
        const QueueState q = model->queue(op->port, op->queue);
        const PortState p = model->port(op->port);
        peak_q_shared = std::max(peak_q_shared, q.shared);
        peak_hdrm = std::max(peak_hdrm, cfg.scheme == Scheme::DSH ? p.hdrm : q.hdrm);
      }
      if ((c & 0xfff) == 0) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last > std::chrono::seconds(2)) {
          std::cerr << "  " << c << " / " << cycles << " cycles (" << (100 * c / cycles) << " %)\r" << std::flush;
          last = now;
          progressed = true;
        }
      }
    }
    model->finish();
    const uint64_t model_cycles = model->cycle();
    model.reset();  // closes the trace
    if (fst_file) fst_file->commit();
    if (stim_file) stim_file->commit();
    if (progressed) std::cerr << '\n';
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const uint64_t adm = regions[1] + regions[2] + regions[3] + regions[4];
    auto pct = [&](uint64_t n) { return adm ? 100.0 * double(n) / double(adm) : 0.0; };
    std::printf("admissions   %llu: private %llu (%.1f %%), shared %llu (%.1f %%), %s %llu (%.1f %%), drop %llu (%.1f %%)\n",
                (unsigned long long)adm, (unsigned long long)regions[1], pct(regions[1]), (unsigned long long)regions[2],
                pct(regions[2]), cfg.scheme == Scheme::DSH ? "insurance" : "headroom", (unsigned long long)regions[3],
                pct(regions[3]), (unsigned long long)regions[4], pct(regions[4]));
    std::printf("flow control PAUSE %llu, RESUME %llu, PORT_PAUSE %llu, PORT_RESUME %llu\n", (unsigned long long)kinds[0],
                (unsigned long long)kinds[1], (unsigned long long)kinds[2], (unsigned long long)kinds[3]);
    const std::string eta_text = cfg.per_port_headroom() ? port_headroom_text(cfg.port_headroom_cells) + " (per port)"
                                                         : std::to_string(cfg.headroom_cells);
    std::printf("peaks        S %llu of B_s %lld, queue shared %llu, %s %llu of eta %s\n", (unsigned long long)peak_s,
                (long long)cfg.shared_cells(), (unsigned long long)peak_q_shared,
                cfg.scheme == Scheme::DSH ? "port insurance" : "queue headroom", (unsigned long long)peak_hdrm,
                eta_text.c_str());
    std::printf("protocol errors %llu (injected on purpose)\n", (unsigned long long)errors);
    if (backend == Backend::Lockstep) std::printf("matched %llu cycles\n", (unsigned long long)model_cycles);
    if (lat) std::printf("latency      results %u cycles after their inputs (realigned above)\n", lat);
    std::printf("%.2f s, %.0f cycles/s\n", secs, double(cycles) / secs);
    if (fst_file && fst_path != "-") {
      // A GTKWave view beside the trace: stages grouped, regions by name.
      const std::string gtkw = std::filesystem::path(fst_path).replace_extension(".gtkw").string();
      GtkwView view;
      view.fst_path = fst_path;
      view.start_ps = view.marker_ps = rtl_edge_ps(ro.trace_from);
      write_gtkw(gtkw, cfg, widths, view);
      std::printf("trace        %s (cycles %llu..%llu, t = cycle x 10 ns; gtkwave %s)\n", fst_path.c_str(),
                  (unsigned long long)ro.trace_from, (unsigned long long)(cycles + lat - 1), gtkw.c_str());
    } else if (fst_file) {
      std::printf("trace        stdout (cycles %llu..%llu, t = cycle x 10 ns)\n", (unsigned long long)ro.trace_from,
                  (unsigned long long)(cycles + lat - 1));
    }
    if (stim_file && stim_out != "-") {
      // The chip is in the file's header: the command needs no configuration.
      const std::string argv0 = argv[0];
      const auto slash = argv0.rfind('/');
      const std::string replay_cmd = shell_quoted((slash == std::string::npos ? "" : argv0.substr(0, slash + 1)) +
                                                  "dsh-replay") + " " + shell_quoted(stim_out) +
                                     (backend == Backend::Lockstep ? "" : std::string(" -b ") + to_string(backend));
      std::printf("stimulus     %s; replay it with: %s\n", stim_out.c_str(), replay_cmd.c_str());
    }
  } catch (const MismatchError& e) {
    std::cerr << e.what() << '\n';
    if (!stim_out.empty()) std::cerr << "dsh-run: lockstep mismatch; " << stim_out << " not written (the seed reproduces the run)\n";
    if (backend != Backend::Golden && !fst_path.empty())
      std::cerr << "dsh-run: lockstep mismatch; " << fst_path << " not written (the window above is this run's trace)\n";
    return kExitCheckFailed;
  } catch (const std::exception& e) {
    std::cerr << "dsh-run: error: " << e.what() << '\n';
    return kExitToolFailed;
  }
  return kExitOk;
}
