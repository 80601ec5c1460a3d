// The network simulator's time base: one event queue in picoseconds. The
// single-switch model (net.h) gives every port and the MMU a SystemC thread
// and every packet hop a peq event; a network of switches runs far more
// packets per MMU cycle, so its nodes are plain C++ objects whose timed
// actions are callbacks in this queue (no context switch per hop).
//
// Events at the same time run by `phase` (lower first), then in the order
// they were scheduled: an MMU cycle (kPhaseMmu) sees every request made at
// its start, as the SystemC switch's extra delta cycle does.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace dsh::net {

inline constexpr unsigned kPhaseNormal = 0;
inline constexpr unsigned kPhaseMmu = 1;

class EventQueue {
 public:
  using Action = std::function<void()>;
  uint64_t now() const { return now_; }
  void at(uint64_t t_ps, Action a, unsigned phase = kPhaseNormal) {
    heap_.push(Entry{t_ps < now_ ? now_ : t_ps, phase, seq_++, std::move(a)});
  }
  void after(uint64_t d_ps, Action a, unsigned phase = kPhaseNormal) { at(now_ + d_ps, std::move(a), phase); }
  // Time of the next event; ~0 when none.
  uint64_t next_time() const { return heap_.empty() ? ~uint64_t(0) : heap_.top().t; }
  bool empty() const { return heap_.empty(); }
  // Runs events up to and including `until_ps` (or until stop()).
  void run(uint64_t until_ps) {
    stopped_ = false;
    while (!heap_.empty() && !stopped_) {
      if (heap_.top().t > until_ps) break;
      Entry e = std::move(const_cast<Entry&>(heap_.top()));
      heap_.pop();
      now_ = e.t;
      ++executed_;
      e.a();
    }
    if (!stopped_ && now_ < until_ps && until_ps != ~uint64_t(0)) now_ = until_ps;
  }
  void stop() { stopped_ = true; }
  // An MMU that steps ahead through quiet cycles moves time itself; only
  // while no event is due before `t`.
  void advance_to(uint64_t t) {
    if (t > now_) now_ = t;
  }
  uint64_t executed() const { return executed_; }

 private:
  struct Entry {
    uint64_t t;
    unsigned phase;
    uint64_t seq;
    Action a;
    bool operator>(const Entry& o) const {
      if (t != o.t) return t > o.t;
      if (phase != o.phase) return phase > o.phase;
      return seq > o.seq;
    }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  uint64_t now_ = 0, seq_ = 0, executed_ = 0;
  bool stopped_ = false;
};

}  // namespace dsh::net
