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
  Vtpu_small_requant dut;
  reset(dut);
  for (const auto& c : cases) {
    INFO("acc=" << c.acc << " bias=" << c.p.bias << " mult=" << c.p.multiplier
                << " shift=" << int(c.p.shift) << " zp=" << int(c.zp) << " relu=" << c.relu);
    dut.start_i = 1;
    test::drive_operands(dut, c);
    tick(dut);
    dut.start_i = 0;
    dut.acc_i = 0xdeadbeef;  // sampled at start only
    int cycles = 1;
    while (!dut.done_o && cycles < 200) tick(dut), ++cycles;
    REQUIRE(dut.done_o);
    CHECK(cycles == 33 + int(c.p.shift) + 1);  // start, 32 multiply steps, the shifts, done
    REQUIRE(int(int8_t(dut.q_o)) == int(c.expected()));
    tick(dut);
    REQUIRE_FALSE(dut.done_o);
  }
}

}  // namespace

TEST_CASE("small requant: rounding, saturation and ReLU edges match the golden model", "[rtl][act][small]") {
  run_cases(test::requant_edge_cases());
}

TEST_CASE("small requant: random values match the golden model", "[rtl][act][small]") {
  std::mt19937 rng(test::test_seed());
  run_cases(test::requant_random_cases(rng, 3000));
}
