// Command-line pieces shared by the tools: the MMU configuration from a TOML
// file and/or one flag per configuration field of spec §1.2 (flags win).
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <string>

#include "config.h"

namespace dsh {

struct ConfigCli {
  std::string file;
  std::map<std::string, std::string> flags;
};

void add_config_options(CLI::App& app, ConfigCli& cli);

// base, then the file's keys, then the flags. Not validated here: the model
// validates against the widths of the backend it runs on.
Config resolve_config(const ConfigCli& cli, Config base = Config{});

// Reads `key = value` pairs whose keys are the field names of spec §1.2.
// Throws ConfigError "file:line: ..." on an unknown key or a bad value.
void load_config_file(const std::string& path, Config& c);

}  // namespace dsh
