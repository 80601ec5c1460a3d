// SPDX-License-Identifier: Apache-2.0
#include "input.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <istream>
#include <limits>
#include <sstream>

namespace dsh {

namespace {

std::string num_text(double v) {
  std::ostringstream m;
  m.precision(15);
  m << v;
  return m.str();
}

bool all_digits(const std::string& s, size_t from) {
  if (from >= s.size()) return false;
  for (size_t i = from; i < s.size(); ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  return true;
}

[[noreturn]] void not_an_integer(const std::string& what, const std::string& text, const std::string& range) {
  throw InputError(what + " = " + quoted(text) + ": expected an integer in " + range);
}

}  // namespace

std::string trim(const std::string& s, const char* chars) {
  const auto a = s.find_first_not_of(chars), b = s.find_last_not_of(chars);
  return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

std::string quoted(const std::string& text) {
  std::string q = "'";
  size_t n = 0;
  for (unsigned char c : text) {
    if (++n > 60) {
      q += "...";
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      q += char(c);
    } else {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02X", c);
      q += b;
    }
  }
  return q + "'";
}

std::string range_text(double lo, double hi, bool lo_open, bool hi_open) {
  if (!lo_open && !hi_open) return "[" + num_text(lo) + ", " + num_text(hi) + "]";
  return std::string(lo_open ? "(" : "[") + num_text(lo) + ", " + num_text(hi) + (hi_open ? ")" : "]");
}

uint64_t parse_uint(const std::string& what, const std::string& text, uint64_t lo, uint64_t hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (!all_digits(text, 0)) not_an_integer(what, text, range);
  errno = 0;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno == ERANGE || v < lo || v > hi) throw InputError(what + " = " + text + " is out of range " + range);
  return v;
}

int64_t parse_int(const std::string& what, const std::string& text, int64_t lo, int64_t hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (!all_digits(text, text.size() && text[0] == '-' ? 1 : 0)) not_an_integer(what, text, range);
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || v < lo || v > hi) throw InputError(what + " = " + text + " is out of range " + range);
  return v;
}

double parse_real(const std::string& what, const std::string& text, double lo, double hi, bool lo_open,
                  bool hi_open) {
  const std::string range = range_text(lo, hi, lo_open, hi_open);
  // A decimal number: [-]digits[.digits][e[+-]digits]; strtod alone would
  // also take "nan", "inf", hex floats and leading blanks.
  size_t i = 0, digits = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  while (i < text.size() && std::isdigit((unsigned char)text[i])) ++i, ++digits;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && std::isdigit((unsigned char)text[i])) ++i, ++digits;
  }
  bool ok = digits > 0;
  if (ok && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    ok = i < text.size() && std::isdigit((unsigned char)text[i]);
    while (i < text.size() && std::isdigit((unsigned char)text[i])) ++i;
  }
  if (!ok || i != text.size()) throw InputError(what + " = " + quoted(text) + ": expected a number in " + range);
  errno = 0;
  const double v = std::strtod(text.c_str(), nullptr);
  if (errno == ERANGE || !std::isfinite(v) || v < lo || v > hi || (lo_open && v == lo) || (hi_open && v == hi))
    throw InputError(what + " = " + text + " is out of range " + range);
  return v;
}

bool parse_bool(const std::string& what, const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  throw InputError(what + " = " + quoted(text) + ": expected true or false");
}

void skip_bom(std::istream& in) {
  char b[3];
  if (in.peek() != 0xEF && in.peek() != char(0xEF)) return;
  in.read(b, 3);
  if (in.gcount() == 3 && (unsigned char)b[0] == 0xEF && (unsigned char)b[1] == 0xBB && (unsigned char)b[2] == 0xBF)
    return;
  in.clear();
  for (std::streamsize k = in.gcount(); k-- > 0;) in.putback(b[k]);
}

bool get_line(std::istream& in, std::string& line) {
  if (!std::getline(in, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

void check_input_file(const std::string& what, const std::string& path) {
  if (path.empty()) throw InputError(what + " = '': expected a file name");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(what + " = " + path + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(what + " = " + path + ": is a directory, expected a file");
  if (::access(path.c_str(), R_OK) != 0) throw InputError(what + " = " + path + ": " + std::strerror(errno));
}

std::string read_text_file(const std::string& what, const std::string& path) {
  check_input_file(what, path);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) throw InputError(what + " = " + path + ": read error");
  return s.str();
}

}  // namespace dsh
