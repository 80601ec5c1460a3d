// SPDX-License-Identifier: Apache-2.0
// The Verilated dsh_mmu behind MmuModel: one instantiation per parameter set
// (the generated rtl_variant_*.cpp files include this with their own V).
// Inputs are driven before the rising edge; the registered outputs read after
// it are the results of the inputs driven kRtlLatency edges earlier. State is
// read through the accessors of rtl_observe.h.
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "mmu_model.h"
#include "rtl_coverage.h"
#include "rtl_fields.h"
#include "rtl_observe.h"

namespace dsh {

inline constexpr uint64_t kFstBlockCycles = 2048;

// Whether a Verilated model was built with FST tracing (the light builds
// are not, RtlOptions::light).
template <class V, class = void>
inline constexpr bool kTraced = false;
template <class V>
inline constexpr bool kTraced<V, std::void_t<decltype(std::declval<V&>().trace(static_cast<VerilatedFstC*>(nullptr), 0))>> =
    true;

template <class V>
class RtlModel final : public MmuModel, public RtlReadPort {
 public:
  // lanes, deq: the model's NumLanes and NumDeq, which the configuration's
  // lanes and deq_per_cycle must equal.
  RtlModel(const Config& c, const RtlWidths& w, const RtlOptions& o, const char* name, unsigned lanes = 1,
           unsigned deq = 1)
      : cfg_(c), name_(name), opt_(o), lanes_(lanes), deq_(deq), ctx_(std::make_unique<VerilatedContext>()) {
    cfg_.validate(w);
    if (cfg_.lanes != lanes || cfg_.deq_per_cycle != deq)
      throw ConfigError(std::string("RTL ") + name + " has " + std::to_string(lanes) + " lanes and " +
                        std::to_string(deq) + " dequeue slots; the configuration asks lanes = " +
                        std::to_string(cfg_.lanes) + ", deq_per_cycle = " + std::to_string(cfg_.deq_per_cycle));
    lane_bits_ = 0;
    while ((1u << lane_bits_) < lanes_) ++lane_bits_;
    lane_ports_ = cfg_.n_ports / lanes_;
    if (!has_stats() && o.fault == kRtlFaultCntBypass)
      throw ConfigError(std::string("fault ") + std::to_string(o.fault) +
                        " (FaultCntBypass) is planted in the statistics counters; RTL " + name +
                        " is built without them (Stats = 0): no fault to plant, choose another");
    port_w_ = rtl_index_bits(cfg_.n_ports);
    size_w_ = w.size_w;
    cnt_mask_ = w.cnt_w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w.cnt_w) - 1;
    queue_w_ = rtl_index_bits(cfg_.n_queues);
    ctx_->debug(0);
    ctx_->fatalOnError(false);  // an assertion failure is reported, not abort()ed
    // The planted faults bound into the RTL (tb/faults/dsh_faults.sv) read
    // +dsh_fault at time 0.
    const std::string arg = "+dsh_fault=" + std::to_string(o.fault);
    const char* argv[] = {arg.c_str()};
    ctx_->commandArgsAdd(1, argv);
    if (!o.fst_path.empty()) ctx_->traceEverOn(true);
    top_ = std::make_unique<V>(ctx_.get(), "tb");
    obs_.attach(top_->rootp);
    check_one_slot_ports();
    if (obs_.n_lanes != lanes_)
      throw ConfigError(std::string("RTL ") + name + ": the model has " + std::to_string(obs_.n_lanes) +
                        " lanes, its variant says " + std::to_string(lanes_));
    if (!o.fst_path.empty()) {
      if constexpr (!kTraced<V>)
        throw ConfigError(std::string("RTL ") + name + " is a light build, without trace: it cannot write " +
                          o.fst_path + " (choose the checked build, without _light)");
      tfp_ = std::make_unique<VerilatedFstC>();
      if constexpr (kTraced<V>) top_->trace(tfp_.get(), 99);
      tfp_->open(o.fst_path.c_str());
      if (!tfp_->isOpen()) throw std::runtime_error("cannot write FST trace " + o.fst_path);
    }
    top_->cfg_shared_cells_i = cfg_.shared_cells();
    top_->cfg_private_cells_i = cfg_.private_cells;
    // eta of each port (spec §9.1): the table, port p at bits [p*CellW, (p+1)*CellW).
    std::vector<uint64_t> eta(cfg_.n_ports);
    for (unsigned p = 0; p < cfg_.n_ports; ++p) eta[p] = cfg_.headroom_of(p);
    rtl_fields::set_fields(top_->cfg_headroom_cells_i, eta, w.cell_w);
    top_->cfg_alpha_log2_i = uint8_t(cfg_.alpha_log2) & 0x1f;
    top_->cfg_port_mult_log2_i = cfg_.port_mult_log2;
    top_->cfg_delta_q_i = cfg_.delta_q;
    top_->cfg_delta_p_i = cfg_.delta_p;
    top_->deq_valid_i = 0;
    top_->enq_valid_i = 0;
    top_->stat_rd_port_i = 0;
    top_->stat_rd_queue_i = 0;
    top_->clk_i = 0;
    top_->rst_ni = 0;
    top_->eval();
    for (int i = 0; i < 3; ++i) {  // reset fills the threshold pipeline; before t = 0, not traced
      top_->clk_i = 1;
      top_->eval();
      top_->clk_i = 0;
      top_->eval();
    }
    top_->rst_ni = 1;
    top_->eval();
    check_assertions();
  }

