// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_csr through a C++ AXI4-Lite master with random handshake delays,
// against the register map in rtl/tpu_csr.v.
#include <catch2/catch.hpp>

#include <array>
#include <type_traits>
#include <random>

#include "Vtpu_csr.h"
#include "Vtpu_csr_held.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

constexpr int kOkay = 0, kSlvErr = 2;

// Drives one transaction at a time; every cycle also records the core-side pulses and
// answers the counter port (at once, as tpu_counters does, or up to 60 cycles later, as
// tpu_counters_ram may). For the block built with CountersHold the answer stays on the
// port until the next one (as tpu_counters_ram keeps it); otherwise it is garbage after.
template <class Dut>
struct Master {
  Dut& dut;
  std::mt19937& rng;
  double delay;
  int starts = 0, resets = 0;
  std::array<uint64_t, 32> counters{};
  int cnt_wait = -1;  // cycles until the counter port answers; -1: not asked

  void step() {
    dut.eval();
    if (dut.cnt_rd_o && cnt_wait < 0) cnt_wait = delay > 0 ? std::uniform_int_distribution<int>(0, 60)(rng) : 0;
    REQUIRE((dut.cnt_rd_o || cnt_wait < 0));  // asked until answered
    const bool answer = dut.cnt_rd_o && cnt_wait == 0;
    dut.cnt_valid_i = answer;
    if (answer) dut.cnt_value_i = counters[dut.cnt_index_o];
    else if (!std::is_same<Dut, Vtpu_csr_held>::value) dut.cnt_value_i = 0xdeadbeefdeadbeefull;
    dut.eval();
    starts += dut.start_o;
    resets += dut.soft_reset_o;
    tick(dut);
    if (answer) cnt_wait = -1;
    else if (cnt_wait > 0) --cnt_wait;
  }
  bool wait_now() { return std::bernoulli_distribution(delay)(rng); }

  int write(uint8_t addr, uint32_t data, uint8_t strb = 0xf) {
    bool aw = false, w = false;
    while (wait_now()) step();
    dut.s_awvalid_i = 1, dut.s_awaddr_i = addr;
    dut.s_wvalid_i = 1, dut.s_wdata_i = data, dut.s_wstrb_i = strb;
    dut.s_bready_i = 0;
    for (int t = 0; t < 100 && !(aw && w); ++t) {
      dut.eval();
      const bool awf = dut.s_awvalid_i && dut.s_awready_o, wf = dut.s_wvalid_i && dut.s_wready_o;
      step();
      if (awf) aw = true, dut.s_awvalid_i = 0;
      if (wf) w = true, dut.s_wvalid_i = 0;
    }
    REQUIRE((aw && w));
    for (int t = 0; t < 100; ++t) {
      dut.s_bready_i = !wait_now();
      dut.eval();
      if (dut.s_bvalid_o && dut.s_bready_i) {
        const int resp = dut.s_bresp_o;
        step();
        dut.s_bready_i = 0;
        return resp;
      }
      const bool held = dut.s_bvalid_o;
      step();
      if (held) REQUIRE(dut.s_bvalid_o);  // B held until taken
    }
    FAIL("no write response");
    return -1;
  }

  std::pair<uint32_t, int> read(uint8_t addr) {
    while (wait_now()) step();
    dut.s_arvalid_i = 1, dut.s_araddr_i = addr, dut.s_rready_i = 0;
    for (int t = 0; t < 100; ++t) {
      dut.eval();
      const bool fire = dut.s_arready_o;
      step();
      if (fire) break;
    }
    dut.s_arvalid_i = 0;
    uint32_t seen = 0;
    bool shown = false;
    for (int t = 0; t < 100; ++t) {
      dut.s_rready_i = !wait_now();
      dut.eval();
      if (dut.s_rvalid_o) {
        if (shown) REQUIRE(dut.s_rdata_o == seen);  // R data held until taken
        shown = true, seen = dut.s_rdata_o;
      }
      if (dut.s_rvalid_o && dut.s_rready_i) {
        const std::pair<uint32_t, int> r = {dut.s_rdata_o, dut.s_rresp_o};
        step();
        dut.s_rready_i = 0;
        return r;
      }
      step();
    }
    FAIL("no read data");
    return {0, -1};
  }
  uint32_t read_ok(uint8_t addr) {
    const auto r = read(addr);
    REQUIRE(r.second == kOkay);
    return r.first;
  }
};

}  // namespace

