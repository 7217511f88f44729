// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_chain_track (chaining: rows a writer unit has still to write)
// against a C++ model written from docs/architecture.md: random writers take slots,
// write their rows in order at random times and retire; every cycle two random rows are
// asked about, and the answers, registered, must be the model's of that cycle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <vector>

#include "Vtpu_chain_track_s4.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

constexpr int kSlots = 4, kRows = 64;

struct Writer {
  bool valid = false;         // a tracked writer holds the slot
  int lo = 0, next = 0, hi = 0;  // its rows [lo, hi); [next, hi) still to write
};

bool pending(const std::vector<Writer>& w, int row) {
  for (const Writer& e : w)
    if (e.valid && e.next <= row && row < e.hi) return true;
  return false;
}

}  // namespace

TEST_CASE("chain tracker: a row is pending while a tracked writer has it still to write",
          "[rtl][interlock]") {
  std::mt19937 rng(tessera::test::test_seed());
  Vtpu_chain_track_s4 dut;
  reset(dut);
  std::vector<Writer> model(kSlots);
  std::vector<bool> used(kSlots, false);  // a slot holds some instruction, tracked or not
  int pend = 0, clear = 0, wrote = 0;
  for (int t = 0; t < 40000; ++t) {
    // an instruction takes a free slot now and then: a tracked writer or another unit's
    int free_slot = -1;
    for (int i = 0; i < kSlots; ++i)
      if (!used[i]) { free_slot = i; break; }
    const bool take = free_slot >= 0 && rng() % 3 == 0;
    const bool tracked = rng() % 4 != 0;
    const int lo = int(rng() % kRows), hi = std::min(kRows, lo + int(rng() % 20));
    dut.take_i = take;
    dut.take_slot_i = take ? free_slot : int(rng() % kSlots);
    dut.take_tracked_i = tracked;
    dut.take_lo_i = lo;
    dut.take_hi_i = hi;
    // a writer with rows left writes its next one; one that is done may retire
    std::vector<int> writing;
    uint32_t retire = 0;
    for (int i = 0; i < kSlots; ++i) {
      if (model[i].valid && model[i].next < model[i].hi) writing.push_back(i);
      else if (used[i] && rng() % 3 == 0) retire |= 1u << i;
    }
    const bool wr = !writing.empty() && rng() % 2;
    const int wr_slot = wr ? writing[rng() % writing.size()] : 0;
    dut.wr_valid_i = wr;
    dut.wr_slot_i = wr_slot;
    dut.wr_addr_i = wr ? model[wr_slot].next : int(rng() % kRows);
    dut.retire_i = retire;
    // (the row checked: chk_addr_i, or chk_alt_i when chk_use_alt_i; the other one random)
    const int chk = int(rng() % kRows), other = int(rng() % kRows), chk_next = int(rng() % kRows);
    const bool use_alt = rng() % 2;
    dut.chk_addr_i = use_alt ? other : chk;
    dut.chk_alt_i = use_alt ? chk : other;
    dut.chk_use_alt_i = use_alt;
    dut.chk_next_i = chk_next;
    dut.eval();
    const bool want = pending(model, chk), want_next = pending(model, chk_next);
    pend += want;
    clear += !want && std::any_of(model.begin(), model.end(), [&](const Writer& w) {
      return w.valid && w.lo <= chk && chk < w.hi;  // a written row of a writer in flight
    });
    tick(dut);
    REQUIRE(bool(dut.pending_o) == want);
    REQUIRE(bool(dut.pending_next_o) == want_next);
    if (wr) ++model[wr_slot].next, ++wrote;
    for (int i = 0; i < kSlots; ++i)
      if (retire >> i & 1) model[i] = Writer{}, used[i] = false;
    if (take) model[free_slot] = Writer{tracked, lo, lo, tracked ? hi : 0}, used[free_slot] = true;
  }
  CHECK(pend > 2000);
  CHECK(clear > 1000);
  CHECK(wrote > 2000);
}
