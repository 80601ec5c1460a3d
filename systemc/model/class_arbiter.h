// SPDX-License-Identifier: Apache-2.0
// The traffic classes (the one place they are defined) and which class an
// egress port sends next: class 7 (control: PAUSE, CNP) at strict priority
// and never paused, then deficit weighted round robin with one quantum per
// visit over the lossless classes 0..6. Plain C++; the caller (a Port of
// the switch model, port.h) owns the queues.
#pragma once

#include <array>
#include <cstdint>

namespace dsh {

inline constexpr unsigned kClasses = 8;       // per port: lossless 0..6, control 7
inline constexpr unsigned kControlClass = 7;  // strict priority, outside the MMU

class ClassArbiter {
 public:
  static constexpr unsigned kControl = kControlClass;

  explicit ClassArbiter(uint64_t quantum_bytes) : quantum_(quantum_bytes) {}

  // head(c): bytes of class c's head packet, 0 when the class is empty;
  // paused(c): class c may not start a packet. Returns the class to send,
  // -1 when none may. An empty class loses its deficit; a paused one keeps it.
  template <class Head, class Paused>
  int pick(const Head& head, const Paused& paused) {
    if (head(kControl)) return int(kControl);
    constexpr unsigned n = kClasses - 1;
    bool any = false;
    for (unsigned c = 0; c < n; ++c) any |= head(c) != 0 && !paused(c);
    if (!any) return -1;
    for (;;) {
      const unsigned c = cur_;
      const uint64_t h = head(c);
      if (h && !paused(c)) {
        if (fresh_) deficit_[c] += quantum_;
        fresh_ = false;
        if (deficit_[c] >= h) {
          deficit_[c] -= h;
          return int(c);
        }
      } else if (!h) {
        deficit_[c] = 0;
      }
      cur_ = (cur_ + 1) % n;
      fresh_ = true;
    }
  }
  // After the picked packet left its queue: a lossless class that ran empty
  // loses what is left of its deficit.
  void popped(unsigned cls, bool now_empty) {
    if (now_empty && cls != kControl) deficit_[cls] = 0;
  }

 private:
  uint64_t quantum_;
  std::array<uint64_t, kClasses> deficit_{};
  unsigned cur_ = 0;
  bool fresh_ = true;  // the current class has not yet got its quantum this round
};

}  // namespace dsh
