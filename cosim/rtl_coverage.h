// SPDX-License-Identifier: Apache-2.0
// Coverage of a Verilated model (the DSH_COVERAGE build): each context
// writes what it counted (the named COVER points, lines, toggles) on
// destruction to $DSH_COVERAGE_DIR/<test>.<pid>.<n>.dat, where <test> is
// the GoogleTest filter the process runs (ctest runs one test per process)
// or the program's name, '/' written as '+'. scripts/coverage.sh merges the
// files and names the tests from the file names. Without coverage in the
// build, or without the variable, nothing is written.
#pragma once

#include <verilated.h>
#if VM_COVERAGE
#include <verilated_cov.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#endif

namespace dsh::rtl_coverage {

#if VM_COVERAGE
inline std::string test_name() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string arg, prog;
  const std::string flag = "--gtest_filter=";
  while (std::getline(in, arg, '\0')) {
    if (prog.empty()) prog = arg.substr(arg.rfind('/') + 1);
    if (arg.compare(0, flag.size(), flag) == 0) return arg.substr(flag.size());
  }
  return prog.empty() ? "unknown" : prog;
}
#endif

inline void write([[maybe_unused]] VerilatedContext& ctx) {
#if VM_COVERAGE
  const char* dir = std::getenv("DSH_COVERAGE_DIR");
  if (!dir || !*dir) return;
  static std::atomic<unsigned> n{0};
  std::string name = test_name();
  for (char& c : name)
    if (c == '/' || c == ' ') c = '+';
  ctx.coveragep()->write((std::string(dir) + "/" + name + "." + std::to_string(getpid()) + "." +
                          std::to_string(n++) + ".dat").c_str());
#endif
}

}  // namespace dsh::rtl_coverage
