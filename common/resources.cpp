// SPDX-License-Identifier: Apache-2.0
#include "resources.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace dsh {

namespace fs = std::filesystem;

namespace {

// share/dsh_mmu, relative to an install prefix (common/CMakeLists.txt).
#ifndef DSH_SHARE_SUBDIR
#error "DSH_SHARE_SUBDIR: define it to the installed data directory relative to the prefix (share/dsh_mmu)"
#endif
constexpr const char* kShareSubdir = DSH_SHARE_SUBDIR;

fs::path executable() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw ResourceError("cannot find dsh_mmu's shared files: cannot read /proc/self/exe (" + ec.message() +
                              "); set DSH_SHARE_DIR to an installed share/dsh_mmu or a checkout");
  // An executable replaced while it runs (a rebuild) reads "<path> (deleted)".
  const std::string s = exe.string(), deleted = " (deleted)";
  if (s.size() > deleted.size() && s.compare(s.size() - deleted.size(), deleted.size(), deleted) == 0)
    exe = s.substr(0, s.size() - deleted.size());
  return exe;
}

bool is_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

std::string real_path(const fs::path& p) {
  std::error_code ec;
  const fs::path c = fs::canonical(p, ec);
  return ec ? p.string() : c.string();
}

}  // namespace

std::string resource_dir() {
  if (const char* d = std::getenv("DSH_SHARE_DIR"); d && *d) {
    if (!is_dir(d)) throw ResourceError(std::string("DSH_SHARE_DIR = '") + d + "' is not a directory");
    return real_path(d);
  }
  const fs::path exe = executable();
  for (fs::path dir = exe.parent_path(); !dir.empty(); dir = dir.parent_path()) {
    if (is_dir(dir / kShareSubdir)) return real_path(dir / kShareSubdir);
    if (dir == dir.root_path()) break;
  }
  throw ResourceError("cannot find dsh_mmu's shared files (plot scripts, scenarios, RTL sources): no " +
                      std::string(kShareSubdir) + " in any directory above " + exe.string() +
                      " (an installed tool finds <prefix>/" + kShareSubdir +
                      "); set DSH_SHARE_DIR to an installed share/dsh_mmu or a checkout");
}

std::string resource_path(const std::string& name) {
  const std::string dir = resource_dir();
  const std::string p = dir + "/" + name;
  std::error_code ec;
  if (!fs::exists(p, ec)) throw ResourceError("dsh_mmu's shared files in " + dir + " have no " + name);
  return p;
}

std::string given_or_resource(const std::string& given, const std::string& shipped) {
  return given.empty() ? resource_path(shipped) : given;
}

}  // namespace dsh
