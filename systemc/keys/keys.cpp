// SPDX-License-Identifier: Apache-2.0
#include "keys.h"

#include <algorithm>
#include <functional>
#include <sstream>

#include "config.h"
#include "input.h"
#include "toml_text.h"

namespace dsh::sc {

namespace {

bool from_command_line(const std::string& origin) { return !origin.empty() && origin[0] == '-'; }

// Edit distance, for "did you mean".
size_t distance(const std::string& a, const std::string& b) {
  std::vector<size_t> d(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) d[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t prev = d[0];
    d[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cur = d[j];
      d[j] = std::min({d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1])});
      prev = cur;
    }
  }
  return d[b.size()];
}

std::string join_choices(const std::vector<std::string>& c) {
  std::string s;
  for (const auto& x : c) s += (s.empty() ? "" : " | ") + x;
  return s;
}

// A key with its name, type, default and help; the rest set by the caller.
Key declared(const std::string& name, KeyType type, const std::string& def, const std::string& help) {
  Key k;
  k.name = name;
  k.type = type;
  k.def = def;
  k.help = help;
  return k;
}

}  // namespace

std::string trim_item(const std::string& s) { return trim(s, " \t\"'[]"); }

Key text_key(const std::string& name, const std::string& def, const std::string& help) {
  return declared(name, KeyType::Text, def, help);
}

Key uint_key(const std::string& name, uint64_t lo, uint64_t hi, const std::string& def, const std::string& help) {
  Key k = declared(name, KeyType::Uint, def, help);
  k.lo = double(lo);
  k.hi = double(hi);
  return k;
}

Key int_key(const std::string& name, int64_t lo, int64_t hi, const std::string& def, const std::string& help) {
  Key k = declared(name, KeyType::Int, def, help);
  k.lo = double(lo);
  k.hi = double(hi);
  return k;
}

Key real_key(const std::string& name, double lo, double hi, bool lo_open, const std::string& def,
             const std::string& help) {
  Key k = declared(name, KeyType::Real, def, help);
  k.lo = lo;
  k.hi = hi;
  k.lo_open = lo_open;
  return k;
}

Key bool_key(const std::string& name, const std::string& def, const std::string& help) {
  return declared(name, KeyType::Bool, def, help);
}

Key choice_key(const std::string& name, std::vector<std::string> choices, const std::string& def,
               const std::string& help) {
  Key k = declared(name, KeyType::Choice, def, help);
  k.choices = std::move(choices);
  return k;
}

Key list_key(const std::string& name, const std::string& def, const std::string& help,
             std::function<void(const std::string&)> check, std::vector<std::string> choices) {
  Key k = declared(name, KeyType::List, def, help);
  k.check = std::move(check);
  k.choices = std::move(choices);
  return k;
}

std::string Key::accepted() const {
  switch (type) {
    case KeyType::Uint:
      return std::to_string(uint64_t(lo)) + ".." + std::to_string(uint64_t(hi));
    case KeyType::Int:
      return std::to_string(int64_t(lo)) + ".." + std::to_string(int64_t(hi));
    case KeyType::Real:
      return range_text(lo, hi, lo_open, false);
    case KeyType::Bool:
      return "true | false";
    case KeyType::Choice:
      return join_choices(choices);
    case KeyType::List:
      return choices.empty() ? "a comma-separated list" : "a list of " + join_choices(choices);
    case KeyType::Text:
      break;
  }
  return "text";
}

void KeyStore::declare(Key k) {
  if (decl_.count(k.name)) throw std::logic_error("key declared twice: " + k.name);
  const std::string name = k.name, def = k.def;
  decl_.emplace(name, std::move(k));
  order_.push_back(name);
  values_[name] = normal(decl_.at(name), def, name);  // a default is a value like any other
}

const Key& KeyStore::decl(const std::string& key) const {
  const auto it = decl_.find(key);
  if (it == decl_.end()) throw std::logic_error("undeclared key " + key);
  return it->second;
}

std::string KeyStore::normal(const Key& k, const std::string& v, const std::string& what) const {
  switch (k.type) {
    case KeyType::Uint:
      return std::to_string(parse_uint(what, v, uint64_t(k.lo), uint64_t(k.hi)));
    case KeyType::Int:
      return std::to_string(parse_int(what, v, int64_t(k.lo), int64_t(k.hi)));
    case KeyType::Real:
      return number_text(parse_real(what, v, k.lo, k.hi, k.lo_open));
    case KeyType::Bool:
      return parse_bool(what, v) ? "true" : "false";
    case KeyType::Choice:
      if (std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end())
        throw ConfigError(what + " = " + quoted(v) + ": expected " + k.accepted());
      break;
    case KeyType::List:
      if (!k.choices.empty())
        for (const auto& x : list_items(v))
          if (std::find(k.choices.begin(), k.choices.end(), x) == k.choices.end())
            throw ConfigError(what + " = " + quoted(v) + ": " + quoted(x) + " is not one of " + join_choices(k.choices));
      break;
    case KeyType::Text:
      break;
  }
  if (k.check) k.check(v);
  return v;
}

