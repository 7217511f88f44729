// SPDX-License-Identifier: Apache-2.0
// Block tests of tpu_fetch against its header's promises, with a read engine written from
// tpu_axi_read's beat contract (bus-word beats, lanes [lo, hi) valid, the last beat marked,
// a bus error on every beat of a failing span): random programs in a small device memory
// (halts, 64-byte blocks that fail, programs that run off the end of memory), entries at
// any 16-byte address, random request acceptance, beat gaps and decode backpressure, and
// stops in mid-run followed by a new start. Checked:
// - requests are spans from the fetch address to the next 64-byte boundary, one at a time;
// - the buffer delivers, in order and without loss, every instruction from the entry on
//   with its pc and data, BUS_ERROR for those of a failing block, and nothing after the
//   span that brought a halt; a fetch past the end of memory ends in one DRAM_RANGE entry
//   at that address;
// - a stop empties the buffer at its edge, nothing of the old run comes out after it, and
//   busy stays up until the span on the bus has drained.
#include <catch2/catch.hpp>

#include <deque>
#include <random>
#include <vector>

#include "Vtpu_fetch_w128.h"
#include "Vtpu_fetch_w256.h"
#include "Vtpu_fetch_w32.h"
#include "isa/arch.hpp"
#include "isa/isa.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Params;
template <> struct Params<Vtpu_fetch_w32> { static constexpr int Bytes = 4; };
template <> struct Params<Vtpu_fetch_w128> { static constexpr int Bytes = 16; };
template <> struct Params<Vtpu_fetch_w256> { static constexpr int Bytes = 32; };

constexpr uint32_t kDram = 4096;  // -GDramBytes (tests/rtl/CMakeLists.txt)
constexpr unsigned kErrBusError = unsigned(tessera::ErrorCode::BusError),
                   kErrDramRange = unsigned(tessera::ErrorCode::DramRange);

struct Expected {
  uint32_t pc;
  unsigned fault;
};

}  // namespace

