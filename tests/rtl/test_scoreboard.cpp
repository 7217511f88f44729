// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_scoreboard, the controller's interlock, against a C++ model of
// the hazard rules: random candidates (small address space, so conflicts are common)
// and random retirement, for two slot counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "Vtpu_scoreboard_s2.h"
#include "Vtpu_scoreboard_s8.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Slots;
template <> struct Slots<Vtpu_scoreboard_s2> { static constexpr int N = 2; };
template <> struct Slots<Vtpu_scoreboard_s8> { static constexpr int N = 8; };

constexpr int kAddrBits = 6;
enum { UbRd, UbWr, AccRd, AccWr };

struct Entry {
  bool valid = false;
  int unit = 0;
  bool en[4] = {};
  int lo[4] = {}, hi[4] = {};
};

bool meets(int alo, int ahi, int blo, int bhi) { return alo < bhi && blo < ahi; }

// The rules of docs/architecture.md: RAW, WAR and WAW between different units, except
// the chained reads (an activation reading a matrix slot's accumulator rows, a DMA-out
// reading an activation slot's UB rows: those readers wait row by row instead) and a
// DMA-out reading a DMA-in slot's UB rows (its fence holds it until the DMA-in retired).
bool conflicts(const Entry& c, const Entry& e) {
  if (!e.valid || e.unit == c.unit) return false;
  const int pairs[][2] = {{UbRd, UbWr}, {UbWr, UbRd}, {UbWr, UbWr},
                          {AccRd, AccWr}, {AccWr, AccRd}, {AccWr, AccWr}};
  for (const auto& p : pairs) {
    if (p[0] == AccRd && p[1] == AccWr && c.unit == 2 && e.unit == 1) continue;
    if (p[0] == UbRd && p[1] == UbWr && c.unit == 3 && (e.unit == 2 || e.unit == 0)) continue;
    if (c.en[p[0]] && e.en[p[1]] && meets(c.lo[p[0]], c.hi[p[0]], e.lo[p[1]], e.hi[p[1]])) return true;
  }
  return false;
}

}  // namespace

TEMPLATE_TEST_CASE("scoreboard: issues exactly the candidates free of RAW, WAR and WAW hazards",
                   "[rtl][interlock]", Vtpu_scoreboard_s2, Vtpu_scoreboard_s8) {
  constexpr int S = Slots<TestType>::N;
  std::mt19937 rng(tessera::test::test_seed());
  TestType dut;
  reset(dut);
  std::vector<Entry> model(S);
  int issued = 0, blocked_by_hazard = 0, same_unit_overlaps = 0;
  for (int t = 0; t < 30000; ++t) {
    Entry c;
    c.valid = true;
    c.unit = int(rng() % 4);
    for (int r = 0; r < 4; ++r) {
      c.en[r] = rng() % 2;
      c.lo[r] = int(rng() % 64);
      c.hi[r] = c.lo[r] + int(rng() % 9);  // 0..8 rows; may reach 64 (hi has one more bit)
      set_bits(dut.cand_lo_i, kAddrBits * r, kAddrBits, uint64_t(c.lo[r]));
      set_bits(dut.cand_hi_i, (kAddrBits + 1) * r, kAddrBits + 1, uint64_t(c.hi[r]));
    }
    dut.cand_unit_i = c.unit;
    dut.cand_en_i = uint8_t(c.en[0] | c.en[1] << 1 | c.en[2] << 2 | c.en[3] << 3);
    dut.cand_valid_i = rng() % 4 != 0;
    // Retire random in-flight instructions now and then, several in one cycle at times.
    uint32_t retire = 0;
    for (int i = 0; i < S; ++i)
      if (model[i].valid && rng() % 4 == 0) retire |= 1u << i;
    dut.retire_i = retire;
    dut.eval();

    bool hazard = false, any_free = false;
    int first_free = -1;
    for (int i = 0; i < S; ++i) {
      hazard |= conflicts(c, model[i]);
      if (!model[i].valid && first_free < 0) first_free = i;
      any_free |= !model[i].valid;
      if (model[i].valid && model[i].unit == c.unit) {
        Entry same = model[i];
        same.unit = (c.unit + 1) % 4;  // would it clash if the units differed?
        same_unit_overlaps += conflicts(c, same);
      }
    }
    REQUIRE(bool(dut.busy_o) ==
            std::any_of(model.begin(), model.end(), [](const Entry& e) { return e.valid; }));
    REQUIRE(bool(dut.cand_ready_o) == (any_free && !hazard));
    // The slots a whm's fence takes: in-flight DMA-in (0) and activation (2) instructions.
    uint32_t may_fault = 0;
    for (int i = 0; i < S; ++i)
      if (model[i].valid && (model[i].unit == 0 || model[i].unit == 2)) may_fault |= 1u << i;
    REQUIRE(uint32_t(dut.may_fault_o) == may_fault);
    if (any_free) REQUIRE(int(dut.cand_slot_o) == first_free);
    blocked_by_hazard += any_free && hazard;
    const bool fire = dut.cand_valid_i && dut.cand_ready_o;
    tick(dut);
    for (int i = 0; i < S; ++i)
      if (retire >> i & 1) model[i].valid = false;
    if (fire) model[first_free] = c, ++issued;
  }
  CHECK(issued > 1000);
  CHECK(blocked_by_hazard > 1000);   // the hazard rules were exercised, not just slot exhaustion
  CHECK(same_unit_overlaps > 100);   // and same-unit overlaps were let through
}
