// SPDX-License-Identifier: Apache-2.0
// Command-line pieces shared by the tools: the MMU configuration from a TOML
// file and/or one flag per configuration field of spec §1.2 (flags win).
#pragma once

#include <CLI/CLI.hpp>

#include <map>
#include <string>

#include "config.h"
#include "exit_status.h"
#include "input.h"
#include "output.h"

namespace dsh {

struct ConfigCli {
  std::string file;
  std::map<std::string, std::string> flags;     // field -> value
  std::map<std::string, std::string> spelling;  // field -> the flag as given: --deq_per_cycle or --deq-per-cycle
  // A ConfigError's message about a field given as a flag ("lanes = 3 is
  // not a power of two ...") with the flag as given ("--lanes = 3 ...").
  std::string naming_flag(const std::string& message) const;
};

// --<field> for every field of spec §1.2, also spelled with '-' for '_'
// (--deq-per-cycle; not listed in --help).
void add_config_options(CLI::App& app, ConfigCli& cli);

// base, then the file's keys, then the flags. Not validated here: the model
// validates against the widths of the backend it runs on.
Config resolve_config(const ConfigCli& cli, Config base = Config{});
// Runs check(), a ConfigError naming a flag's field rethrown with the flag.
template <class Check>
void naming_flags(const ConfigCli& cli, Check check) {
  try {
    check();
  } catch (const ConfigError& e) {
    throw ConfigError(cli.naming_flag(e.what()));
  }
}

// Reads `key = value` pairs whose keys are the field names of spec §1.2.
// Throws ConfigError "file:line: ..." on an unknown key or a bad value
// (a TOML boolean or float where an integer is meant included).
void load_config_file(const std::string& path, Config& c);
// The same from text (`name` for messages): the fuzz target's entry.
void load_config_text(const std::string& text, const std::string& name, Config& c);

// Parses the command line. Returns -1 when it parsed, else the exit status:
// 0 after --help, 2 for a bad command line ("<tool>: error: ..." on stderr).
int parse_command_line(CLI::App& app, int argc, char** argv, const char* tool);

// A check's refusal on stderr, "<tool>: error: ...", with the way out when
// the chip has no RTL model; returns the exit status (2).
int bad_input(const char* tool, const std::exception& e);

}  // namespace dsh
