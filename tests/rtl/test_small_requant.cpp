// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_small_requant, the small core's requantization (one value over
// 34 + shift cycles): bit-exact with the golden model's requantize() on the edge cases of
// the core's lane and on random values, each result in the cycle count its design gives.
#include <catch2/catch.hpp>

#include <random>

#include "Vtpu_small_requant.h"
#include "requant_cases.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

void run_cases(const std::vector<test::RequantCase>& cases) {
  // start, 32 multiply steps, the shifts, done; acc_i is sampled at the start only
  test::run_one_at_a_time<Vtpu_small_requant>(
      cases, [](const test::RequantCase& c) { return 33 + int(c.p.shift) + 1; },
      [](Vtpu_small_requant& dut, const test::RequantCase&) { dut.acc_i = 0xdeadbeef; });
}

}  // namespace

TEST_CASE("small requant: rounding, saturation and ReLU edges match the golden model", "[rtl][act][small]") {
  run_cases(test::requant_edge_cases());
}

TEST_CASE("small requant: random values match the golden model", "[rtl][act][small]") {
  std::mt19937 rng(test::test_seed());
  run_cases(test::requant_random_cases(rng, 3000));
}
