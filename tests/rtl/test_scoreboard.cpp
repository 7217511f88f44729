// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_scoreboard, the controller's interlock, against a C++ model of
// the hazard rules: random candidates (small address spaces, so conflicts are common),
// random loads, issues and retirements, for two slot counts. The
// scoreboard compares the next candidate a cycle ahead; the model compares the
// candidate itself at the moment it may issue, so the test also checks that the
// registered comparison is always the current one, also for a candidate that waited in
// the controller's skid register (k_*) while slots were taken and retired.
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

constexpr int kAddrBits = 6, kMemBits = 6;
enum { UbRd, UbWr, AccRd, AccWr };

struct Entry {
  bool valid = false;
  int unit = 0;
  bool en[4] = {};
  int lo[4] = {}, hi[4] = {};
  int mem_lo = 0, mem_hi = 0;
};

bool meets(int alo, int ahi, int blo, int bhi) { return alo < bhi && blo < ahi; }

// The rules of docs/architecture.md: RAW, WAR and WAW between different units, except
// the chained reads (an activation reading a matrix slot's accumulator rows, a DMA-out
// reading an activation slot's UB rows: those readers wait row by row instead) and a
// DMA-out reading a DMA-in slot's UB rows (its fence holds it until the DMA-in retired);
// and a DMA-in instruction (rhm, rw) reading device memory a DMA-out one (whm) writes.
bool conflicts(const Entry& c, const Entry& e) {
  if (!e.valid || e.unit == c.unit) return false;
  const int pairs[][2] = {{UbRd, UbWr}, {UbWr, UbRd}, {UbWr, UbWr},
                          {AccRd, AccWr}, {AccWr, AccRd}, {AccWr, AccWr}};
  for (const auto& p : pairs) {
    if (p[0] == AccRd && p[1] == AccWr && c.unit == 2 && e.unit == 1) continue;
    if (p[0] == UbRd && p[1] == UbWr && c.unit == 3 && (e.unit == 2 || e.unit == 0)) continue;
    if (c.en[p[0]] && e.en[p[1]] && meets(c.lo[p[0]], c.hi[p[0]], e.lo[p[1]], e.hi[p[1]])) return true;
  }
  return c.unit == 0 && e.unit == 3 && meets(c.mem_lo, c.mem_hi, e.mem_lo, e.mem_hi);
}

Entry random_entry(std::mt19937& rng) {
  Entry c;
  c.valid = true;
  c.unit = int(rng() % 4);
  for (int r = 0; r < 4; ++r) {
    c.en[r] = rng() % 2;
    c.lo[r] = int(rng() % 64);
    c.hi[r] = c.lo[r] + int(rng() % 9);  // 0..8 rows; may reach 64 (hi has one more bit)
    if (!c.en[r]) c.hi[r] = 0;           // the decoder's rule: a range not used ends at 0
  }
  c.mem_lo = int(rng() % 64);
  c.mem_hi = c.mem_lo + int(rng() % 9);
  return c;
}

