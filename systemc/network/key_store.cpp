#include "key_store.h"


#include <functional>
#include <sstream>

#include "config.h"
#include "input.h"
#include "toml_text.h"

namespace dsh::net {

namespace {
std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\"'[]");
  const auto b = s.find_last_not_of(" \t\"'[]");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// "H12" -> ("H", 12); false when it does not end in digits.
bool split_index(const std::string& s, std::string& stem, long& n) {
  size_t i = s.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
  if (i == s.size() || s.size() - i > 6) return false;
  stem = s.substr(0, i);
  n = std::stol(s.substr(i));
  return true;
}
}  // namespace

std::vector<std::string> expand_range(const std::string& item, const std::string& what) {
  const auto dots = item.find("..");
  if (dots == std::string::npos) return {item};
  std::string s1, s2;
  long a = 0, b = 0;
  if (!split_index(item.substr(0, dots), s1, a) || !split_index(item.substr(dots + 2), s2, b) || s1 != s2 || b < a ||
      b - a > 100000)
    throw ConfigError(what + ": " + quoted(item) + " is not a range NAMEa..NAMEb with a <= b (e.g. H2..H25)");
  std::vector<std::string> out;
  for (long i = a; i <= b; ++i) out.push_back(s1 + std::to_string(i));
  return out;
}

void KeyStore::declare(const std::string& key, const std::string& def, const std::string& help) {
  if (!values_.count(key)) order_.push_back(key);
  values_[key] = def;
  help_[key] = help;
}

void KeyStore::set(const std::string& key_in, const std::string& value) {
  std::string key = key_in;
  if (!help_.count(key)) {
    // A name without its section when it is unique.
    std::string found;
    int n = 0;
    for (const auto& k : order_)
      if (k.size() > key.size() && k.compare(k.size() - key.size(), key.size(), key) == 0 && k[k.size() - key.size() - 1] == '.') {
        found = k;
        ++n;
      }
    if (n == 1) key = found;
  }
  if (help_.count(key)) {
    values_[key] = value;
    return;
  }
  // chip.<switch>.<field>
  if (key.rfind("chip.", 0) == 0) {
    const auto dot = key.find('.', 5);
    if (dot != std::string::npos) {
      const std::string sw = key.substr(5, dot - 5), field = key.substr(dot + 1);
      if (help_.count("chip." + field) && !sw.empty()) {
        overrides_[sw][field] = value;
        return;
      }
    }
  }
  throw ConfigError("unknown key " + quoted(key_in) + " (dsh-sim SCENARIO --list prints the keys)");
}

void KeyStore::load_toml(const std::string& path) {
  const auto slash = path.rfind('/');
  base_dir_ = slash == std::string::npos ? "." : path.substr(0, slash);
  load_toml_text(read_text_file("scenario", path), path);
}

std::string KeyStore::path(const std::string& key) const {
  const std::string& v = text(key);
  return v.empty() || v[0] == '/' ? v : base_dir_ + "/" + v;
}

void KeyStore::load_toml_text(const std::string& text_in, const std::string& path) {
  const toml::table t = sc::parse_toml(text_in, path);
  const auto text = [](const toml::node& n) { return sc::toml_text(n); };
  std::function<void(const toml::table&, const std::string&)> walk = [&](const toml::table& tb, const std::string& pre) {
    for (const auto& [k, v] : tb) {
      const std::string key = pre.empty() ? std::string(k.str()) : pre + "." + std::string(k.str());
      if (auto sub = v.as_table()) {
        walk(*sub, key);
        continue;
      }
      try {
        set(key, text(v));
      } catch (const ConfigError& e) {
        throw ConfigError(path + ": " + e.what());
      }
    }
  };
  walk(t, "");
}

const std::string& KeyStore::text(const std::string& key) const {
  const auto it = values_.find(key);
  if (it == values_.end()) throw std::logic_error("undeclared key " + key);
  return it->second;
}

double KeyStore::num(const std::string& key, double lo, double hi, bool lo_open) const {
  return parse_real(key, text(key), lo, hi, lo_open);
}

uint64_t KeyStore::u64(const std::string& key, uint64_t lo, uint64_t hi) const { return parse_uint(key, text(key), lo, hi); }

bool KeyStore::flag(const std::string& key) const { return parse_bool(key, text(key)); }

std::vector<std::string> KeyStore::list(const std::string& key) const {
  std::vector<std::string> out;
  std::stringstream in(text(key));
  std::string item;
  while (std::getline(in, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    // "H2..H25-S1": a range on one side of a link item.
    const auto dash = item.find('-');
    if (dash != std::string::npos && item.find("..") != std::string::npos) {
      const std::string a = item.substr(0, dash), rest = item.substr(dash);
      for (const auto& x : expand_range(a, key)) out.push_back(x + rest);
      continue;
    }
    for (const auto& x : expand_range(item, key)) out.push_back(x);
  }
  return out;
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
  for (const auto& k : order_) m << "  " << k << std::string(k.size() < 34 ? 34 - k.size() : 1, ' ') << help_.at(k) << "\n";
  return m.str();
}

std::vector<std::string> KeyStore::keys() const { return order_; }

}  // namespace dsh::net
