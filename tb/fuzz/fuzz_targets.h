// SPDX-License-Identifier: Apache-2.0
// Fuzz targets of the three readers: each parses and validates one
// input and stops there. A refusal (dsh::InputError, which ConfigError and
// VectorError are) is the expected answer to a bad input; anything else that
// escapes — another exception, a crash, a sanitizer report — is a bug.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace dsh::fuzz {

// Returns true when the input was accepted, false when it was refused.
bool vectors(const std::string& text);   // cosim/vectors.h read_stimulus
bool scenario(const std::string& text);  // systemc/single_switch/params.h Params::load_toml_text + validate
bool config(const std::string& text);    // tools/cli_common.h load_config_text + Config::validate_ranges

using Target = bool (*)(const std::string&);
Target target_by_name(const std::string& name);  // nullptr when unknown

}  // namespace dsh::fuzz
