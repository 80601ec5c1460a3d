// SPDX-License-Identifier: Apache-2.0
// dsh-replay: a stimulus vector file through the golden model, the RTL, or
// both in lockstep (stopping at the first difference); a response file out.
// A format 3 stimulus (a chip with lanes or several dequeue slots) runs
// through the model's multi-event cycle and gives a format 3 response.
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
      throw ConfigError(cli.spelling.at(d->field) + " = " + value + " contradicts the stimulus header, " + where + ": " + d->field +
                        " = " + header + " (the chip the file was made for; leave the flag out)");
    throw ConfigError("--config " + cli.file + " gives " + d->field + " = " + value +
                      " (its value, or the default when it has none), contradicting the stimulus header, " + where + ": " + d->field + " = " + header +
                      " (leave --config out: the header gives the chip)");
  }
  return h->config;
}

// The command line as given.
struct Options {
  dsh::ConfigCli cfg_cli;
  std::string stim_path, resp_path = "-", fst_path, expect_path, backend_name = "lockstep";
  std::string trace_from_s = "0", trace_cycles_s, fault_s = "0";
};

void add_options(CLI::App& app, Options& o) {
  app.add_option("stimulus", o.stim_path,
                 "stimulus CSV (cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells; format 3: a triple "
                 "per dequeue slot and per lane)")
      ->required();
  app.add_option("-o,--response", o.resp_path, "response CSV to write ('-' for stdout, /dev/null)")->capture_default_str();
  app.add_option("-b,--backend", o.backend_name, "golden | rtl | lockstep")->capture_default_str();
  app.add_option("--fst", o.fst_path,
                 "write an FST trace of the RTL (backend rtl or lockstep; a lockstep mismatch also writes its window "
                 "and a .gtkw beside it)");
  app.add_option("--trace-from", o.trace_from_s, "--fst: first cycle traced, 0..10^12")->capture_default_str();
  app.add_option("--trace-cycles", o.trace_cycles_s, "--fst: cycles traced from --trace-from, 1..10^12 (default: to the end)");
  app.add_option("--fault", o.fault_s, "plant this fault in the RTL (tb/faults/dsh_faults.sv, 0..11; 0 none; backend rtl or lockstep)")
      ->capture_default_str();
  app.add_option("--expect", o.expect_path, "compare the response with this file; exit 1 at the first difference");
  dsh::add_config_options(app, o.cfg_cli);
}

// The replay, checked: the chip, the stimulus read, the trace window.
struct Replay {
  dsh::Config cfg;
  dsh::Backend backend = dsh::Backend::Lockstep;
  unsigned fault = 0;
  uint64_t trace_from = 0, trace_to = ~uint64_t(0);
  unsigned format = 1;                  // the stimulus's
  std::vector<dsh::StimRow> stim;       // formats 1 and 2
  dsh::LaneStimulus lane_stim;          // format 3
  std::optional<dsh::VectorHeader> expect_header;
  size_t rows() const { return format == dsh::kLaneVectorFormat ? lane_stim.size() : stim.size(); }
};

// The command line's files and options, before any is read.
void check_options(const CLI::App& app, const Options& o, Replay& r) {
  using namespace dsh;
  r.backend = backend_from_string(o.backend_name);
  check_input_file("stimulus", o.stim_path);
  if (!o.expect_path.empty()) check_input_file("--expect", o.expect_path);
  if (!o.cfg_cli.file.empty()) check_input_file("--config", o.cfg_cli.file);
  const std::vector<std::string> inputs = {o.stim_path, o.expect_path, o.cfg_cli.file};
  if (app.count("-o") && o.resp_path.empty()) throw InputError("-o = '': expected a file name, or '-' for stdout");
  check_output_file("-o", o.resp_path, inputs);
  r.fault = unsigned(parse_uint("--fault", o.fault_s, 0, kRtlFaults));
  if (r.fault && r.backend == Backend::Golden)
    throw InputError("--fault = " + o.fault_s + ": plants a fault in the RTL; the golden backend has none (--backend rtl or lockstep)");
  if (app.count("--fst")) {
    if (r.backend == Backend::Golden) throw ConfigError("--fst needs --backend rtl or lockstep (the golden model has no trace)");
    check_output_file("--fst", o.fst_path, inputs);
    check_distinct_outputs({{"-o", o.resp_path}, {"--fst", o.fst_path}});
  }
  for (const char* opt : {"--trace-from", "--trace-cycles"})
    if (app.count(opt) && !app.count("--fst")) throw InputError(std::string(opt) + ": a window of the --fst trace; give --fst");
  r.trace_from = parse_uint("--trace-from", o.trace_from_s, 0, 1000000000000ull);
  if (app.count("--trace-cycles"))
    r.trace_to = r.trace_from + parse_uint("--trace-cycles", o.trace_cycles_s, 1, 1000000000000ull) - 1;
}