// Drive one side's ports (nxt_* or cand_*) with an entry (the enables are in the ranges).
#define DRIVE(dut, side, e)                                                             \
  do {                                                                                  \
    for (int r = 0; r < 4; ++r) {                                                       \
      set_bits(dut.side##_lo_i, kAddrBits * r, kAddrBits, uint64_t((e).lo[r]));         \
      set_bits(dut.side##_hi_i, (kAddrBits + 1) * r, kAddrBits + 1, uint64_t((e).hi[r])); \
    }                                                                                   \
    dut.side##_unit_i = (e).unit;                                                       \
    dut.side##_mem_lo_i = (e).mem_lo;                                                   \
    dut.side##_mem_hi_i = (e).mem_hi;                                                   \
  } while (0)

}  // namespace

TEMPLATE_TEST_CASE("scoreboard: issues exactly the candidates free of RAW, WAR and WAW hazards",
                   "[rtl][interlock]", Vtpu_scoreboard_s2, Vtpu_scoreboard_s8) {
  constexpr int S = Slots<TestType>::N;
  std::mt19937 rng(tessera::test::test_seed());
  TestType dut;
  reset(dut);
  std::vector<Entry> model(S);
  Entry cand;          // the candidate (the controller's decode register)
  Entry skid;          // the controller's skid register: the next candidate, when it holds one
  int from_skid = 0;
  int issued = 0, blocked_by_hazard = 0, same_unit_overlaps = 0, mem_hazards = 0;
  for (int t = 0; t < 30000; ++t) {
    const Entry nxt = random_entry(rng);
    DRIVE(dut, nxt, nxt);
    DRIVE(dut, cand, cand);
    DRIVE(dut, k, skid);
    dut.k_valid_i = skid.valid;
    // Retire random in-flight instructions now and then, several in one cycle at times.
    uint32_t retire = 0;
    for (int i = 0; i < S; ++i)
      if (model[i].valid && rng() % 4 == 0) retire |= 1u << i;
    dut.retire_i = retire;
    dut.cand_valid_i = cand.valid && rng() % 4 != 0;
    dut.load_fire_i = 0;
    dut.load_hold_i = 0;
    dut.eval();

    bool hazard = false, any_free = false;
    int first_free = -1;
    for (int i = 0; i < S; ++i) {
      hazard |= conflicts(cand, model[i]);
      if (!model[i].valid && first_free < 0) first_free = i;
      any_free |= !model[i].valid;
      if (model[i].valid && model[i].unit == cand.unit) {
        Entry same = model[i];
        same.unit = (cand.unit + 1) % 4;  // would it clash if the units differed?
        same_unit_overlaps += conflicts(cand, same);
      }
      mem_hazards += cand.unit == 0 && model[i].valid && model[i].unit == 3 &&
                     meets(cand.mem_lo, cand.mem_hi, model[i].mem_lo, model[i].mem_hi);
    }
    REQUIRE(bool(dut.busy_o) ==
            std::any_of(model.begin(), model.end(), [](const Entry& e) { return e.valid; }));
    if (cand.valid) REQUIRE(bool(dut.cand_ready_o) == (any_free && !hazard));
    // The slots a whm's fence takes: in-flight DMA-in (0) and activation (2) instructions.
    uint32_t may_fault = 0;
    for (int i = 0; i < S; ++i)
      if (model[i].valid && (model[i].unit == 0 || model[i].unit == 2)) may_fault |= 1u << i;
    REQUIRE(uint32_t(dut.may_fault_o) == may_fault);
    if (any_free) REQUIRE(int(dut.cand_slot_o) == first_free);
    blocked_by_hazard += cand.valid && any_free && hazard;

    // The controller's side: the candidate register loads the next one if it is empty
    // or its instruction issues: from the skid register when it holds one (always), else
    // from next (when there is one). Next goes to the empty skid register when the
    // candidate stays.
    const bool fire = dut.cand_valid_i && dut.cand_ready_o;
    // The scoreboard is told the load for both outcomes of the issue and picks by its own.
    const bool next_there = skid.valid || rng() % 4 != 0;
    const bool load = (!cand.valid || fire) && next_there;
    const bool to_skid = !skid.valid && cand.valid && !fire && rng() % 2 == 0;
    dut.load_fire_i = next_there;
    dut.load_hold_i = !cand.valid && next_there;
    tick(dut);
    for (int i = 0; i < S; ++i)
      if (retire >> i & 1) model[i].valid = false;
    if (fire) model[first_free] = cand, ++issued;
    if (load) {
      from_skid += skid.valid;
      cand = skid.valid ? skid : nxt;
      skid.valid = false;
    } else if (fire) {
      cand.valid = false;
    } else if (to_skid) {
      skid = nxt;
    }
  }
  CHECK(issued > 1000);
  CHECK(from_skid > 1000);           // candidates came through the skid register
  CHECK(blocked_by_hazard > 1000);   // the hazard rules were exercised, not just slot exhaustion
  CHECK(same_unit_overlaps > 100);   // and same-unit overlaps were let through
  CHECK(mem_hazards > 100);          // and device-memory order
}
