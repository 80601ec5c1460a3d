// Stimulus and response vectors (docs/spec/vector-format.md): plain CSV with a
// header line; '#' starts a comment line. Integer fields only, no quoting.
#pragma once

#include <iosfwd>
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

struct StimRow {
  uint64_t cycle = 0;
  CycleIn in;
  size_t line = 0;  // in the file, for messages
};

// Reads a stimulus file (a UTF-8 byte-order mark, CRLF line ends and blank
// lines are accepted). Every index and size must fit the RTL's widths for
// this configuration (an index beyond n_ports/n_queues that fits is kept:
// it is a protocol error the MMU must flag).
std::vector<StimRow> read_stimulus(std::istream& in, const std::string& name, const Config& cfg,
                                   const RtlWidths& w);

void write_stimulus_header(std::ostream& out);
void write_stimulus_row(std::ostream& out, uint64_t cycle, const CycleIn& in);

void write_response_header(std::ostream& out);
void write_response_row(std::ostream& out, uint64_t cycle, const CycleOut& o);
void write_final_state(std::ostream& out, const MmuModel& m);

// Steps the model through the stimulus (absent cycles idle) and writes one
// response row per stimulus row, then the final state. Returns cycles run.
uint64_t replay(const std::vector<StimRow>& stim, MmuModel& m, std::ostream& response);

}  // namespace dsh
