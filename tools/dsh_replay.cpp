// SPDX-License-Identifier: Apache-2.0
// dsh-replay: a stimulus vector file through the golden model, the RTL, or
// both in lockstep (stopping at the first difference); a response file out.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli_common.h"
#include "mmu_model.h"
#include "vectors.h"

namespace {

// The lines of a text as a reader should see them: no byte-order mark, no
// '\r' before '\n', no blank lines at the end, and none of the first `skip`
// (a header block, compared on its own).
std::vector<std::string> lines_of(const std::string& text, size_t skip) {
  std::istringstream in(text);
  dsh::skip_bom(in);
  std::vector<std::string> v;
  for (std::string l; dsh::get_line(in, l);) v.push_back(l);
  while (!v.empty() && v.back().find_first_not_of(" \t") == std::string::npos) v.pop_back();
  v.erase(v.begin(), v.begin() + std::min(skip, v.size()));
  return v;
}

// The chip of the run: the stimulus file's header block (vector format §2),
// which --config and the field flags may repeat but not contradict; a file
// without one (format 1) needs them.
dsh::Config chip_of(const std::string& stim_path, const std::optional<dsh::VectorHeader>& h, const dsh::ConfigCli& cli) {
  using namespace dsh;
  if (!h) {
    if (cli.file.empty() && cli.flags.empty())
      throw InputError(stim_path + " has no header (vector format 1): the chip it was made for is not recorded; give it "
                                   "with --config FILE or the configuration fields as flags (vector format §2)");
    return resolve_config(cli);
  }
  // A --config file describes a whole chip (its omitted fields are the
  // defaults); flags alone change fields of the header's chip.
  const Config given = resolve_config(cli, cli.file.empty() ? h->config : Config{});
  given.validate_ranges();  // a value no chip has is named as such first
  if (const auto d = first_difference(given, h->config)) {
    const std::string where = stim_path + ":" + std::to_string(h->line_of(d->field));
    const std::string value = d->a.empty() ? "''" : d->a, header = d->b.empty() ? "''" : d->b;
    if (cli.flags.count(d->field))
      throw ConfigError("--" + d->field + " = " + value + " contradicts the stimulus header, " + where + ": " + d->field +
                        " = " + header + " (the chip the file was made for; leave the flag out)");
    throw ConfigError("--config " + cli.file + " gives " + d->field + " = " + value +
                      " (its value, or the default when it has none), contradicting the stimulus header, " + where + ": " + d->field + " = " + header +
                      " (leave --config out: the header gives the chip)");
  }
  return h->config;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dsh;
  CLI::App app{"Replay MMU stimulus vectors (docs/spec/vector-format.md) through the golden model, the RTL or both.\n"
               "The chip is the one in the stimulus file's header; a file without a header needs --config or the\n"
               "fields as flags. Example: dsh-replay stim.csv -o resp.csv"};
  ConfigCli cfg_cli;
  std::string stim_path, resp_path = "-", fst_path, expect_path, backend_name = "lockstep";
  app.add_option("stimulus", stim_path, "stimulus CSV (cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells)")
      ->required();
  app.add_option("-o,--response", resp_path, "response CSV to write ('-' for stdout, /dev/null)")->capture_default_str();
  app.add_option("-b,--backend", backend_name, "golden | rtl | lockstep")->capture_default_str();
  app.add_option("--fst", fst_path,
                 "write an FST trace of the RTL (backend rtl or lockstep; a lockstep mismatch also writes its window "
                 "and a .gtkw beside it)");
  std::string trace_from_s = "0", trace_cycles_s;
  app.add_option("--trace-from", trace_from_s, "--fst: first cycle traced, 0..10^12")->capture_default_str();
  app.add_option("--trace-cycles", trace_cycles_s, "--fst: cycles traced from --trace-from, 1..10^12 (default: to the end)");
  std::string fault_s = "0";
  unsigned fault = 0;
  app.add_option("--fault", fault_s, "plant this fault in the RTL (tb/faults/dsh_faults.sv, 0..11; 0 none; backend rtl or lockstep)")
      ->capture_default_str();
  app.add_option("--expect", expect_path, "compare the response with this file; exit 1 at the first difference");
  add_config_options(app, cfg_cli);
  const int parsed = parse_command_line(app, argc, argv, "dsh-replay");
  if (parsed >= 0) return parsed;

  // Everything the run needs is checked before it starts (exit 2).
  std::vector<StimRow> stim;
  std::optional<VectorHeader> expect_header;
  Config cfg;
  Backend backend = Backend::Lockstep;
  uint64_t trace_from = 0, trace_to = ~uint64_t(0);
  try {
    backend = backend_from_string(backend_name);
    check_input_file("stimulus", stim_path);
    if (!expect_path.empty()) check_input_file("--expect", expect_path);
    if (!cfg_cli.file.empty()) check_input_file("--config", cfg_cli.file);
    const std::vector<std::string> inputs = {stim_path, expect_path, cfg_cli.file};
    if (app.count("-o") && resp_path.empty()) throw InputError("-o = '': expected a file name, or '-' for stdout");
    check_output_file("-o", resp_path, inputs);
    fault = unsigned(parse_uint("--fault", fault_s, 0, kRtlFaults));
    if (fault && backend == Backend::Golden)
      throw InputError("--fault = " + fault_s + ": plants a fault in the RTL; the golden backend has none (--backend rtl or lockstep)");
    if (app.count("--fst")) {
      if (backend == Backend::Golden) throw ConfigError("--fst needs --backend rtl or lockstep (the golden model has no trace)");
      check_output_file("--fst", fst_path, inputs);
      check_distinct_outputs({{"-o", resp_path}, {"--fst", fst_path}});
    }
    for (const char* opt : {"--trace-from", "--trace-cycles"})
      if (app.count(opt) && !app.count("--fst")) throw InputError(std::string(opt) + ": a window of the --fst trace; give --fst");
    trace_from = parse_uint("--trace-from", trace_from_s, 0, 1000000000000ull);
    if (app.count("--trace-cycles"))
      trace_to = trace_from + parse_uint("--trace-cycles", trace_cycles_s, 1, 1000000000000ull) - 1;
    const std::string stim_text = read_text_file("stimulus", stim_path);
    std::istringstream head_in(stim_text);
    const auto header = read_vector_header(head_in, stim_path, VectorKind::Stimulus);
    cfg = chip_of(stim_path, header, cfg_cli);
    cfg.validate_ranges();  // the fields' ranges first, then the backend's widths
    if (!expect_path.empty()) {
      std::istringstream exp_in(read_text_file("--expect", expect_path));
      expect_header = read_vector_header(exp_in, expect_path, VectorKind::Response);
      if (expect_header)
        if (const auto d = first_difference(expect_header->config, cfg))
          throw InputError("--expect " + expect_path + ":" + std::to_string(expect_header->line_of(d->field)) +
                           ": " + d->field + " = " + (d->a.empty() ? "''" : d->a) + " differs from " +
                           (header ? "the stimulus header's " : "this run's ") + d->field + " = " +
                           (d->b.empty() ? "''" : d->b) + ": the response is another chip's");
    }
    const RtlWidths widths = widths_for(cfg, backend);
    cfg.validate(widths);
    std::istringstream stim_in(stim_text);
    stim = read_stimulus(stim_in, stim_path, cfg, widths);
  } catch (const std::exception& e) {
    std::cerr << "dsh-replay: error: " << e.what() << '\n';
    if (std::string(e.what()).find("no RTL model") != std::string::npos)
      std::cerr << "dsh-replay: the golden model runs any configuration: --backend golden\n";
    return kExitBadInput;
  }

  install_interrupt_cleanup("dsh-replay", "no response written");
  try {
    RtlOptions ro;
    ro.fault = fault;
    std::unique_ptr<AtomicFile> fst_file;  // renamed into place when the run is complete
    if (!fst_path.empty()) {
      fst_file = std::make_unique<AtomicFile>(fst_path, false);
      ro.fst_path = fst_file->temp_path();
      ro.trace_from = trace_from;
      ro.trace_to = trace_to;
    }
    LockstepOptions lo;
    lo.tag = "stimulus=" + stim_path;
    lo.fst_stem = "replay_mismatch";
    // A mismatch's window and .gtkw go beside the --fst trace.
    if (!fst_path.empty() && std::filesystem::path(fst_path).has_parent_path())
      lo.fst_dir = std::filesystem::path(fst_path).parent_path().string();
    auto model = make_model(backend, cfg, lo, ro);

    std::ostringstream resp;
    const uint64_t cycles = replay(stim, *model, resp);
    const unsigned lat = model->latency();
    model.reset();  // closes the trace
    if (fst_file) fst_file->commit();
    write_file_atomically(resp_path, resp.str());
    std::cerr << "dsh-replay: " << stim.size() << " stimulus rows, " << cycles << " cycles through " << to_string(backend)
              << (lat ? " (results " + std::to_string(lat) + " cycles later, realigned)" : "")
              << (backend == Backend::Lockstep ? ": matched " + std::to_string(cycles) + " cycles" : "") << '\n';

    if (!expect_path.empty()) {
      // The headers were compared before the run: the rows from here.
      std::istringstream own(resp.str());
      const size_t own_lines = read_vector_header(own, "response", VectorKind::Response)->lines;
      const size_t exp_lines = expect_header ? expect_header->lines : 0;
      const auto got = lines_of(resp.str(), own_lines), exp = lines_of(read_text_file("--expect", expect_path), exp_lines);
      for (size_t i = 0; i < std::max(got.size(), exp.size()); ++i) {
        const bool ha = i < got.size(), hb = i < exp.size();
        if (!ha || !hb || got[i] != exp[i]) {
          std::cerr << expect_path << ":" << exp_lines + i + 1 << ": differs: got '" << (ha ? got[i] : "<end>")
                    << "', expected '" << (hb ? exp[i] : "<end>") << "'\n";
          return kExitCheckFailed;
        }
      }
      std::cerr << "dsh-replay: response matches " << expect_path << '\n';
    }
  } catch (const MismatchError& e) {
    std::cerr << e.what() << "\ndsh-replay: lockstep mismatch; no response written\n";
    return kExitCheckFailed;
  } catch (const std::exception& e) {
    std::cerr << "dsh-replay: error: " << e.what() << '\n';
    return kExitToolFailed;
  }
  return kExitOk;
}
