// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_board_mem, the boards' device-memory controller, with and without its
// registered RAM port (Registered = 1: the ULX3S, whose RAM has an output register), on
// a C++ model of tpu_board_ram: random AXI4 read and write bursts (inside and outside
// memory, with strobes, gaps and backpressure) and host byte accesses, checked against a
// plain byte array.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "Vtpu_board_mem_direct.h"
#include "Vtpu_board_mem_registered.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

constexpr uint32_t kMemBytes = 4096;  // the models' MemBytes; 32-bit words

template <typename M> struct Latency;  // cycles from a RAM access to its read data
template <> struct Latency<Vtpu_board_mem_direct> { static constexpr int value = 1; };
template <> struct Latency<Vtpu_board_mem_registered> { static constexpr int value = 2; };

// tpu_board_ram: byte-enabled writes; a read (no enables) puts the word on the output
// the cycle after, held until the next read; OutReg adds one register after that.
struct Ram {
  std::vector<uint32_t> words = std::vector<uint32_t>(kMemBytes / 4);
  uint32_t out = 0, out2 = 0;
  int latency = 1;
  uint32_t rdata() const { return latency == 2 ? out2 : out; }
  void clock(bool en, unsigned we, uint32_t addr, uint32_t wdata) {
    out2 = out;
    if (!en) return;
    REQUIRE(addr < words.size());
    for (int b = 0; b < 4; ++b)
      if (we >> b & 1) words[addr] = (words[addr] & ~(0xffu << 8 * b)) | (wdata & (0xffu << 8 * b));
    if (we == 0) out = words[addr];
  }
};

template <typename M> struct Bench {
  M dut;
  Ram ram;
  std::vector<uint8_t> ref = std::vector<uint8_t>(kMemBytes);  // what memory must hold
  long cycles = 0;

  Bench() {
    ram.latency = Latency<M>::value;
    dut.s_arvalid_i = dut.s_awvalid_i = dut.s_wvalid_i = dut.byte_valid_i = 0;
    dut.s_rready_i = dut.s_bready_i = 0;
    reset(dut);
  }
  // One cycle: the RAM's output as it is now, the DUT's reaction, then the edge.
  template <typename Check> void step(Check check) {
    dut.ram_rdata_i = ram.rdata();
    dut.eval();
    check();
    ram.clock(dut.ram_en_o, dut.ram_we_o, dut.ram_addr_o, dut.ram_wdata_o);
    tick(dut);
    REQUIRE(++cycles < 10000000);
  }
  void idle() { step([] {}); }
  // Cycles until `done()`, seen after the DUT's reaction, holds (within 100 cycles).
  template <typename Done> void until(Done done) {
    bool seen = false;
    for (int t = 0; !seen; ++t) {
      REQUIRE(t < 100);
      step([&] { seen = done(); });
    }
  }
};

// The beats of a read burst whose address was taken, with random backpressure.
template <typename M>
void read_beats(Bench<M>& b, std::mt19937& rng, uint32_t addr, int beats) {
  auto& d = b.dut;
  for (int beat = 0; beat < beats;) {
    d.s_rready_i = rng() % 3 != 0;
    b.step([&] {
      if (!(d.s_rvalid_o && d.s_rready_i)) return;
      const uint32_t a = addr + 4 * beat;
      INFO("read beat " << beat << " at " << a);
      REQUIRE(bool(d.s_rlast_o) == (beat == beats - 1));
      if (a < kMemBytes) {
        REQUIRE(d.s_rresp_o == 0);
        const uint32_t want = b.ref[a] | b.ref[a + 1] << 8 | b.ref[a + 2] << 16 | uint32_t(b.ref[a + 3]) << 24;
        REQUIRE(d.s_rdata_o == want);
      } else {
        REQUIRE(d.s_rresp_o == 2);  // SLVERR
      }
      ++beat;
    });
  }
  d.s_rready_i = 0;
}

template <typename M>
void axi_read(Bench<M>& b, std::mt19937& rng, uint32_t addr, int beats) {
  auto& d = b.dut;
  d.s_arvalid_i = 1;
  d.s_araddr_i = addr;
  d.s_arlen_i = beats - 1;
  b.until([&] { return bool(d.s_arready_o); });
  d.s_arvalid_i = 0;
  read_beats(b, rng, addr, beats);
}

