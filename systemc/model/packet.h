// SPDX-License-Identifier: Apache-2.0
// A packet of the network model and the pool that recycles them. A packet
// is one cache line (alignas): it is read at each hop after long waits in
// queues, so one miss, not two, brings it in. PowerTCP's telemetry lives
// beside the pool, indexed by Pkt::tel, so that a packet stays one line.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "class_arbiter.h"
#include "config.h"
#include "mmu_model.h"
#include "pfc.h"
#include "powertcp.h"

namespace dsh::net {

struct alignas(64) Pkt {
  enum Kind : uint8_t { Data, Cnp, Pause, Ack };
  Kind kind = Data;
  uint8_t cls = 0;
  bool ecn = false;
  uint8_t dscp = 0;                    // data: the IP DSCP its host marked (FabricParams::class_dscp)
  uint16_t in_port = 0, out_port = 0;  // at the switch holding it
  uint16_t to_port = 0;                // on the wire: where it arrives
  int32_t to_node = -1;
  uint32_t src = 0, dst = 0;  // hosts
  uint32_t bytes = 0, cells = 0;
  int32_t flow = -1;
  uint32_t seq = 0;
  int32_t tel = -1;  // PowerTCP: its telemetry (PacketPool::telemetry), -1 none
  Event fc{};        // level-mode PAUSE frames: the event
  int32_t frame = -1;  // frame-mode PAUSE frames: their bytes (PacketPool::frame), -1 none
};

inline constexpr uint64_t kNoTime = ~uint64_t(0);

class PacketPool {
 public:
  Pkt* alloc() {
    if (free_.empty()) {
      blocks_.push_back(std::make_unique<Pkt[]>(kBlock));
      for (size_t i = kBlock; i-- > 1;) free_.push_back(&blocks_.back()[i]);
      return &blocks_.back()[0];
    }
    Pkt* p = free_.back();
    free_.pop_back();
    *p = Pkt{};
    return p;
  }
  // A class-7 frame (CNP, ACK, PAUSE).
  Pkt* control(Pkt::Kind kind, uint64_t bytes) {
    Pkt* c = alloc();
    c->kind = kind;
    c->cls = kControlClass;
    c->bytes = uint32_t(bytes);
    return c;
  }
  void release(Pkt* p) {
    if (p->tel >= 0) {
      tel_free_.push_back(p->tel);
      p->tel = -1;
    }
    free_.push_back(p);
  }
  // Gives `p` an empty telemetry stack.
  void add_telemetry(Pkt& p) {
    if (tel_free_.empty()) {
      p.tel = int32_t(tel_.size());
      tel_.emplace_back();
    } else {
      p.tel = tel_free_.back();
      tel_free_.pop_back();
      tel_[size_t(p.tel)] = IntStack{};
    }
  }
  IntStack& telemetry(const Pkt& p) { return tel_[size_t(p.tel)]; }
  size_t telemetry_slots() const { return tel_.size(); }
  // Frame mode: a MAC Control frame's bytes travel beside the packet; the
  // receiver frees them (free_frame) when it has read them.
  void add_frame(Pkt& p, const pfc::Frame& f) {
    if (frames_free_.empty()) {
      p.frame = int32_t(frames_.size());
      frames_.push_back(f);
    } else {
      p.frame = frames_free_.back();
      frames_free_.pop_back();
      frames_[size_t(p.frame)] = f;
    }
  }
  const pfc::Frame& frame(const Pkt& p) const { return frames_[size_t(p.frame)]; }
  void free_frame(Pkt& p) {
    frames_free_.push_back(p.frame);
    p.frame = -1;
  }

 private:
  static constexpr size_t kBlock = 1024;
  std::vector<std::unique_ptr<Pkt[]>> blocks_;
  std::vector<Pkt*> free_;
  std::vector<IntStack> tel_;  // one per packet carrying telemetry
  std::vector<int32_t> tel_free_;
  std::vector<pfc::Frame> frames_;
  std::vector<int32_t> frames_free_;
};

}  // namespace dsh::net
