// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_axi_read against a C++ AXI4 slave model that also checks the
// master's side of the protocol. Stimulus matrix: random slave latency (arready and
// rvalid gaps) x random backpressure on the out stream x two parameter sets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "Vtpu_axi_read_w128b4.h"
#include "Vtpu_axi_read_w32b16.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Bus;
template <> struct Bus<Vtpu_axi_read_w32b16> { static constexpr int Bytes = 4, MaxBeats = 16; };
template <> struct Bus<Vtpu_axi_read_w128b4> { static constexpr int Bytes = 16, MaxBeats = 4; };

struct Burst {
  uint32_t addr;
  int beats, sent = 0;
};

// The slave's R channel for this cycle: unless it waits, the next beat of the oldest
// burst (SLVERR in bad blocks). It keeps rvalid and the data, once shown, until rready
// takes them, so nothing changes while `stalled`.
template <typename M, typename Bad>
void show_beat(M& dut, const std::deque<Burst>& bursts, const std::vector<uint8_t>& mem, Bad bad_block, bool stalled,
               bool wait) {
  constexpr int W = Bus<M>::Bytes;
  if (stalled) return;
  dut.m_axi_rvalid_i = !bursts.empty() && !wait;
  if (!dut.m_axi_rvalid_i) return;
  const Burst& b = bursts.front();
  const uint32_t a = b.addr + uint32_t(b.sent * W);
  for (int i = 0; i < W; ++i) set_bits(dut.m_axi_rdata_i, 8 * i, 8, mem[a + i]);
  dut.m_axi_rresp_i = bad_block(a) ? 2 : 0;
  dut.m_axi_rlast_i = b.sent + 1 == b.beats;
}

}  // namespace

TEMPLATE_TEST_CASE("AXI read engine: bursts follow AXI4 rules and deliver exactly the span's bytes",
                   "[rtl][dma]", Vtpu_axi_read_w32b16, Vtpu_axi_read_w128b4) {
  constexpr int W = Bus<TestType>::Bytes, MaxBeats = Bus<TestType>::MaxBeats;
  const double slave_idle = GENERATE(0.0, 0.6);
  const double backpressure = GENERATE(0.0, 0.5);
  INFO("bytes/beat=" << W << " slave idle=" << slave_idle << " backpressure=" << backpressure);
  std::mt19937 rng(tessera::test::test_seed());
  std::bernoulli_distribution slave_waits(slave_idle), out_stalls(backpressure);

  std::vector<uint8_t> mem(1 << 16);
  for (auto& b : mem) b = uint8_t(rng());
  // Error ranges are whole 64-byte blocks, as bus-error injection is (a beat is all in or out).
  auto bad_block = [](uint32_t a) { return (a / 64) % 37 == 5; };

  TestType dut;
  reset(dut);
  std::deque<Burst> bursts;
  bool ar_was_stalled = false, r_was_stalled = false;
  uint32_t stalled_araddr = 0, stalled_arlen = 0;
  int spans = 0, errors_seen = 0, splits = 0;
  for (int s = 0; s < 400; ++s) {
    // A span: mostly small (rows and segments), sometimes long or across a 4 KB page.
    const uint32_t len = (s % 5 == 0) ? 1 + rng() % 600 : 1 + rng() % 40;
    uint32_t addr = (s % 7 == 0) ? 4096 * (1 + rng() % 14) - rng() % 20 : rng() % (60000 - len);
    bool want_error = false;
    for (uint32_t a = addr & ~uint32_t(W - 1); a < addr + len; a += W) want_error |= bad_block(a);
    // Issue the command.
    dut.cmd_valid_i = 1;
    dut.cmd_addr_i = addr;
    dut.cmd_len_i = len;
    std::vector<uint8_t> got;
    bool done = false, cmd_taken = false;
    int ar_count = 0;
    for (int t = 0; t < 200000 && !done; ++t) {
      dut.m_axi_arready_i = !slave_waits(rng);
      show_beat(dut, bursts, mem, bad_block, r_was_stalled, slave_waits(rng));
      dut.out_ready_i = !out_stalls(rng);
      dut.eval();
      const bool cmd_fire = dut.cmd_valid_i && dut.cmd_ready_o;
      if (dut.m_axi_arvalid_o) {
        if (ar_was_stalled) {  // AXI: address held while not accepted
          REQUIRE(dut.m_axi_araddr_o == stalled_araddr);
          REQUIRE(dut.m_axi_arlen_o == stalled_arlen);
        }
        if (dut.m_axi_arready_i) {
          const uint32_t a = dut.m_axi_araddr_o;
          const int beats = dut.m_axi_arlen_o + 1;
          REQUIRE(a % W == 0);
          REQUIRE(beats <= MaxBeats);
          REQUIRE((a % 4096) + uint32_t(beats * W) <= 4096u);  // never across a 4 KB page
          REQUIRE(int(dut.m_axi_arsize_o) == __builtin_ctz(W));
          REQUIRE(dut.m_axi_arburst_o == 1);
          bursts.push_back({a, beats});
          ++ar_count;
        }
      } else {
        REQUIRE_FALSE(ar_was_stalled);  // arvalid never drops before arready
      }
      ar_was_stalled = dut.m_axi_arvalid_o && !dut.m_axi_arready_i;
      stalled_araddr = dut.m_axi_araddr_o;
      stalled_arlen = dut.m_axi_arlen_o;
      if (dut.out_valid_o && dut.out_ready_i) {
        const int lo = int(dut.out_lo_o), hi = int(dut.out_hi_o);
        REQUIRE(0 <= lo);
        REQUIRE(lo < hi);
        REQUIRE(hi <= W);
        for (int k = 0; k < W; ++k) REQUIRE(((uint32_t(dut.out_fill_o) >> k) & 1u) == uint32_t(k < hi - lo));
        for (int i = lo; i < hi; ++i) got.push_back(uint8_t(get_bits(dut.out_data_o, 8 * i, 8)));
        if (dut.out_last_o) {
          done = true;
          REQUIRE(bool(dut.out_error_o) == want_error);
          errors_seen += want_error;
        }
      }
      const bool r_fire = dut.m_axi_rvalid_i && dut.m_axi_rready_o;
      r_was_stalled = dut.m_axi_rvalid_i && !dut.m_axi_rready_o;
      if (r_fire && ++bursts.front().sent == bursts.front().beats) bursts.pop_front();
      tick(dut);
      if (cmd_fire) cmd_taken = true, dut.cmd_valid_i = 0;
    }
    REQUIRE(cmd_taken);
    REQUIRE(done);
    REQUIRE(got == std::vector<uint8_t>(mem.begin() + addr, mem.begin() + addr + len));
    splits += ar_count > 1;
    ++spans;
  }
  CHECK(errors_seen > 5);
  CHECK(splits > 20);  // long spans and page crossings made several bursts
  REQUIRE(bursts.empty());
}

