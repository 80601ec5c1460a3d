// SPDX-License-Identifier: Apache-2.0
// The scenario keys: every key of every scenario is declared once (name,
// type, range, default, help, and the member it fills) and every value, from
// a scenario file or the command line, is checked against its declaration
// when it is given. fill() then stores every bound key in its struct (the
// single switch's Params, the networks' NetSetup, FabricParams, ...): the
// ns-3 attribute / gem5 Param way, no hand copies.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeindex>
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

  // Declares `k` and binds it to the member it fills: fill(S&) stores the
  // key's value there, converted by the member's type (an integer, double,
  // bool, std::string, or a list of names with its ranges expanded), or by
  // `parse(text)` (enums, number lists, units) when given. A member whose
  // type cannot hold the key's declared range or type is a programming error
  // (std::logic_error, at the declaration).
  template <class S, class M>
  void bind(Key k, M S::*member) {
    const std::string name = k.name;
    declare(std::move(k));
    fills(name, member);
  }
  template <class S, class M, class Parse>
  void bind(Key k, M S::*member, Parse parse) {
    const std::string name = k.name;
    declare(std::move(k));
    fills(name, member, parse);
  }
  // A further member filled by a declared key: a key every scenario shares
  // (switch_keys.h) filling a struct of one scenario stack.
  template <class S, class M>
  void fills(const std::string& key, M S::*member) {
    check_member<M>(key);
    fills_with<S>(key, [member, key](S& s, const std::string& v) { s.*member = from_text<M>(v, key); });
  }
  template <class S, class M, class Parse>
  void fills(const std::string& key, M S::*member, Parse parse) {
    fills_with<S>(key, [member, parse](S& s, const std::string& v) { s.*member = parse(v); });
  }
  // A binding that stores the key's text through `put` (a table's typed
  // accessor, e.g. a Config field of config_fields()).
  template <class S>
  void fills_with(const std::string& key, std::function<void(S&, const std::string&)> put) {
    decl(key);  // declared first
    bindings_.push_back({std::type_index(typeid(S)), key,
                         [put](void* s, const std::string& v) { put(*static_cast<S*>(s), v); }});
  }
  // Every binding of struct type S, in declaration order; with `sw`, a
  // chip.<field> key takes switch sw's chip.<sw>.<field> when given. A value
  // a parse function refuses is a ConfigError "key = 'value' (origin): why".
  template <class S>
  void fill(S& s, const std::string& sw = "") const {
    for (const Binding& b : bindings_)
      if (b.type == std::type_index(typeid(S))) apply_binding(b, &s, sw);
  }
  // The value a switch's chip sees: its chip.<sw>.<field> override, else chip.<field>.
  const std::string& chip_text(const std::string& key, const std::string& sw) const;
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
  bool given_on_command_line(const std::string& key) const;                   // --set, -b, ...
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
  struct Binding {
    std::type_index type;
    std::string key;
    std::function<void(void*, const std::string&)> put;
  };
  void apply_binding(const Binding& b, void* s, const std::string& sw) const;
  // The member's type holds every value the key accepts.
  template <class M>
  void check_member(const std::string& key) const {
    const Key& k = decl(key);
    const bool number = k.type == KeyType::Uint || k.type == KeyType::Int || k.type == KeyType::Real;
    bool ok = false;
    if constexpr (std::is_same_v<M, bool>) ok = k.type == KeyType::Bool;
    else if constexpr (std::is_integral_v<M>)
      ok = (k.type == KeyType::Uint || k.type == KeyType::Int) &&
           k.lo >= double(std::numeric_limits<M>::lowest()) && k.hi <= double(std::numeric_limits<M>::max());
    else if constexpr (std::is_floating_point_v<M>) ok = number;
    else if constexpr (std::is_same_v<M, std::string>) ok = !number && k.type != KeyType::Bool;
    else if constexpr (std::is_same_v<M, std::vector<std::string>>) ok = k.type == KeyType::List;
    if (!ok) throw std::logic_error("key " + key + " (" + k.accepted() + ") cannot fill a member of this type");
  }
  template <class M>
  static M from_text(const std::string& v, const std::string& key) {
    if constexpr (std::is_same_v<M, bool>) return v == "true";
    else if constexpr (std::is_integral_v<M> && std::is_signed_v<M>) return M(std::stoll(v));
    else if constexpr (std::is_integral_v<M>) return M(std::stoull(v));
    else if constexpr (std::is_floating_point_v<M>) return M(std::stod(v));
    else if constexpr (std::is_same_v<M, std::string>) return v;
    else return expand_list_of(v, key);
  }
  static std::vector<std::string> expand_list_of(const std::string& v, const std::string& key);

  std::vector<Binding> bindings_;
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

// A value or list item without its blanks, quotes and brackets.
std::string trim_item(const std::string& s);
// The items of a comma-separated list, each trim_item'd; empty items dropped.
std::vector<std::string> list_items(const std::string& value);
// "H2..H5" -> H2,H3,H4,H5; a name without a range is itself.
std::vector<std::string> expand_range(const std::string& item, const std::string& what);
// A comma-separated list with its ranges expanded (also on one side of a
// link item "H2..H5-S1"); throws ConfigError naming `what`.
std::vector<std::string> expand_list(const std::string& value, const std::string& what);

}  // namespace dsh::sc
