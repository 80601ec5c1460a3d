// SPDX-License-Identifier: Apache-2.0
// A stimulus run through a model into its response (vectors.h: replay,
// replay_lanes), each row answered when the model's latency brings it.
#include <array>
#include <deque>
#include <ostream>

#include "vectors.h"

namespace dsh {

uint64_t replay(const std::vector<StimRow>& stim, MmuModel& m, std::ostream& response) {
  write_response_header(response, m.config());
  // A model of latency L returns a cycle's results L steps later: answer
  // each row when its results come, L idle steps past the last row. Idle
  // gaps between rows are stepped until every earlier row is answered and
  // skipped from there (MmuModel::skip_idle: O(1) however long).
  const uint64_t lat = m.latency();
  uint64_t c = 0;  // the next cycle to step
  size_t next_out = 0;
  auto step = [&](const CycleIn& in) {
    const CycleOut& o = m.step(in);
    if (c >= lat && next_out < stim.size() && stim[next_out].cycle == c - lat)
      write_response_row(response, stim[next_out++].cycle, o);
    ++c;
  };
  for (size_t i = 0; i < stim.size(); ++i) {
    while (c < stim[i].cycle && next_out < i) step(CycleIn{});
    if (c < stim[i].cycle) {
      m.skip_idle(stim[i].cycle - c);
      c = stim[i].cycle;
    }
    step(stim[i].in);
  }
  for (uint64_t k = 0; k < lat; ++k) step(CycleIn{});
  m.finish();
  write_final_state(response, m);
  return stim.empty() ? 0 : stim.back().cycle + 1;
}

uint64_t replay_lanes(const LaneStimulus& stim, MmuModel& m, std::ostream& response) {
  const Config& cfg = m.config();
  write_lane_response_header(response, cfg);
  // As replay(): a row is answered latency() steps after its own, except
  // deq_taken, which its own step gives (spec §4.8).
  const uint64_t lat = m.latency();
  uint64_t c = 0;  // the next cycle to step
  size_t next_out = 0;
  std::deque<std::array<bool, kDeqPerCycleMax>> taken;  // of the rows stepped, not yet answered
  auto step = [&](const LaneCycleIn& in, bool is_row) {
    const LaneCycleOut& o = m.step_lanes(in);
    if (is_row) taken.push_back(o.deq_taken);
    if (c >= lat && next_out < stim.size() && stim.cycles[next_out] == c - lat) {
      write_lane_response_row(response, stim.cycles[next_out++], o, taken.front(), cfg);
      taken.pop_front();
    }
    ++c;
  };
  for (size_t i = 0; i < stim.size(); ++i) {
    while (c < stim.cycles[i] && next_out < i) step(LaneCycleIn{}, false);
    if (c < stim.cycles[i]) {
      m.skip_idle(stim.cycles[i] - c);
      c = stim.cycles[i];
    }
    step(stim.row(i), true);
  }
  for (uint64_t k = 0; k < lat; ++k) step(LaneCycleIn{}, false);
  m.finish();
  write_final_state(response, m);
  return stim.size() ? stim.cycles.back() + 1 : 0;
}

}  // namespace dsh
