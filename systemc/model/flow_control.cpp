// SPDX-License-Identifier: Apache-2.0
#include "flow_control.h"

#include <set>
#include <vector>

#include "port.h"

namespace dsh::net {

uint64_t port_mac(int node, int port) {
  return uint64_t(0x02) << 40 | (uint64_t(node) & 0xFFFF) << 16 | (uint64_t(port) & 0xFFFF);
}

namespace {

// The wait from a frame's last bit to its action: processing_bytes at link
// rate count from its first bit (spec §7.1 item 3).
uint64_t reaction_ps(const NetContext& ctx, const Port& port) {
  return port.ser_ps(ctx.p.processing_bytes) - port.ser_ps(ctx.p.pause_frame_bytes);
}

// Level mode (spec §6.2): the event itself crosses the link.
class LevelFlowControl final : public FlowControl {
 public:
  LevelFlowControl(NetContext& ctx, Port& port) : ctx_(ctx), port_(port) {}

  void send(const Event& e) override {
    Pkt* f = ctx_.pool.control(Pkt::Pause, ctx_.p.pause_frame_bytes);
    f->fc = e;
    port_.push(f);
  }

  void frame_arrives(Pkt* p) override {
    const Event e = p->fc;
    ctx_.pool.release(p);
    ctx_.ev.after(reaction_ps(ctx_, port_), [this, e] {
      PauseGate& g = port_.pause;
      switch (e.kind) {
        case Event::Pause: g.q_paused[e.queue] = true; break;
        case Event::Resume: g.q_paused[e.queue] = false; break;
        case Event::PortPause: g.port_paused = true; break;
        case Event::PortResume: g.port_paused = false; break;
      }
      g.settle(ctx_.ev.now());
      port_.try_start();
    });
  }

 private:
  NetContext& ctx_;
  Port& port_;
};

// Frame mode (spec §6.3–§6.5), event-driven: a refresh and a timer's expiry
// are events at their times.
class FrameFlowControl final : public FlowControl {
 public:
  FrameFlowControl(NetContext& ctx, Port& port)
      : ctx_(ctx), port_(port), src_mac_(port_mac(port.node, port.port)), quantum_ps_(512000.0 / port.gbps) {
    if (!port.connected()) return;
    const WatchdogParams& w = ctx.p.watchdog;
    if (w.enable && ctx.topo.is_switch(port.node)) {
      for (unsigned j = 0; j < kControlClass; ++j)
        wdog_.emplace_back(pfc::PfcWdog::Config{w.detect_polls, w.restore_polls, w.action, 32});
      ctx_.ev.at(w.poll_ps, [this] { poll(); });
    }
    const StormParams& st = ctx.p.storm;
    if (st.host >= 0 && !ctx.topo.is_switch(port.node) && ctx.topo.node_host(port.node) == st.host) {
      ctx_.ev.at(st.start_ps, [this, bit = uint8_t(1u << st.cls)] {
        storm_ = bit;
        queue_frame();
      });
      if (st.stop_ps != kNoTime)
        ctx_.ev.at(st.stop_ps, [this] {
          storm_ = 0;
          queue_frame();
        });
    }
  }

  WatchdogStats watchdog() const override {
    WatchdogStats s = wstats_;
    for (const auto& d : wdog_) {
      s.storms += d.out().stat_storms;
      s.restores += d.out().stat_restores;
    }
    return s;
  }
  uint8_t storming() const override { return storm_now_; }

  // The sender (spec §6.4): the MMU's state of the port's classes and port.
  void send(const Event& e) override {
    const uint8_t bit = uint8_t(1u << (e.queue & 7));
    switch (e.kind) {
      case Event::Pause: qoff_ |= bit; break;
      case Event::Resume: qoff_ &= uint8_t(~bit); break;
      case Event::PortPause: poff_ = true; break;
      case Event::PortResume: poff_ = false; break;
    }
    queue_frame();
  }

