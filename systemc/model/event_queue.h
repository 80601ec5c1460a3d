// The switch model's time base: one event queue in picoseconds. The model's
// nodes are plain C++ objects whose timed actions are callbacks in this
// queue (no context switch per hop). It runs by itself (run.kernel =
// events) or under the SystemC kernel (tlm_netlist.h), which then only
// advances time: the order of events is this queue's in both.
//
// Events at the same time run by `phase` (lower first), then in the order
// they were scheduled (a sequence number): an MMU cycle (kPhaseMmu) sees
// every request made at its start.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include "config.h"

namespace dsh::net {

// What runs the events (run.kernel): this queue itself, or the SystemC
// kernel through the TLM netlist (tlm_netlist.h). The same results.
enum class Kernel { Events, SystemC };
inline Kernel parse_kernel(const std::string& text, const std::string& key) {
  if (text == "events") return Kernel::Events;
  if (text == "systemc") return Kernel::SystemC;
  throw ConfigError(key + " = '" + text + "': expected events | systemc");
}
inline const char* to_string(Kernel k) { return k == Kernel::Events ? "events" : "systemc"; }

inline constexpr unsigned kPhaseNormal = 0;
inline constexpr unsigned kPhaseMmu = 1;

class EventQueue {
 public:
  using Action = std::function<void()>;
  uint64_t now() const { return now_; }
  void at(uint64_t t_ps, Action a, unsigned phase = kPhaseNormal) {
    uint32_t slot;
    if (free_.empty()) {
      slot = uint32_t(actions_.size());
      actions_.push_back(std::move(a));
    } else {
      slot = free_.back();
      free_.pop_back();
      actions_[slot] = std::move(a);
    }
    heap_.push(Entry{t_ps < now_ ? now_ : t_ps, (uint64_t(phase) << 56) | seq_++, slot});
  }
  void after(uint64_t d_ps, Action a, unsigned phase = kPhaseNormal) { at(now_ + d_ps, std::move(a), phase); }
  // Time of the next event; ~0 when none.
  uint64_t next_time() const { return heap_.empty() ? ~uint64_t(0) : heap_.top().t; }
  bool empty() const { return heap_.empty(); }
  // Runs events up to and including `until_ps` (or until stop()).
  void run(uint64_t until_ps) {
    stopped_ = false;
    while (!heap_.empty() && !stopped_) {
      const Entry e = heap_.top();
      if (e.t > until_ps) break;
      heap_.pop();
      now_ = e.t;
      ++executed_;
      Action a = std::move(actions_[e.slot]);
      free_.push_back(e.slot);
      a();
    }
    if (!stopped_ && now_ < until_ps && until_ps != ~uint64_t(0)) now_ = until_ps;
  }
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  // An MMU that steps ahead through quiet cycles moves time itself; only
  // while no event is due before `t`.
  void advance_to(uint64_t t) {
    if (t > now_) now_ = t;
  }
  uint64_t executed() const { return executed_; }

 private:
  // Small entries (the actions live in a slab): the heap moves 24 bytes.
  struct Entry {
    uint64_t t;
    uint64_t key;  // phase in the top byte, then the order of scheduling
    uint32_t slot;
    bool operator>(const Entry& o) const { return t != o.t ? t > o.t : key > o.key; }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
  std::vector<Action> actions_;
  std::vector<uint32_t> free_;
  uint64_t now_ = 0, seq_ = 0, executed_ = 0;
  bool stopped_ = false;
};

}  // namespace dsh::net
