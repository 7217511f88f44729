// SPDX-License-Identifier: Apache-2.0
// Requantization cases shared by the block tests of tpu_requant (the core's lane) and
// tpu_small_requant (the small core's sequential unit); the golden model's requantize()
// gives the expected value.
#pragma once

#include <cstdint>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "model/numerics.hpp"
#include "vl_bits.hpp"

namespace tessera::test {

struct RequantCase {
  int32_t acc;
  LaneParams p;
  int8_t zp;
  bool relu;

  int8_t expected() const { return requantize(acc, p, zp, relu); }
};

// Rounding, saturation and ReLU edges.
inline std::vector<RequantCase> requant_edge_cases() {
  return {
      {5, {0, 1 << 30, 31}, 0, false},          {-5, {0, 1 << 30, 31}, 0, false},
      {3, {0, 1 << 30, 31}, 0, false},          {-3, {0, 1 << 30, 31}, 0, false},
      {7, {0, 1, 2}, 0, false},                 {-6, {0, 1, 2}, 0, false},
      {1000, {0, 1, 0}, 0, false},              {-1000, {0, 1, 0}, 0, false},
      {100, {0, 1, 0}, 27, false},              {-10, {0, 1, 0}, 5, true},
      {-10, {0, 1, 0}, -128, true},             {7, {0, -1, 0}, 0, false},
      {INT32_MAX, {INT32_MAX, 1, 25}, 0, false}, {INT32_MIN, {INT32_MIN, 1, 25}, 0, false},
      {INT32_MIN, {0, INT32_MIN, 63}, 0, false}, {INT32_MIN, {0, INT32_MIN, 62}, 0, false},
      {INT32_MAX, {0, INT32_MAX, 63}, 0, false}, {-1, {0, 1, 63}, 0, false},
      {0, {12345, 1 << 30, 40}, -3, false},     {INT32_MIN, {-1, INT32_MIN, 0}, 127, false},
      // rounded magnitudes at and beyond 2^9, with zero low bits (the lanes keep only
      // q's low nine bits and whether q >= 512)
      {512, {0, 1 << 20, 20}, 0, false},        {-512, {0, 1 << 20, 20}, 0, false},
      {511, {0, 1 << 20, 20}, -128, false},     {-511, {0, 1 << 20, 20}, 127, false},
      {1 << 20, {0, 1 << 30, 0}, 0, false},     {-(1 << 20), {0, 1 << 30, 0}, 0, true},
      {INT32_MIN, {0, INT32_MIN, 53}, -128, false}, {INT32_MIN, {0, INT32_MIN, 54}, -128, false},
      {INT32_MIN, {0, INT32_MAX, 53}, 127, false},  {1023, {0, 1, 1}, -128, false},
      // zero products whose operands' signs differ (the product's sign comes from them)
      {0, {0, -5, 3}, 7, false},                {-9, {0, 0, 3}, 7, false},
      {0, {0, INT32_MIN, 1}, -2, false},        {INT32_MIN, {0, 0, 0}, 0, false},
      {5, {-5, -1, 2}, 3, false},               {-1, {0, -1, 1}, 0, false},
  };
}

// Whether a unit takes acc + bias as one 33-bit sum x_i (tpu_lite_requant) instead of the
// two operands (tpu_requant, tpu_small_requant).
template <class Dut, class = void>
struct takes_sum : std::false_type {};
template <class Dut>
struct takes_sum<Dut, std::void_t<decltype(std::declval<Dut&>().x_i)>> : std::true_type {};

// Sets a unit's operand inputs to a case.
template <class Dut>
void drive_operands(Dut& dut, const RequantCase& c) {
  if constexpr (takes_sum<Dut>::value) {
    dut.x_i = uint64_t(int64_t(c.acc) + int64_t(c.p.bias)) & ((uint64_t(1) << 33) - 1);
  } else {
    dut.acc_i = uint32_t(c.acc);
    dut.bias_i = uint32_t(c.p.bias);
  }
  dut.mult_i = uint32_t(c.p.multiplier);
  dut.shift_i = c.p.shift;
  dut.zp_i = uint8_t(c.zp);
  dut.relu_i = c.relu;
}

// Runs a one-value-at-a-time unit (tpu_small_requant, tpu_lite_requant) over cases: a
// start, the result when done_o rises after expected_cycles(case) cycles, bit-exact;
// `after_start` changes the inputs the unit no longer reads.
template <class Dut, class Cycles, class AfterStart>
void run_one_at_a_time(const std::vector<RequantCase>& cases, Cycles expected_cycles, AfterStart after_start) {
  Dut dut;
  rtl::reset(dut);
  for (const auto& c : cases) {
    INFO("acc=" << c.acc << " bias=" << c.p.bias << " mult=" << c.p.multiplier
                << " shift=" << int(c.p.shift) << " zp=" << int(c.zp) << " relu=" << c.relu);
    dut.start_i = 1;
    drive_operands(dut, c);
    rtl::tick(dut);
    dut.start_i = 0;
    after_start(dut, c);
    int cycles = 1;
    while (!dut.done_o && cycles < 200) rtl::tick(dut), ++cycles;
    REQUIRE(dut.done_o);
    CHECK(cycles == expected_cycles(c));
    REQUIRE(int(int8_t(dut.q_o)) == int(c.expected()));
    rtl::tick(dut);
    REQUIRE_FALSE(dut.done_o);
  }
}

// Random cases: full-range values mixed with realistic ones (small accumulators, scales
// near 2^-10).
inline std::vector<RequantCase> requant_random_cases(std::mt19937& rng, int count) {
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int> shift(0, 63), zp(-128, 127), coin(0, 1), small(-3000, 3000);
  std::vector<RequantCase> cases;
  for (int i = 0; i < count; ++i) {
    const bool realistic = i % 2;
    RequantCase c;
    c.acc = realistic ? small(rng) * 37 : any(rng);
    c.p.bias = realistic ? small(rng) : any(rng);
    c.p.multiplier = realistic ? (1 << 30) + small(rng) * 1000 : any(rng);
    c.p.shift = static_cast<uint8_t>(realistic ? 36 + shift(rng) % 8 : shift(rng));
    c.zp = int8_t(zp(rng));
    c.relu = coin(rng);
    cases.push_back(c);
  }
  return cases;
}

}  // namespace tessera::test
