// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_requant, the activation lane: bit-exact with the golden model's
// requantize() on edge cases and on random values, streamed with idle cycles.
#include <catch2/catch.hpp>

#include <deque>
#include <random>

#include "Vtpu_requant.h"
#include "model/numerics.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

struct Case {
  int32_t acc;
  LaneParams p;
  int8_t zp;
  bool relu;
};

void run_cases(const std::vector<Case>& cases, double idle, std::mt19937& rng) {
  Vtpu_requant dut;
  reset(dut);
  std::bernoulli_distribution idle_now(idle);
  std::deque<int8_t> expected;
  size_t next = 0, checked = 0;
  for (int t = 0; t < 10 * int(cases.size()) + 20 && checked < cases.size(); ++t) {
    dut.in_valid_i = 0;
    if (next < cases.size() && !idle_now(rng)) {
      const Case& c = cases[next++];
      dut.in_valid_i = 1;
      dut.acc_i = uint32_t(c.acc);
      dut.bias_i = uint32_t(c.p.bias);
      dut.mult_i = uint32_t(c.p.multiplier);
      dut.shift_i = c.p.shift;
      dut.zp_i = uint8_t(c.zp);
      dut.relu_i = c.relu;
      expected.push_back(requantize(c.acc, c.p, c.zp, c.relu));
    }
    tick(dut);
    if (dut.out_valid_o) {
      REQUIRE_FALSE(expected.empty());
      const Case& c = cases[checked];
      INFO("acc=" << c.acc << " bias=" << c.p.bias << " mult=" << c.p.multiplier
                  << " shift=" << int(c.p.shift) << " zp=" << int(c.zp) << " relu=" << c.relu);
      REQUIRE(int(int8_t(dut.out_o)) == int(expected.front()));
      expected.pop_front();
      ++checked;
    }
  }
  REQUIRE(checked == cases.size());
}

}  // namespace

TEST_CASE("requant lane: rounding, saturation and ReLU edges match the golden model", "[rtl][act]") {
  const std::vector<Case> edges = {
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
      // rounded magnitudes at and beyond 2^9, with zero low bits (the lane keeps only
      // q's low nine bits and whether q >= 512)
      {512, {0, 1 << 20, 20}, 0, false},        {-512, {0, 1 << 20, 20}, 0, false},
      {511, {0, 1 << 20, 20}, -128, false},     {-511, {0, 1 << 20, 20}, 127, false},
      {1 << 20, {0, 1 << 30, 0}, 0, false},     {-(1 << 20), {0, 1 << 30, 0}, 0, true},
      {INT32_MIN, {0, INT32_MIN, 53}, -128, false}, {INT32_MIN, {0, INT32_MIN, 54}, -128, false},
      {INT32_MIN, {0, INT32_MAX, 53}, 127, false},  {1023, {0, 1, 1}, -128, false},
  };
  std::mt19937 rng(test::test_seed());
  run_cases(edges, 0.0, rng);
}

TEST_CASE("requant lane: random values stream bit-exact with the golden model", "[rtl][act]") {
  const double idle = GENERATE(0.0, 0.4);
  std::mt19937 rng(test::test_seed());
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int> shift(0, 63), zp(-128, 127), coin(0, 1), small(-3000, 3000);
  std::vector<Case> cases;
  for (int i = 0; i < 20000; ++i) {
    // Mix full-range values with realistic ones (small accumulators, scales near 2^-10).
    const bool realistic = i % 2;
    Case c;
    c.acc = realistic ? small(rng) * 37 : any(rng);
    c.p.bias = realistic ? small(rng) : any(rng);
    c.p.multiplier = realistic ? (1 << 30) + small(rng) * 1000 : any(rng);
    c.p.shift = static_cast<uint8_t>(realistic ? 36 + shift(rng) % 8 : shift(rng));
    c.zp = int8_t(zp(rng));
    c.relu = coin(rng);
    cases.push_back(c);
  }
  run_cases(cases, idle, rng);
}
