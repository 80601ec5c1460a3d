// SPDX-License-Identifier: Apache-2.0
// Point result files of any sweep (the pfc-avoidance sweeps of points.h and
// the network scenarios of net_points.h): IDs "<name>,key=value,...", one
// JSON file per point written atomically elsewhere (write_file_atomically),
// and the check of a directory of them against a sweep: what a resume may
// skip and what a merge refuses (missing, duplicate, foreign points).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dsh::sc {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

std::string format_number(double x);  // %.10g: the text of a value in an ID
// Throws ConfigError unless the name is letters, digits, '-', '_' and '.'.
void check_point_name(const std::string& name);

// Any sweep's ID: <name>,key=value,... in a fixed key order (the network
// scenarios use it too: deadlock,scheme=dsh,cc=dcqcn,seed=3). Throws
// ConfigError when the name is not plain (an ID is a file name and a shell word).
std::string make_point_id(const std::string& name, const KeyValues& coords);
// The name and the key=value parts of an ID; nullopt when malformed.
std::optional<std::pair<std::string, KeyValues>> split_point_id(const std::string& id);

// A point result file of any sweep: {"dsh_sim_point": 1, "id", "params", "metrics"}.
struct PointRecord {
  std::string path, id;
  KeyValues params;
  nlohmann::json metrics;  // an object
};
// The file's text; `metrics` must be a JSON object (its key order is kept).
// A [chip] key of a configuration field implied at its default (the
// multi-event cycle's, spec §1.2) and at that default: a point's params
// leave it out, as a vector header does, so that a result file reads the
// same whether or not the key existed when it was written.
bool implied_chip_default(const std::string& key, const std::string& value);

std::string point_record_text(const std::string& id, const KeyValues& params, const nlohmann::ordered_json& metrics);
// Throws std::runtime_error saying why the file is not a point result.
PointRecord read_point_record(const std::string& path);
// The first key whose value differs ("" when equal).
std::string params_difference(const KeyValues& there, const KeyValues& here);

// A directory of point files checked against a sweep. `expected(record)`
// gives the parameters a valid file of that ID carries, nullopt when the ID
// is not a point of the sweep; it may throw std::runtime_error when the
// metrics are not this sweep's. With `merge` the subdirectories are read too
// and every bad file is a problem (foreign, misnamed, other parameters);
// without, such files are counted as stale or ignored and the run replaces
// them. A point found twice is a problem either way (duplicate).
struct PointScan {
  std::map<std::string, PointRecord> valid;  // by ID
  size_t stale = 0, ignored = 0;
  std::vector<std::string> problems;
  bool no_dir = false;  // the directory is not there
};
PointScan scan_points(const std::string& dir, bool merge,
                      const std::function<std::optional<KeyValues>(const PointRecord&)>& expected);
// Puts "N of M points have no result file in DIR (missing): ..." first in
// scan.problems when some of `ids` have no valid file.
void note_missing_points(PointScan& scan, const std::vector<std::string>& ids, const std::string& dir);
// --merge's refusal: prints the problems (exit 2 follows); false when there are none.
bool refuse_merge(const PointScan& scan, const std::string& dir);

// The *.json files under dir (not the hidden temporaries), sorted; with
// `recursive`, also in its subdirectories (results gathered from machines).
std::vector<std::string> point_files_in(const std::string& dir, bool recursive);

}  // namespace dsh::sc
