// SPDX-License-Identifier: Apache-2.0
#include "cli_common.h"

#include <toml++/toml.h>

#include <algorithm>
#include <iostream>
#include <sstream>

namespace dsh {

void add_config_options(CLI::App& app, ConfigCli& cli) {
  app.add_option("--config", cli.file, "MMU configuration file (TOML: field = value, field names of spec §1.2)")
      ->check(CLI::ExistingFile)
      ->group("MMU configuration");
  for (const ConfigField& f : config_fields()) {
    const std::string name = f.name, unit = f.unit;
    const std::string help = std::string(f.help) + (unit.empty() ? "" : ", " + unit) + "; " + f.range() +
                             (f.kind == ConfigField::Kind::PortList ? "" : ", default " + f.default_text()) + " (" +
                             f.spec + "; overrides the file)";
    app.add_option_function<std::string>(
           "--" + name,
           [&cli, name](const std::string& v) {
             cli.flags[name] = v;
             cli.spelling[name] = "--" + name;
           },
           help)
        ->group("MMU configuration");
    std::string dashed = name;
    std::replace(dashed.begin(), dashed.end(), '_', '-');
    if (dashed != name)
      app.add_option_function<std::string>(
             "--" + dashed,
             [&cli, name, dashed](const std::string& v) {
               cli.flags[name] = v;
               cli.spelling[name] = "--" + dashed;
             },
             "--" + name)
          ->group("");  // hidden: --help lists the field's own name
  }
}

std::string ConfigCli::naming_flag(const std::string& message) const {
  for (const auto& [field, flag] : spelling)
    if (message.compare(0, field.size() + 1, field + " ") == 0) return flag + message.substr(field.size());
  return message;
}

void load_config_text(const std::string& text, const std::string& path, Config& c) {
  toml::table t;
  try {
    t = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    std::ostringstream m;
    m << path << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(m.str());
  }
  for (const auto& [key, node] : t) {
    const std::string where = path + ":" + std::to_string(node.source().begin.line) + ": ";
    const std::string k(key.str());
    std::string value;
    if (auto i = node.value_exact<int64_t>()) value = std::to_string(*i);
    else if (auto s = node.value_exact<std::string>()) value = *s;
    else if (auto* a = node.as_array()) {
      // A list of integers (port_headroom_cells = [228, 828]) as its text form.
      for (size_t i = 0; i < a->size(); ++i) {
        auto v = (*a)[i].value_exact<int64_t>();
        if (!v) throw ConfigError(where + k + " entry " + std::to_string(i + 1) + ": expected an integer");
        value += (i ? "," : "") + std::to_string(*v);
      }
    } else if (node.is_boolean())
      throw ConfigError(where + k + " = " + (*node.value_exact<bool>() ? "true" : "false") +
                        ": expected an integer or a string, got a boolean");
    else if (node.is_floating_point())
      throw ConfigError(where + k + " = " + std::to_string(*node.value_exact<double>()) +
                        ": expected an integer, got a floating-point number");
    else if (node.is_table())
      throw ConfigError(where + "[" + k + "]: sections are not used in an MMU configuration (field = value lines)");
    else throw ConfigError(where + k + ": expected an integer or a string");
    try {
      c.set(k, value);
    } catch (const ConfigError& e) {
      throw ConfigError(where + e.what());
    }
  }
}

void load_config_file(const std::string& path, Config& c) {
  load_config_text(read_text_file("--config", path), path, c);
}

int parse_command_line(CLI::App& app, int argc, char** argv, const char* tool) {
  try {
    app.parse(argc, argv);
    return -1;
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    std::cerr << tool << ": error: " << e.what() << "\n" << tool << ": run with --help for the options\n";
    return kExitBadInput;
  }
}

int bad_input(const char* tool, const std::exception& e) {
  std::cerr << tool << ": error: " << e.what() << '\n';
  if (std::string(e.what()).find("no RTL model") != std::string::npos)
    std::cerr << tool << ": the golden model runs any configuration: --backend golden\n";
  return kExitBadInput;
}

Config resolve_config(const ConfigCli& cli, Config base) {
  if (!cli.file.empty()) load_config_file(cli.file, base);
  for (const auto& [k, v] : cli.flags) {
    try {
      base.set(k, v);
    } catch (const ConfigError& e) {
      const std::string named = cli.naming_flag(e.what());
      throw ConfigError(named != e.what() ? named : std::string("--") + e.what());
    }
  }
  return base;
}

}  // namespace dsh