template <typename M>
void axi_write(Bench<M>& b, std::mt19937& rng, uint32_t addr, int beats) {
  auto& d = b.dut;
  d.s_awvalid_i = 1;
  d.s_awaddr_i = addr;
  d.s_awlen_i = beats - 1;
  b.until([&] { return bool(d.s_awready_o); });
  d.s_awvalid_i = 0;
  bool any_bad = false;
  for (int beat = 0; beat < beats;) {
    const bool show = rng() % 4 != 0;
    d.s_wvalid_i = show;
    const uint32_t data = uint32_t(rng());
    const unsigned strb = rng() % 16;
    d.s_wdata_i = data;
    d.s_wstrb_i = strb;
    d.s_wlast_i = beat == beats - 1;
    b.step([&] {
      if (!(d.s_wvalid_i && d.s_wready_o)) return;
      const uint32_t a = addr + 4 * beat;
      if (a < kMemBytes) {
        for (int i = 0; i < 4; ++i)
          if (strb >> i & 1) b.ref[a + i] = uint8_t(data >> 8 * i);
      } else {
        any_bad = true;
      }
      ++beat;
    });
  }
  d.s_wvalid_i = 0;
  bool answered = false;
  for (int t = 0; !answered; ++t) {
    REQUIRE(t < 100);
    d.s_bready_i = rng() % 2;
    b.step([&] {
      if (!(d.s_bvalid_o && d.s_bready_i)) return;
      REQUIRE(d.s_bresp_o == (any_bad ? 2 : 0));
      answered = true;
    });
  }
  d.s_bready_i = 0;
}

// A byte access; with `race`, an AXI read request is raised in the same cycle and must
// wait for the byte (the host goes first).
template <typename M>
void byte_access(Bench<M>& b, std::mt19937& rng, bool write, uint32_t addr, bool race) {
  auto& d = b.dut;
  const uint8_t value = uint8_t(rng());
  d.byte_valid_i = 1;
  d.byte_we_i = write;
  d.byte_addr_i = addr;
  d.byte_wdata_i = value;
  if (race) {
    d.s_arvalid_i = 1;
    d.s_araddr_i = 0;
    d.s_arlen_i = 0;
  }
  b.until([&] {
    if (race) REQUIRE_FALSE(d.s_arready_o);
    return bool(d.byte_ready_o);
  });
  d.byte_valid_i = 0;
  if (write) b.ref[addr] = value;
  // A read's byte comes back later; a raced AXI request is taken only after it.
  bool got = write, ar_taken = !race;
  for (int t = 0; !(got && ar_taken); ++t) {
    REQUIRE(t < 100);
    b.step([&] {
      if (!write && d.byte_rvalid_o) {
        REQUIRE_FALSE(got);
        REQUIRE(d.byte_rdata_o == b.ref[addr]);
        got = true;
      }
      if (d.s_arvalid_i && d.s_arready_o) {
        REQUIRE(got);
        ar_taken = true;
      }
    });
    if (ar_taken) d.s_arvalid_i = 0;
  }
  if (race) read_beats(b, rng, 0, 1);
}

}  // namespace