  ~RtlModel() override {
    if (tfp_) tfp_->close();
    top_->final();
    rtl_coverage::write(*ctx_);  // with DSH_COVERAGE and $DSH_COVERAGE_DIR
    // Verilator 5.006 unregisters scopes through the thread's current
    // context, which is whichever model was built last: make it ours.
    Verilated::threadContextp(ctx_.get());
    top_.reset();
  }

  const CycleOut& step(const CycleIn& in) override {
    if (multi()) {  // the enqueue in its port's lane's slot, the dequeue in slot 0 (spec §4.7)
      out_ = to_cycle_out(step_lanes(to_lane_in(in, lanes_)), lanes_);
      return out_;
    }
    if constexpr (kOneSlotPorts) step_one(in);
    return out_;
  }

 private:
  // Whether the one-slot ports fit integers (every one-lane chip; a chip
  // with lanes may have vectors wider than 64 bits, and runs step() as a
  // multi-event cycle).
  template <class T>
  static constexpr bool kInt = std::is_integral_v<std::remove_reference_t<T>>;  // the model's ports are references
  static constexpr bool kOneSlotPorts =
      kInt<decltype(V::enq_port_i)> && kInt<decltype(V::enq_cells_i)> && kInt<decltype(V::deq_port_i)> &&
      kInt<decltype(V::deq_cells_i)> && kInt<decltype(V::enq_queue_i)> && kInt<decltype(V::deq_queue_i)> &&
      kInt<decltype(V::stat_region_o)> && kInt<decltype(V::stat_qevt_port_o)> &&
      kInt<decltype(V::stat_qevt_queue_o)> && kInt<decltype(V::stat_pevt_port_o)>;
  // A one-lane chip always has them.
  void check_one_slot_ports() const {
    if (!multi() && !kOneSlotPorts)
      throw ConfigError(std::string("RTL ") + name_ + ": a one-lane model whose ports do not fit 64 bits");
  }

  void step_one(const CycleIn& in) {
    drive(in.deq, top_->deq_valid_i, top_->deq_port_i, top_->deq_queue_i, top_->deq_cells_i, "deq");
    drive(in.enq, top_->enq_valid_i, top_->enq_port_i, top_->enq_queue_i, top_->enq_cells_i, "enq");
    half_cycles();
    read_outputs();
    // The FST writer links each signal's changes through one buffer and
    // walks them when it writes a block: blocks of a few thousand cycles
    // stay in the cache and write the trace ~2x faster than one large one.
    if (dumping() && cycle_ % kFstBlockCycles == kFstBlockCycles - 1) tfp_->flush();
    ++cycle_;
    if (!asserted_ && ctx_->gotError()) {  // an RTL assertion failed: Verilator printed it
      asserted_ = true;
      throw RtlAssertionError("an RTL assertion failed at the clock edge of cycle " + std::to_string(cycle_ - 1) +
                              " (t=" + std::to_string(rtl_edge_ps(cycle_ - 1) / 1000) + " ns; its message is above)");
    }
  }

