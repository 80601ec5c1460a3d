// SPDX-License-Identifier: Apache-2.0
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
// queue; the next one enters it when the first runs, with the sequence
// number it got when it was scheduled. The queue then holds one entry per
// lane instead of one per packet in flight (at 256 hosts, ~1,000 instead
// of ~20,000), and the events run in exactly the order one priority queue
// would give them: a lane's first event is never later than the rest of it.
//
// The queue itself is a calendar of 1.024 ns buckets over the next 4.2 us
// (almost every event: MMU cycles, ends of transmission, arrivals), with a
// 4-ary heap for later events; see push() and peek().
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "ring.h"

namespace dsh::net {

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
    const uint32_t slot = store(actions_, free_, std::move(a));
    push(Entry{t_ps < now_ ? now_ : t_ps, key(phase), nullptr, slot});
  }
  void after(uint64_t d_ps, Action a, unsigned phase = kPhaseNormal) { at(now_ + d_ps, std::move(a), phase); }
  // handler(ctx, item) at t_ps: the same as at() with a lambda, cheaper.
  void call_at(uint64_t t_ps, Handler h, void* ctx, void* item, unsigned phase = kPhaseNormal) {
    schedule_call(t_ps < now_ ? now_ : t_ps, key(phase), h, ctx, item);
  }

  // The place in the order of an event scheduled now, for one that may be
  // scheduled later (call_at_key) or never: it then runs where it would have
  // run had it been scheduled now.
  uint64_t reserve_key(unsigned phase = kPhaseNormal) { return key(phase); }
  void call_at_key(uint64_t t_ps, uint64_t k, Handler h, void* ctx, void* item) {
    schedule_call(t_ps < now_ ? now_ : t_ps, k, h, ctx, item);
  }

  // A new lane whose events call handler(ctx, item).
  uint32_t add_lane(LaneHandler handler, void* ctx) {
    lanes_.push_back(Lane{handler, ctx, {}});
    return uint32_t(lanes_.size() - 1);
  }
  // handler(ctx, item) at t_ps in lane `lane`. An event earlier than the
  // lane's last (time, phase, sequence) goes to the heap by itself: the
  // order of events is the same either way.
  void lane_at(uint32_t lane, uint64_t t_ps, void* item, unsigned phase = kPhaseNormal) {
    Lane& l = lanes_[lane];
    const Entry e{t_ps < now_ ? now_ : t_ps, key(phase), item, lane | kLaneBit};  // (now_ <= t: its bucket)
    if (l.items.empty()) {  // its first event enters the heap
      l.items.push_back(LaneItem{e.t, e.key, item});
      push(e);
      return;
    }
    const LaneItem& back = l.items.back();
    if (e.t < back.t || (e.t == back.t && e.key < back.key)) {
      schedule_call(e.t, e.key, l.handler, l.ctx, item);
      return;
    }
    l.items.push_back(LaneItem{e.t, e.key, item});
  }

  // Time of the next event; ~0 when none.
  uint64_t next_time() const {
    const Entry* e = peek();
    return e ? e->t : ~uint64_t(0);
  }
  bool empty() const { return near_n_ == 0 && far_.empty(); }
  // Runs events up to and including `until_ps` (or until stop()).
  void run(uint64_t until_ps) {
    stopped_ = false;
    while (!stopped_) {
      const Entry* top = peek();
      if (!top || top->t > until_ps) break;
      const Entry e = *top;
      take(top);
      now_ = e.t;
      now_bucket_ = e.t >> kBucketShift;
      ++executed_;
      if (e.slot & kLaneBit) {
        Lane& l = lanes_[e.slot & ~kLaneBit];
        l.items.pop_front();
        if (!l.items.empty()) {  // the lane's next event takes its place
          const LaneItem& n = l.items.front();
          push(Entry{n.t, n.key, n.item, e.slot});
        }
        l.handler(l.ctx, e.item);
        continue;
      }
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
    if (!stopped_ && now_ < until_ps && until_ps != ~uint64_t(0)) {
      now_ = until_ps;
      now_bucket_ = now_ >> kBucketShift;
    }
  }
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }
  // An MMU that steps ahead through quiet cycles moves time itself; only
  // while no event is due before `t`.
  void advance_to(uint64_t t) {
    if (t > now_) {
      now_ = t;
      now_bucket_ = t >> kBucketShift;
    }
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
    // Its events in order; the first is in the queue. A ring: the memory a
    // lane touches is that of its packets in flight (a few hundred bytes),
    // which stays in cache.
    Ring<LaneItem> items;
  };
  struct Call {
    Handler h;
    void* ctx;
  };
  uint64_t key(unsigned phase) { return (uint64_t(phase) << 56) | seq_++; }
  // x in a free slot of v (the last one freed), or in a new one at its end.
  template <class T>
  static uint32_t store(std::vector<T>& v, std::vector<uint32_t>& free, T&& x) {
    if (free.empty()) {
      v.push_back(std::move(x));
      return uint32_t(v.size() - 1);
    }
    const uint32_t slot = free.back();
    free.pop_back();
    v[slot] = std::move(x);
    return slot;
  }
  void schedule_call(uint64_t t, uint64_t k, Handler h, void* ctx, void* item) {
    push(Entry{t, k, item, store(calls_, free_calls_, Call{h, ctx}) | kCallBit});
  }
  // Where the events wait: a calendar of kBuckets buckets of 2^kBucketShift
  // ps (1.024 ns) from the current time on, each a list sorted by (t, key),
  // with a bit per bucket that is not empty; events beyond it (a flow's
  // start, a timer) in a 4-ary heap. An event lands in its bucket in a few
  // steps: most come in (t, key) order within their bucket, and are
  // appended. The calendar spans 4.2 us, more than a packet's
  // serialisation and propagation on the links of every scenario so far;
  // a later event only costs the heap's log(n).
  static constexpr unsigned kBucketShift = 10;
  static constexpr size_t kBuckets = 4096;
  static constexpr uint32_t kNil = ~uint32_t(0);
  struct Node {
    Entry e;
    uint32_t next;
  };
  void push(const Entry& e) {
    const uint64_t b = e.t >> kBucketShift;
    if (b >= now_bucket_ + kBuckets) {
      push_far(e);
      return;
    }
    const uint32_t n = store(nodes_, free_nodes_, Node{e, kNil});
    const size_t i = size_t(b) & (kBuckets - 1);
    ++near_n_;
    uint32_t& head = head_[i];
    uint32_t& tail = tail_[i];
    if (head == kNil) {
      head = tail = n;
      bits_[i >> 6] |= uint64_t(1) << (i & 63);
    } else if (nodes_[tail].e.before(e)) {
      nodes_[tail].next = n;
      tail = n;
    } else if (e.before(nodes_[head].e)) {
      nodes_[n].next = head;
      head = n;
    } else {
      // From the last event put in the middle of this bucket when e comes
      // after it (the MMU cycles of a nanosecond come one after another,
      // ahead of events a few ps later in the bucket), else from the head.
      const uint32_t h = hint_[i];
      uint32_t p = h != kNil && nodes_[h].e.before(e) ? h : head;
      while (nodes_[nodes_[p].next].e.before(e)) p = nodes_[p].next;  // stops before the tail: e is before it
      nodes_[n].next = nodes_[p].next;
      nodes_[p].next = n;
      hint_[i] = n;
    }
  }
  // The earliest event, or null.
  const Entry* peek() const {
    const Entry* near = nullptr;
    if (near_n_) {
      // Every waiting bucket is within kBuckets of now's: the first set bit
      // from now's bucket on, wrapping around.
      const size_t start = size_t(now_bucket_) & (kBuckets - 1);
      size_t w = start >> 6;
      uint64_t bits = bits_[w] & (~uint64_t(0) << (start & 63));
      while (!bits) {  // back at start's word after a full turn: its bits before start (they were checked after)
        w = (w + 1) & (kBuckets / 64 - 1);
        bits = bits_[w];
      }
      const size_t i = (w << 6) | size_t(__builtin_ctzll(bits));
      near = &nodes_[head_[i]].e;
    }
    if (far_.empty()) return near;
    if (!near || far_[0].before(*near)) return &far_[0];
    return near;
  }
  // Removes the event peek() returned.
  void take(const Entry* e) {
    if (!far_.empty() && e == &far_[0]) {
      pop_far();
      return;
    }
    const size_t i = size_t(e->t >> kBucketShift) & (kBuckets - 1);
    const uint32_t n = head_[i];
    head_[i] = nodes_[n].next;
    if (hint_[i] == n) hint_[i] = kNil;  // the hint is always an event of its bucket
    if (head_[i] == kNil) {
      tail_[i] = kNil;
      bits_[i >> 6] &= ~(uint64_t(1) << (i & 63));
    } else {
      __builtin_prefetch(nodes_[head_[i]].e.item);  // most likely the next event's packet or port
    }
    free_nodes_.push_back(n);
    --near_n_;
  }

  // The far events: a 4-ary min-heap on (t, key).
  void push_far(const Entry& e) {
    far_.push_back(e);
    size_t i = far_.size() - 1;
    while (i > 0) {
      const size_t parent = (i - 1) / 4;
      if (!e.before(far_[parent])) break;
      far_[i] = far_[parent];
      i = parent;
    }
    far_[i] = e;
  }
  void pop_far() {
    const Entry e = far_.back();
    far_.pop_back();
    if (far_.empty()) return;
    const size_t n = far_.size();
    size_t i = 0;
    for (;;) {
      const size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      const size_t last = first + 4 < n ? first + 4 : n;
      for (size_t c = first + 1; c < last; ++c) best = far_[c].before(far_[best]) ? c : best;
      if (!far_[best].before(e)) break;
      far_[i] = far_[best];
      i = best;
    }
    far_[i] = e;
  }

  std::vector<Node> nodes_;
  std::vector<uint32_t> free_nodes_;
  std::vector<uint32_t> head_ = std::vector<uint32_t>(kBuckets, kNil), tail_ = std::vector<uint32_t>(kBuckets, kNil);
  std::vector<uint32_t> hint_ = std::vector<uint32_t>(kBuckets, kNil);
  std::vector<uint64_t> bits_ = std::vector<uint64_t>(kBuckets / 64, 0);
  size_t near_n_ = 0;
  uint64_t now_bucket_ = 0;
  std::vector<Entry> far_;
  std::vector<Action> actions_;
  std::vector<uint32_t> free_;
  std::vector<Call> calls_;
  std::vector<uint32_t> free_calls_;
  std::vector<Lane> lanes_;
  uint64_t now_ = 0, seq_ = 0, executed_ = 0;
  bool stopped_ = false;
};

}  // namespace dsh::net
