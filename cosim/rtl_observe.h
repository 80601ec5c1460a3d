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

// Each lane (dsh_mmu's gen_lanes[l].u_lane, a dsh_lane) holds the records
// and counters of its ports: dsh_rec_store (u_store): records, valid bits
// and state bits; dsh_stats (gen_stats.u_stats, with Stats = 1 only): the
// counters' memories (dsh_cnt_ram) and their valid bits. Verilator inlines
// the one lane of a one-lane chip into the root (its signals are root
// members named with the whole path) and keeps several lanes as instances
// of one class that the root points to, one pointer per lane. A flattened
// model (--flatten, the coverage build) has every lane's signals as root
// members named with the whole path.
#define DSH_LANE_PATH(l, path) dsh_mmu__DOT__gen_lanes__BRA__##l##__KET____DOT__u_lane__DOT__##path
#define DSH_LANE0_PATH(path) DSH_LANE_PATH(0, path)
#define DSH_LANE_PTR(l) __PVT__dsh_mmu__DOT__gen_lanes__BRA__##l##__KET____DOT__u_lane
// M(l) for every lane index a chip may have (NumLanes <= 64).
#define DSH_LANES10(M, a) M(a##0) M(a##1) M(a##2) M(a##3) M(a##4) M(a##5) M(a##6) M(a##7) M(a##8) M(a##9)
#define DSH_FOR_LANES(M)                                                                                        \
  M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) DSH_LANES10(M, 1) DSH_LANES10(M, 2) DSH_LANES10(M, 3)      \
  DSH_LANES10(M, 4) DSH_LANES10(M, 5) M(60) M(61) M(62) M(63)

// A queue's entry in a lane's memories: queue-major (spec §9.7), by the
// port's index within its lane.
inline unsigned queue_entry(unsigned port, unsigned queue, unsigned n_ports) { return queue * n_ports + port; }

// The lane class of a chip with several lanes (void with one).
template <class R, class = void>
struct LaneOf {
  using type = void;
};
template <class R>
struct LaneOf<R, std::void_t<decltype(std::declval<const R&>().DSH_LANE_PTR(0))>> {
  using type = std::remove_pointer_t<decltype(std::declval<const R&>().DSH_LANE_PTR(0))>;
};

// Whether a build has the statistics counters (dsh_mmu's Stats), and
// which arrangement of the PAUSE counters (dsh_stats's PauseBanks and
// scheme): asked of the inlined lane's root or of the lane class.
#define DSH_OBS_HAS(trait, path)                                                                       \
  template <class R, class = void>                                                                     \
  struct trait##Root : std::false_type {};                                                             \
  template <class R>                                                                                   \
  struct trait##Root<R, std::void_t<decltype(std::declval<const R&>().DSH_LANE0_PATH(path))>>          \
      : std::true_type {};                                                                             \
  template <class L, class = void>                                                                     \
  struct trait##Lane : std::false_type {};                                                             \
  template <class L>                                                                                   \
  struct trait##Lane<L, std::void_t<decltype(std::declval<const L&>().path)>> : std::true_type {};     \
  template <class R>                                                                                   \
  inline constexpr bool trait = [] {                                                                   \
    if constexpr (std::is_void_v<typename LaneOf<R>::type>) return trait##Root<R>::value;              \
    else return trait##Lane<typename LaneOf<R>::type>::value;                                          \
  }();
DSH_OBS_HAS(HasStats, gen_stats__DOT__u_stats__DOT__u_drops__DOT__mem_q)
DSH_OBS_HAS(HasPause2Slot, gen_stats__DOT__u_stats__DOT__gen_qpause_2slot__DOT__u_qpause__DOT__mem_q)
DSH_OBS_HAS(HasPauseDeqBank, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__gen_deq_bank__DOT__u_qpause_deq__DOT__mem_q)
#undef DSH_OBS_HAS

// Lane l's pointer in the root, nullptr where the chip has no lane l.
#define DSH_LANE_AT(l)                                                                    \
  template <class R>                                                                      \
  auto lane_at_##l(const R* r, int) -> decltype(r->DSH_LANE_PTR(l)) {                     \
    return r->DSH_LANE_PTR(l);                                                            \
  }                                                                                       \
  template <class R>                                                                      \
  std::nullptr_t lane_at_##l(const R*, long) {                                            \
    return nullptr;                                                                       \
  }
DSH_FOR_LANES(DSH_LANE_AT)
#undef DSH_LANE_AT

// The lanes' pointers of a chip with several lanes; their count.
template <class R, class L>
unsigned collect_lanes(const R* r, const L** out) {
  unsigned n = 0;
  auto add = [&](auto p) {
    if constexpr (!std::is_same_v<decltype(p), std::nullptr_t>) out[n++] = p;
  };
#define DSH_ADD(l) add(lane_at_##l(r, 0));
  DSH_FOR_LANES(DSH_ADD)
#undef DSH_ADD
  return n;
}

