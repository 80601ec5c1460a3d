// SPDX-License-Identifier: Apache-2.0
// A scenario file's values as the text the command line's --set gives: what
// Params (single switch) and KeyStore (networks) both parse. Header-only, on
// toml++.
#pragma once

#include <toml++/toml.h>

#include <sstream>
#include <string>

#include "config.h"

namespace dsh::sc {

// Parses a TOML document; a syntax error becomes a ConfigError naming the
// file and line.
inline toml::table parse_toml(const std::string& text, const std::string& path) {
  try {
    return toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    std::ostringstream m;
    m << path << ":" << e.source().begin.line << ": " << e.description();
    throw ConfigError(m.str());
  }
}

// A value as text. A float keeps its point (3.0, not 3) and a boolean stays
// true/false, so that a key that wants an integer refuses them instead of
// taking 3 or 1; an array becomes its items joined by commas.
inline std::string toml_text(const toml::node& n) {
  if (auto s = n.value_exact<std::string>()) return *s;
  if (auto b = n.value_exact<bool>()) return *b ? "true" : "false";
  if (auto i = n.value_exact<int64_t>()) return std::to_string(*i);
  if (auto d = n.value_exact<double>()) {
    std::ostringstream m;
    m.precision(17);
    m << *d;
    std::string r = m.str();
    if (r.find_first_of(".eEn") == std::string::npos) r += ".0";
    return r;
  }
  if (auto a = n.as_array()) {
    std::string s;
    for (const auto& x : *a) s += (s.empty() ? "" : ",") + toml_text(x);
    return s;
  }
  throw ConfigError("expected a string, number, boolean or array");
}

// A number as the key store keeps it and the messages print it: the
// stream's default form, 6 significant digits (2.5, 1e+06).
inline std::string number_text(double d) {
  std::ostringstream m;
  m << d;
  return m.str();
}

}  // namespace dsh::sc