 public:

  // The multi-event cycle: every slot driven, deq_taken_o read for this
  // input (combinational, spec §4.8), the rest of the results those of the
  // input kRtlLatency cycles earlier.
  const LaneCycleOut& step_lanes(const LaneCycleIn& in) override {
    if (!multi()) return MmuModel::step_lanes(in);
    for (size_t l = lanes_; l < in.enq.size(); ++l)
      if (in.enq[l].valid) throw std::invalid_argument("enqueue slot " + std::to_string(l) + " beyond lanes");
    for (size_t k = deq_; k < in.deq.size(); ++k)
      if (in.deq[k].valid) throw std::invalid_argument("dequeue slot " + std::to_string(k) + " beyond deq_per_cycle");
    drive_slots(in.enq.data(), lanes_, top_->enq_valid_i, top_->enq_port_i, top_->enq_queue_i, top_->enq_cells_i,
                "enq");
    drive_slots(in.deq.data(), deq_, top_->deq_valid_i, top_->deq_port_i, top_->deq_queue_i, top_->deq_cells_i,
                "deq");
    half_cycles();  // deq_taken_o depends on the inputs only: still this cycle's after the edge
    read_lane_outputs();
    if (dumping() && cycle_ % kFstBlockCycles == kFstBlockCycles - 1) tfp_->flush();
    ++cycle_;
    if (!asserted_ && ctx_->gotError()) {
      asserted_ = true;
      throw RtlAssertionError("an RTL assertion failed at the clock edge of cycle " + std::to_string(cycle_ - 1) +
                              " (t=" + std::to_string(rtl_edge_ps(cycle_ - 1) / 1000) + " ns; its message is above)");
    }
    return lane_out_;
  }

  // Once dsh_mmu's quiet_o says an idle cycle changes nothing, the rest are
  // counted, not clocked (the trace shows a jump in time, one period each).
  const CycleOut& skip_idle(uint64_t n) override {
    for (; n && !quiet(); --n) step(CycleIn{});
    cycle_ += n;
    return out_;
  }
  bool quiet() const override { return top_->quiet_o; }

  const Config& config() const override { return cfg_; }
  uint64_t cycle() const override { return cycle_; }
  uint64_t s() const override { return top_->stat_s_o; }
  uint64_t errors() const override { return top_->stat_error_count_o; }
  bool error_sticky() const override { return top_->stat_error_sticky_o; }
  const char* name() const override { return name_; }
  unsigned latency() const override { return kRtlLatency; }
  bool has_stats() const override { return decltype(obs_)::kStats; }

  QueueState queue(uint32_t p, uint32_t q) const override {
    const unsigned l = p & (lanes_ - 1), i = rtl_observe::queue_entry(p >> lane_bits_, q, lane_ports_);
    QueueState s;
    s.qoff = obs_.qoff(l, i);
    if (has_stats()) {  // else 0, as the read port
      s.drops = obs_.drops(l, i);
      s.pauses = obs_.qpauses(l, i) & cnt_mask_;
      s.resumes = (s.pauses - s.qoff) & cnt_mask_;  // as the RTL's read port: PAUSE and RESUME alternate
    }
    if (!obs_.qvalid(l, i)) return s;
    // The RTL keeps prefix sums in drain order: headroom, + shared, + private.
    s.hdrm = obs_.occ_h(l, i);
    s.shared = obs_.occ_hs(l, i) - s.hdrm;
    s.priv = obs_.occ_hsp(l, i) - obs_.occ_hs(l, i);
    return s;
  }

