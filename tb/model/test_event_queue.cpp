// SPDX-License-Identifier: Apache-2.0
// The event queue (systemc/model/event_queue.h) on its own: the order of
// events, lanes and reserved places, worked by hand.
#include <gtest/gtest.h>

#include <string>

#include "event_queue.h"

using namespace dsh;
using namespace dsh::net;

// The event queue's order, worked by hand: time, then phase, then the order
// of scheduling; a lane's events keep theirs among the rest; a reserved
// place (reserve_key) is taken by an event scheduled later, and one never
// taken leaves no trace.
TEST(NetEvents, OrderLanesAndReservedPlaces) {
  EventQueue ev;
  std::string log;
  auto mark = [&log](const char* what) { return [&log, what] { log += what; }; };
  const EventQueue::Handler h = [](void* l, void* what) { *static_cast<std::string*>(l) += static_cast<const char*>(what); };
  const uint32_t lane = ev.add_lane(h, &log);
  static const char a[] = "a", b[] = "b", c[] = "c", r[] = "R", x[] = "x";
  ev.at(2000, mark("M"), kPhaseMmu);    // phase MMU: after every normal event at 2000
  const uint64_t key = ev.reserve_key(kPhaseMmu);  // a place after M, before N
  ev.at(2000, mark("N"), kPhaseMmu);
  ev.lane_at(lane, 1000, const_cast<char*>(a));
  ev.lane_at(lane, 2000, const_cast<char*>(b));  // at 2000, scheduled after "1"
  ev.at(2000, mark("1"));
  ev.lane_at(lane, 3000, const_cast<char*>(c));
  ev.reserve_key();  // never taken: nothing runs in its place
  ev.at(1000, mark("0"));
  ev.call_at_key(2000, key, h, &log, const_cast<char*>(r));
  ev.call_at(3000, h, &log, const_cast<char*>(x));
  ev.run(~uint64_t(0));
  // 1000: lane a (scheduled first), then 0; 2000: lane b (scheduled before
  // 1), then 1, then the MMU phase: M, R in the place reserved before N was
  // scheduled, N; 3000: lane c (scheduled before x), then x.
  EXPECT_EQ(log, "a0b1MRNcx");
  EXPECT_EQ(ev.now(), 3000u);
}
