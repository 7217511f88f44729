// SPDX-License-Identifier: Apache-2.0
// The core's arithmetic, bit for bit (docs/isa.md, "Numerics"). The RTL matches these.
#pragma once

#include <cstdint>

#include "isa/act_block.hpp"

namespace tessera {

inline int32_t saturate32(int64_t v) {
  if (v > INT32_MAX) return INT32_MAX;
  if (v < INT32_MIN) return INT32_MIN;
  return static_cast<int32_t>(v);
}

// p / 2^s rounded to nearest, ties away from zero; s in [0, 63].
inline int64_t round_shift(int64_t p, unsigned s) {
  if (s == 0) return p;
  const uint64_t half = uint64_t{1} << (s - 1);
  if (p >= 0) return static_cast<int64_t>((static_cast<uint64_t>(p) + half) >> s);
  return -static_cast<int64_t>((static_cast<uint64_t>(-p) + half) >> s);
}

using LaneParams = ActLane;  // one lane's bias, multiplier and shift (isa/act_block.hpp)

// acc -> int8: saturating bias add, multiply, rounding shift, zero point, clamp.
inline int8_t requantize(int32_t acc, const LaneParams& p, int8_t zp, bool relu) {
  const int64_t x = saturate32(int64_t{acc} + p.bias);
  const int64_t y = round_shift(x * p.multiplier, p.shift) + zp;
  const int64_t lo = relu ? zp : -128;
  return static_cast<int8_t>(y < lo ? lo : (y > 127 ? 127 : y));
}

}  // namespace tessera