  CounterRead read_port(uint32_t p, uint32_t q) override {
    top_->stat_rd_port_i = p;
    top_->stat_rd_queue_i = q;
    for (unsigned i = 0; i < kRtlReadLatency; ++i) step(CycleIn{});
    CounterRead r;
    r.drops = top_->stat_rd_drops_o;
    r.pauses = top_->stat_rd_pauses_o;
    r.resumes = top_->stat_rd_resumes_o;
    r.port_pauses = top_->stat_rd_port_pauses_o;
    r.port_resumes = top_->stat_rd_port_resumes_o;
    r.port_shared = top_->stat_rd_port_shared_o;
    r.port_hdrm = top_->stat_rd_port_hdrm_o;
    return r;
  }

  PortState port(uint32_t p) const override {
    const unsigned l = p & (lanes_ - 1), i = p >> lane_bits_;
    PortState s;
    s.poff = obs_.poff(l, i);
    if (has_stats()) {
      s.pauses = obs_.ppauses(l, i);
      s.resumes = (s.pauses - s.poff) & cnt_mask_;
    }
    if (!obs_.pvalid(l, i)) return s;
    s.shared = obs_.port_shared(l, i);
    s.hdrm = obs_.port_hdrm(l, i);
    return s;
  }

 private:
  bool multi() const { return lanes_ > 1 || deq_ > 1; }

  // Packs ops' valid bits and fields into the slot inputs.
  template <class A, class B, class C, class D>
  void drive_slots(const Op* ops, unsigned n, A& valid, B& port, C& queue, D& cells, const char* which) {
    rtl_fields::clear(valid);
    rtl_fields::clear(port);
    rtl_fields::clear(queue);
    rtl_fields::clear(cells);
    for (unsigned k = 0; k < n; ++k) {
      const Op& op = ops[k];
      if (!op.valid) continue;
      if ((op.port >> port_w_) || (op.queue >> queue_w_) || (op.cells >> size_w_))
        throw std::out_of_range(std::string(which) + " slot " + std::to_string(k) +
                                " index or size does not fit the RTL's port/queue/size width");
      rtl_fields::or_field(valid, k, 1, 1);
      rtl_fields::or_field(port, k, port_w_, op.port);
      rtl_fields::or_field(queue, k, queue_w_, op.queue);
      rtl_fields::or_field(cells, k, size_w_, op.cells);
    }
  }

  void read_lane_outputs() {
    LaneCycleOut& o = lane_out_;
    o = LaneCycleOut{};
    o.thr.t = top_->stat_t_o;
    o.s = top_->stat_s_o;
    for (unsigned l = 0; l < lanes_; ++l) {
      o.region[l] = Region(rtl_fields::field(top_->stat_region_o, l, 3));
      o.enq_error[l] = rtl_fields::field(top_->stat_enq_error_o, l, 1);
      o.n_errors += o.enq_error[l];
    }
    for (unsigned k = 0; k < deq_; ++k) {
      o.deq_error[k] = rtl_fields::field(top_->stat_deq_error_o, k, 1);
      o.deq_taken[k] = rtl_fields::field(top_->deq_taken_o, k, 1);
      o.n_errors += o.deq_error[k];
    }
    for (unsigned k = 0; k < 2 * lanes_; ++k) {
      if (rtl_fields::field(top_->stat_qevt_valid_o, k, 1)) {
        const bool pause = rtl_fields::field(top_->stat_qevt_pause_o, k, 1);
        o.events[o.n_events++] = Event{pause ? Event::Pause : Event::Resume,
                                       uint32_t(rtl_fields::field(top_->stat_qevt_port_o, k, port_w_)),
                                       uint32_t(rtl_fields::field(top_->stat_qevt_queue_o, k, queue_w_))};
      }
      if (rtl_fields::field(top_->stat_pevt_valid_o, k, 1)) {
        const bool pause = rtl_fields::field(top_->stat_pevt_pause_o, k, 1);
        o.events[o.n_events++] = Event{pause ? Event::PortPause : Event::PortResume,
                                       uint32_t(rtl_fields::field(top_->stat_pevt_port_o, k, port_w_)), 0};
      }
    }
    std::sort(o.events.begin(), o.events.begin() + o.n_events);
  }


