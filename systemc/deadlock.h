// S3, PFC deadlock (DSH paper Fig. 12). Placeholder until the runner lands.
#pragma once

#include <string>

#include "key_store.h"

namespace dsh::net {

void declare_deadlock_keys(KeyStore& k);
int deadlock_main(const KeyStore& k, const std::string& out_dir, bool plot, const std::string& python,
                  const std::string& plot_script, bool full);

}  // namespace dsh::net
