// SPDX-License-Identifier: Apache-2.0
// The one place that names dsh_mmu's internal state as Verilator flattens
// it. The C++ RTL backend (rtl_model.h) reads the records and counters
// through these accessors to compare every queue and port with the golden
// model each cycle; dsh_mmu_public.vlt makes the signals readable
// (public_flat_rd) without slowing the model. A renamed register in rtl/
// is mended here and nowhere else (tb/lint checks that no other C++ file
// names a Verilator-internal signal).
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

namespace dsh::rtl_observe {

// Bit i of a Verilated vector (an integer, or a VlWide of 32-bit words).
template <class T>
inline bool bit(const T& v, unsigned i) {
  if constexpr (std::is_integral_v<T>)
    return (uint64_t(v) >> i) & 1;
  else
    return (v[i / 32] >> (i % 32)) & 1;
}

// dsh_rec_store (u_store): records, valid bits and state bits; dsh_stats
// (g_stats.u_stats, with Stats = 1 only): the counters' memories
// (dsh_cnt_ram) and their valid bits.
#define DSH_OBS(r, path) ((r)->dsh_mmu__DOT__##path)

// A queue's entry in dsh_mmu's memories: queue-major (spec §9.7).
inline unsigned queue_entry(unsigned port, unsigned queue, unsigned n_ports) { return queue * n_ports + port; }

// Whether a build has the statistics counters (dsh_mmu's Stats), and
// which arrangement of the PAUSE counters (dsh_stats's PauseBanks and
// scheme).
#define DSH_OBS_HAS(trait, path)                                                                  \
  template <class R, class = void>                                                                \
  struct trait : std::false_type {};                                                              \
  template <class R>                                                                              \
  struct trait<R, std::void_t<decltype(std::declval<const R&>().dsh_mmu__DOT__##path)>> : std::true_type {};
DSH_OBS_HAS(HasStats, g_stats__DOT__u_stats__DOT__u_drops__DOT__mem_q)
DSH_OBS_HAS(HasPause2Slot, g_stats__DOT__u_stats__DOT__g_qpause_2slot__DOT__u_qpause__DOT__mem_q)
DSH_OBS_HAS(HasPauseDeqBank, g_stats__DOT__u_stats__DOT__g_qpause_bank__DOT__g_deq_bank__DOT__u_qpause_deq__DOT__mem_q)
#undef DSH_OBS_HAS

template <class Root>
struct Observe {
  const Root* r;
  // Queue i = queue_entry(port, queue, n_ports).
  bool qvalid(unsigned i) const { return bit(DSH_OBS(r, u_store__DOT__qvalid_q), i); }
  bool qoff(unsigned i) const { return bit(DSH_OBS(r, u_store__DOT__qoff_q), i); }
  uint64_t occ_h(unsigned i) const { return DSH_OBS(r, u_store__DOT__occ_h_q)[i]; }
  uint64_t occ_hs(unsigned i) const { return DSH_OBS(r, u_store__DOT__occ_hs_q)[i]; }
  uint64_t occ_hsp(unsigned i) const { return DSH_OBS(r, u_store__DOT__occ_hsp_q)[i]; }
  bool pvalid(unsigned p) const { return bit(DSH_OBS(r, u_store__DOT__pvalid_q), p); }
  bool poff(unsigned p) const { return bit(DSH_OBS(r, u_store__DOT__poff_q), p); }
  uint64_t port_shared(unsigned p) const { return DSH_OBS(r, u_store__DOT__port_shared_q)[p]; }
  uint64_t port_hdrm(unsigned p) const { return DSH_OBS(r, u_store__DOT__port_hdrm_q)[p]; }
  // The counters: 0 in a build without them.
  static constexpr bool kStats = HasStats<Root>::value;
  uint64_t drops(unsigned i) const {
    if constexpr (kStats)
      return bit(DSH_OBS(r, g_stats__DOT__u_stats__DOT__u_drops__DOT__valid_q), i)
                 ? DSH_OBS(r, g_stats__DOT__u_stats__DOT__u_drops__DOT__mem_q)[i] : 0;
    else
      return 0;
  }
  // The PAUSE counts, modulo 2^CntW once masked: one memory with two
  // counting slots, or (PauseBanks = 2) a bank per slot, added.
  uint64_t qpauses(unsigned i) const {
    if constexpr (!kStats) {
      return 0;
    } else if constexpr (HasPause2Slot<Root>::value) {
      return bit(DSH_OBS(r, g_stats__DOT__u_stats__DOT__g_qpause_2slot__DOT__u_qpause__DOT__valid_q), i)
                 ? DSH_OBS(r, g_stats__DOT__u_stats__DOT__g_qpause_2slot__DOT__u_qpause__DOT__mem_q)[i] : 0;
    } else {
      uint64_t n = bit(DSH_OBS(r, g_stats__DOT__u_stats__DOT__g_qpause_bank__DOT__u_qpause__DOT__valid_q), i)
                       ? DSH_OBS(r, g_stats__DOT__u_stats__DOT__g_qpause_bank__DOT__u_qpause__DOT__mem_q)[i] : 0;
      if constexpr (HasPauseDeqBank<Root>::value)
        n += bit(DSH_OBS(r, g_stats__DOT__u_stats__DOT__g_qpause_bank__DOT__g_deq_bank__DOT__u_qpause_deq__DOT__valid_q), i)
                 ? DSH_OBS(r, g_stats__DOT__u_stats__DOT__g_qpause_bank__DOT__g_deq_bank__DOT__u_qpause_deq__DOT__mem_q)[i]
                 : 0;
      return n;
    }
  }
  uint64_t ppauses(unsigned p) const {
    if constexpr (kStats)
      return bit(DSH_OBS(r, g_stats__DOT__u_stats__DOT__u_ppause__DOT__valid_q), p)
                 ? DSH_OBS(r, g_stats__DOT__u_stats__DOT__u_ppause__DOT__mem_q)[p] : 0;
    else
      return 0;
  }
};

#undef DSH_OBS

}  // namespace dsh::rtl_observe
