// SPDX-License-Identifier: Apache-2.0
// Congestion control as a strategy a flow's sender holds (ns-3's
// TcpCongestionOps): the host asks it how fast and how much it may send and
// tells it what happens (a packet sent, an ACK, a CNP); timers it needs it
// sets on the event queue itself. DCQCN (dcqcn.h) and PowerTCP (powertcp.h)
// implement it; "none" sends at line rate. A transport with loss recovery
// (TCP for lossy classes) is one more implementation.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include "dcqcn.h"
#include "event_queue.h"
#include "powertcp.h"

namespace dsh::net {

class CongestionControl {
 public:
  virtual ~CongestionControl() = default;
  // The rate its next packet may go at, Gb/s: the host paces below its
  // line rate (a packet of b bytes holds the next one b * 8 / rate ns).
  virtual double rate_gbps() const { return std::numeric_limits<double>::infinity(); }
  // May another packet go with `unacked` bytes not yet acknowledged?
  virtual bool window_open(uint64_t unacked) const { (void)unacked; return true; }
  // Receiver side: data packets carry in-band telemetry and each is
  // answered with an ACK; an ECN-marked one is answered with a CNP.
  virtual bool wants_acks() const { return false; }
  virtual bool answers_marks() const { return false; }
  // A data packet of the flow starts on the sender's wire.
  virtual void on_send(uint64_t bytes) { (void)bytes; }
  // An ACK with its telemetry; sent_bytes: bytes the sender has generated.
  virtual void on_ack(const IntStack& tel, uint64_t sent_bytes) { (void)tel, (void)sent_bytes; }
  // A CNP reaches the sender.
  virtual void on_cnp() {}
};

// DCQCN (Mellanox mode): rate cuts on CNPs, the increase timer and the
// byte counter, the pending cut of a CNP inside the decrease interval.
class DcqcnControl final : public CongestionControl {
 public:
  DcqcnControl(const DcqcnParams& p, EventQueue& ev) : d_(p), ev_(ev) {}
  double rate_gbps() const override { return d_.rate_gbps(); }
  bool answers_marks() const override { return true; }
  void on_send(uint64_t bytes) override {
    if (d_.on_sent(bytes)) schedule_increase();
  }
  void on_cnp() override;
  const Dcqcn& dcqcn() const { return d_; }

 private:
  void schedule_increase();
  Dcqcn d_;
  EventQueue& ev_;
  uint64_t increase_armed_ps_ = ~uint64_t(0);  // the increase-timer event in the queue
};

// PowerTCP: a window of at most cwnd unacknowledged bytes, paced at
// cwnd / base RTT, updated on each ACK's telemetry.
class PowerTcpControl final : public CongestionControl {
 public:
  explicit PowerTcpControl(const PowerTcpParams& p) : w_(p) {}
  double rate_gbps() const override { return w_.rate_gbps(); }
  bool window_open(uint64_t unacked) const override { return double(unacked) < w_.cwnd_bytes(); }
  bool wants_acks() const override { return true; }
  void on_ack(const IntStack& tel, uint64_t sent_bytes) override { w_.on_ack(tel, sent_bytes); }
  const PowerTcp& powertcp() const { return w_; }

 private:
  PowerTcp w_;
};

enum class CcKind { None, Dcqcn, PowerTcp };

// The strategy of a flow whose sender's line rate is line_gbps.
std::unique_ptr<CongestionControl> make_congestion_control(CcKind kind, double line_gbps, const DcqcnParams& dcqcn,
                                                           const PowerTcpParams& powertcp, EventQueue& ev);

}  // namespace dsh::net
