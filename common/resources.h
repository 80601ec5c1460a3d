// SPDX-License-Identifier: Apache-2.0
// The files the tools read at run time (the plot scripts, the scenario
// files and their data, and what the on-demand RTL builder compiles) and
// where a tool finds them. They sit in one directory laid out as the
// checkout is (rtl/, cosim/, golden/, common/, scenarios/, data/,
// systemc/...), so a name such as "rtl/dsh_mmu.f" means the same file in
// a checkout and in an installation. That directory is
//   1. $DSH_SHARE_DIR when set: an installed share/dsh_mmu, or a checkout;
//   2. else <dir>/share/dsh_mmu for the nearest directory <dir> above the
//      executable (/proc/self/exe) that has one: <prefix>/share/dsh_mmu
//      for an installed tool in <prefix>/bin, and in a build tree
//      <build>/share/dsh_mmu, a link to the checkout that CMake makes.
// No path of the machine that built the tool is compiled in: an installed
// prefix can be moved or copied. ("share/dsh_mmu" is the install's
// CMAKE_INSTALL_DATADIR/dsh_mmu.)
#pragma once

#include <stdexcept>
#include <string>

namespace dsh {

// The files cannot be found: says where the tool looked and what to set.
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The directory described above, as a canonical path (a build tree's link
// resolved to the checkout). Throws ResourceError.
std::string resource_dir();

// resource_dir() + "/" + name, for a name relative to it; throws
// ResourceError when that file is not there.
std::string resource_path(const std::string& name);

// For an option whose default is a shipped file: `given` when not empty,
// else resource_path(shipped).
std::string given_or_resource(const std::string& given, const std::string& shipped);

}  // namespace dsh
