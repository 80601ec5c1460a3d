// SPDX-License-Identifier: Apache-2.0
// The scenario keys: every key of every scenario is declared once (name,
// type, range, default, help) and every value, from a scenario file or the
// command line, is checked against its declaration when it is given. The
// single switch (Params) and the networks read their keys from this store.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace dsh::sc {

enum class KeyType { Text, Uint, Int, Real, Bool, Choice, List };

struct Key {
  std::string name;  // "section.key"
  KeyType type = KeyType::Text;
  std::string def;   // the default, as text
  std::string help;
  double lo = 0, hi = 0;  // Uint, Int, Real: [lo, hi], or (lo, hi] with lo_open
  bool lo_open = false;
  std::vector<std::string> choices;  // Choice: one of them; List: every item one of them (when given)
  // A further check of the whole value (a list's items, a word besides a
  // number); throws dsh::InputError or ConfigError saying what is accepted.
  std::function<void(const std::string& value)> check;
  std::string accepted() const;  // "1..256", "(0, 1e+05]", "golden | rtl | lockstep", ...
};

// Declarations, as every scenario writes them.
Key text_key(const std::string& name, const std::string& def, const std::string& help);
Key uint_key(const std::string& name, uint64_t lo, uint64_t hi, const std::string& def, const std::string& help);
Key int_key(const std::string& name, int64_t lo, int64_t hi, const std::string& def, const std::string& help);
Key real_key(const std::string& name, double lo, double hi, bool lo_open, const std::string& def, const std::string& help);
Key bool_key(const std::string& name, const std::string& def, const std::string& help);
Key choice_key(const std::string& name, std::vector<std::string> choices, const std::string& def, const std::string& help);
// A comma-separated list; `check` sees the whole value.
Key list_key(const std::string& name, const std::string& def, const std::string& help,
             std::function<void(const std::string&)> check = nullptr, std::vector<std::string> choices = {});

class KeyStore {
 public:
  // Declares a key with its default; declaring a name twice is a
  // programming error (std::logic_error).
  void declare(Key k);
  // Lets "chip.<NAME>.<field>" set a chip field for one switch (networks).
  void allow_per_switch_chip() { per_switch_chip_ = true; }

  // Sets a key from `origin` ("scenarios/x.toml:12", "--set", "-b"; "" for a
  // program's own setting, which is not remembered as given). A value
  // is refused at once, naming the origin, key, value and what is accepted,
  // when the key is not declared, the value is not of its type or range, or
  // the key was already given on the command line (a key given twice).
  void set(const std::string& key, const std::string& value, const std::string& origin = "");
  // Every key of the file, with its line as origin; the top-level tables
  // named in `skip` are the caller's ([[generation]] rows).
  void load_toml(const std::string& path, const std::vector<std::string>& skip = {});
  void load_toml_text(const std::string& text, const std::string& path, const std::vector<std::string>& skip = {});

  bool declared(const std::string& key) const { return decl_.count(key) != 0; }
  bool given(const std::string& key) const { return origin_.count(key) != 0; }  // not the default
  // " (origin)" of a given key, "" for a default: for messages about a value.
  std::string where(const std::string& key) const;
  // A ConfigError "key = 'value' (origin): why" for a value the scenario refuses.
  [[noreturn]] void refuse(const std::string& key, const std::string& why) const;

  const std::string& text(const std::string& key) const;
  uint64_t u64(const std::string& key) const;
  int64_t i64(const std::string& key) const;
  double num(const std::string& key) const;
  bool flag(const std::string& key) const;
  // Comma separated; "A2..A5" expands to A2,A3,A4,A5 (also inside "X-Y" link items).
  std::vector<std::string> list(const std::string& key) const;
  // A file key's path: absolute, or relative to the scenario file's folder.
  std::string path(const std::string& key) const;
  // Per-switch chip overrides: switch name -> field -> text.
  const std::map<std::string, std::map<std::string, std::string>>& chip_overrides() const { return overrides_; }

  std::string dump() const;  // "key = value" per line, declaration order
  std::string help() const;  // "  key   help (accepted; default)" per line
  const std::vector<std::string>& keys() const { return order_; }
  const Key& decl(const std::string& key) const;

 private:
  std::string resolve(const std::string& key) const;  // a name without its section when unique
  std::string normal(const Key& k, const std::string& value, const std::string& what) const;

  std::map<std::string, Key> decl_;
  std::map<std::string, std::string> values_, origin_;
  std::vector<std::string> order_;
  std::map<std::string, std::map<std::string, std::string>> overrides_;
  std::map<std::string, std::string> override_origin_;
  bool per_switch_chip_ = false;
  std::string base_dir_ = ".";
};

// The items of a comma-separated list, each trimmed of blanks, quotes and
// brackets; empty items dropped.
std::vector<std::string> list_items(const std::string& value);
// "H2..H5" -> H2,H3,H4,H5; a name without a range is itself.
std::vector<std::string> expand_range(const std::string& item, const std::string& what);
// A comma-separated list with its ranges expanded (also on one side of a
// link item "H2..H5-S1"); throws ConfigError naming `what`.
std::vector<std::string> expand_list(const std::string& value, const std::string& what);

}  // namespace dsh::sc
