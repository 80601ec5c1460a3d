// dsh-replay: a stimulus vector file through the golden model, the RTL, or
// both in lockstep (stopping at the first difference); a response file out.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli_common.h"
#include "mmu_model.h"
#include "vectors.h"

namespace {

// The lines of a text as a reader should see them: no byte-order mark, no
// '\r' before '\n', no blank lines at the end.
std::vector<std::string> lines_of(const std::string& text) {
  std::istringstream in(text);
  dsh::skip_bom(in);
  std::vector<std::string> v;
  for (std::string l; dsh::get_line(in, l);) v.push_back(l);
  while (!v.empty() && v.back().find_first_not_of(" \t") == std::string::npos) v.pop_back();
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace dsh;
  CLI::App app{"Replay MMU stimulus vectors (docs/spec/vector-format.md) through the golden model, the RTL or both.\n"
               "Example: dsh-replay --scheme SIH stim.csv -o resp.csv"};
  ConfigCli cfg_cli;
  std::string stim_path, resp_path = "-", fst_path, expect_path, backend_name = "lockstep";
  app.add_option("stimulus", stim_path, "stimulus CSV (cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells)")
      ->required();
  app.add_option("-o,--response", resp_path, "response CSV to write ('-' for stdout)")->capture_default_str();
  app.add_option("-b,--backend", backend_name, "golden | rtl | lockstep")->capture_default_str();
  app.add_option("--fst", fst_path,
                 "write an FST trace of the RTL (backend rtl or lockstep; a lockstep mismatch also writes its window "
                 "and a .gtkw beside it)");
  std::string fault_s = "0";
  unsigned fault = 0;
  app.add_option("--fault", fault_s, "plant this fault in the RTL (rtl/dsh_pkg.sv, 0..11; 0 none; backend rtl or lockstep)")
      ->capture_default_str();
  app.add_option("--expect", expect_path, "compare the response with this file; exit 1 at the first difference");
  add_config_options(app, cfg_cli);
  const int parsed = parse_command_line(app, argc, argv, "dsh-replay");
  if (parsed >= 0) return parsed;

  // Everything the run needs is checked before it starts (exit 2).
  std::vector<StimRow> stim;
  Config cfg;
  Backend backend = Backend::Lockstep;
  try {
    backend = backend_from_string(backend_name);
    check_input_file("stimulus", stim_path);
    if (!expect_path.empty()) check_input_file("--expect", expect_path);
    if (!cfg_cli.file.empty()) check_input_file("--config", cfg_cli.file);
    const std::vector<std::string> inputs = {stim_path, expect_path, cfg_cli.file};
    if (app.count("-o") && resp_path.empty()) throw InputError("-o = '': expected a file name, or '-' for stdout");
    if (resp_path != "-") check_output_file("-o", resp_path, inputs);
    fault = unsigned(parse_uint("--fault", fault_s, 0, kRtlFaults));
    if (fault && backend == Backend::Golden)
      throw InputError("--fault = " + fault_s + ": plants a fault in the RTL; the golden backend has none (--backend rtl or lockstep)");
    if (app.count("--fst")) {
      if (backend == Backend::Golden) throw ConfigError("--fst needs --backend rtl or lockstep (the golden model has no trace)");
      check_output_file("--fst", fst_path, inputs);
      if (resp_path != "-" && (fst_path == resp_path || same_file(fst_path, resp_path)))
        throw InputError("--fst = " + fst_path + ": is also the response file -o");
    }
    cfg = resolve_config(cfg_cli);
    cfg.validate_ranges();  // the fields' ranges first, then the backend's widths
    const RtlWidths widths = widths_for(cfg, backend);
    cfg.validate(widths);
    std::ifstream stim_in(stim_path, std::ios::binary);
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
    ro.fst_path = fst_path;
    ro.fault = fault;
    LockstepOptions lo;
    lo.tag = "stimulus=" + stim_path;
    lo.fst_stem = "replay_mismatch";
    // A mismatch's window and .gtkw go beside the --fst trace.
    if (!fst_path.empty() && std::filesystem::path(fst_path).has_parent_path())
      lo.fst_dir = std::filesystem::path(fst_path).parent_path().string();
    auto model = make_model(backend, cfg, lo, ro);

    std::ostringstream resp;
    const uint64_t cycles = replay(stim, *model, resp);
    if (resp_path == "-") {
      std::cout << resp.str() << std::flush;
      if (!std::cout) throw std::runtime_error("cannot write the response to stdout");
    } else {
      write_file_atomically(resp_path, resp.str());
    }
    std::cerr << "dsh-replay: " << stim.size() << " stimulus rows, " << cycles << " cycles through " << to_string(backend)
              << (model->latency() ? " (results " + std::to_string(model->latency()) + " cycles later, realigned)" : "")
              << (backend == Backend::Lockstep ? ": matched " + std::to_string(cycles) + " cycles" : "") << '\n';

    if (!expect_path.empty()) {
      const auto got = lines_of(resp.str()), exp = lines_of(read_text_file("--expect", expect_path));
      for (size_t i = 0; i < std::max(got.size(), exp.size()); ++i) {
        const bool ha = i < got.size(), hb = i < exp.size();
        if (!ha || !hb || got[i] != exp[i]) {
          std::cerr << expect_path << ":" << i + 1 << ": differs: got '" << (ha ? got[i] : "<end>") << "', expected '"
                    << (hb ? exp[i] : "<end>") << "'\n";
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