TEMPLATE_TEST_CASE("instruction fetch: spans, order, faults, halts and stops match the promises", "[rtl][fetch]",
                   Vtpu_fetch_w32, Vtpu_fetch_w128, Vtpu_fetch_w256) {
  constexpr int B = Params<TestType>::Bytes;
  const double stall = GENERATE(0.0, 0.6);
  INFO("bus bytes=" << B << " backpressure=" << stall);
  std::mt19937_64 rng(tessera::test::test_seed());
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  REQUIRE(unsigned(tessera::Opcode::HALT) == 1);
  REQUIRE(tessera::find_op(tessera::Opcode::HALT));

  TestType dut;
  dut.start_i = 0;
  dut.stop_i = 1;
  dut.req_ready_i = 0;
  dut.beat_valid_i = 0;
  dut.out_ready_i = 0;
  reset(dut);

  int runs = 0, halts = 0, range_faults = 0, bus_errors = 0, stops = 0;
  long delivered = 0;
  for (int run = 0; run < 60; ++run) {
    // The device memory: random words, a halt now and then, some 64-byte blocks failing.
    std::vector<uint8_t> mem(kDram);
    for (auto& b : mem) b = uint8_t(rng());
    for (uint32_t a = 0; a < kDram; a += 16) {
      mem[a] = uint8_t((mem[a] & 0xf0) | (chance(0.02) ? 1 : 3 + rng() % 5));  // halt or another opcode
    }
    std::vector<bool> bad(kDram / 64);
    for (size_t k = 0; k < bad.size(); ++k) bad[k] = chance(0.03);
    // Entries near the end of memory run off it; a stop comes in some runs.
    const uint32_t entry = chance(0.3) ? kDram - 16 * uint32_t(1 + rng() % 24) : 16 * uint32_t(rng() % (kDram / 16));
    // (every third run, early enough that the run is still going: a drawn count of stops
    // could fall short of the check below)
    const long stop_at = run % 3 == 1 ? long(rng() % 40) : -1;
    // What must come out: from the entry on, up to the end of the span with a halt (a
    // faulting halt does not stop the fetch), or a DRAM_RANGE entry past the end.
    std::vector<Expected> want;
    for (uint32_t pc = entry;; pc += 16) {
      if (pc + 16 > kDram) {
        want.push_back({pc, kErrDramRange});
        break;
      }
      const bool err = bad[pc / 64];
      want.push_back({pc, err ? kErrBusError : 0u});
      if (!err && (mem[pc] & 0xf) == 1) {
        for (uint32_t p = pc + 16; p % 64 != 0; p += 16) want.push_back({p, bad[p / 64] ? kErrBusError : 0u});
        break;
      }
    }

    // (as the controller starts a run: the start pulse while the stop still holds, then
    // the stop lets go)
    dut.entry_i = entry;
    dut.start_i = 1;
    dut.stop_i = 1;
    tick(dut);
    dut.start_i = 0;
    ++runs;

    size_t got = 0;
    bool span = false;               // a span is on the bus (accepted, beats not all given)
    uint32_t span_at = 0, span_end = 0, beat_at = 0;
    bool stopped = false, beat_held = false;
    long quiet = 0;
    for (long t = 0; t < 5000; ++t) {
      // (held, as the controller holds it, until the run is over)
      const bool stop_now = stop_at >= 0 && t >= stop_at;
      dut.stop_i = stop_now;
      const bool was_stopped = stopped;
      if (stop_now && !stopped) stopped = true, ++stops;
      dut.req_ready_i = !span && chance(0.6);
      // the read engine's next beat: the bus word at beat_at, lanes from the span's start
      // (once offered, held until taken)
      const bool beat = span && (beat_held || chance(0.7));
      dut.beat_valid_i = beat;
      if (beat) {
        const uint32_t word = beat_at / B * B;
        const uint32_t lo = beat_at - word, hi = std::min<uint32_t>(span_end - word, B);
        for (int i = 0; i < B; ++i) set_bits(dut.beat_data_i, 8 * unsigned(i), 8, mem[word + uint32_t(i)]);
        dut.beat_lo_i = lo;
        dut.beat_hi_i = hi;
        dut.beat_last_i = word + hi == span_end;
        dut.beat_error_i = bad[span_at / 64];
      }
      dut.out_ready_i = !stop_now && !chance(stall);  // (decode takes nothing while stopped)
      dut.eval();

      REQUIRE(bool(dut.busy_o) == span);          // busy while a span is on the bus
      if (dut.req_valid_o && dut.req_ready_i) {
        REQUIRE(!stop_now);
        const uint32_t a = dut.req_addr_o, len = dut.req_len_o;
        REQUIRE(a % 16 == 0);
        REQUIRE(a + len == (a / 64 + 1) * 64);    // to the next 64-byte boundary
        REQUIRE(a + 16 <= kDram);                 // never past the end of memory
        span = true, span_at = beat_at = a, span_end = a + len;
      }
      if (dut.out_valid_o) {
        REQUIRE(!was_stopped);                    // the stop empties the buffer at its edge
        REQUIRE(got < want.size());
        const Expected& e = want[got];
        REQUIRE(uint32_t(dut.out_pc_o) == e.pc);
        REQUIRE(unsigned(dut.out_fault_o) == e.fault);
        if (e.fault == 0)
          for (int i = 0; i < 16; ++i) REQUIRE(get_bits(dut.out_instr_o, 8 * unsigned(i), 8) == mem[e.pc + uint32_t(i)]);
        if (dut.out_ready_i) {
          ++got, ++delivered;
          halts += e.fault == 0 && (mem[e.pc] & 0xf) == 1;
          range_faults += e.fault == kErrDramRange;
          bus_errors += e.fault == kErrBusError;
        }
      }
      const bool beat_taken = beat && dut.beat_ready_o;
      beat_held = beat && !beat_taken;
      tick(dut);
      if (beat_taken) {
        const uint32_t word = beat_at / B * B, hi = std::min<uint32_t>(span_end - word, B);
        beat_at = word + hi;
        if (beat_at == span_end) span = false;
      }
      // the run is over: everything delivered (or stopped) and the bus quiet for a while
      quiet = (!span && !dut.req_valid_o && !dut.out_valid_o) ? quiet + 1 : 0;
      if ((got == want.size() || stopped) && quiet > 40) break;
    }
    if (!stopped) REQUIRE(got == want.size());    // every instruction, none lost
    REQUIRE(!span);
    REQUIRE(!dut.busy_o);
    // between runs the controller holds the fetch stopped
    dut.stop_i = 1;
    tick(dut);
  }
  CHECK(runs == 60);
  CHECK(delivered > 500);
  CHECK(halts > 5);
  CHECK(range_faults > 3);
  CHECK(bus_errors > 3);
  CHECK(stops > 5);
}
