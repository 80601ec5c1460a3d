// SPDX-License-Identifier: Apache-2.0
#include "congestion_control.h"

namespace dsh::net {

// A CNP cuts the rate now, or leaves a cut pending until the decrease
// interval ends; either way the increase timer restarts.
void DcqcnControl::on_cnp() {
  if (!d_.on_cnp(ev_.now())) {
    const uint64_t due = d_.decrease_due_ps();
    ev_.at(due, [this, due] {
      if (d_.decrease_due_ps() != due) return;
      d_.on_decrease_due(ev_.now());
      schedule_increase();
    });
  }
  schedule_increase();
}

void DcqcnControl::schedule_increase() {
  const uint64_t due = d_.increase_due_ps();
  if (due == ~uint64_t(0) || due == increase_armed_ps_) return;
  increase_armed_ps_ = due;
  ev_.at(due, [this, due] {
    if (d_.increase_due_ps() != due) return;  // re-armed by a cut since
    increase_armed_ps_ = ~uint64_t(0);
    d_.on_increase_timer(ev_.now());
    schedule_increase();
  });
}

std::unique_ptr<CongestionControl> make_congestion_control(CcKind kind, double line_gbps, const DcqcnParams& dcqcn,
                                                           const PowerTcpParams& powertcp, EventQueue& ev) {
  switch (kind) {
    case CcKind::Dcqcn: {
      DcqcnParams d = dcqcn;
      // HPCC's run.py scales AI and HAI with the NIC rate (ai = 5*bw/25 Mb/s).
      d.ai_gbps *= line_gbps / 100.0;
      d.hai_gbps *= line_gbps / 100.0;
      d.line_gbps = line_gbps;
      return std::make_unique<DcqcnControl>(d, ev);
    }
    case CcKind::PowerTcp: {
      PowerTcpParams w = powertcp;
      w.line_gbps = line_gbps;
      return std::make_unique<PowerTcpControl>(w);
    }
    default: return std::make_unique<CongestionControl>();
  }
}

}  // namespace dsh::net
