// The switch model's time base: one event queue in picoseconds. The model's
// nodes are plain C++ objects whose timed actions are callbacks in this
// queue (no context switch per hop). It runs by itself (run.kernel =
// events) or under the SystemC kernel (tlm_netlist.h), which then only
// advances time: the order of events is this queue's in both.
//
// Events at the same time run by `phase` (lower first), then in the order
// they were scheduled (a sequence number): an MMU cycle (kPhaseMmu) sees
// every request made at its start.
//
// Lanes: a lane is a FIFO of events whose (time, phase, sequence number)
// never decrease in the order they are scheduled, such as the packets in
// flight on one link direction (sent one after another, each arriving a
// fixed delay after its last bit). Only a lane's first event waits in the
// heap; the next one enters it when the first runs, with the sequence
// number it got when it was scheduled. The heap then holds one entry per
// lane instead of one per packet in flight (at 256 hosts, ~2,000 instead of
// ~20,000), and the events run in exactly the order one heap would give
// them: a lane's first event is never later than the rest of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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
  // A plain call: handler(ctx, item). Lanes and the model's own frequent
  // events (a port's end of transmission, an MMU cycle) use it: no
  // std::function to build, move and destroy per event.
  using Handler = void (*)(void* ctx, void* item);
  using LaneHandler = Handler;

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
    push(Entry{t_ps < now_ ? now_ : t_ps, key(phase), nullptr, slot});
  }
  void after(uint64_t d_ps, Action a, unsigned phase = kPhaseNormal) { at(now_ + d_ps, std::move(a), phase); }
  // handler(ctx, item) at t_ps: the same as at() with a lambda, cheaper.
  void call_at(uint64_t t_ps, Handler h, void* ctx, void* item, unsigned phase = kPhaseNormal) {
    schedule_call(t_ps < now_ ? now_ : t_ps, key(phase), h, ctx, item);
  }

  // A new lane whose events call handler(ctx, item).
  uint32_t add_lane(LaneHandler handler, void* ctx) {
    lanes_.push_back(Lane{handler, ctx, {}, 0});
    return uint32_t(lanes_.size() - 1);
  }
  // handler(ctx, item) at t_ps in lane `lane`. An event earlier than the
  // lane's last (time, phase, sequence) goes to the heap by itself: the
  // order of events is the same either way.
  void lane_at(uint32_t lane, uint64_t t_ps, void* item, unsigned phase = kPhaseNormal) {
    Lane& l = lanes_[lane];
    const Entry e{t_ps < now_ ? now_ : t_ps, key(phase), item, lane | kLaneBit};
    if (l.head == l.items.size()) {  // empty: its first event enters the heap
      l.items.clear();
      l.head = 0;
      l.items.push_back(LaneItem{e.t, e.key, item});
      push(e);
      return;
    }
    const LaneItem& back = l.items.back();
    if (e.t < back.t || (e.t == back.t && e.key < back.key)) {
      schedule_call(e.t, e.key, l.handler, l.ctx, item);
      return;
    }
    if (l.head >= 256 && 2 * l.head >= l.items.size()) {  // drop what has run: memory follows what waits
      l.items.erase(l.items.begin(), l.items.begin() + std::ptrdiff_t(l.head));
      l.head = 0;
    }
    l.items.push_back(LaneItem{e.t, e.key, item});
  }

  // Time of the next event; ~0 when none.
  uint64_t next_time() const { return heap_.empty() ? ~uint64_t(0) : heap_[0].t; }
  bool empty() const { return heap_.empty(); }
  // Runs events up to and including `until_ps` (or until stop()).
  void run(uint64_t until_ps) {
    stopped_ = false;
    while (!heap_.empty() && !stopped_) {
      const Entry e = heap_[0];
      if (e.t > until_ps) break;
      now_ = e.t;
      ++executed_;
      if (e.slot & kLaneBit) {
        Lane& l = lanes_[e.slot & ~kLaneBit];
        if (++l.head < l.items.size()) {  // the lane's next event takes its place
          const LaneItem& n = l.items[l.head];
          replace_top(Entry{n.t, n.key, n.item, e.slot});
        } else {
          pop_top();
        }
        prefetch_next();
        l.handler(l.ctx, e.item);
        continue;
      }
      pop_top();
      prefetch_next();
      if (e.slot & kCallBit) {
        const Call c = calls_[e.slot & ~kCallBit];
        free_calls_.push_back(e.slot & ~kCallBit);
        c.h(c.ctx, e.item);
        continue;
      }
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
  static constexpr uint32_t kLaneBit = uint32_t(1) << 31;
  static constexpr uint32_t kCallBit = uint32_t(1) << 30;
  // The heap's entries: 32 bytes, two to a cache line's half; a node's four
  // children are two lines.
  struct Entry {
    uint64_t t;
    uint64_t key;   // phase in the top byte, then the order of scheduling
    void* item;     // a lane's or a call's item (the next event's data is fetched ahead)
    uint32_t slot;  // an action's slot, kCallBit | a call's slot, or kLaneBit | lane
    bool before(const Entry& o) const { return t < o.t || (t == o.t && key < o.key); }
  };
  struct LaneItem {
    uint64_t t, key;
    void* item;
  };
  struct Lane {
    LaneHandler handler;
    void* ctx;
    std::vector<LaneItem> items;  // items[head..] wait; items[head] is in the heap
    size_t head;
  };
  struct Call {
    Handler h;
    void* ctx;
  };
  uint64_t key(unsigned phase) { return (uint64_t(phase) << 56) | seq_++; }
  void schedule_call(uint64_t t, uint64_t k, Handler h, void* ctx, void* item) {
    uint32_t slot;
    if (free_calls_.empty()) {
      slot = uint32_t(calls_.size());
      calls_.push_back(Call{h, ctx});
    } else {
      slot = free_calls_.back();
      free_calls_.pop_back();
      calls_[slot] = Call{h, ctx};
    }
    push(Entry{t, k, item, slot | kCallBit});
  }
  // The next event's packet (or port) is most likely not in the cache: ask
  // for it while this one runs.
  void prefetch_next() const {
    if (!heap_.empty() && heap_[0].item) __builtin_prefetch(heap_[0].item);
  }

  // A 4-ary min-heap on (t, key): half the levels of a binary heap.
  void push(const Entry& e) {
    heap_.push_back(e);
    size_t i = heap_.size() - 1;
    while (i > 0) {
      const size_t parent = (i - 1) / 4;
      if (!e.before(heap_[parent])) break;
      heap_[i] = heap_[parent];
      i = parent;
    }
    heap_[i] = e;
  }
  void pop_top() {
    const Entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
  }
  void replace_top(const Entry& e) { sift_down(e); }
  // Puts e at the root's place and moves it down to where it belongs.
  void sift_down(const Entry& e) {
    const size_t n = heap_.size();
    size_t i = 0;
    for (;;) {
      const size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      const size_t last = first + 4 < n ? first + 4 : n;
      for (size_t c = first + 1; c < last; ++c) best = heap_[c].before(heap_[best]) ? c : best;
      if (!heap_[best].before(e)) break;
      heap_[i] = heap_[best];
      i = best;
    }
    heap_[i] = e;
  }

  std::vector<Entry> heap_;
  std::vector<Action> actions_;
  std::vector<uint32_t> free_;
  std::vector<Call> calls_;
  std::vector<uint32_t> free_calls_;
  std::vector<Lane> lanes_;
  uint64_t now_ = 0, seq_ = 0, executed_ = 0;
  bool stopped_ = false;
};

}  // namespace dsh::net
