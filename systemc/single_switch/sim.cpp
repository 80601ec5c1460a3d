// SPDX-License-Identifier: Apache-2.0
#include "sim.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

#include "capture.h"
#include "child_process.h"
#include "mmu_model.h"
#include "single_switch.h"
#include "tlm_netlist.h"

namespace dsh::sc {

namespace {


std::vector<unsigned> traced_ports(const Params& p) {
  std::vector<unsigned> v;
  for (int h : p.background_srcs) v.push_back(p.port_of(h));
  for (int h : p.fanin_srcs) v.push_back(p.port_of(h));
  return v;
}

// sc_trace of the switch's mirrors and each traced host's pause state.
void trace_to(sc_core::sc_trace_file* tf, SingleSwitch& sw, const std::vector<unsigned>& ports) {
  SwitchTrace& t = sw.trace();
  sc_core::sc_trace(tf, t.s, "mmu.S");
  sc_core::sc_trace(tf, t.t, "mmu.T");
  sc_core::sc_trace(tf, t.x_qoff, "mmu.X_qoff");
  sc_core::sc_trace(tf, t.x_qon, "mmu.X_qon");
  sc_core::sc_trace(tf, t.x_poff, "mmu.X_poff");
  sc_core::sc_trace(tf, t.x_pon, "mmu.X_pon");
  for (unsigned p : ports) {
    const int cls = t.cls[p];
    if (cls < 0) continue;
    char name[16];
    std::snprintf(name, sizeof name, "port%02u", p);
    const std::string n = name;
    sc_core::sc_trace(tf, t.q_cells[p], n + ".q_cells");
    sc_core::sc_trace(tf, t.q_shared[p], n + ".q_shared");
    sc_core::sc_trace(tf, t.q_hdrm[p], n + ".q_hdrm");
    sc_core::sc_trace(tf, t.port_shared[p], n + ".port_shared");
    sc_core::sc_trace(tf, t.port_hdrm[p], n + ".port_hdrm");
    sc_core::sc_trace(tf, t.qoff[p], n + ".qoff");
    sc_core::sc_trace(tf, t.poff[p], n + ".poff");
    sc_core::sc_trace(tf, sw.nic(p).pause.seen[size_t(cls)], n + ".tx_pause");
  }
}

uint64_t burst_cells(const Params& p, uint64_t burst_bytes) {
  const uint64_t m = p.fanin_srcs.size() * p.fanin_classes.size(), each = std::max<uint64_t>(1, burst_bytes / m);
  const uint64_t per_flow = each / p.packet_bytes * p.cells_per_packet() + cells_of(each % p.packet_bytes, p.cell_bytes);
  return per_flow * m;
}

// Wire format: Metrics (same binary), then "error\0note".
std::string encode(const PointResult& r) {
  std::string s(reinterpret_cast<const char*>(&r.m), sizeof r.m);
  return s + r.error + '\0' + r.note;
}

PointResult decode(const PointSpec& spec, const std::string& buf, int status) {
  PointResult r;
  r.spec = spec;
  if (buf.size() < sizeof r.m) {
    std::ostringstream m;
    if (WIFSIGNALED(status)) m << "point process killed by signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status)) << ")";
    else m << "point process exited with status " << WEXITSTATUS(status) << " without a result";
    r.error = m.str();
    return r;
  }
  std::memcpy(&r.m, buf.data(), sizeof r.m);
  const std::string rest = buf.substr(sizeof r.m);
  const auto z = rest.find('\0');
  r.error = rest.substr(0, z);
  if (z != std::string::npos) r.note = rest.substr(z + 1);
  return r;
}

}  // namespace

namespace {

// Closes a point's VCD, converts it to FST (vcd2fst) and writes the .gtkw;
// the note printed about them.
std::string close_trace(sc_core::sc_trace_file* tf, const Params& p, const std::string& stem, uint64_t end_ps) {
  std::string note;
  sc_core::sc_close_vcd_trace_file(tf);
  const std::string vcd = stem + ".vcd", fst = stem + ".fst";
  const std::string cmd = "vcd2fst '" + vcd + "' '" + fst + "' > /dev/null 2>&1";
  if (std::system(cmd.c_str()) == 0) {
    std::remove(vcd.c_str());
    std::ofstream(stem + ".gtkw") << gtkw_text(p, fst, end_ps);
    note = "trace: " + fst + " (gtkwave " + stem + ".gtkw)";
  } else {
    std::ofstream(stem + ".gtkw") << gtkw_text(p, vcd, end_ps);
    note = "trace: " + vcd + " (vcd2fst failed; gtkwave " + stem + ".gtkw)";
  }
  note += "\nMMU stimulus: " + stem + ".stim.csv (dsh-replay FILE -b rtl --fst F: every RTL signal)";
  return note;
}

}  // namespace