// Everything the run needs, checked before it starts (throws: exit 2).
Replay check(const CLI::App& app, const Options& o) {
  using namespace dsh;
  Replay r;
  check_options(app, o, r);
  const std::string stim_text = read_text_file("stimulus", o.stim_path);
  std::istringstream head_in(stim_text);
  const auto header = read_vector_header(head_in, o.stim_path, VectorKind::Stimulus);
  r.format = header ? header->format : 1;
  r.cfg = chip_of(o.stim_path, header, o.cfg_cli);
  naming_flags(o.cfg_cli, [&] { r.cfg.validate_ranges(); });  // the fields' ranges first, then the backend's widths
  if (!o.expect_path.empty()) {
    std::istringstream exp_in(read_text_file("--expect", o.expect_path));
    r.expect_header = read_vector_header(exp_in, o.expect_path, VectorKind::Response);
    const auto& e = r.expect_header;
    if (e)
      if (const auto d = first_difference(e->config, r.cfg))
        throw InputError("--expect " + o.expect_path + ":" + std::to_string(e->line_of(d->field)) + ": " + d->field +
                         " = " + (d->a.empty() ? "''" : d->a) + " differs from " +
                         (header ? "the stimulus header's " : "this run's ") + d->field + " = " +
                         (d->b.empty() ? "''" : d->b) + ": the response is another chip's");
    const unsigned own = r.format == kLaneVectorFormat ? kLaneVectorFormat : kVectorFormat;
    if (e && e->format != own)
      throw InputError("--expect " + o.expect_path + ":1: format " + std::to_string(e->format) +
                       ", but this replay writes format " + std::to_string(own) + " (vector format §7)");
  }
  RtlWidths widths;
  naming_flags(o.cfg_cli, [&] {
    widths = widths_for(r.cfg, r.backend);
    r.cfg.validate(widths);
  });
  std::istringstream stim_in(stim_text);
  if (r.format == kLaneVectorFormat) r.lane_stim = read_lane_stimulus(stim_in, o.stim_path, r.cfg, widths);
  else r.stim = read_stimulus(stim_in, o.stim_path, r.cfg, widths);
  return r;
}

// The response's rows against --expect's, headers apart (compared before
// the run). Returns the exit status.
int compare_expected(const std::string& resp, const Options& o, const Replay& r) {
  using namespace dsh;
  std::istringstream own(resp);
  const size_t own_lines = read_vector_header(own, "response", VectorKind::Response)->lines;
  const size_t exp_lines = r.expect_header ? r.expect_header->lines : 0;
  const auto got = lines_of(resp, own_lines), exp = lines_of(read_text_file("--expect", o.expect_path), exp_lines);
  for (size_t i = 0; i < std::max(got.size(), exp.size()); ++i) {
    const bool ha = i < got.size(), hb = i < exp.size();
    if (!ha || !hb || got[i] != exp[i]) {
      std::cerr << o.expect_path << ":" << exp_lines + i + 1 << ": differs: got '" << (ha ? got[i] : "<end>")
                << "', expected '" << (hb ? exp[i] : "<end>") << "'\n";
      return kExitCheckFailed;
    }
  }
  std::cerr << "dsh-replay: response matches " << o.expect_path << '\n';
  return kExitOk;
}

// The replay; the response and the trace are renamed into place when it is
// complete. Returns the exit status.
int run(const Options& o, const Replay& r) {
  using namespace dsh;
  RtlOptions ro;
  ro.fault = r.fault;
  std::unique_ptr<AtomicFile> fst_file;
  if (!o.fst_path.empty()) {
    fst_file = std::make_unique<AtomicFile>(o.fst_path, false);
    ro.fst_path = fst_file->temp_path();
    ro.trace_from = r.trace_from;
    ro.trace_to = r.trace_to;
  }
  LockstepOptions lo;
  lo.tag = "stimulus=" + o.stim_path;
  lo.fst_stem = "replay_mismatch";
  // A mismatch's window and .gtkw go beside the --fst trace.
  if (!o.fst_path.empty() && std::filesystem::path(o.fst_path).has_parent_path())
    lo.fst_dir = std::filesystem::path(o.fst_path).parent_path().string();
  auto model = make_model(r.backend, r.cfg, lo, ro);

  std::ostringstream resp;
  const uint64_t cycles =
      r.format == kLaneVectorFormat ? replay_lanes(r.lane_stim, *model, resp) : replay(r.stim, *model, resp);
  const unsigned lat = model->latency();
  model.reset();  // closes the trace
  if (fst_file) fst_file->commit();
  write_file_atomically(o.resp_path, resp.str());
  std::cerr << "dsh-replay: " << r.rows() << " stimulus rows, " << cycles << " cycles through " << to_string(r.backend)
            << (lat ? " (results " + std::to_string(lat) + " cycles later, realigned)" : "")
            << (r.backend == Backend::Lockstep ? ": matched " + std::to_string(cycles) + " cycles" : "") << '\n';
  return o.expect_path.empty() ? kExitOk : compare_expected(resp.str(), o, r);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dsh;
  CLI::App app{"Replay MMU stimulus vectors (docs/spec/vector-format.md) through the golden model, the RTL or both.\n"
               "The chip is the one in the stimulus file's header; a file without a header needs --config or the\n"
               "fields as flags. Example: dsh-replay stim.csv -o resp.csv"};
  Options o;
  add_options(app, o);
  const int parsed = parse_command_line(app, argc, argv, "dsh-replay");
  if (parsed >= 0) return parsed;
  Replay r;
  try {
    r = check(app, o);
  } catch (const std::exception& e) {
    return bad_input("dsh-replay", e);
  }
  install_interrupt_cleanup("dsh-replay", "no response written");
  try {
    return run(o, r);
  } catch (const MismatchError& e) {
    std::cerr << e.what() << "\ndsh-replay: lockstep mismatch; no response written\n";
    return kExitCheckFailed;
  } catch (const std::exception& e) {
    std::cerr << "dsh-replay: error: " << e.what() << '\n';
    return kExitToolFailed;
  }
}
