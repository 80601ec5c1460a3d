// dsh-replay: a stimulus vector file through the golden model, the RTL, or
// both in lockstep (stopping at the first difference); a response file out.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>

#include "cli_common.h"
#include "mmu_model.h"
#include "vectors.h"

int main(int argc, char** argv) {
  using namespace dsh;
  CLI::App app{"Replay MMU stimulus vectors (docs/spec/vector-format.md) through the golden model, the RTL or both.\n"
               "Example: dsh-replay --scheme SIH stim.csv -o resp.csv"};
  ConfigCli cfg_cli;
  std::string stim_path, resp_path = "-", fst_path, expect_path, backend_name = "lockstep";
  app.add_option("stimulus", stim_path, "stimulus CSV (cycle,deq_port,deq_queue,deq_cells,enq_port,enq_queue,enq_cells)")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("-o,--response", resp_path, "response CSV to write ('-' for stdout)")->capture_default_str();
  app.add_option("-b,--backend", backend_name, "golden | rtl | lockstep")->capture_default_str();
  app.add_option("--fst", fst_path, "write an FST trace of the RTL (backend rtl)");
  app.add_option("--expect", expect_path, "compare the response with this file; exit 1 at the first difference")
      ->check(CLI::ExistingFile);
  add_config_options(app, cfg_cli);
  CLI11_PARSE(app, argc, argv);

  try {
    const Backend backend = backend_from_string(backend_name);
    const Config cfg = resolve_config(cfg_cli);
    if (!fst_path.empty() && backend != Backend::Rtl) throw ConfigError("--fst needs --backend rtl");
    const RtlWidths widths = widths_for(cfg, backend);
    cfg.validate(widths);
    std::ifstream stim_in(stim_path);
    const auto stim = read_stimulus(stim_in, stim_path, cfg, widths);

    RtlOptions ro;
    ro.fst_path = fst_path;
    LockstepOptions lo;
    lo.tag = "stimulus=" + stim_path;
    lo.fst_stem = "replay_mismatch";
    auto model = make_model(backend, cfg, lo, ro);

    std::ostringstream resp;
    const uint64_t cycles = replay(stim, *model, resp);
    if (resp_path == "-") {
      std::cout << resp.str();
    } else {
      std::ofstream out(resp_path);
      if (!(out << resp.str())) throw std::runtime_error("cannot write " + resp_path);
    }
    std::cerr << "dsh-replay: " << stim.size() << " stimulus rows, " << cycles << " cycles through " << to_string(backend)
              << (model->latency() ? " (results " + std::to_string(model->latency()) + " cycles later, realigned)" : "")
              << (backend == Backend::Lockstep ? ": matched " + std::to_string(cycles) + " cycles" : "") << '\n';

    if (!expect_path.empty()) {
      std::ifstream exp(expect_path);
      std::istringstream got(resp.str());
      std::string a, b;
      for (size_t line = 1;; ++line) {
        const bool ha = bool(std::getline(got, a)), hb = bool(std::getline(exp, b));
        if (!ha && !hb) break;
        if (!ha || !hb || a != b) {
          std::cerr << expect_path << ":" << line << ": differs: got '" << (ha ? a : "<end>") << "', expected '"
                    << (hb ? b : "<end>") << "'\n";
          return 1;
        }
      }
      std::cerr << "dsh-replay: response matches " << expect_path << '\n';
    }
  } catch (const MismatchError& e) {
    std::cerr << e.what() << '\n';
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "dsh-replay: error: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
