// SPDX-License-Identifier: Apache-2.0
// Block tests of the unified buffer and the accumulators against C++ models, for two
// parameter sets each, with random idle cycles.
#include <catch2/catch.hpp>

#include <deque>
#include <random>
#include <vector>

#include "Vtpu_accumulators_n4.h"
#include "Vtpu_accumulators_n8.h"
#include "Vtpu_unified_buffer_n16.h"
#include "Vtpu_unified_buffer_n4.h"
#include "model/numerics.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Shape;
template <> struct Shape<Vtpu_unified_buffer_n4> { static constexpr int N = 4, Rows = 64; };
template <> struct Shape<Vtpu_unified_buffer_n16> { static constexpr int N = 16, Rows = 256; };
template <> struct Shape<Vtpu_accumulators_n4> { static constexpr int N = 4, Rows = 64; };
template <> struct Shape<Vtpu_accumulators_n8> { static constexpr int N = 8, Rows = 32; };

}  // namespace

TEMPLATE_TEST_CASE("unified buffer: two read and two write ports over four banks, two-cycle reads, a poison value "
                   "for a row read as it is written",
                   "[rtl][ub]",
                   Vtpu_unified_buffer_n4, Vtpu_unified_buffer_n16) {
  constexpr int N = Shape<TestType>::N, Rows = Shape<TestType>::Rows;
  std::mt19937_64 rng(tessera::test::test_seed());
  std::vector<std::vector<uint8_t>> model(Rows, std::vector<uint8_t>(N, 0));
  TestType dut;
  // Fill every row first so that every later read has a defined value.
  for (int r = 0; r < Rows; ++r) {
    dut.wr_en_i = 1;
    dut.wr_addr_i = r;
    for (int i = 0; i < N; ++i) set_bits(dut.wr_data_i, 8 * i, 8, model[r][i] = uint8_t(rng()));
    dut.a_en_i = dut.b_en_i = 0;
    dut.w2_en_i = 0;
    tick(dut);
  }
  int both = 0, refused = 0, two_writes = 0, clashes = 0;
  // A read's data arrives two cycles after it: the expectations of the read before.
  struct Expect {
    bool a_read = false, b_read = false;
    std::vector<uint8_t> a, b;
  } prev;
  for (int t = 0; t < 20000; ++t) {
    dut.a_en_i = rng() % 4 != 0;
    dut.a_addr_i = rng() % Rows;
    dut.b_en_i = rng() % 4 != 0;
    dut.b_addr_i = rng() % Rows;
    dut.wr_en_i = rng() % 2;
    // Often write the very row being read: that read is undefined (block RAM without
    // bypass logic), and simulation returns 0xA5 bytes.
    const unsigned pick = rng() % 4;
    dut.wr_addr_i = pick == 0 ? dut.a_addr_i : pick == 1 ? dut.b_addr_i : rng() % Rows;
    std::vector<uint8_t> data(N), data2(N);
    for (int i = 0; i < N; ++i) set_bits(dut.wr_data_i, 8 * i, 8, data[i] = uint8_t(rng()));
    // Port 2 writes beside port 1 in the other bank (as the core uses it), or alone.
    dut.w2_en_i = rng() % 2;
    const unsigned pick2 = rng() % 3;
    dut.w2_addr_i = pick2 == 0 ? dut.a_addr_i : pick2 == 1 ? dut.b_addr_i : rng() % Rows;
    if (dut.wr_en_i && dut.w2_en_i && dut.w2_addr_i % 4 == dut.wr_addr_i % 4) dut.w2_addr_i ^= 1;
    for (int i = 0; i < N; ++i) set_bits(dut.w2_data_i, 8 * i, 8, data2[i] = uint8_t(rng()));
    dut.eval();
    // Port B is refused exactly when port A reads the same bank (row mod 4).
    const bool b_ok = !dut.a_en_i || (dut.a_addr_i % 4) != (dut.b_addr_i % 4);
    REQUIRE(bool(dut.b_ok_o) == b_ok);
    std::vector<uint8_t> a_now = model[dut.a_addr_i], b_now = model[dut.b_addr_i];
    const bool a_read = dut.a_en_i, b_read = dut.b_en_i && b_ok;
    const auto written = [&](uint32_t row) {
      return (dut.wr_en_i && dut.wr_addr_i == row) || (dut.w2_en_i && dut.w2_addr_i == row);
    };
    if (written(dut.a_addr_i)) a_now.assign(N, 0xA5), ++clashes;
    if (written(dut.b_addr_i)) b_now.assign(N, 0xA5);
    both += a_read && b_read;
    refused += dut.b_en_i && !b_ok;
    if (dut.wr_en_i) model[dut.wr_addr_i] = data;
    if (dut.w2_en_i) model[dut.w2_addr_i] = data2;
    two_writes += dut.wr_en_i && dut.w2_en_i;
    tick(dut);
    if (prev.a_read)
      for (int i = 0; i < N; ++i) REQUIRE(get_bits(dut.a_data_o, 8 * i, 8) == prev.a[i]);
    if (prev.b_read)
      for (int i = 0; i < N; ++i) REQUIRE(get_bits(dut.b_data_o, 8 * i, 8) == prev.b[i]);
    prev = Expect{a_read, b_read, a_now, b_now};
  }
  CHECK(both > 1000);     // both ports served in one cycle, often
  CHECK(refused > 1000);  // and the bank conflict exercised
  CHECK(two_writes > 1000);  // two rows written in one cycle, often
  CHECK(clashes > 1000);     // and a row read as it is written
}

