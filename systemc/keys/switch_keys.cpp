// SPDX-License-Identifier: Apache-2.0
#include "switch_keys.h"

#include "input.h"
#include "rtl_facts.h"

namespace dsh::sc {

namespace {

bool uses_rtl(const KeyStore& k) { return k.text("run.backend") != "golden"; }

// The MMU rate of every scenario's chip where its file and --set name none
// (spec §7.2): lanes, dequeue slots a cycle, clock in GHz. The 32-port
// chip with a lane per port at 80 MHz, a clock the 32 x 7 RTL reaches at
// that lane count in sky130 tt (82.5 MHz DSH, 85.4 MHz SIH,
// docs/results/silicon.md).
struct ScenarioMmu {
  const char *lanes, *deq_per_cycle, *clock_ghz;
};
constexpr ScenarioMmu kScenarioMmu{"32", "32", "0.08"};

}  // namespace

void declare_switch_keys(KeyStore& k) {
  k.declare(text_key("scenario.name", "", "name of the outputs (out/<name>); default the kind"));
  // The file's kind picks the scenario (app/scenarios.h, which checks it).
  k.declare(text_key("scenario.kind", "pfc-avoidance",
                     "the scenario, chosen by the scenario file (dsh-sim --help lists the kinds)"));
  // [chip]: the MMU fields from the one field table, with its ranges and
  // defaults (spec §1.2); the scheme is the run's and per-port eta comes
  // from the links.
  for (const ConfigField& f : config_fields()) {
    const std::string name = f.name;
    if (name == "scheme" || name == "port_headroom_cells") continue;
    const std::string help = std::string(f.help) + (*f.unit ? ", " + std::string(f.unit) : "");
    if (name == "headroom_cells") {
      Key h = text_key("chip.headroom_cells", "auto",
                       "eta, cells: auto = spec §1.3 of each port's link plus the switch's admission wait and decision "
                       "latency (spec §7.2), or a number for every port");
      const int64_t lo = f.lo, hi = f.hi;
      h.check = [lo, hi](const std::string& v) {
        if (v != "auto") parse_uint("chip.headroom_cells", v, uint64_t(lo), uint64_t(hi));
      };
      k.declare(h);
      // "auto" is each port's, computed where the links are known.
      k.fills_with<Config>(h.name, [put = f.put](Config& c, const std::string& v) {
        if (v != "auto") put(c, int64_t(std::stoull(v)));
      });
      continue;
    }
    const std::string def = name == "lanes"           ? kScenarioMmu.lanes
                            : name == "deq_per_cycle" ? kScenarioMmu.deq_per_cycle
                                                      : f.default_text();
    k.declare(int_key("chip." + name, f.lo, f.hi, def, help));
    k.fills_with<Config>("chip." + name, [put = f.put](Config& c, const std::string& v) { put(c, std::stoll(v)); });
  }
  k.declare(uint_key("chip.cell_bytes", 16, 65536, "256", "bytes per buffer cell"));
  k.declare(real_key("chip.mmu_clock_ghz", 0, 100, true, kScenarioMmu.clock_ghz,
                     "MMU clock; a cycle takes an enqueue per lane (chip.lanes) and chip.deq_per_cycle dequeues"));
  k.declare(real_key("link.rate_gbps", 0, 100000, true, "100", "every link, Gb/s (a scenario may set some links apart)"));
  k.declare(real_key("link.prop_delay_ns", 0, 1e9, false, "2000", "every link, propagation delay D_prop"));
  k.declare(uint_key("link.mtu_bytes", 64, 9216, "1500", "MTU (headroom formula)"));
  k.declare(uint_key("link.processing_bytes", 64, 1 << 20, "3840",
                     "upstream reaction to a PAUSE frame, bytes at link rate, from its first bit (spec §7.1 item 3)"));
  k.declare(uint_key("link.pause_frame_bytes", 64, 1500, "64", "PFC frame on the wire, class 7"));
  k.declare(choice_key("link.flow_control", {"level", "frames"}, "level",
                       "how pauses cross a link: level (an event per frame, spec §6.2) | frames (PFC and PAUSE frames "
                       "with timers and refresh, spec §6.7)"));
  k.declare(uint_key("link.pause_quanta", 1, 0xFFFF, "65535",
                     "frame mode: the pause time a frame carries, quanta of 512 bit times"));
  k.declare(uint_key("link.refresh_quanta", 1, 0xFFFF, "32767",
                     "frame mode: a held pause is sent again this long after the last frame, quanta"));
  k.declare(uint_key("switch.dwrr_quantum_bytes", 1, 1 << 20, "1600", "DWRR quantum of the lossless classes"));
  k.declare(text_key("switch.dscp_to_queue", "",
                     "DSCP:queue pairs (e.g. 26:3,48:6) apart from the default DSCP d -> queue d/8 (spec §6.8)"));
  k.declare(text_key("traffic.class_dscp", "0,8,16,26,32,40,48",
                     "the DSCP a host marks on class 0..6's data packets (RoCEv2: 26 on class 3)"));
  k.declare(text_key("capture.links", "",
                     "--pcap: the links captured, A-B by node names, comma-separated; empty: every link"));
  k.declare(uint_key("traffic.packet_bytes", 64, 9216, "1500",
                     "data packet size, at most link.mtu_bytes (a flow's last packet may be shorter)"));
  k.declare(choice_key("run.backend", {"golden", "rtl", "lockstep"}, "lockstep",
                       "MMU backend: golden, the Verilated RTL, or both in lockstep"));
  k.declare(choice_key("run.kernel", {"events", "systemc"}, "events",
                       "what runs the model: its own event queue, or the SystemC kernel (TLM-2.0 netlist); the same "
                       "results"));
  k.declare(uint_key("run.jobs", 1, 256, "2", "points run in parallel, one process each"));
  k.declare(bool_key("run.full_compare", "false", "lockstep: compare every queue and port every cycle (slow)"));
  k.declare(uint_key("run.rtl_fault", 0, kRtlFaults, "0",
                     "rtl/lockstep: plant this fault of tb/faults/dsh_faults.sv in the RTL (0 none; the checker's self-test)"));
}

void check_switch_keys(const KeyStore& k) {
  if (k.u64("traffic.packet_bytes") > k.u64("link.mtu_bytes"))
    k.refuse("traffic.packet_bytes", "longer than link.mtu_bytes = " + k.text("link.mtu_bytes") + k.where("link.mtu_bytes"));
  if (k.u64("link.processing_bytes") < k.u64("link.pause_frame_bytes"))
    k.refuse("link.processing_bytes", "below link.pause_frame_bytes = " + k.text("link.pause_frame_bytes") +
                                          k.where("link.pause_frame_bytes") + "; the reaction counts from the frame's "
                                          "first bit");
  const std::string golden = "has no effect with run.backend = golden" + k.where("run.backend");
  if (!uses_rtl(k) && k.u64("run.rtl_fault") != 0) k.refuse("run.rtl_fault", golden + "; use rtl or lockstep");
  if (k.text("run.backend") != "lockstep" && k.flag("run.full_compare"))
    k.refuse("run.full_compare", "compares the RTL with the golden model: needs run.backend = lockstep, not " +
                                     k.text("run.backend") + k.where("run.backend"));
}

WireKeys wire_keys(const KeyStore& k) {
  WireKeys w;
  w.frames = k.text("link.flow_control") == "frames";
  w.pause_quanta = uint16_t(k.u64("link.pause_quanta"));
  w.refresh_quanta = uint16_t(k.u64("link.refresh_quanta"));
  for (unsigned d = 0; d < 64; ++d) w.dscp_queue[d] = uint8_t(d / 8);
  for (const std::string& pair : k.list("switch.dscp_to_queue")) {
    const size_t colon = pair.find(':');
    if (colon == std::string::npos) k.refuse("switch.dscp_to_queue", quoted(pair) + " is not DSCP:queue");
    const uint64_t d = parse_uint("switch.dscp_to_queue DSCP", pair.substr(0, colon), 0, 63);
    w.dscp_queue[d] = uint8_t(parse_uint("switch.dscp_to_queue queue", pair.substr(colon + 1), 0, 6));
  }
  const std::vector<std::string> marks = k.list("traffic.class_dscp");
  if (marks.size() != 7) k.refuse("traffic.class_dscp", "needs 7 DSCPs (classes 0..6), not " + std::to_string(marks.size()));
  for (unsigned c = 0; c < 7; ++c) {
    w.class_dscp[c] = uint8_t(parse_uint("traffic.class_dscp", marks[c], 0, 63));
    if (w.dscp_queue[w.class_dscp[c]] != c)
      k.refuse("traffic.class_dscp", "class " + std::to_string(c) + " marks DSCP " + std::to_string(w.class_dscp[c]) +
                                         ", which the switch puts in queue " +
                                         std::to_string(w.dscp_queue[w.class_dscp[c]]) + " (switch.dscp_to_queue = " +
                                         quoted(k.text("switch.dscp_to_queue")) + k.where("switch.dscp_to_queue") +
                                         "); a class's DSCP must name its own queue");
  }
  w.class_dscp[7] = 56;
  w.capture_links = k.text("capture.links");
  return w;
}

}  // namespace dsh::sc
