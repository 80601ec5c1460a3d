// SPDX-License-Identifier: Apache-2.0
#include "watchdog_keys.h"

#include <cmath>

#include "input.h"

namespace dsh::net {

using sc::bool_key, sc::choice_key, sc::real_key, sc::text_key, sc::uint_key;

void declare_watchdog_keys(sc::KeyStore& k) {
  using W = WatchdogKeys;
  k.bind(bool_key("watchdog.enable", "false",
                  "frame mode: every switch port runs the PFC watchdog on its peer's PFC frames (spec §6.9)"),
         &W::enable);
  k.bind(real_key("watchdog.poll_us", 0, 1e9, true, "100000", "the watchdogs' poll interval (100 ms: spec §6.6's example)"),
         &W::poll_us);
  k.bind(real_key("watchdog.detect_us", 0, 1e9, true, "200000",
                  "a class paused by a PFC storm this long is in a storm; a whole number of polls (SONiC: 200 ms)"),
         &W::detect_us);
  k.bind(real_key("watchdog.restore_us", 0, 1e9, true, "200000",
                  "a storm ends after this long without a PFC frame; a whole number of polls (SONiC: 200 ms)"),
         &W::restore_us);
  k.bind(choice_key("watchdog.action", {"drop", "forward", "alert"}, "drop",
                    "during a storm: drop (ignore the class's pauses, drop its packets for the port) | forward "
                    "(ignore its pauses) | alert (count only)"),
         &W::action);
  using S = StormKeys;
  k.bind(text_key("storm.host", "", "frame mode: this host's NIC storms (sends PFC frames on its own); empty: none"),
         &S::host);
  k.bind(uint_key("storm.class", 0, 6, "0", "the class the storm pauses"), &S::cls);
  k.bind(real_key("storm.start_us", 0, 1e9, false, "0", "the storm's first frame"), &S::start_us);
  k.bind(real_key("storm.stop_us", 0, 1e9, false, "0", "the storm ends (an XON frame, then silence); 0: never"),
         &S::stop_us);
  k.bind(real_key("storm.interval_us", 0, 1e6, true, "1", "a storm frame this often"), &S::interval_us);
}

namespace {

uint64_t ps(double us) { return uint64_t(std::llround(us * 1e6)); }

// A time as whole polls.
uint32_t polls(const sc::KeyStore& k, const std::string& key, double us, double poll_us) {
  const double n = std::round(us / poll_us);
  if (n < 1 || std::fabs(n * poll_us - us) > 1e-6 * poll_us || n > 4294967295.0)
    k.refuse(key, "= " + k.text(key) + " us is not a whole number (1 or more) of watchdog.poll_us = " +
                      k.text("watchdog.poll_us") + " us" + k.where("watchdog.poll_us"));
  return uint32_t(n);
}

}  // namespace

void apply_watchdog_keys(const sc::KeyStore& k, const Topology& t, FabricParams& f) {
  WatchdogKeys w;
  k.fill(w);
  StormKeys s;
  k.fill(s);
  const bool frames = f.flow_control == FlowControlMode::Frames;
  const std::string level = "needs link.flow_control = frames, not " + k.text("link.flow_control") + k.where("link.flow_control");
  if (w.enable && !frames) k.refuse("watchdog.enable", level);
  // Filled when off too: a scenario may turn it on per run.
  f.watchdog.enable = w.enable;
  f.watchdog.poll_ps = ps(w.poll_us);
  f.watchdog.detect_polls = polls(k, "watchdog.detect_us", w.detect_us, w.poll_us);
  f.watchdog.restore_polls = polls(k, "watchdog.restore_us", w.restore_us, w.poll_us);
  f.watchdog.action = w.action == "drop" ? 0 : w.action == "forward" ? 1 : 2;
  if (!s.host.empty()) {
    if (!frames) k.refuse("storm.host", level);
    f.storm.host = t.host(s.host);
    if (f.storm.host < 0) k.refuse("storm.host", dsh::quoted(s.host) + " is not a host of net.hosts");
    if (s.stop_us != 0 && s.stop_us <= s.start_us)
      k.refuse("storm.stop_us", "must be above storm.start_us = " + k.text("storm.start_us") + " (or 0: never)");
    f.storm.cls = uint8_t(s.cls);
    f.storm.start_ps = ps(s.start_us);
    f.storm.stop_ps = s.stop_us == 0 ? kNoTime : ps(s.stop_us);
    f.storm.interval_ps = ps(s.interval_us);
  }
}

}  // namespace dsh::net
