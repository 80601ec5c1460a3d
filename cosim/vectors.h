// SPDX-License-Identifier: Apache-2.0
// Stimulus and response vectors (docs/spec/vector-format.md): plain CSV with a
// header line; '#' starts a comment line. Integer fields only, no quoting.
// Format 2 and 3 files open with a header block naming the format and every
// configuration field (vector format §2); format 1 files have none. Format
// 3 rows hold every dequeue and enqueue slot of a multi-event cycle
// (vector format §7); formats 1 and 2 one of each.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "input.h"
#include "mmu_model.h"

namespace dsh {

// A malformed vector file; what() is "file:line: field = 'value': why".
class VectorError : public InputError {
 public:
  using InputError::InputError;
};

// The format of one dequeue and one enqueue a cycle, which the writers use
// for a chip of one lane and one dequeue slot; the readers take 1 (no
// header) and 2.
inline constexpr unsigned kVectorFormat = 2;
// The format of the multi-event cycle (vector format §7), which the writers
// use for a chip with lanes or several dequeue slots.
inline constexpr unsigned kLaneVectorFormat = 3;
// The format a writer uses for this chip.
inline unsigned vector_format_for(const Config& c) {
  return c.lanes > 1 || c.deq_per_cycle > 1 ? kLaneVectorFormat : kVectorFormat;
}

enum class VectorKind { Stimulus, Response };
const char* to_string(VectorKind k);  // "stimulus" | "response"

// The header block of a format 2 or 3 file (vector format §2).
struct VectorHeader {
  unsigned format = kVectorFormat;
  VectorKind kind = VectorKind::Stimulus;
  Config config;        // every field given in the block; only the implied ones defaulted
  size_t lines = 0;     // lines the block takes, from the top of the file
  std::map<std::string, size_t> field_line;  // where each field is, for messages
  // The line of a field, or the block's last line for an implied field the
  // block leaves out (vector format §2).
  size_t line_of(const std::string& field) const {
    const auto it = field_line.find(field);
    return it == field_line.end() ? lines : it->second;
  }
};

// Reads the header block at the top of a vector file: nullopt for a file
// without one (format 1). Throws VectorError ("file:line: ...") on a
// malformed block, a missing, repeated or unknown field, a bad value, a
// format other than 2 and 3, a file of the other kind, or a format line
// that is not the file's first.
std::optional<VectorHeader> read_vector_header(std::istream& in, const std::string& name, VectorKind expected);
// Format 2 leaves lanes and deq_per_cycle out at 1; format 3 gives every field.
void write_vector_header(std::ostream& out, VectorKind kind, const Config& cfg, unsigned format = kVectorFormat);

// The first field whose value differs: {field, value in a, value in b};
// nullopt when the two configurations are the same chip.
struct FieldDiff {
  std::string field, a, b;
};
std::optional<FieldDiff> first_difference(const Config& a, const Config& b);

struct StimRow {
  uint64_t cycle = 0;
  CycleIn in;
  size_t line = 0;  // in the file, for messages
};

// Reads a stimulus file's rows (a format 2 header block is read as comments:
// read_vector_header reads it). A UTF-8 byte-order mark, CRLF line ends and blank
// lines are accepted). Every index and size must fit the RTL's widths for
// this configuration (an index beyond n_ports/n_queues that fits is kept:
// it is a protocol error the MMU must flag).
std::vector<StimRow> read_stimulus(std::istream& in, const std::string& name, const Config& cfg,
                                   const RtlWidths& w);

// The header block for `cfg`, then the column line.
void write_stimulus_header(std::ostream& out, const Config& cfg);
void write_stimulus_row(std::ostream& out, uint64_t cycle, const CycleIn& in);

void write_response_header(std::ostream& out, const Config& cfg);  // header block, column line
void write_response_row(std::ostream& out, uint64_t cycle, const CycleOut& o);
void write_final_state(std::ostream& out, const MmuModel& m);

// Steps the model through the stimulus (absent cycles idle) and writes the
// response: the header block of the model's configuration, the column line,
// one row per stimulus row, then the final state. Returns cycles run.
uint64_t replay(const std::vector<StimRow>& stim, MmuModel& m, std::ostream& response);

// A format 3 stimulus (vector format §7): each row's dequeue slots, then its
// enqueue slots, flat (a 32-lane file has millions of slots).
struct LaneStimulus {
  unsigned lanes = 1, deq_per_cycle = 1;
  std::vector<uint64_t> cycles;  // of each row, strictly increasing
  std::vector<Op> slots;         // deq_per_cycle + lanes a row
  size_t size() const { return cycles.size(); }
  LaneCycleIn row(size_t i) const;
};

// Reads a format 3 stimulus's rows for `cfg` (its lanes and deq_per_cycle
// give the columns), with read_stimulus's checks.
LaneStimulus read_lane_stimulus(std::istream& in, const std::string& name, const Config& cfg, const RtlWidths& w);

// Format 3: the header block (every field), then the column line.
void write_lane_stimulus_header(std::ostream& out, const Config& cfg);
void write_lane_stimulus_row(std::ostream& out, uint64_t cycle, const LaneCycleIn& in, const Config& cfg);
void write_lane_response_header(std::ostream& out, const Config& cfg);
// `taken` is deq_taken of the row's own step (spec §4.8: known at once,
// while a pipelined model's other results come latency() steps later).
void write_lane_response_row(std::ostream& out, uint64_t cycle, const LaneCycleOut& o,
                             const std::array<bool, kDeqPerCycleMax>& taken, const Config& cfg);

// replay() for a format 3 stimulus: the model's step_lanes, a format 3
// response.
uint64_t replay_lanes(const LaneStimulus& stim, MmuModel& m, std::ostream& response);

}  // namespace dsh