  // The MAC takes the frame now: it carries the state as it is now, so the
  // changes it waited through are coalesced into it.
  void frame_starts(Pkt& f) override {
    queued_ = false;
    const bool pfc = need_pfc(), pause = need_pause();
    // Both due: the kind not sent last; neither (every change it waited for
    // was undone): the last kind again, carrying the state as it is.
    const bool pick_pause = pause ? (!pfc || !last_pause_) : (!pfc && last_pause_);
    const uint64_t now = ctx_.ev.now();
    pfc::MacControl m;
    m.src = src_mac_;
    if (pick_pause) {
      m.opcode = pfc::kOpPause;
      m.words = pfc::pause_words(poff_ ? ctx_.p.pause_quanta : 0);
      psent_ = poff_;
      pause_refresh_due_ = false;
      pause_refresh_at_ = psent_ ? now + quanta_ps(ctx_.p.refresh_quanta) : kNoTime;
      if (psent_) refresh_at(pause_refresh_at_, true);
    } else {
      std::array<uint16_t, pfc::kMaxClasses> times{};
      const uint8_t qoff = this->qoff();
      for (unsigned j = 0; j < kControlClass; ++j) times[j] = (qoff >> j & 1) ? ctx_.p.pause_quanta : 0;
      m.opcode = pfc::kOpPfc;
      m.words = pfc::pfc_words(uint8_t(qoff | sent_), times);
      sent_ = qoff;
      pfc_refresh_due_ = false;
      // A storming NIC repeats its frame every storm interval.
      pfc_refresh_at_ = !sent_ ? kNoTime : now + (storm_ ? ctx_.p.storm.interval_ps : quanta_ps(ctx_.p.refresh_quanta));
      if (sent_) refresh_at(pfc_refresh_at_, false);
    }
    last_pause_ = pick_pause;
    ctx_.pool.add_frame(f, pfc::build_frame(m));
    queue_frame();  // the other kind may be due too: it follows this frame
  }

  // The receive side (spec §6.5): the golden parser reads the bytes; a
  // well-formed frame loads the timers of the classes it enables (PFC) or
  // the port's (PAUSE) when it acts.
  void frame_arrives(Pkt* p) override {
    const pfc::Frame bytes = ctx_.pool.frame(*p);
    ctx_.pool.free_frame(*p);
    ctx_.pool.release(p);
    ctx_.ev.after(reaction_ps(ctx_, port_), [this, bytes] { act(bytes); });
  }

 private:
  uint8_t qoff() const { return qoff_ | storm_; }
  bool need_pfc() const { return qoff() != sent_ || (sent_ != 0 && pfc_refresh_due_); }
  bool need_pause() const { return poff_ != psent_ || (psent_ && pause_refresh_due_); }
  uint64_t quanta_ps(uint16_t q) const { return uint64_t(double(q) * quantum_ps_ + 0.5); }

  // One frame of ours waits in the port's queue at a time; it is built
  // when it starts.
  void queue_frame() {
    if (queued_ || !(need_pfc() || need_pause())) return;
    queued_ = true;
    port_.push(ctx_.pool.control(Pkt::Pause, ctx_.p.pause_frame_bytes));
  }

  // A kind's refresh is due at `t` unless a frame of that kind is taken first.
  void refresh_at(uint64_t t, bool pause) {
    ctx_.ev.at(t, [this, t, pause] {
      if ((pause ? pause_refresh_at_ : pfc_refresh_at_) != t) return;  // a later frame restarted it
      (pause ? pause_refresh_due_ : pfc_refresh_due_) = true;
      queue_frame();
    });
  }