TEMPLATE_TEST_CASE("accumulators: overwrite, saturating accumulate, the same row two and three rows apart", "[rtl][acc]",
                   Vtpu_accumulators_n4, Vtpu_accumulators_n8) {
  constexpr int N = Shape<TestType>::N, Rows = Shape<TestType>::Rows;
  const double idle = GENERATE(0.0, 0.5);
  std::mt19937_64 rng(tessera::test::test_seed());
  std::bernoulli_distribution idle_now(idle);
  std::vector<std::vector<int32_t>> model(Rows, std::vector<int32_t>(N, 0));
  TestType dut;
  reset(dut);
  // Overwrite every row once so the model and the RTL start equal.
  for (int r = 0; r < Rows; ++r) {
    dut.in_valid_i = 1;
    dut.in_accumulate_i = 0;
    dut.in_addr_i = r;
    for (int i = 0; i < N; ++i) set_bits(dut.in_data_i, 32 * i, 32, 0);
    tick(dut);
  }
  dut.in_valid_i = 0;
  tick(dut);
  tick(dut);
  auto value = [&](int kind) -> int32_t {  // big values make saturation common
    switch (kind) {
      case 0: return int32_t(rng() % 2001) - 1000;
      case 1: return int32_t(uint32_t(rng()));
      default: return (rng() & 1) ? INT32_MAX - int32_t(rng() % 3) : INT32_MIN + int32_t(rng() % 3);
    }
  };
  int saturated = 0, near[4] = {0, 0, 0, 0};  // accumulates onto the row 2 or 3 cycles before
  std::deque<std::vector<int32_t>> reads;  // expected activation-port data, one cycle later
  std::deque<int> last = {-1, -1, -1};     // the rows that came in 1, 2, 3 cycles before (-1: none)
  for (int t = 0; t < 20000; ++t) {
    dut.in_valid_i = !idle_now(rng);
    dut.in_accumulate_i = rng() % 4 != 0;
    dut.in_addr_i = (rng() % 2) ? rng() % 4 : rng() % Rows;  // rows 0..3 hit back to back
    // The contract: no accumulate onto the row of the cycle before (the matrix sequencer
    // leaves a cycle between them); such a row overwrites instead.
    if (dut.in_valid_i && int(dut.in_addr_i) == last[0]) dut.in_accumulate_i = 0;
    if (dut.in_valid_i && dut.in_accumulate_i)
      for (int d = 2; d <= 3; ++d) near[d] += int(dut.in_addr_i) == last[d - 1];
    last.push_front(dut.in_valid_i ? int(dut.in_addr_i) : -1);
    last.pop_back();
    std::vector<int32_t> data(N);
    const int kind = int(rng() % 3);
    for (int i = 0; i < N; ++i) set_bits(dut.in_data_i, 32 * i, 32, uint32_t(data[i] = value(kind)));
    if (dut.in_valid_i) {
      auto& row = model[dut.in_addr_i];
      for (int i = 0; i < N; ++i) {
        const int64_t wide = int64_t(row[i]) + data[i];
        if (dut.in_accumulate_i) {
          saturated += wide != tessera::saturate32(wide);
          row[i] = tessera::saturate32(wide);
        } else {
          row[i] = data[i];
        }
      }
    }
    tick(dut);
  }
  CHECK(saturated > 10);
  CHECK(near[2] > 200);  // both forwards exercised
  CHECK(near[3] > 200);
  // Drain the pipeline (a row is in memory at the end of the third cycle after it came
  // in), then read every row through the activation port.
  dut.in_valid_i = 0;
  tick(dut);
  tick(dut);
  tick(dut);
  for (int r = 0; r < Rows; ++r) {
    dut.rd_en_i = 1;
    dut.rd_addr_i = r;
    tick(dut);
    for (int i = 0; i < N; ++i) {
      INFO("row " << r << " lane " << i);
      REQUIRE(int32_t(uint32_t(get_bits(dut.rd_data_o, 32 * i, 32))) == model[r][i]);
    }
  }
}