TEMPLATE_TEST_CASE("CSR block: register map, pulses, interrupt and latched counters", "[rtl][csr]", Vtpu_csr,
                   Vtpu_csr_held) {
  const double delay = GENERATE(0.0, 0.5);
  std::mt19937 rng(tessera::test::test_seed());
  TestType dut;
  reset(dut);
  Master<TestType> m{dut, rng, delay};

  // Identification and configuration (the model is built with N=8, depth 2, 64-bit DMA,
  // 256 UB rows, 128 accumulator rows, 64 KiB device memory).
  CHECK(m.read_ok(0x00) == 0x54535241u);
  CHECK(m.read_ok(0x04) == 0x00010000u);
  CHECK(m.read_ok(0x08) == ((64u << 16) | (2u << 8) | 8u));
  CHECK(m.read_ok(0x0c) == 256u);
  CHECK(m.read_ok(0x10) == 128u);
  CHECK(m.read_ok(0x14) == 65536u);

  // ENTRY honours byte strobes.
  CHECK(m.write(0x24, 0x11223344) == kOkay);
  CHECK(m.read_ok(0x24) == 0x11223344u);
  CHECK(m.write(0x24, 0xaabbccdd, 0x5) == kOkay);
  CHECK(m.read_ok(0x24) == 0x11bb33ddu);
  CHECK(dut.entry_o == 0x11bb33ddu);

  // START and SOFT RESET are single-cycle pulses; the enable bit stays.
  CHECK(m.write(0x20, 0x5) == kOkay);
  CHECK(m.write(0x20, 0x6) == kOkay);
  for (int i = 0; i < 3; ++i) m.step();
  CHECK(m.starts == 1);
  CHECK(m.resets == 1);
  CHECK(m.read_ok(0x20) == 0x4u);

  // STATUS and PC show the core.
  dut.state_i = 3, dut.error_i = 6, dut.pc_i = 0x1230;
  CHECK(m.read_ok(0x28) == ((6u << 8) | 3u));
  CHECK(m.read_ok(0x2c) == 0x1230u);

  // A run's end raises the interrupt (enabled above); write 1 to IRQ clears it.
  dut.run_end_i = 1;
  m.step();
  dut.run_end_i = 0;
  m.step();
  CHECK(dut.irq_o);
  CHECK(m.read_ok(0x28) == ((1u << 16) | (6u << 8) | 3u));
  CHECK(m.write(0x30, 0x1) == kOkay);
  CHECK_FALSE(dut.irq_o);
  CHECK(m.write(0x20, 0x0) == kOkay);  // disable: a new end is pending but not signalled
  dut.run_end_i = 1;
  m.step();
  dut.run_end_i = 0;
  m.step();
  CHECK_FALSE(dut.irq_o);
  CHECK(m.read_ok(0x30) == 1u);

  // Counters: the high word is latched when the low word is read.
  for (int k = 0; k < 9; ++k) m.counters[size_t(k)] = (uint64_t(k + 1) << 32) | (0x1000u + k);
  for (int k = 0; k < 9; ++k) {
    const uint8_t a = uint8_t(0x40 + 8 * k);
    CHECK(m.read_ok(a) == 0x1000u + k);
    m.counters[size_t(k)] = (uint64_t(99) << 32) | 7;  // the counter moves on between the reads
    CHECK(m.read_ok(a + 4) == uint32_t(k + 1));
  }

  // Errors: unmapped, unaligned and past the last counter; writes to read-only registers.
  for (uint8_t a : {uint8_t(0x18), uint8_t(0x34), uint8_t(0x41), uint8_t(0x88), uint8_t(0xfc)}) {
    INFO("read " << int(a));
    CHECK(m.read(a).second == kSlvErr);
  }
  for (uint8_t a : {uint8_t(0x00), uint8_t(0x08), uint8_t(0x28), uint8_t(0x40), uint8_t(0x99)}) {
    INFO("write " << int(a));
    CHECK(m.write(a, 0xffffffff) == kSlvErr);
  }
  CHECK(m.read_ok(0x00) == 0x54535241u);  // nothing changed
  CHECK(m.starts == 1);
}
