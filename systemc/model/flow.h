// SPDX-License-Identifier: Apache-2.0
// A flow of the network model: its sender's and its receiver's state in one
// record (the hosts keep the flows by index), and the scenario's figures.
#pragma once

#include <cstdint>
#include <memory>

#include "congestion_control.h"

namespace dsh::net {

struct NetFlow {
  uint32_t src = 0, dst = 0;
  uint8_t cls = 0;
  uint64_t bytes = 0;     // 0: endless
  uint64_t start_ps = 0;
  int group = 0;          // the scenario's label (long-lived, fan-in, background)
  // state
  bool started = false, done = false;
  uint64_t generated = 0, delivered = 0;
  uint64_t admitted = 0, dropped = 0;  // bytes, at the first switch that admitted or dropped them
  uint32_t next_seq = 0, expect_seq = 0;
  uint64_t first_rx_ps = 0, done_ps = 0;
  uint64_t next_ok_ps = 0;      // rate limiter: earliest start of its next packet
  uint64_t last_cnp_ps = 0;     // receiver: last CNP it sent
  uint64_t cnp_rx_ps = ~uint64_t(0);  // sender: last CNP it got
  bool cnp_sent = false;
  uint64_t reordered = 0;
  uint64_t acked = 0;           // bytes the receiver has acknowledged (ACKs)
  std::unique_ptr<CongestionControl> cc;  // the sender's congestion control
};

}  // namespace dsh::net
