// SPDX-License-Identifier: Apache-2.0
// The `act` instruction's parameter block (docs/isa.md, "act"): kActParamRows unified-
// buffer rows of N bytes from row `params`, the one definition of its layout. Read as
// one run of 9N bytes: lane i's int32 bias is the little-endian word at byte 4i of rows
// 0-3, its int32 multiplier the word at byte 4i of rows 4-7, its shift (0..63) byte i of
// row 8. tpu-isa-gen writes the rows into rtl/tpu_isa.vh (TPU_ACT_*).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera {

constexpr uint32_t kActBiasRow = 0, kActMultiplierRow = 4, kActShiftRow = 8;
constexpr uint32_t kActParamRows = 9;

// One lane's requantization parameters.
struct ActLane {
  int32_t bias = 0;
  int32_t multiplier = 1;
  uint8_t shift = 0;  // legal range 0..63
};

// Bytes of a block for n lanes, and where lane i's fields start in it.
constexpr size_t act_block_bytes(uint32_t n) { return size_t{kActParamRows} * n; }
constexpr size_t act_bias_at(uint32_t n, uint32_t i) { return size_t{kActBiasRow} * n + 4 * size_t{i}; }
constexpr size_t act_multiplier_at(uint32_t n, uint32_t i) {
  return size_t{kActMultiplierRow} * n + 4 * size_t{i};
}
constexpr size_t act_shift_at(uint32_t n, uint32_t i) { return size_t{kActShiftRow} * n + i; }

// Writes / reads lane i of a block for n lanes (block holds act_block_bytes(n) bytes).
inline void put_act_lane(uint8_t* block, uint32_t n, uint32_t i, const ActLane& lane) {
  for (int k = 0; k < 4; ++k) {
    block[act_bias_at(n, i) + k] = static_cast<uint8_t>(static_cast<uint32_t>(lane.bias) >> (8 * k));
    block[act_multiplier_at(n, i) + k] = static_cast<uint8_t>(static_cast<uint32_t>(lane.multiplier) >> (8 * k));
  }
  block[act_shift_at(n, i)] = lane.shift;
}

inline ActLane get_act_lane(const uint8_t* block, uint32_t n, uint32_t i) {
  auto le32 = [](const uint8_t* p) {
    return static_cast<int32_t>(uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24);
  };
  ActLane lane;
  lane.bias = le32(block + act_bias_at(n, i));
  lane.multiplier = le32(block + act_multiplier_at(n, i));
  lane.shift = block[act_shift_at(n, i)];
  return lane;
}

}  // namespace tessera
