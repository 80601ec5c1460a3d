// SPDX-License-Identifier: Apache-2.0
// A record written to disk, serialised from one field list: its JSON keys
// are its members' names, written in the list's order (nlohmann-json's
// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE writes a sorted nlohmann::json; this
// is the same on an ordered_json, so files keep their field order). The
// reader refuses a missing or ill-typed field with a std::runtime_error
// naming it.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace dsh::json_record {

// A number member needs a JSON number, a bool member a JSON boolean
// (nlohmann-json alone would take true for 1 and the other way round).
template <class T>
void read_field(const nlohmann::json& j, const char* name, T& v) {
  const auto it = j.find(name);
  if (it == j.end()) throw std::runtime_error(std::string("field '") + name + "' is missing");
  const char* want = nullptr;
  if constexpr (std::is_same_v<T, bool>) {
    if (!it->is_boolean()) want = "a boolean";
  } else if constexpr (std::is_arithmetic_v<T>) {
    if (!it->is_number()) want = "a number";
  }
  if (want) throw std::runtime_error(std::string("field '") + name + "' is not " + want + " (it is " + it->type_name() + ")");
  try {
    it->get_to(v);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("field '") + name + "': " + e.what());
  }
}

}  // namespace dsh::json_record

#define DSH_JSON_RECORD_FROM(v1) dsh::json_record::read_field(nlohmann_json_j, #v1, nlohmann_json_t.v1);

#define DSH_JSON_RECORD(Type, ...)                                                           \
  inline void to_json(nlohmann::ordered_json& nlohmann_json_j, const Type& nlohmann_json_t) { \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                  \
  }                                                                                          \
  inline void from_json(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {       \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(DSH_JSON_RECORD_FROM, __VA_ARGS__))              \
  }