  template <class A, class B, class C, class D>
  void drive(const Op& op, A& valid, B& port, C& queue, D& cells, const char* which) {
    valid = op.valid;
    if (!op.valid) return;
    if ((op.port >> port_w_) || (op.queue >> queue_w_) || op.cells > 0xffffffffu)
      throw std::out_of_range(std::string(which) + " index does not fit the RTL's port/queue width");
    port = op.port;
    queue = op.queue;
    cells = op.cells;
  }

  // An assertion that failed during reset stops the model before its first
  // cycle (the context does not abort: fatalOnError(false)); step() reports
  // the later ones.
  void check_assertions() {
    if (!ctx_->gotError()) return;
    throw RtlAssertionError(std::string("RTL ") + name_ + ": an assertion failed during reset"
                            " (its name is in the %Error line printed above)");
  }

  bool dumping() const { return tfp_ && cycle_ >= opt_.trace_from && cycle_ <= opt_.trace_to; }

  // One clock period: the rising edge of cycle c at rtl_edge_ps(c), the
  // falling edge half a period later. Assertions report to the thread's
  // Verilator context: ours while we evaluate.
  void half_cycles() {
    Verilated::threadContextp(ctx_.get());
    const uint64_t t = rtl_edge_ps(cycle_);
    ctx_->time(t);  // Verilator's messages ($error, a failed assertion) show this time
    top_->clk_i = 1;
    top_->eval();
    if (dumping()) tfp_->dump(t);
    top_->clk_i = 0;
    top_->eval();
    if (dumping()) tfp_->dump(t + kRtlCyclePs / 2);
  }

  void read_outputs() {
    out_ = CycleOut{};
    out_.region = Region(top_->stat_region_o);
    out_.thr.t = top_->stat_t_o;
    out_.s = top_->stat_s_o;
    out_.deq_error = top_->stat_error_o & 1;
    out_.enq_error = (top_->stat_error_o >> 1) & 1;
    const uint64_t pm = (uint64_t(1) << port_w_) - 1, qm = (uint64_t(1) << queue_w_) - 1;
    for (unsigned k = 0; k < 2; ++k) {
      if ((top_->stat_qevt_valid_o >> k) & 1) {
        const bool pause = (top_->stat_qevt_pause_o >> k) & 1;
        out_.events[out_.n_events++] = Event{pause ? Event::Pause : Event::Resume,
                                             uint32_t((uint64_t(top_->stat_qevt_port_o) >> (k * port_w_)) & pm),
                                             uint32_t((uint64_t(top_->stat_qevt_queue_o) >> (k * queue_w_)) & qm)};
      }
      if ((top_->stat_pevt_valid_o >> k) & 1) {
        const bool pause = (top_->stat_pevt_pause_o >> k) & 1;
        out_.events[out_.n_events++] = Event{pause ? Event::PortPause : Event::PortResume,
                                             uint32_t((uint64_t(top_->stat_pevt_port_o) >> (k * port_w_)) & pm), 0};
      }
    }
    std::sort(out_.events.begin(), out_.events.begin() + out_.n_events);
  }

  Config cfg_;
  const char* name_;
  RtlOptions opt_;
  unsigned lanes_ = 1, deq_ = 1, lane_bits_ = 0, lane_ports_ = 1;
  unsigned port_w_ = 1, queue_w_ = 1, size_w_ = 1;
  uint64_t cnt_mask_ = ~uint64_t(0);
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::unique_ptr<VerilatedFstC> tfp_;
  rtl_observe::Observe<typename std::remove_pointer_t<decltype(V::rootp)>> obs_{};
  uint64_t cycle_ = 0;
  bool asserted_ = false;
  CycleOut out_;
};

}  // namespace dsh