  void act(const pfc::Frame& bytes) {
    for (unsigned i = 0; i < pfc::kFrameBytes; ++i)
      parser_.step(pfc::MacControlParser::In{bytes[i], true, i + 1 == pfc::kFrameBytes, false});
    if (!parser_.frame_valid()) return;  // malformed: ignored (spec §6.5)
    const uint64_t now = ctx_.ev.now();
    const pfc::Words w = parser_.words();
    std::set<uint64_t> ends;
    if (parser_.opcode() == pfc::kOpPfc) {
      const uint8_t enabled = uint8_t(w[0] & ((1u << kControlClass) - 1));
      watch(enabled, false);  // the frame, seen before the timers it loads (spec §6.5's latency)
      for (unsigned j = 0; j < kControlClass; ++j)
        if (enabled >> j & 1) {
          ends.insert(class_until_[j] = now + quanta_ps(w[j + 1]));
          wstats_.pauses_ignored += (ignore_ >> j & 1) && w[j + 1] != 0;
        }
    } else if (parser_.opcode() == pfc::kOpPause) {
      ends.insert(port_until_ = now + quanta_ps(w[0]));
    } else {
      return;  // another opcode: ignored
    }
    watch(0, false);
    update_gate();
    for (uint64_t t : ends)
      if (t > now)
        ctx_.ev.at(t, [this] {
          watch(0, false);
          update_gate();
          port_.try_start();
        });
    port_.try_start();
  }

  // The watchdog (spec §6.9): each class's golden PfcWdog stepped with
  // this moment's inputs, the PFC frames `rx` enables and whether the
  // class timer runs. Its state changes only when an input does, so
  // stepping it at each change and at each poll gives the results of
  // stepping it every cycle. A changed verdict acts at once.
  void watch(uint8_t rx, bool poll) {
    if (wdog_.empty()) return;
    const uint64_t now = ctx_.ev.now();
    uint8_t ignore = 0, drop = 0, storm = 0;
    for (unsigned j = 0; j < kControlClass; ++j) {
      pfc::PfcWdog& d = wdog_[j];
      d.step({poll, bool(rx >> j & 1), class_until_[j] > now});
      const pfc::PfcWdog::Out o = d.out();
      ignore |= uint8_t(o.ignore_pause << j);
      drop |= uint8_t(o.drop << j);
      storm |= uint8_t(o.storm << j);
    }
    storm_now_ = storm;
    for (unsigned j = 0; j < kControlClass; ++j)
      if ((drop ^ drop_) >> j & 1) port_.set_discard(j, drop >> j & 1);
    drop_ = drop;
    if (ignore != ignore_) {
      ignore_ = ignore;
      update_gate();
      port_.try_start();
    }
  }

  // Every port's watchdogs are polled on one grid, k · poll_ps.
  void poll() {
    watch(0, true);
    ctx_.ev.after(ctx_.p.watchdog.poll_ps, [this] { poll(); });
  }

  // paused(c) = class timer running (unless the watchdog ignores it) |
  // port timer running (spec §6.3, §6.9).
  void update_gate() {
    const uint64_t now = ctx_.ev.now();
    PauseGate& g = port_.pause;
    for (unsigned j = 0; j < kControlClass; ++j) g.q_paused[j] = class_until_[j] > now && !(ignore_ >> j & 1);
    g.port_paused = port_until_ > now;
    g.settle(now);
  }

  NetContext& ctx_;
  Port& port_;
  uint64_t src_mac_;
  double quantum_ps_;  // 512 bit times at the link's rate
  // sender
  uint8_t qoff_ = 0, sent_ = 0;  // the MMU's class states now; as last sent
  bool poff_ = false, psent_ = false, last_pause_ = false;
  bool pfc_refresh_due_ = false, pause_refresh_due_ = false;
  uint64_t pfc_refresh_at_ = kNoTime, pause_refresh_at_ = kNoTime;
  bool queued_ = false;
  // receiver
  pfc::MacControlParser parser_;
  std::array<uint64_t, kClasses> class_until_{};  // a class's timer runs while now < its end
  uint64_t port_until_ = 0;
  // watchdog (none: empty) and storm
  std::vector<pfc::PfcWdog> wdog_;
  uint8_t ignore_ = 0, drop_ = 0, storm_now_ = 0;
  WatchdogStats wstats_;
  uint8_t storm_ = 0;  // the class a storming NIC pauses
};

}  // namespace

std::unique_ptr<FlowControl> make_flow_control(NetContext& ctx, Port& port) {
  if (ctx.p.flow_control == FlowControlMode::Frames) return std::make_unique<FrameFlowControl>(ctx, port);
  return std::make_unique<LevelFlowControl>(ctx, port);
}

}  // namespace dsh::net
