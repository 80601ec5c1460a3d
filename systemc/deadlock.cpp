#include "deadlock.h"

#include <cstdio>

#include "cli_common.h"

namespace dsh::net {

void declare_deadlock_keys(KeyStore&) {}

int deadlock_main(const KeyStore&, const std::string&, bool, const std::string&, const std::string&, bool) {
  std::fprintf(stderr, "dsh-sim: the deadlock scenario is not implemented yet\n");
  return kExitToolFailed;
}

}  // namespace dsh::net
