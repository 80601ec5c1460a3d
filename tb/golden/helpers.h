// SPDX-License-Identifier: Apache-2.0
// Shared helpers of the golden-model unit tests. Every expected number in the
// tests is worked out by hand from the specification (docs/spec/mmu.md); the
// comments next to each check show the calculation.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config.h"
#include "mmu.h"
#include "theory.h"

namespace tb {

using dsh::Config;
using dsh::CycleIn;
using dsh::CycleOut;
using dsh::Mmu;
using dsh::Op;
using dsh::Scheme;

// ---- building one cycle's input -------------------------------------------
inline Op op(uint32_t p, uint32_t q, uint32_t cells) {
  Op o;
  o.valid = true;
  o.port = p;
  o.queue = q;
  o.cells = cells;
  return o;
}
inline CycleIn enq(uint32_t p, uint32_t q, uint32_t cells) {
  CycleIn in;
  in.enq = op(p, q, cells);
  return in;
}
inline CycleIn deq(uint32_t p, uint32_t q, uint32_t cells) {
  CycleIn in;
  in.deq = op(p, q, cells);
  return in;
}
inline CycleIn deq_enq(const Op& d, const Op& e) {
  CycleIn in;
  in.deq = d;
  in.enq = e;
  return in;
}

// ---- the small configuration used by most tests ----------------------------
// 2 ports x 2 queues, B = 64 cells, phi = 2, eta = 6, alpha = 2^alpha_log2,
// X_poff = T << 1 (N_q = 2), delta_q = delta_p = 0, thresh_latency = L.
//   SIH: B_s = 64 - 2*2*2 (private) - 2*2*6 (headroom)  = 64 - 8 - 24 = 32
//   DSH: B_s = 64 - 2*2*2 (private) - 2*6   (insurance) = 64 - 8 - 12 = 44
// With alpha = 1/2 (the default here):
//   SIH: T(S) = (32 - S) >> 1, X_off = T, X_on = T - delta_q
//   DSH: T(S) = (44 - S) >> 1, X_qoff = T - 6, X_poff = 2T
inline Config small(Scheme s, int alpha_log2 = -1, unsigned latency = 1) {
  Config c;
  c.scheme = s;
  c.n_ports = 2;
  c.n_queues = 2;
  c.buffer_cells = 64;
  c.private_cells = 2;
  c.headroom_cells = 6;
  c.alpha_log2 = alpha_log2;
  c.port_mult_log2 = 1;
  c.delta_q = 0;
  c.delta_p = 0;
  c.thresh_latency = latency;
  return c;
}
// alpha = 2^-10 makes T = 32 >> 10 = 0 (SIH) or 44 >> 10 = 0 (DSH): every
// packet past the private buffer goes straight to headroom/insurance or drop.
inline Config tight(Scheme s) { return small(s, -10); }

// ---- readable views of outputs and state ----------------------------------
inline std::string region(const CycleOut& o) {
  switch (o.region) {
    case dsh::Region::None: return "-";
    case dsh::Region::Private: return "P";
    case dsh::Region::Shared: return "S";
    case dsh::Region::Headroom: return "H";
    case dsh::Region::Drop: return "D";
  }
  return "?";
}

inline std::string ev(const dsh::Event& e) {
  const char* k = e.kind == dsh::Event::Pause        ? "PAUSE"
                  : e.kind == dsh::Event::Resume     ? "RESUME"
                  : e.kind == dsh::Event::PortPause  ? "PORT_PAUSE"
                  : e.kind == dsh::Event::PortResume ? "PORT_RESUME"
                                                     : "?";
  std::string s = std::string(k) + " " + std::to_string(e.port);
  if (e.kind == dsh::Event::Pause || e.kind == dsh::Event::Resume) s += "." + std::to_string(e.queue);
  return s;
}

using Evs = std::vector<std::string>;
inline Evs events(const CycleOut& o) {
  Evs v;
  for (unsigned i = 0; i < o.n_events && i < o.events.size(); ++i) v.push_back(ev(o.events[i]));
  return v;
}

// "priv/shared/hdrm" of queue (p, q)
inline std::string occ(const Mmu& m, uint32_t p, uint32_t q) {
  const dsh::QueueState& s = m.queue(p, q);
  return std::to_string(s.priv) + "/" + std::to_string(s.shared) + "/" + std::to_string(s.hdrm);
}
// "port_shared/port_hdrm" of port p
inline std::string pocc(const Mmu& m, uint32_t p) {
  return std::to_string(m.port(p).shared) + "/" + std::to_string(m.port(p).hdrm);
}

inline void expect_invariants(const Mmu& m) {
  const std::vector<std::string> bad = m.check_invariants();
  for (const std::string& b : bad) ADD_FAILURE() << b;
}

// Message of the ConfigError that validate() throws; "" if it accepts.
inline std::string reject(const Config& c, const dsh::RtlWidths& w = dsh::RtlWidths{}) {
  try {
    c.validate(w);
  } catch (const dsh::ConfigError& e) {
    return e.what();
  }
  return "";
}
inline bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// ---- scenarios reused by several tests (each step commented) ---------------

// SIH, queue (0,0) paused with priv 2, shared 10, hdrm 2; S = 10.
inline Mmu sih_paused(Config c = small(Scheme::SIH)) {
  Mmu m(c);
  m.step(enq(0, 0, 2));  // c0: 0+2 <= phi=2 -> private
  m.step(enq(0, 0, 10)); // c1: T(S=0)=16; 10 <= 16, S+10 <= 32 -> shared, S=10
  m.step(enq(0, 0, 2));  // c2: T(S=10)=11; 10+2=12 > 11 -> headroom, PAUSE 0.0
  return m;
}

// SIH, queue (0,0) holding priv 2, shared 16 after a PAUSE and its headroom
// drained; S = 16, so T = (32-16)>>1 = 8 < omega: still QOFF.
inline Mmu sih_high(Config c = small(Scheme::SIH)) {
  Mmu m(c);
  m.step(enq(0, 0, 2));   // c0: private
  m.step(enq(0, 0, 16));  // c1: T(0)=16; 16 <= 16 -> shared, S=16
  m.step(enq(0, 0, 1));   // c2: T(16)=8; 17 > 8 -> headroom, PAUSE 0.0
  m.step(deq(0, 0, 1));   // c3: hdrm 1 -> 0; omega 16 > X_on (<= 8): stays QOFF
  return m;
}

// DSH, queue (0,0): priv 2, shared 20, QOFF; S = 20.
inline Mmu dsh_queue_paused(Config c = small(Scheme::DSH)) {
  Mmu m(c);
  m.step(enq(0, 0, 2));   // c0: private
  m.step(enq(0, 0, 20));  // c1: X_poff(0)=44: 20 <= 44, S=20 -> shared; 20 > X_qoff=16 -> PAUSE 0.0
  return m;
}

// DSH, (0,0) as above plus 5 cells of insurance, port 0 POFF; S = 20.
inline Mmu dsh_port_paused(Config c = small(Scheme::DSH)) {
  Mmu m = dsh_queue_paused(c);
  m.step(enq(0, 0, 5));   // c2: T(20)=12, X_poff=24; 20+5 > 24 -> insurance 5 <= 6, PORT_PAUSE 0
  return m;
}

}  // namespace tb
