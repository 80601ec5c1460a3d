// SPDX-License-Identifier: Apache-2.0
// List values of the keys (keys.h): comma-separated items, NAMEa..NAMEb
// ranges.
#include <cctype>
#include <sstream>

#include "config.h"
#include "input.h"
#include "keys.h"

namespace dsh::sc {

namespace {

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

std::vector<std::string> list_items(const std::string& v) {
  std::vector<std::string> out;
  std::stringstream in(v);
  std::string item;
  while (std::getline(in, item, ','))
    if (!trim_item(item).empty()) out.push_back(trim_item(item));
  return out;
}

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

std::vector<std::string> expand_list(const std::string& value, const std::string& what) {
  std::vector<std::string> out;
  for (const auto& item : list_items(value)) {
    // "H2..H25-S1": a range on one side of a link item.
    const auto dash = item.find('-');
    if (dash != std::string::npos && item.find("..") != std::string::npos) {
      const std::string a = item.substr(0, dash), rest = item.substr(dash);
      for (const auto& x : expand_range(a, what)) out.push_back(x + rest);
      continue;
    }
    for (const auto& x : expand_range(item, what)) out.push_back(x);
  }
  return out;
}

}  // namespace dsh::sc
