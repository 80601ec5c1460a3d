// SPDX-License-Identifier: Apache-2.0
// The validation layer every tool shares: strict numbers, text
// files as people write them, and the error type of every refusal. Plain
// C++17, no dependency. A refusal names the field or option, the value and
// the accepted range, and is thrown before any work starts.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <stdexcept>
#include <string>

namespace dsh {

// Input the tools refuse (exit status 2). what() names the field or option,
// the value and what is accepted.
class InputError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Strict numbers. `what` is the field or option as the user wrote it
// ("--cycles", "chip.n_ports"). Integers: decimal digits only (a leading '-'
// for signed ones), the whole text, no wrap, no float, no bool; out of
// [lo, hi] is refused. Reals: a finite decimal number (no nan, no inf, no hex).
uint64_t parse_uint(const std::string& what, const std::string& text, uint64_t lo, uint64_t hi);
int64_t parse_int(const std::string& what, const std::string& text, int64_t lo, int64_t hi);
// lo_open/hi_open: the bound itself is excluded ("(0, 1000]").
double parse_real(const std::string& what, const std::string& text, double lo, double hi, bool lo_open = false,
                  bool hi_open = false);
// "true" or "false" only.
bool parse_bool(const std::string& what, const std::string& text);

// Text of an interval for messages: "1..1024", "(0, 1000]".
std::string range_text(double lo, double hi, bool lo_open, bool hi_open);

// A value quoted for a message: printable ASCII as is, anything else \xNN,
// cut at 60 characters.
std::string quoted(const std::string& text);

// `s` without the leading and trailing characters of `chars`.
std::string trim(const std::string& s, const char* chars = " \t");

// Line reading for CSV and TOML readers: a UTF-8 byte-order mark at the start
// of the stream is skipped, "\r\n" ends a line like "\n".
void skip_bom(std::istream& in);
bool get_line(std::istream& in, std::string& line);  // drops a trailing '\r'

// Reads a whole file; a missing, unreadable or non-regular file is an
// InputError naming `what` and the path.
std::string read_text_file(const std::string& what, const std::string& path);

// An input path that must exist and be a readable regular file.
void check_input_file(const std::string& what, const std::string& path);

}  // namespace dsh
