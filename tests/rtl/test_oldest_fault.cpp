// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_oldest_fault, the controller's fault selection: against the rule it
// replaced, a chain of compare-and-select steps in candidate order (a later candidate
// wins only with a strictly lower PC), on random candidates with many equal PCs.
#include <catch2/catch.hpp>

#include <random>

#include "Vtpu_oldest_fault.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

TEST_CASE("oldest fault: the lowest PC wins, the earlier candidate on a tie", "[rtl][controller]") {
  constexpr int K = 5;
  std::mt19937 rng(tessera::test::test_seed());
  Vtpu_oldest_fault dut;
  for (int trial = 0; trial < 20000; ++trial) {
    // PCs from a few values (ties) or anywhere in 32 bits
    const bool narrow = trial % 2 == 0;
    uint32_t valid = rng() % (1u << K), pc[K], code[K];
    for (int i = 0; i < K; ++i) {
      pc[i] = narrow ? 16 * (rng() % 4) : uint32_t(rng());
      code[i] = rng() % 16;
      set_bits(dut.pc_i, 32 * i, 32, pc[i]);
      set_bits(dut.code_i, 4 * i, 4, code[i]);
    }
    dut.valid_i = valid;
    dut.eval();
    bool any = false;
    uint32_t want_pc = 0, want_code = 0;
    for (int i = 0; i < K; ++i) {
      if ((valid >> i & 1) && (!any || pc[i] < want_pc)) any = true, want_pc = pc[i], want_code = code[i];
    }
    INFO("trial " << trial << " valid " << valid);
    REQUIRE(bool(dut.any_o) == any);
    if (any) {
      REQUIRE(dut.pc_o == want_pc);
      REQUIRE(uint32_t(dut.code_o) == want_code);
    }
  }
}
