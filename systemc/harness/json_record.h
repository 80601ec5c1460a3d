// SPDX-License-Identifier: Apache-2.0
// A record written to disk, serialised from one field list: its JSON keys
// are its members' names, written in the list's order (nlohmann-json's
// NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE writes a sorted nlohmann::json; this
// is the same on an ordered_json, so files keep their field order).
#pragma once

#include <nlohmann/json.hpp>

#define DSH_JSON_RECORD(Type, ...)                                                           \
  inline void to_json(nlohmann::ordered_json& nlohmann_json_j, const Type& nlohmann_json_t) { \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_TO, __VA_ARGS__))                  \
  }                                                                                          \
  inline void from_json(const nlohmann::json& nlohmann_json_j, Type& nlohmann_json_t) {       \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(NLOHMANN_JSON_FROM, __VA_ARGS__))                \
  }