TEMPLATE_TEST_CASE("board memory: AXI bursts and host bytes land and read back like a byte array",
                   "[rtl][board]", Vtpu_board_mem_direct, Vtpu_board_mem_registered) {
  std::mt19937 rng(tessera::test::test_seed());
  Bench<TestType> b;
  // Fill memory through the bus first, so every read has a defined value.
  for (uint32_t a = 0; a < kMemBytes; a += 64) {
    auto& d = b.dut;
    d.s_awvalid_i = 1;
    d.s_awaddr_i = a;
    d.s_awlen_i = 15;
    b.until([&] { return bool(d.s_awready_o); });
    d.s_awvalid_i = 0;
    for (int beat = 0; beat < 16;) {
      const uint32_t data = uint32_t(rng());
      d.s_wvalid_i = 1;
      d.s_wdata_i = data;
      d.s_wstrb_i = 0xf;
      d.s_wlast_i = beat == 15;
      b.step([&] {
        if (!d.s_wready_o) return;
        for (int i = 0; i < 4; ++i) b.ref[a + 4 * beat + i] = uint8_t(data >> 8 * i);
        ++beat;
      });
    }
    d.s_wvalid_i = 0;
    d.s_bready_i = 1;
    b.until([&] { return bool(d.s_bvalid_o); });
    d.s_bready_i = 0;
  }
  int ops[4] = {};
  for (int op = 0; op < 3000; ++op) {
    const int kind = int(rng() % 4);
    ++ops[kind];
    // Bursts mostly inside memory, sometimes running past its end or wholly outside.
    const int beats = 1 + int(rng() % 8);
    const uint32_t addr = rng() % 8 == 0 ? kMemBytes - 16 + 4 * (rng() % 8) : 4 * (rng() % (kMemBytes / 4 - 8));
    switch (kind) {
      case 0: axi_read(b, rng, addr, beats); break;
      case 1: axi_write(b, rng, addr, beats); break;
      default: byte_access(b, rng, kind == 3, rng() % kMemBytes, rng() % 4 == 0); break;
    }
    for (int i = int(rng() % 3); i > 0; --i) b.idle();
  }
  CHECK(ops[0] > 500);
  CHECK(ops[1] > 500);
  // Finally every byte, through the host port.
  for (uint32_t a = 0; a < kMemBytes; a += 37) byte_access(b, rng, false, a, false);
}

// Registered = 0 reads in a pipeline: requests back to back while beats are still being
// taken (random backpressure) come back in order with their data and rlast, and with
// the beats always taken a single-beat request is answered every cycle.
TEST_CASE("board memory: direct reads are pipelined, a beat a cycle", "[rtl][board]") {
  std::mt19937 rng(tessera::test::test_seed());
  Bench<Vtpu_board_mem_direct> b;
  auto& d = b.dut;
  for (uint32_t a = 0; a < kMemBytes; ++a) b.ref[a] = uint8_t(rng());
  for (uint32_t w = 0; w < kMemBytes / 4; ++w)
    b.ram.words[w] = b.ref[4 * w] | b.ref[4 * w + 1] << 8 | b.ref[4 * w + 2] << 16 | uint32_t(b.ref[4 * w + 3]) << 24;
  for (bool pressure : {true, false}) {
    struct Burst { uint32_t addr; int beats; };
    std::vector<Burst> asked;   // requests taken, in order
    size_t next = 0;            // the burst the next beat belongs to
    int beat = 0, requests = 0;
    const int total = 400;
    long start = b.cycles, beats_seen = 0;
    while (requests < total || next < asked.size()) {
      const Burst want{uint32_t(rng() % 8 == 0 ? kMemBytes - 8 : 4 * (rng() % (kMemBytes / 4))),
                       pressure ? 1 + int(rng() % 3) : 1};
      d.s_arvalid_i = requests < total;
      d.s_araddr_i = want.addr;
      d.s_arlen_i = want.beats - 1;
      d.s_rready_i = pressure ? rng() % 3 != 0 : 1;
      b.step([&] {
        if (d.s_arvalid_i && d.s_arready_o) asked.push_back(want), ++requests;
        if (d.s_rvalid_o && d.s_rready_i) {
          REQUIRE(next < asked.size());
          const uint32_t a = asked[next].addr + 4 * beat;
          INFO("beat " << beat << " of the burst at " << asked[next].addr);
          REQUIRE(bool(d.s_rlast_o) == (beat == asked[next].beats - 1));
          if (a < kMemBytes) {
            REQUIRE(d.s_rresp_o == 0);
            REQUIRE(d.s_rdata_o == (b.ref[a] | b.ref[a + 1] << 8 | b.ref[a + 2] << 16 | uint32_t(b.ref[a + 3]) << 24));
          } else {
            REQUIRE(d.s_rresp_o == 2);
          }
          ++beats_seen;
          if (++beat == asked[next].beats) beat = 0, ++next;
        }
      });
    }
    d.s_arvalid_i = 0;
    if (!pressure) CHECK(b.cycles - start <= beats_seen + 2);  // a beat a cycle
  }
}