// The signals the accessors below read, by their path within dsh_lane: the
// records, the counters (Stats = 1) and the PAUSE counters' arrangements.
#define DSH_STORE_SIGNALS(X, l)                                                                                 \
  X(l, u_store__DOT__qvalid_q) X(l, u_store__DOT__qoff_q) X(l, u_store__DOT__occ_h_q) X(l, u_store__DOT__occ_hs_q) \
  X(l, u_store__DOT__occ_hsp_q) X(l, u_store__DOT__pvalid_q) X(l, u_store__DOT__poff_q)                         \
  X(l, u_store__DOT__port_shared_q) X(l, u_store__DOT__port_hdrm_q)
#define DSH_STATS_SIGNALS(X, l)                                                                                 \
  X(l, gen_stats__DOT__u_stats__DOT__u_drops__DOT__valid_q) X(l, gen_stats__DOT__u_stats__DOT__u_drops__DOT__mem_q) \
  X(l, gen_stats__DOT__u_stats__DOT__u_ppause__DOT__valid_q) X(l, gen_stats__DOT__u_stats__DOT__u_ppause__DOT__mem_q)
#define DSH_PAUSE2SLOT_SIGNALS(X, l)                                                                            \
  X(l, gen_stats__DOT__u_stats__DOT__gen_qpause_2slot__DOT__u_qpause__DOT__valid_q)                                 \
  X(l, gen_stats__DOT__u_stats__DOT__gen_qpause_2slot__DOT__u_qpause__DOT__mem_q)
#define DSH_PAUSEBANK_SIGNALS(X, l)                                                                             \
  X(l, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__u_qpause__DOT__valid_q)                                  \
  X(l, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__u_qpause__DOT__mem_q)
#define DSH_PAUSEDEQ_SIGNALS(X, l)                                                                              \
  X(l, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__gen_deq_bank__DOT__u_qpause_deq__DOT__valid_q)             \
  X(l, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__gen_deq_bank__DOT__u_qpause_deq__DOT__mem_q)

// A flattened model's lane: the address of each signal read, nullptr where
// the build has no such signal. Every lane has lane 0's types.
struct FlatLane {
#define DSH_MEMBER(l, path) const void* path = nullptr;
  DSH_STORE_SIGNALS(DSH_MEMBER, _) DSH_STATS_SIGNALS(DSH_MEMBER, _) DSH_PAUSE2SLOT_SIGNALS(DSH_MEMBER, _)
  DSH_PAUSEBANK_SIGNALS(DSH_MEMBER, _) DSH_PAUSEDEQ_SIGNALS(DSH_MEMBER, _)
#undef DSH_MEMBER
};

// Whether a flattened root has lane 1: a model with several lanes, flattened.
template <class R, class = void>
struct HasFlatLane1 : std::false_type {};
template <class R>
struct HasFlatLane1<R, std::void_t<decltype(std::declval<const R&>().DSH_LANE_PATH(1, u_store__DOT__qvalid_q))>>
    : std::true_type {};

// Lane l's entry of a flattened root: fills *t and says true, or false
// where the chip has no lane l.
#define DSH_FLAT_LANE_AT(l)                                                                                     \
  template <class R>                                                                                            \
  auto flat_lane_at_##l(const R* r, FlatLane* t, int)                                                           \
      -> decltype(void(r->DSH_LANE_PATH(l, u_store__DOT__qvalid_q)), true) {                                    \
    DSH_FILL_LANE(l)                                                                                            \
    return true;                                                                                                \
  }                                                                                                             \
  template <class R>                                                                                            \
  bool flat_lane_at_##l(const R*, FlatLane*, long) {                                                            \
    return false;                                                                                               \
  }
#define DSH_FILL_LANE(l)                                                                                        \
  DSH_STORE_SIGNALS(DSH_FILL, l)                                                                                \
  if constexpr (HasStats<R>) {                                                                                  \
    DSH_STATS_SIGNALS(DSH_FILL, l)                                                                              \
    if constexpr (HasPause2Slot<R>) {                                                                           \
      DSH_PAUSE2SLOT_SIGNALS(DSH_FILL, l)                                                                       \
    } else {                                                                                                    \
      DSH_PAUSEBANK_SIGNALS(DSH_FILL, l)                                                                        \
      if constexpr (HasPauseDeqBank<R>) { DSH_PAUSEDEQ_SIGNALS(DSH_FILL, l) }                                   \
    }                                                                                                           \
  }
#define DSH_FILL(l, path) t->path = &r->DSH_LANE_PATH(l, path);
DSH_FOR_LANES(DSH_FLAT_LANE_AT)
#undef DSH_FILL
#undef DSH_FILL_LANE
#undef DSH_FLAT_LANE_AT

// The lanes of a flattened root with several lanes, in lane order; their count.
template <class R>
unsigned collect_flat_lanes(const R* r, FlatLane* out) {
  unsigned n = 0;
#define DSH_ADD(l) n += flat_lane_at_##l(r, &out[n], 0);
  DSH_FOR_LANES(DSH_ADD)
#undef DSH_ADD
  return n;
}