std::string KeyStore::resolve(const std::string& key) const {
  if (decl_.count(key) || key.find('.') != std::string::npos) return key;
  std::string found;
  int n = 0;
  for (const auto& k : order_)
    if (k.size() > key.size() + 1 && k.compare(k.size() - key.size() - 1, std::string::npos, "." + key) == 0) {
      found = k;
      ++n;
    }
  return n == 1 ? found : key;
}

void KeyStore::set(const std::string& key_in, const std::string& value_in, const std::string& origin) {
  const std::string key = resolve(trim_item(key_in)), value = trim_item(value_in);
  const std::string at = origin.empty() ? "" : origin + ": ";
  auto why = [&](const std::exception& e) {
    // The origin goes first; a check that does not name the key gets it.
    const std::string m = e.what();
    throw ConfigError(at + (m.find(key) == std::string::npos ? key + " = " + quoted(value) + ": " + m : m));
  };
  if (decl_.count(key)) {
    if (origin_.count(key) && from_command_line(origin) && from_command_line(origin_.at(key)))
      throw ConfigError(at + key + " = " + quoted(value) + ": already given by " + origin_.at(key) + " (" + key + " = " +
                        quoted(values_.at(key)) + "); give it once");
    try {
      values_[key] = normal(decl_.at(key), value, key);
    } catch (const InputError& e) {
      why(e);
    }
    if (!origin.empty()) origin_[key] = origin;
    return;
  }
  // chip.<switch>.<field>, checked like chip.<field>
  if (per_switch_chip_ && key.rfind("chip.", 0) == 0) {
    const auto dot = key.find('.', 5);
    if (dot != std::string::npos && dot > 5 && decl_.count("chip." + key.substr(dot + 1))) {
      const std::string sw = key.substr(5, dot - 5), field = key.substr(dot + 1);
      if (override_origin_.count(key) && from_command_line(origin) && from_command_line(override_origin_.at(key)))
        throw ConfigError(at + key + " = " + quoted(value) + ": already given by " + override_origin_.at(key) +
                          "; give it once");
      try {
        overrides_[sw][field] = normal(decl_.at("chip." + field), value, key);
      } catch (const InputError& e) {
        why(e);
      }
      if (!origin.empty()) override_origin_[key] = origin;
      return;
    }
  }
  // Unknown: name the nearest declared keys.
  std::vector<std::pair<size_t, std::string>> near;
  for (const auto& k : order_) {
    const std::string leaf = k.substr(k.rfind('.') + 1);
    const size_t d = std::min(distance(key, k), distance(key, leaf));
    if (d <= 2) near.emplace_back(d, k);
  }
  std::sort(near.begin(), near.end());
  std::string hint;
  for (size_t i = 0; i < near.size() && i < 3; ++i) hint += (i ? ", " : "") + near[i].second;
  if (!hint.empty()) hint = " (did you mean " + hint + "?)";
  const auto dot = key.find('.');
  if (hint.empty() && dot != std::string::npos) {  // the keys of its section
    const std::string sec = key.substr(0, dot + 1);
    for (const auto& k : order_)
      if (k.rfind(sec, 0) == 0) hint += (hint.empty() ? " ([" + key.substr(0, dot) + "] has: " : ", ") + k.substr(dot + 1);
    if (!hint.empty()) hint += ")";
  }
  throw ConfigError(at + "unknown key " + quoted(key_in) + hint + "; dsh-sim SCENARIO --list prints the keys");
}

void KeyStore::load_toml(const std::string& path, const std::vector<std::string>& skip) {
  const auto slash = path.rfind('/');
  base_dir_ = slash == std::string::npos ? "." : path.substr(0, slash);
  load_toml_text(read_text_file("scenario", path), path, skip);
}