// Outside the contract, an accumulate onto the row of the cycle before: simulation
// writes a poison value (the add cannot see that row's result), so that a sequencer
// which broke the contract shows as a mismatch with the golden model.
TEMPLATE_TEST_CASE("accumulators: an accumulate onto the row just before is poisoned in simulation", "[rtl][acc]",
                   Vtpu_accumulators_n4, Vtpu_accumulators_n8) {
  constexpr int N = Shape<TestType>::N;
  TestType dut;
  reset(dut);
  for (int k = 0; k < 2; ++k) {  // row 5 := 1, then row 5 += 1 in the next cycle
    dut.in_valid_i = 1;
    dut.in_accumulate_i = k;
    dut.in_addr_i = 5;
    for (int i = 0; i < N; ++i) set_bits(dut.in_data_i, 32 * i, 32, 1);
    tick(dut);
  }
  dut.in_valid_i = 0;
  for (int k = 0; k < 4; ++k) tick(dut);
  dut.rd_en_i = 1;
  dut.rd_addr_i = 5;
  tick(dut);
  for (int i = 0; i < N; ++i) CHECK(get_bits(dut.rd_data_o, 32 * i, 32) == 0x5EA50BAEu);  // poison + 1
}

// Scrubbing (tpu_scrub inside each memory): a start pulse clears every row, one a cycle
// through write port 1, whatever that port is asked to write meanwhile; the memory says
// so for exactly Rows cycles.
namespace {

// Pulses scrub_i and runs until scrubbing_o falls (at most limit cycles), calling
// meanwhile() before each cycle; returns the cycles scrubbing_o was high.
template <typename Dut, typename Meanwhile>
int scrub(Dut& dut, int limit, Meanwhile meanwhile) {
  REQUIRE_FALSE(dut.scrubbing_o);
  dut.scrub_i = 1;
  tick(dut);
  dut.scrub_i = 0;
  int cycles = 0;
  for (; dut.scrubbing_o && cycles <= limit; ++cycles) {
    meanwhile();
    tick(dut);
  }
  return cycles;
}

}  // namespace

TEMPLATE_TEST_CASE("unified buffer: a scrub clears every row in Rows cycles", "[rtl][ub][scrub]",
                   Vtpu_unified_buffer_n4, Vtpu_unified_buffer_n16) {
  constexpr int N = Shape<TestType>::N, Rows = Shape<TestType>::Rows;
  std::mt19937_64 rng(tessera::test::test_seed());
  TestType dut;
  reset(dut);
  for (int r = 0; r < Rows; ++r) {  // every row non-zero
    dut.wr_en_i = 1;
    dut.wr_addr_i = r;
    for (int i = 0; i < N; ++i) set_bits(dut.wr_data_i, 8 * i, 8, 1 + rng() % 255);
    tick(dut);
  }
  REQUIRE(scrub(dut, Rows, [&] {
            dut.wr_addr_i = rng() % Rows;  // port 1's own writes lose to the scrub
            for (int i = 0; i < N; ++i) set_bits(dut.wr_data_i, 8 * i, 8, 1 + rng() % 255);
          }) == Rows);
  dut.wr_en_i = 0;
  for (int r = 0; r < Rows + 2; ++r) {  // each row through both ports, two cycles later
    dut.a_en_i = r < Rows;
    dut.a_addr_i = r % Rows;
    dut.b_en_i = r < Rows;
    dut.b_addr_i = (r + 1) % Rows;  // (another bank: port B is served)
    tick(dut);
    if (r >= 2)
      for (int i = 0; i < N; ++i) {
        INFO("row " << r - 2 << " lane " << i);
        REQUIRE(get_bits(dut.a_data_o, 8 * i, 8) == 0);
        REQUIRE(get_bits(dut.b_data_o, 8 * i, 8) == 0);
      }
  }
}

TEMPLATE_TEST_CASE("accumulators: a scrub clears every row in Rows cycles", "[rtl][acc][scrub]",
                   Vtpu_accumulators_n4, Vtpu_accumulators_n8) {
  constexpr int N = Shape<TestType>::N, Rows = Shape<TestType>::Rows;
  std::mt19937_64 rng(tessera::test::test_seed());
  TestType dut;
  reset(dut);
  for (int r = 0; r < Rows; ++r) {  // every row non-zero
    dut.in_valid_i = 1;
    dut.in_accumulate_i = 0;
    dut.in_addr_i = r;
    for (int i = 0; i < N; ++i) set_bits(dut.in_data_i, 32 * i, 32, 1 + uint32_t(rng() % 1000));
    tick(dut);
  }
  dut.in_valid_i = 0;
  for (int k = 0; k < 3; ++k) tick(dut);
  REQUIRE(scrub(dut, Rows, [&] {
            dut.in_valid_i = rng() % 2;  // neither a row of its own nor an accumulate gets through
            dut.in_accumulate_i = 1;
            dut.in_addr_i = rng() % Rows;
            for (int i = 0; i < N; ++i) set_bits(dut.in_data_i, 32 * i, 32, 1 + uint32_t(rng() % 1000));
          }) == Rows);
  dut.in_valid_i = 0;
  dut.in_accumulate_i = 0;
  for (int k = 0; k < 3; ++k) tick(dut);  // the last zero row reaches memory
  for (int r = 0; r < Rows; ++r) {
    dut.rd_en_i = 1;
    dut.rd_addr_i = r;
    tick(dut);
    for (int i = 0; i < N; ++i) {
      INFO("row " << r << " lane " << i);
      REQUIRE(get_bits(dut.rd_data_o, 32 * i, 32) == 0);
    }
  }
}
