// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_activation: parameter block, per-lane requantization, ReLU and
// max pooling over planes, against the golden model's numerics, for N = 4 and 16, and
// N = 4 and 16 with one requantization lane serving all lanes (Serial = 1).
#include <catch2/catch.hpp>

#include <deque>
#include <random>

#include "Vtpu_activation_n16.h"
#include "Vtpu_activation_n16s.h"
#include "Vtpu_activation_n4.h"
#include "Vtpu_activation_n4s.h"
#include "model/numerics.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

template <typename M> struct Lanes;
template <> struct Lanes<Vtpu_activation_n4> { static constexpr int N = 4; };
template <> struct Lanes<Vtpu_activation_n16> { static constexpr int N = 16; };
template <> struct Lanes<Vtpu_activation_n4s> { static constexpr int N = 4; };
template <> struct Lanes<Vtpu_activation_n16s> { static constexpr int N = 16; };

// Writes the parameter block row by row and returns the lanes' parameters.
template <typename M>
std::vector<LaneParams> load_params(M& dut, std::mt19937& rng, bool bad_shift = false) {
  constexpr int N = Lanes<M>::N;
  std::uniform_int_distribution<int32_t> bias(-20000, 20000), mult(1 << 28, INT32_MAX);
  std::uniform_int_distribution<int> shift(36, 44);
  std::vector<LaneParams> p(N);
  std::vector<uint8_t> block(act_block_bytes(N));
  for (int i = 0; i < N; ++i) {
    p[i] = {bias(rng), mult(rng), uint8_t(shift(rng))};
    put_act_lane(block.data(), N, i, p[i]);
  }
  if (bad_shift) block[act_shift_at(N, N - 1)] = 64;
  for (uint32_t r = 0; r < kActParamRows; ++r) {
    dut.param_we_i = 1;
    dut.param_row_i = r;
    for (int i = 0; i < N; ++i) set_bits(dut.param_data_i, 8 * i, 8, block[r * N + i]);
    tick(dut);
  }
  dut.param_we_i = 0;
  tick(dut);  // a row takes effect two cycles after it is given (the act sequencer's StCheck)
  return p;
}

}  // namespace

TEMPLATE_TEST_CASE("activation unit: requantize, ReLU and max-pool planes like the golden model",
                   "[rtl][act]", Vtpu_activation_n4, Vtpu_activation_n16, Vtpu_activation_n4s,
                   Vtpu_activation_n16s) {
  constexpr int N = Lanes<TestType>::N;
  const int planes = GENERATE(1, 2, 4);
  const double idle = GENERATE(0.0, 0.3);
  INFO("N=" << N << " planes=" << planes << " idle=" << idle);
  std::mt19937 rng(test::test_seed());
  std::bernoulli_distribution idle_now(idle);
  std::uniform_int_distribution<int32_t> acc(-3000000, 3000000);
  TestType dut;
  reset(dut);
  const std::vector<LaneParams> p = load_params(dut, rng);
  CHECK_FALSE(dut.shift_error_o);
  const int8_t zp = int8_t(rng() % 256);
  const bool relu = rng() % 2;
  dut.zp_i = uint8_t(zp);
  dut.relu_i = relu;

  const int rows = 40;
  std::deque<std::vector<int8_t>> expected;
  int fed = 0, got = 0;
  std::vector<int8_t> best(N);
  bool may_feed = true;  // accept_next_o of the cycle before: a row may be given now
  for (int t = 0; t < 100000 && got < rows; ++t) {
    dut.in_valid_i = 0;
    if (fed < rows * planes && may_feed && !idle_now(rng)) {
      const int g = fed % planes;
      dut.in_valid_i = 1;
      dut.in_first_i = g == 0;
      dut.in_last_i = g == planes - 1;
      for (int i = 0; i < N; ++i) {
        const int32_t a = acc(rng);
        set_bits(dut.in_data_i, 32 * i, 32, uint32_t(a));
        const int8_t q = requantize(a, p[i], zp, relu);
        best[i] = g == 0 ? q : std::max(best[i], q);
      }
      if (g == planes - 1) expected.push_back(best);
      ++fed;
    }
    dut.eval();
    may_feed = dut.accept_next_o;
    const bool soon = dut.out_soon_o;  // announces the next cycle's row (chaining reports it)
    tick(dut);
    REQUIRE(bool(dut.out_valid_o) == soon);
    if (dut.out_valid_o) {
      REQUIRE_FALSE(expected.empty());
      for (int i = 0; i < N; ++i) REQUIRE(int(int8_t(get_bits(dut.out_data_o, 8 * i, 8))) == int(expected.front()[i]));
      expected.pop_front();
      ++got;
    }
  }
  CHECK(got == rows);
}

TEST_CASE("activation unit: a shift above 63 raises shift_error", "[rtl][act]") {
  std::mt19937 rng(test::test_seed());
  Vtpu_activation_n4 dut;
  reset(dut);
  load_params(dut, rng, true);
  CHECK(dut.shift_error_o);
  load_params(dut, rng, false);
  CHECK_FALSE(dut.shift_error_o);
}