TEMPLATE_TEST_CASE("AXI read engine: spans back to back are in flight together and come out in order, tagged",
                   "[rtl][dma]", Vtpu_axi_read_w32b16, Vtpu_axi_read_w128b4) {
  constexpr int W = Bus<TestType>::Bytes;
  const double slave_idle = GENERATE(0.0, 0.5);
  const double backpressure = GENERATE(0.0, 0.4);
  INFO("bytes/beat=" << W << " slave idle=" << slave_idle << " backpressure=" << backpressure);
  std::mt19937 rng(tessera::test::test_seed() + 1);
  std::bernoulli_distribution slave_waits(slave_idle), out_stalls(backpressure);
  std::vector<uint8_t> mem(1 << 16);
  for (auto& b : mem) b = uint8_t(rng());
  auto bad_block = [](uint32_t a) { return (a / 64) % 29 == 3; };

  struct Span {
    uint32_t addr, len;
    bool tag, error;
  };
  std::vector<Span> spans;
  for (int s = 0; s < 300; ++s) {
    const uint32_t len = (s % 6 == 0) ? 1 + rng() % 300 : 1 + rng() % 24;
    const uint32_t addr = rng() % (60000 - len);
    bool error = false;
    for (uint32_t a = addr & ~uint32_t(W - 1); a < addr + len; a += W) error |= bad_block(a);
    spans.push_back({addr, len, bool(rng() & 1), error});
  }

  TestType dut;
  reset(dut);
  std::deque<Burst> bursts;  // accepted by the slave, data still to send
  size_t issued = 0, finished = 0;
  size_t most_bursts = 0;
  std::vector<uint8_t> got;
  bool r_was_stalled = false;
  for (int t = 0; t < 400000 && finished < spans.size(); ++t) {
    dut.cmd_valid_i = issued < spans.size();
    if (dut.cmd_valid_i) {
      dut.cmd_addr_i = spans[issued].addr;
      dut.cmd_len_i = spans[issued].len;
      dut.cmd_tag_i = spans[issued].tag;
    }
    dut.m_axi_arready_i = !slave_waits(rng);
    show_beat(dut, bursts, mem, bad_block, r_was_stalled, slave_waits(rng));
    dut.out_ready_i = !out_stalls(rng);
    dut.eval();
    REQUIRE(bool(dut.busy_o) == (finished < issued));  // spans taken, not yet ended
    const bool cmd_fire = dut.cmd_valid_i && dut.cmd_ready_o;
    if (dut.m_axi_arvalid_o && dut.m_axi_arready_i) bursts.push_back({uint32_t(dut.m_axi_araddr_o), dut.m_axi_arlen_o + 1});
    most_bursts = std::max(most_bursts, bursts.size());
    if (dut.out_valid_o && dut.out_ready_i) {
      REQUIRE(finished < issued + cmd_fire);
      const Span& sp = spans[finished];
      REQUIRE(bool(dut.out_tag_o) == sp.tag);
      for (int i = int(dut.out_lo_o); i < int(dut.out_hi_o); ++i)
        got.push_back(uint8_t(get_bits(dut.out_data_o, 8 * i, 8)));
      if (dut.out_last_o) {
        INFO("span " << finished << " at " << sp.addr << " len " << sp.len);
        REQUIRE(bool(dut.out_error_o) == sp.error);
        REQUIRE(got == std::vector<uint8_t>(mem.begin() + sp.addr, mem.begin() + sp.addr + sp.len));
        got.clear();
        ++finished;
      }
    }
    const bool r_fire = dut.m_axi_rvalid_i && dut.m_axi_rready_o;
    r_was_stalled = dut.m_axi_rvalid_i && !dut.m_axi_rready_o;
    if (r_fire && ++bursts.front().sent == bursts.front().beats) bursts.pop_front();
    tick(dut);
    issued += cmd_fire;
  }
  REQUIRE(finished == spans.size());
  CHECK(most_bursts >= 4);  // several spans' bursts were outstanding at once
  REQUIRE(bursts.empty());
}
