// SPDX-License-Identifier: Apache-2.0
// The wire keys (switch_keys.h) into the switch model's parameters; for
// the programs that have both (header only: the key registry does not
// link the model).
#pragma once

#include <algorithm>

#include "node.h"
#include "switch_keys.h"

namespace dsh::sc {

inline void set_wire(net::FabricParams& f, const WireKeys& w) {
  f.flow_control = w.frames ? net::FlowControlMode::Frames : net::FlowControlMode::Level;
  f.pause_quanta = w.pause_quanta;
  f.refresh_quanta = w.refresh_quanta;
  f.dscp_queue = w.dscp_queue;
  std::copy(w.class_dscp.begin(), w.class_dscp.end(), f.class_dscp.begin());
}

}  // namespace dsh::sc
