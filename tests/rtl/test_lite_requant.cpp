// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_lite_requant, the lite core's requantization (one value in eight
// cycles, the product in 16-bit chunks): bit-exact with the golden model's requantize()
// on the edge cases of the core's lane, on random values, and on values whose shift
// puts the rounded result just inside the int8 range, so that every place the result
// can be cut from the product (each chunk boundary, each offset) is taken.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "Vtpu_lite_requant.h"
#include "requant_cases.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

void run_cases(const std::vector<test::RequantCase>& cases) {
  // the start and seven steps; the shift is sampled at the start, the sum (accumulator
  // plus bias, 33 bits) and multiplier the cycle after (here that cycle, then seven
  // counted); zero point and ReLU are held (an act instruction's own)
  test::run_one_at_a_time<Vtpu_lite_requant>(
      cases, [](const test::RequantCase&) { return 7; },
      [](Vtpu_lite_requant& dut, const test::RequantCase&) {
        dut.shift_i = 17;
        tick(dut);
        dut.x_i = 0x1deadbeefULL;
        dut.mult_i = 0xdeadbeef;
      });
}

// |sat(acc + bias) * mult| a little above 2^shift: the result lands in [-512, 512].
std::vector<test::RequantCase> window_cases(std::mt19937& rng, int count) {
  std::uniform_int_distribution<int32_t> any(INT32_MIN, INT32_MAX);
  std::vector<test::RequantCase> cases;
  while (int(cases.size()) < count) {
    test::RequantCase c;
    const int bits = 1 + int(rng() % 31);   // operand sizes from one bit to full range
    c.acc = any(rng) >> (31 - int(rng() % 32));
    c.p.bias = 0;
    c.p.multiplier = any(rng) >> (31 - bits);
    const int64_t x = c.acc, p = x * c.p.multiplier;
    const uint64_t mag = uint64_t(p < 0 ? -p : p);
    int len = 0;
    while (len < 64 && (mag >> len) != 0) ++len;
    const int s = len - 1 - int(rng() % 10);
    if (s < 0 || s > 63) continue;
    c.p.shift = uint8_t(s);
    c.zp = int8_t(rng() % 9 - 4);
    c.relu = rng() % 4 == 0;
    cases.push_back(c);
  }
  return cases;
}

}  // namespace

TEST_CASE("lite requant: rounding, saturation and ReLU edges match the golden model", "[rtl][act][lite]") {
  run_cases(test::requant_edge_cases());
}

TEST_CASE("lite requant: random values match the golden model", "[rtl][act][lite]") {
  std::mt19937 rng(test::test_seed());
  run_cases(test::requant_random_cases(rng, 3000));
}

TEST_CASE("lite requant: results cut from every place of the product match the golden model", "[rtl][act][lite]") {
  std::mt19937 rng(test::test_seed() + 1);
  run_cases(window_cases(rng, 20000));
}

TEST_CASE("lite requant: a value every four cycles, results in order", "[rtl][act][lite]") {
  std::mt19937 rng(test::test_seed() + 2);
  std::vector<test::RequantCase> cases = window_cases(rng, 3000);
  const auto more = test::requant_random_cases(rng, 3000);
  cases.insert(cases.end(), more.begin(), more.end());
  std::shuffle(cases.begin(), cases.end(), rng);
  // zero point and ReLU stay for 64 values at a time, as for an act instruction's values
  for (size_t i = 0; i < cases.size(); ++i) {
    cases[i].zp = cases[i / 64 * 64].zp;
    cases[i].relu = cases[i / 64 * 64].relu;
  }
  Vtpu_lite_requant dut;
  reset(dut);
  size_t next = 0, got = 0;
  long cycles = 0;
  while (got < cases.size()) {
    REQUIRE(++cycles < 100000);
    // start whenever the unit is ready (now and then a cycle later); a value with another
    // zero point or ReLU than those in flight waits until they are done (they are held)
    const bool same = next < cases.size() && (got == next || (cases[next].zp == cases[next - 1].zp &&
                                                              cases[next].relu == cases[next - 1].relu));
    const bool start = same && dut.ready_o && rng() % 8 != 0;
    dut.start_i = start;
    if (start) test::drive_operands(dut, cases[next]);
    dut.eval();
    if (dut.done_o) {
      const auto& c = cases[got];
      INFO("case " << got << ": acc=" << c.acc << " bias=" << c.p.bias << " mult=" << c.p.multiplier
                   << " shift=" << int(c.p.shift) << " zp=" << int(c.zp) << " relu=" << c.relu);
      REQUIRE(int(int8_t(dut.q_o)) == int(c.expected()));
      ++got;
    }
    tick(dut);
    if (start) ++next;
  }
  CHECK(cycles < long(cases.size()) * 5);   // about four cycles a value
}