PointResult run_point(const Params& p, const PointSpec& s) {
  PointResult r;
  r.spec = s;
  Metrics& m = r.m;
  m.scheme = int(s.scheme);
  m.refine = s.refine;
  m.burst_pct = s.burst_pct;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const Config cfg = p.mmu_config(s.scheme);
    net::SwitchMmuSpec spec;
    spec.mmu = cfg;
    spec.backend = p.backend;
    spec.rtl_variant = p.rtl_variant;
    spec.rtl_fault = p.rtl_fault;
    spec.lockstep.full_compare = p.full_compare;
    spec.lockstep.fst_dir = s.out_dir;
    spec.lockstep.fst_stem = std::string("mismatch_") + lower_name(s.scheme);
    char tag[64];
    std::snprintf(tag, sizeof tag, "scheme=%s burst_pct=%g", to_string(s.scheme), s.burst_pct);
    spec.lockstep.tag = tag;
    std::unique_ptr<MmuModel> model = net::make_switch_mmu(spec);
    // The switch sees the pipelined RTL's decision latency with every
    // backend: the golden model gets it from the MMU clock (mmu_clock.h).
    // A traced point also writes the MMU's inputs as stimulus vectors, which
    // dsh-replay runs through the RTL alone (a waveform of every RTL signal,
    // the power flow's S1 activity: scripts/synth/power.py).
    std::ofstream stim;
    if (!s.trace_stem.empty()) {
      stim.open(s.trace_stem + ".stim.csv");
      if (!stim) throw InputError("cannot write " + s.trace_stem + ".stim.csv");
      model = make_recording(std::move(model), stim);
    }
    m.burst_bytes = p.kind == Kind::PfcAvoidance ? p.burst_bytes(s.burst_pct) : 0;
    m.burst_cells = p.kind == Kind::PfcAvoidance ? burst_cells(p, m.burst_bytes) : 0;
    SingleSwitch sw(p, std::move(model));
    sw.add_scenario_flows(m.burst_bytes);
    const bool tracing = !s.trace_stem.empty();
    if (tracing) sw.trace_ports(traced_ports(p));
    sw.arm();
    std::unique_ptr<net::Capture> capture;
    if (!s.pcap.empty()) capture = std::make_unique<net::Capture>(sw.fabric(), s.pcap, p.wire.capture_links);
    // A waveform needs SystemC time: --trace runs on the SystemC kernel.
    std::unique_ptr<tlmnet::Netlist> netlist;
    if (tracing || p.kernel == net::Kernel::SystemC) netlist = std::make_unique<tlmnet::Netlist>(sw.fabric());
    sc_core::sc_trace_file* tf = nullptr;
    if (tracing) {
      tf = sc_core::sc_create_vcd_trace_file(s.trace_stem.c_str());
      tf->set_time_unit(1, sc_core::SC_PS);
      trace_to(tf, sw, traced_ports(p));
    }
    net::Fabric& fab = sw.fabric();
    fab.run(~uint64_t(0));
    std::string error = fab.error;
    if (error.empty()) {  // the lockstep model checks the cycles still in flight
      try {
        sw.mmu().finish();
      } catch (const std::exception& e) {
        error = e.what();
      }
    }
    const uint64_t end_ps = sw.events().now();
    if (tf) r.note = close_trace(tf, p, s.trace_stem, end_ps);
    const net::SwitchStats& st = fab.stats(0);
    m.fanin_pause_us = sw.fanin_paused_us();
    m.fanin_pause_frames = sw.stats().fanin_pause_frames;
    m.pause_frames = st.pause_frames;
    m.resume_frames = st.resume_frames;
    m.drops = st.drops;
    m.peak_shared_cells = st.peak_s;
    m.peak_queue_hdrm_cells = sw.stats().peak_queue_hdrm;
    m.peak_port_hdrm_cells = sw.stats().peak_port_hdrm;
    for (const net::NetFlow& f : fab.flows())
      if (f.group == kFanin) {
        m.fanin_bytes_admitted += f.admitted;
        m.fanin_bytes_total += f.bytes;
        m.fanin_bytes_generated += f.generated;
        m.fanin_bytes_done += f.admitted + f.dropped;
      }
    m.sim_us = double(end_ps) / 1e6;
    m.fanin_start_us = sw.fanin_start_us();
    m.mmu_cycles = st.mmu_cycles;
    m.mmu_busy_cycles = st.mmu_busy_cycles;
    m.max_enq_wait_ns = double(st.max_enq_wait_ps) / 1e3;
    m.max_deq_wait_ns = double(st.max_deq_wait_ps) / 1e3;
    if (!error.empty()) {
      r.error = error;
      m.mismatch = dsh::is_lockstep_report(error);
    }
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

PointResult run_point_isolated(const Params& p, const PointSpec& s) {
  PointResult out;
  bool got = false;
  std::optional<PointSpec> once = s;
  run_points(
      p, 1, [&]() { auto o = once; once.reset(); return o; },
      [&](const PointResult& r) {
        out = r;
        got = true;
      });
  if (!got) out.error = "point did not run";
  return out;
}

bool interrupted() { return pool_interrupted(); }

std::string stimulus_fault(const Params& p, const Metrics& m) {
  if (p.kind != Kind::PfcAvoidance) return "";
  char b[512];
  if (m.fanin_bytes_generated == 0) {
    std::snprintf(b, sizeof b,
                  "the fan-in never started: it waits for traffic.settle_us = %g us and for every background queue "
                  "(traffic.background_srcs) to pause once, and the background never got there within "
                  "traffic.max_run_us = %g us (%llu PAUSE frames in all, %llu drops); the point measured nothing",
                  p.settle_us, p.max_run_us, (unsigned long long)m.pause_frames, (unsigned long long)m.drops);
    return b;
  }
  if (m.fanin_bytes_total && m.fanin_bytes_done < m.fanin_bytes_total) {
    std::snprintf(b, sizeof b,
                  "the fan-in did not finish: %llu of %llu burst bytes admitted or dropped by traffic.max_run_us = %g us",
                  (unsigned long long)m.fanin_bytes_done, (unsigned long long)m.fanin_bytes_total, p.max_run_us);
    return b;
  }
  return "";
}

bool run_points(const Params& p, unsigned jobs, const std::function<std::optional<PointSpec>()>& next,
                const std::function<void(const PointResult&)>& done) {
  std::vector<PointSpec> specs;  // by task number
  return run_pool(
      jobs,
      [&]() -> std::optional<PoolTask> {
        const auto s = next();
        if (!s) return std::nullopt;
        specs.push_back(*s);
        const Params& q = s->params ? *s->params : p;
        return PoolTask{[&q, s] { return encode(run_point(q, *s)); },
                        s->trace_stem.empty() ? "" : s->trace_stem + ".vcd"};
      },
      [&](size_t task, const std::string& out, int status) {
        const PointResult r = decode(specs[task], out, status);
        done(r);
        return r.ok();  // the first failure stops the others; their results are dropped
      });
}

// Groups: MMU thresholds, then per group of ports (background, fan-in) the
// occupancies and the pause states.
std::string gtkw_text(const Params& p, const std::string& fst_path, uint64_t end_ps) {
  std::ostringstream g;
  // Zoom -25.6 shows 260 us across a 1600 px window; one step halves the span.
  const double zoom = -25.6 - std::log2(std::max(1.0, double(end_ps)) / 2.6e8);
  g << "[*] GTKWave save file written by dsh-sim\n"
    << "[dumpfile] \"" << fst_path << "\"\n"
    << "[timestart] 0\n[size] 1600 1000\n*" << zoom << " 0\n"
    << "[signals_width] 260\n[sst_expanded] 1\n[sst_vpaned_height] 300\n";
  const char* kDec = "@24\n";                // decimal, right-justified
  const char* kAnalog = "@8024\n";           // + analog step
  const char* kBit = "@28\n";
  auto begin = [&](const std::string& name) { g << "@800200\n-" << name << "\n"; };
  auto end = [&](const std::string& name) { g << "@1000200\n-" << name << "\n"; };
  // Aliases without dots: GTKWave shortens a dotted name to its last part.
  auto alias = [](std::string s) {
    std::replace(s.begin(), s.end(), '.', ' ');
    return "+{" + s + "} ";
  };
  auto analog = [&](const std::string& sig) { g << kAnalog << alias(sig) << "SystemC." << sig << "[63:0]\n@20000\n-\n-\n"; };
  begin("MMU thresholds (cells)");
  for (const char* s : {"mmu.S", "mmu.T", "mmu.X_qoff", "mmu.X_qon", "mmu.X_poff", "mmu.X_pon"}) analog(s);
  end("MMU thresholds (cells)");
  auto port_group = [&](const std::string& title, const std::vector<int>& hosts) {
    if (hosts.empty()) return;
    begin(title + " occupancy (cells)");
    for (int h : hosts) {
      char n[16];
      std::snprintf(n, sizeof n, "port%02u", p.port_of(h));
      analog(std::string(n) + ".q_cells");
      g << kDec;
      for (const char* f : {"q_hdrm", "port_hdrm"})
        g << alias(std::string(n) + "." + f) << "SystemC." << n << "." << f << "[63:0]\n";
    }
    end(title + " occupancy (cells)");
    begin(title + " pause states");
    for (int h : hosts) {
      char n[16];
      std::snprintf(n, sizeof n, "port%02u", p.port_of(h));
      g << kBit;
      for (const char* f : {"qoff", "poff", "tx_pause"}) g << alias(std::string(n) + "." + f) << "SystemC." << n << "." << f << "\n";
    }
    end(title + " pause states");
  };
  port_group("background", p.background_srcs);
  port_group("fan-in", p.fanin_srcs);
  return g.str();
}

}  // namespace dsh::sc
