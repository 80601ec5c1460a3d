// Scenario keys of the network scenarios: a TOML file flattened to
// "section.key" = text, overridden by --set, read through typed getters
// that refuse a bad value naming the key, the value and the range. Only
// declared keys are accepted (a typo is refused, not ignored); a pattern
// key "chip.*.<field>" takes a per-switch override of a chip field.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dsh::net {

class KeyStore {
 public:
  void declare(const std::string& key, const std::string& default_text, const std::string& help);
  void load_toml(const std::string& path);
  void load_toml_text(const std::string& text, const std::string& name);
  void set(const std::string& key, const std::string& value);  // throws dsh::ConfigError
  bool has(const std::string& key) const { return values_.count(key) != 0; }

  const std::string& text(const std::string& key) const;
  double num(const std::string& key, double lo, double hi, bool lo_open = false) const;
  uint64_t u64(const std::string& key, uint64_t lo, uint64_t hi) const;
  bool flag(const std::string& key) const;
  // Comma separated; "A2..A5" expands to A2,A3,A4,A5 (also inside "X-Y" link items).
  std::vector<std::string> list(const std::string& key) const;
  // Per-switch chip overrides: switch name -> field -> text.
  const std::map<std::string, std::map<std::string, std::string>>& chip_overrides() const { return overrides_; }

  std::string dump() const;  // "key = value" per line
  std::string help() const;  // "  key   help" per line
  std::vector<std::string> keys() const;
  // A file key's path: absolute, or relative to the scenario file's folder.
  std::string path(const std::string& key) const;

 private:
  std::map<std::string, std::string> values_, help_;
  std::vector<std::string> order_;
  std::map<std::string, std::map<std::string, std::string>> overrides_;
  std::string base_dir_ = ".";
};

// "H2..H5" -> H2,H3,H4,H5; a name without a range is itself.
std::vector<std::string> expand_range(const std::string& item, const std::string& what);

}  // namespace dsh::net
