// SPDX-License-Identifier: Apache-2.0
// Block test of the performance counters: tpu_counters (flip-flops, answering a read at
// once; 11 counters, 8-bit steps, two never moving, six of single events) and
// tpu_counters_ram (block RAM, answering within a sweep) with the lite core's parameters
// (3-bit steps, seven of single events, the MACs' an event of 16), against a C++ model of the
// contract: each cycle a counter adds its step while counting; a clear zeroes them all,
// a load sets the instruction count (both ignoring that cycle's steps). A read answers
// with the model's value at one cycle between the ask and the answer (for the flip-flop
// form exactly the ask's cycle). Steps are often the largest, and loads put values near
// 2^64, so that every 16-bit chunk carries and the pending sums reach their widest.
#include <catch2/catch.hpp>

#include <array>
#include <deque>
#include <random>

#include "Vtpu_counters_lite.h"
#include "Vtpu_counters_ram_lite.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

constexpr int kCounters = 11, kInstr = 1;
constexpr uint32_t kZero = (1u << 7) | (1u << 8);  // (tests/rtl/CMakeLists.txt: -GZero)

// The parameters of a form as tests/rtl/CMakeLists.txt builds it.
struct Form {
  int step_bits;
  uint32_t one_bit;  // counters of single events (tpu_counters_ram -GOneBit)
  uint32_t scaled;   // (of those) whose event counts 2^shift (-GScaled, -GOneShift)
  int shift;
};
constexpr Form kFlipFlops = {8, 0x663, 0, 0};
constexpr Form kRam = {3, 0x667, 0x004, 4};

template <typename Dut>
void run_counters(bool at_once, const Form& form) {
  const int step_bits = form.step_bits;
  std::mt19937 rng(tessera::test::test_seed());
  Dut dut;
  reset(dut);
  std::array<uint64_t, kCounters> model{};
  std::deque<std::array<uint64_t, kCounters>> history;  // the model's values since the ask
  bool asking = false;
  int index = 0, wait = 0, reads = 0, max_wait = 0;
  const int cycles = 60000;
  for (int t = 0; t < cycles; ++t) {
    // this cycle's inputs
    const int phase = (t / 3000) % 3;  // quiet, busy, saturated
    const bool clear = rng() % 2500 == 0, load = !clear && rng() % 1500 == 0;
    const bool counting = phase != 0 || rng() % 2;
    uint64_t load_value = 0;
    if (load) load_value = rng() % 2 ? (~uint64_t{0} - rng() % 5000) : (uint64_t(rng()) << 32 | rng());
    dut.clear_i = clear, dut.load_i = load, dut.load_value_i = load_value, dut.counting_i = counting;
    std::array<uint32_t, kCounters> step{};
    for (int c = 0; c < kCounters; ++c) {
      const uint32_t top = (1u << step_bits) - 1;
      step[size_t(c)] = phase == 2 ? top : phase == 1 ? rng() % (top + 1) : rng() % 2;
      if (form.one_bit >> c & 1) step[size_t(c)] &= 1;
      if (kZero >> c & 1) step[size_t(c)] = 0;
      set_bits(dut.step_i, step_bits * c, step_bits, step[size_t(c)]);
    }
    if (!asking && rng() % 40 == 0) {
      asking = true, index = int(rng() % kCounters), wait = 0;
      history.clear();
    }
    dut.rd_i = asking, dut.rd_index_i = uint8_t(index);
    dut.eval();
    if (asking) {
      history.push_back(model);
      if (dut.rd_valid_o) {
        // the answer is the model's value at some cycle since the ask
        const uint64_t got = dut.rd_value_o;
        bool seen = false;
        for (size_t k = 0; k < history.size(); ++k) seen = seen || history[k][size_t(index)] == got;
        INFO("cycle " << t << ": counter " << index << " read " << got << " after " << wait
                      << " cycles; at the ask " << history.front()[size_t(index)] << ", now " << model[size_t(index)]);
        REQUIRE(seen);
        if (at_once) REQUIRE(wait == 0);
        asking = false, ++reads, max_wait = std::max(max_wait, wait);
      } else {
        REQUIRE(!at_once);
        REQUIRE(wait < 4 * kCounters + 8);  // within a sweep and a visit
        ++wait;
      }
    }
    tick(dut);
    // the model's edge
    for (int c = 0; c < kCounters; ++c) {
      if (clear) model[size_t(c)] = 0;
      else if (load && c == kInstr) model[size_t(c)] = load_value;
      else if (counting) model[size_t(c)] += uint64_t(step[size_t(c)]) << (form.scaled >> c & 1 ? form.shift : 0);
    }
  }
  INFO(reads << " reads, the longest wait " << max_wait << " cycles");
  CHECK(reads > 500);
}

}  // namespace

TEST_CASE("Counters in flip-flops: every read the value of its cycle", "[rtl][counters]") {
  run_counters<Vtpu_counters_lite>(true, kFlipFlops);
}

TEST_CASE("Counters in block RAM: every read a value since its ask, within a sweep", "[rtl][counters]") {
  run_counters<Vtpu_counters_ram_lite>(false, kRam);
}