template <class Root>
struct Observe {
  using Lane = typename LaneOf<Root>::type;
  // Three arrangements: several lanes flattened into the root; one lane
  // inlined into the root; several lanes as instances.
  static constexpr bool kFlat = HasFlatLane1<Root>::value;
  static constexpr bool kInlined = std::is_void_v<Lane> && !kFlat;
  const Root* r = nullptr;
  // Several lanes as instances: each lane's instance, in lane order.
  const std::conditional_t<std::is_void_v<Lane>, char, Lane>* lanes[64] = {};
  // Several lanes flattened: each lane's signals, in lane order.
  std::conditional_t<kFlat, FlatLane, char> flat[64] = {};
  unsigned n_lanes = 1;

  void attach(const Root* root) {
    r = root;
    if constexpr (kFlat) n_lanes = collect_flat_lanes(root, flat);
    else if constexpr (!kInlined) n_lanes = collect_lanes(root, lanes);
  }

// A signal of lane `l` by its path within dsh_lane (a flattened lane's has
// lane 0's type).
#define DSH_OBS(l, path)                                                                                        \
  ([&]() -> decltype(auto) {                                                                                    \
    if constexpr (kInlined) return (r->DSH_LANE0_PATH(path));                                                   \
    else if constexpr (kFlat)                                                                                   \
      return (*static_cast<const decltype(r->DSH_LANE0_PATH(path))*>(flat[l].path));                            \
    else return (lanes[l]->path);                                                                               \
  }())

  // Queue i = queue_entry(lane-local port, queue, ports of a lane) of lane l.
  bool qvalid(unsigned l, unsigned i) const { return bit(DSH_OBS(l, u_store__DOT__qvalid_q), i); }
  bool qoff(unsigned l, unsigned i) const { return bit(DSH_OBS(l, u_store__DOT__qoff_q), i); }
  uint64_t occ_h(unsigned l, unsigned i) const { return DSH_OBS(l, u_store__DOT__occ_h_q)[i]; }
  uint64_t occ_hs(unsigned l, unsigned i) const { return DSH_OBS(l, u_store__DOT__occ_hs_q)[i]; }
  uint64_t occ_hsp(unsigned l, unsigned i) const { return DSH_OBS(l, u_store__DOT__occ_hsp_q)[i]; }
  bool pvalid(unsigned l, unsigned p) const { return bit(DSH_OBS(l, u_store__DOT__pvalid_q), p); }
  bool poff(unsigned l, unsigned p) const { return bit(DSH_OBS(l, u_store__DOT__poff_q), p); }
  uint64_t port_shared(unsigned l, unsigned p) const { return DSH_OBS(l, u_store__DOT__port_shared_q)[p]; }
  uint64_t port_hdrm(unsigned l, unsigned p) const { return DSH_OBS(l, u_store__DOT__port_hdrm_q)[p]; }
  // The counters: 0 in a build without them. A counter memory (dsh_cnt_ram)
  // holds a value and a valid bit per entry; an entry not valid reads 0.
  static constexpr bool kStats = HasStats<Root>;
#define DSH_OBS_COUNT(l, mem, i) \
  (bit(DSH_OBS(l, mem##__DOT__valid_q), i) ? uint64_t(DSH_OBS(l, mem##__DOT__mem_q)[i]) : uint64_t(0))
  uint64_t drops(unsigned l, unsigned i) const {
    if constexpr (kStats) return DSH_OBS_COUNT(l, gen_stats__DOT__u_stats__DOT__u_drops, i);
    else return 0;
  }
  // The PAUSE counts, modulo 2^CntW once masked: one memory with two
  // counting slots, or (PauseBanks = 2) a bank per slot, added.
  uint64_t qpauses(unsigned l, unsigned i) const {
    if constexpr (!kStats) {
      return 0;
    } else if constexpr (HasPause2Slot<Root>) {
      return DSH_OBS_COUNT(l, gen_stats__DOT__u_stats__DOT__gen_qpause_2slot__DOT__u_qpause, i);
    } else {
      uint64_t n = DSH_OBS_COUNT(l, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__u_qpause, i);
      if constexpr (HasPauseDeqBank<Root>)
        n += DSH_OBS_COUNT(l, gen_stats__DOT__u_stats__DOT__gen_qpause_bank__DOT__gen_deq_bank__DOT__u_qpause_deq, i);
      return n;
    }
  }
  uint64_t ppauses(unsigned l, unsigned p) const {
    if constexpr (kStats) return DSH_OBS_COUNT(l, gen_stats__DOT__u_stats__DOT__u_ppause, p);
    else return 0;
  }
#undef DSH_OBS_COUNT
#undef DSH_OBS
};

#undef DSH_PAUSEDEQ_SIGNALS
#undef DSH_PAUSEBANK_SIGNALS
#undef DSH_PAUSE2SLOT_SIGNALS
#undef DSH_STATS_SIGNALS
#undef DSH_STORE_SIGNALS
#undef DSH_FOR_LANES
#undef DSH_LANES10
#undef DSH_LANE_PTR
#undef DSH_LANE0_PATH
#undef DSH_LANE_PATH

}  // namespace dsh::rtl_observe
