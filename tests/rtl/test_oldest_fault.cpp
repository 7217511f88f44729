// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_oldest_fault, the controller's fault selection: against the rule it
// replaced, a chain of compare-and-select steps in candidate order (a later candidate
// wins only with a strictly lower PC), on random candidates with many equal PCs. Each
// trial's PCs are held a clock edge before the candidates are valid, as the registered
// form (Registered = 1) requires; its comparisons are then the trial's own.
#include <catch2/catch.hpp>

#include <random>

#include "Vtpu_oldest_fault.h"
#include "Vtpu_oldest_fault_pc12.h"
#include "Vtpu_oldest_fault_reg.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {
// Random candidates against the chain of compare-and-select steps; pc_of(trial) draws
// one candidate's PC.
template <class Dut, class PcOf>
void check_oldest(Dut& dut, std::mt19937& rng, PcOf pc_of) {
  constexpr int K = 5;
  for (int trial = 0; trial < 20000; ++trial) {
    uint32_t valid = rng() % (1u << K), pc[K], code[K];
    for (int i = 0; i < K; ++i) {
      pc[i] = pc_of(trial);
      code[i] = rng() % 16;
      set_bits(dut.pc_i, 32 * i, 32, pc[i]);
      set_bits(dut.code_i, 4 * i, 4, code[i]);
    }
    dut.valid_i = 0;
    tick(dut);
    dut.valid_i = valid;
    dut.eval();
    bool any = false;
    uint32_t want_pc = 0, want_code = 0, want_win = 0;
    for (int i = 0; i < K; ++i) {
      if ((valid >> i & 1) && (!any || pc[i] < want_pc))
        any = true, want_pc = pc[i], want_code = code[i], want_win = 1u << i;
    }
    INFO("trial " << trial << " valid " << valid);
    REQUIRE(bool(dut.any_o) == any);
    REQUIRE(uint32_t(dut.win_o) == want_win);
    if (any) {
      REQUIRE(dut.pc_o == want_pc);
      REQUIRE(uint32_t(dut.code_o) == want_code);
    }
  }
}
}  // namespace

TEST_CASE("oldest fault: the lowest PC wins, the earlier candidate on a tie", "[rtl][controller]") {
  std::mt19937 rng(tessera::test::test_seed());
  Vtpu_oldest_fault dut;
  // PCs from a few values (ties) or anywhere in 32 bits
  check_oldest(dut, rng, [&](int trial) { return trial % 2 == 0 ? 16 * (rng() % 4) : uint32_t(rng()); });
}

TEMPLATE_TEST_CASE("oldest fault, PcBits = 12: exact below 2^12, one fetch fault past it", "[rtl][controller]",
                   Vtpu_oldest_fault_pc12, Vtpu_oldest_fault_reg) {
  std::mt19937 rng(tessera::test::test_seed());
  TestType dut;
  // PCs in device memory (below 2^12, often equal) and, in some trials, the one PC at or
  // past its end that a fetch can fault at: the lowest PC must still win exactly.
  uint32_t past_end = 4096;
  int drawn = -1;
  check_oldest(dut, rng, [&](int trial) {
    if (trial % 5 == 0 && trial != drawn) past_end = 4096 + 16 * (rng() % 1000000), drawn = trial;
    const uint32_t r = rng() % 8;
    return r == 0 ? past_end : r < 4 ? 16 * (rng() % 4) : rng() % 4096;
  });
}
