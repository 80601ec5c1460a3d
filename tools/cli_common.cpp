#include "cli_common.h"

#include <toml++/toml.h>

#include <sstream>

namespace dsh {

namespace {
const char* kFields[] = {"n_ports", "n_queues", "buffer_cells", "private_cells", "headroom_cells", "alpha_log2",
                         "port_mult_log2", "delta_q", "delta_p", "scheme", "thresh_latency"};
}

void add_config_options(CLI::App& app, ConfigCli& cli) {
  app.add_option("--config", cli.file, "MMU configuration file (TOML: field = value, field names of spec §1.2)")
      ->check(CLI::ExistingFile)
      ->group("MMU configuration");
  for (const char* f : kFields) {
    const std::string name = f;
    app.add_option_function<std::string>(
           "--" + name, [&cli, name](const std::string& v) { cli.flags[name] = v; },
           "configuration field " + name + " (overrides the file)")
        ->group("MMU configuration");
  }
}

void load_config_file(const std::string& path, Config& c) {
  toml::table t;
  try {
    t = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    std::ostringstream m;
    m << path << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(m.str());
  }
  for (const auto& [key, node] : t) {
    const std::string where = path + ":" + std::to_string(node.source().begin.line) + ": ";
    std::string value;
    if (auto i = node.value<int64_t>()) value = std::to_string(*i);
    else if (auto s = node.value<std::string>()) value = *s;
    else throw ConfigError(where + std::string(key.str()) + ": expected an integer or a string");
    try {
      c.set(std::string(key.str()), value);
    } catch (const ConfigError& e) {
      throw ConfigError(where + e.what());
    }
  }
}

Config resolve_config(const ConfigCli& cli, Config base) {
  if (!cli.file.empty()) load_config_file(cli.file, base);
  for (const auto& [k, v] : cli.flags) {
    try {
      base.set(k, v);
    } catch (const ConfigError& e) {
      throw ConfigError(std::string("--") + e.what());
    }
  }
  return base;
}

}  // namespace dsh
