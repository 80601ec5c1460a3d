// SPDX-License-Identifier: Apache-2.0
// Fields of Verilated ports: an integer up to 64 bits, or a VlWide of
// 32-bit words. Read, cleared, ORed and packed a word's part at a time, so
// the same code serves a chip with one lane and one with vectors wider
// than 64 bits.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace dsh::rtl_fields {

constexpr uint64_t low_mask(unsigned width) { return width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1; }

// Field i of `width` bits, at bit i*width.
template <class Sig>
inline uint64_t field(const Sig& sig, unsigned i, unsigned width) {
  if constexpr (std::is_integral_v<Sig>) {
    return (uint64_t(sig) >> (i * width)) & low_mask(width);
  } else {
    uint64_t v = 0;
    for (unsigned done = 0; done < width;) {
      const unsigned at = i * width + done, b = at % 32, take = std::min(32 - b, width - done);
      v |= uint64_t((sig[at / 32] >> b) & low_mask(take)) << done;
      done += take;
    }
    return v;
  }
}

template <class Sig>
inline void clear(Sig& sig) {
  if constexpr (std::is_integral_v<Sig>) {
    sig = 0;
  } else {
    for (size_t k = 0; k < sizeof(sig) / sizeof(sig[0]); ++k) sig[k] = 0;
  }
}

// ORs field i of `width` bits (the low bits of f) into an input; bits
// beyond the input are dropped.
template <class Sig>
inline void or_field(Sig& sig, unsigned i, unsigned width, uint64_t f) {
  f &= low_mask(width);
  if constexpr (std::is_integral_v<Sig>) {
    if (i * width < 64) sig = Sig(uint64_t(sig) | (f << (i * width)));
  } else {
    constexpr size_t kWords = sizeof(sig) / sizeof(sig[0]);
    for (unsigned done = 0; done < width;) {
      const size_t at = size_t(i) * width + done;
      const unsigned b = at % 32, take = std::min(32 - b, width - done);
      if (at / 32 >= kWords) return;
      sig[at / 32] |= uint32_t(((f >> done) & low_mask(take)) << b);
      done += take;
    }
  }
}

// Packs fields of `width` bits each, field i at bit i*width.
template <class Sig>
inline void set_fields(Sig& sig, const std::vector<uint64_t>& fields, unsigned width) {
  clear(sig);
  for (size_t i = 0; i < fields.size(); ++i) or_field(sig, unsigned(i), width, fields[i]);
}

}  // namespace dsh::rtl_fields
