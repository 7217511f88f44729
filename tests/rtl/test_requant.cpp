// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_requant, the activation lane: bit-exact with the golden model's
// requantize() on edge cases and on random values, streamed with idle cycles.
#include <catch2/catch.hpp>

#include <deque>
#include <random>

#include "Vtpu_requant.h"
#include "requant_cases.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

using Case = test::RequantCase;

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
      test::drive_operands(dut, c);
      expected.push_back(c.expected());
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
  std::mt19937 rng(test::test_seed());
  run_cases(test::requant_edge_cases(), 0.0, rng);
}

TEST_CASE("requant lane: random values stream bit-exact with the golden model", "[rtl][act]") {
  const double idle = GENERATE(0.0, 0.4);
  std::mt19937 rng(test::test_seed());
  run_cases(test::requant_random_cases(rng, 20000), idle, rng);
}