void KeyStore::load_toml_text(const std::string& text_in, const std::string& path, const std::vector<std::string>& skip) {
  const toml::table t = parse_toml(text_in, path);
  std::function<void(const toml::table&, const std::string&)> walk = [&](const toml::table& tb, const std::string& pre) {
    for (const auto& [k, v] : tb) {
      const std::string key = pre.empty() ? std::string(k.str()) : pre + "." + std::string(k.str());
      if (pre.empty() && std::find(skip.begin(), skip.end(), key) != skip.end()) continue;
      const std::string at = path + ":" + std::to_string(v.source().begin.line);
      if (auto sub = v.as_table()) {
        walk(*sub, key);
        continue;
      }
      if (pre.empty()) throw ConfigError(at + ": top-level key " + quoted(key) + " must be in a [section]");
      std::string value;
      try {
        value = toml_text(v);
      } catch (const ConfigError& e) {
        throw ConfigError(at + ": " + key + ": " + e.what());
      }
      set(key, value, at);
    }
  };
  walk(t, "");
}

bool KeyStore::given_on_command_line(const std::string& key) const {
  const auto it = origin_.find(key);
  return it != origin_.end() && from_command_line(it->second);
}

std::string KeyStore::where(const std::string& key) const {
  const auto it = origin_.find(key);
  return it == origin_.end() ? "" : " (" + it->second + ")";
}

void KeyStore::refuse(const std::string& key, const std::string& why) const {
  const auto it = values_.find(key);
  throw ConfigError(key + " = " + quoted(it == values_.end() ? "" : it->second) + where(key) + ": " + why);
}

const std::string& KeyStore::text(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("undeclared key " + key);
  return it->second;
}

uint64_t KeyStore::u64(const std::string& key) const {
  const Key& k = decl(key);
  if (k.type != KeyType::Uint) throw std::logic_error(key + " is not an unsigned key");
  return std::stoull(text(key));
}

int64_t KeyStore::i64(const std::string& key) const {
  const Key& k = decl(key);
  if (k.type != KeyType::Int && k.type != KeyType::Uint) throw std::logic_error(key + " is not an integer key");
  return std::stoll(text(key));
}

double KeyStore::num(const std::string& key) const {
  const Key& k = decl(key);
  if (k.type != KeyType::Real && k.type != KeyType::Uint && k.type != KeyType::Int)
    throw std::logic_error(key + " is not a number key");
  return std::stod(text(key));
}

bool KeyStore::flag(const std::string& key) const {
  if (decl(key).type != KeyType::Bool) throw std::logic_error(key + " is not a bool key");
  return text(key) == "true";
}

std::vector<std::string> KeyStore::list(const std::string& key) const { return expand_list(text(key), key); }

std::vector<std::string> KeyStore::expand_list_of(const std::string& v, const std::string& key) {
  return expand_list(v, key);
}

const std::string& KeyStore::chip_text(const std::string& key, const std::string& sw) const {
  if (!sw.empty() && key.rfind("chip.", 0) == 0) {
    const auto o = overrides_.find(sw);
    if (o != overrides_.end()) {
      const auto f = o->second.find(key.substr(5));
      if (f != o->second.end()) return f->second;
    }
  }
  return text(key);
}

void KeyStore::apply_binding(const Binding& b, void* s, const std::string& sw) const {
  const std::string& v = chip_text(b.key, sw);
  try {
    b.put(s, v);
  } catch (const ConfigError& e) {
    const std::string m = e.what();
    if (m.find(b.key) != std::string::npos) throw;
    if (&v == &text(b.key)) throw ConfigError(b.key + " = " + quoted(v) + where(b.key) + ": " + m);
    const std::string name = "chip." + sw + b.key.substr(4);  // a switch's own value
    const auto at = override_origin_.find(name);
    throw ConfigError(name + " = " + quoted(v) + (at == override_origin_.end() ? "" : " (" + at->second + ")") + ": " + m);
  }
}

std::string KeyStore::path(const std::string& key) const {
  const std::string& v = text(key);
  return v.empty() || v[0] == '/' ? v : base_dir_ + "/" + v;
}

std::string KeyStore::dump() const {
  std::ostringstream m;
  for (const auto& k : order_) m << k << " = " << values_.at(k) << "\n";
  for (const auto& [sw, f] : overrides_)
    for (const auto& [k, v] : f) m << "chip." << sw << "." << k << " = " << v << "\n";
  return m.str();
}

std::string KeyStore::help() const {
  std::ostringstream m;
  for (const auto& name : order_) {
    const Key& k = decl_.at(name);
    m << "  " << name << std::string(name.size() < 30 ? 30 - name.size() : 1, ' ') << k.help;
    if (k.type != KeyType::Text) m << " [" << k.accepted() << "]";
    m << " (default " << (k.def.empty() ? "none" : k.def) << ")\n";
  }
  return m.str();
}

}  // namespace dsh::sc
