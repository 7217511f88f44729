// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_axi_write against a C++ AXI4 slave model that checks the master's
// side of the protocol and that exactly the span's bytes change. Stimulus matrix:
// random slave latency on AW, W and B x completion backpressure x two parameter sets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "Vtpu_axi_write_w128s32.h"
#include "Vtpu_axi_write_w32s16.h"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Bus;
template <> struct Bus<Vtpu_axi_write_w32s16> { static constexpr int Bytes = 4, Span = 16; };
template <> struct Bus<Vtpu_axi_write_w128s32> { static constexpr int Bytes = 16, Span = 32; };

}  // namespace

TEMPLATE_TEST_CASE("AXI write engine: bursts follow AXI4 rules and write exactly the span",
                   "[rtl][dma]", Vtpu_axi_write_w32s16, Vtpu_axi_write_w128s32) {
  constexpr int W = Bus<TestType>::Bytes, Span = Bus<TestType>::Span;
  const double slave_idle = GENERATE(0.0, 0.6);
  const double backpressure = GENERATE(0.0, 0.5);
  INFO("bytes/beat=" << W << " slave idle=" << slave_idle << " backpressure=" << backpressure);
  std::mt19937 rng(tessera::test::test_seed());
  std::bernoulli_distribution slave_waits(slave_idle), rsp_stalls(backpressure);
  auto bad_block = [](uint32_t a) { return (a / 64) % 29 == 7; };

  std::vector<uint8_t> mem(1 << 16);
  for (auto& b : mem) b = uint8_t(rng());
  TestType dut;
  reset(dut);
  int errors_seen = 0, page_splits = 0;
  for (int s = 0; s < 500; ++s) {
    const uint32_t len = 1 + rng() % Span;
    const uint32_t addr = (s % 6 == 0) ? 4096 * (1 + rng() % 14) - rng() % Span : rng() % 60000;
    std::vector<uint8_t> data(Span);
    for (auto& b : data) b = uint8_t(rng());
    std::vector<uint8_t> want = mem;
    bool want_error = false;
    for (uint32_t j = 0; j < len; ++j) {
      const uint32_t a = addr + j;
      if (bad_block(a & ~uint32_t(W - 1))) want_error = true;  // the slave drops error beats
      else want[a] = data[j];
    }
    dut.cmd_valid_i = 1;
    dut.cmd_addr_i = addr;
    dut.cmd_len_i = len;
    for (int j = 0; j < Span; ++j) set_bits(dut.cmd_data_i, 8 * j, 8, data[j]);

    std::deque<std::pair<uint32_t, int>> bursts;  // accepted AW: address, beats
    int beat_in_burst = 0, bursts_done = 0, b_pending = 0;
    bool b_err = false, aw_stalled = false, w_stalled = false, b_shown = false, done = false;
    uint32_t aw_addr = 0, aw_len = 0;
    std::vector<uint64_t> w_held;
    for (int t = 0; t < 100000 && !done; ++t) {
      dut.m_axi_awready_i = !slave_waits(rng);
      dut.m_axi_wready_i = !bursts.empty() && !slave_waits(rng);
      // A slave holds bvalid, once shown, until bready takes it.
      dut.m_axi_bvalid_i = b_shown || (b_pending > 0 && !slave_waits(rng));
      dut.m_axi_bresp_i = b_err ? 2 : 0;
      dut.rsp_ready_i = !rsp_stalls(rng);
      dut.eval();
      if (dut.m_axi_awvalid_o) {
        if (aw_stalled) {
          REQUIRE(dut.m_axi_awaddr_o == aw_addr);
          REQUIRE(dut.m_axi_awlen_o == aw_len);
        }
        if (dut.m_axi_awready_i) {
          const uint32_t a = dut.m_axi_awaddr_o;
          const int beats = dut.m_axi_awlen_o + 1;
          REQUIRE(a % W == 0);
          REQUIRE((a % 4096) + uint32_t(beats * W) <= 4096u);
          REQUIRE(int(dut.m_axi_awsize_o) == __builtin_ctz(W));
          REQUIRE(dut.m_axi_awburst_o == 1);
          bursts.push_back({a, beats});
        }
      } else {
        REQUIRE_FALSE(aw_stalled);
      }
      aw_stalled = dut.m_axi_awvalid_o && !dut.m_axi_awready_i;
      aw_addr = dut.m_axi_awaddr_o;
      aw_len = dut.m_axi_awlen_o;
      if (dut.m_axi_wvalid_o) {
        std::vector<uint64_t> now = {uint64_t(dut.m_axi_wstrb_o), uint64_t(dut.m_axi_wlast_o)};
        for (int i = 0; i < W; ++i) now.push_back(get_bits(dut.m_axi_wdata_o, 8 * i, 8));
        if (w_stalled) REQUIRE(now == w_held);  // W held while not accepted
        w_held = now;
        if (dut.m_axi_wready_i) {
          REQUIRE_FALSE(bursts.empty());
          const uint32_t beat_addr = bursts.front().first + uint32_t(beat_in_burst * W);
          const bool last = beat_in_burst + 1 == bursts.front().second;
          REQUIRE(bool(dut.m_axi_wlast_o) == last);
          if (bad_block(beat_addr)) {
            b_err = true;
          } else {
            for (int i = 0; i < W; ++i)
              if ((uint64_t(dut.m_axi_wstrb_o) >> i) & 1)
                mem[beat_addr + i] = uint8_t(get_bits(dut.m_axi_wdata_o, 8 * i, 8));
          }
          if (last) bursts.pop_front(), beat_in_burst = 0, ++b_pending;
          else ++beat_in_burst;
        }
      } else {
        REQUIRE_FALSE(w_stalled);
      }
      w_stalled = dut.m_axi_wvalid_o && !dut.m_axi_wready_i;
      if (dut.m_axi_bvalid_i && dut.m_axi_bready_o) --b_pending, ++bursts_done;
      b_shown = dut.m_axi_bvalid_i && !dut.m_axi_bready_o;
      if (dut.rsp_valid_o && dut.rsp_ready_i) {
        done = true;
        REQUIRE(bool(dut.rsp_error_o) == want_error);
        errors_seen += want_error;
      }
      const bool cmd_fire = dut.cmd_valid_i && dut.cmd_ready_o;
      tick(dut);
      if (cmd_fire) dut.cmd_valid_i = 0;
    }
    REQUIRE(done);
    REQUIRE(mem == want);
    page_splits += bursts_done > 1;
  }
  CHECK(errors_seen > 5);
  CHECK(page_splits > 5);
}

TEMPLATE_TEST_CASE("AXI write engine: spans back to back are in flight together, answered in order",
                   "[rtl][dma]", Vtpu_axi_write_w32s16, Vtpu_axi_write_w128s32) {
  constexpr int W = Bus<TestType>::Bytes, Span = Bus<TestType>::Span;
  const double slave_idle = GENERATE(0.0, 0.5);
  const double backpressure = GENERATE(0.0, 0.4);
  INFO("bytes/beat=" << W << " slave idle=" << slave_idle << " backpressure=" << backpressure);
  std::mt19937 rng(tessera::test::test_seed() + 2);
  std::bernoulli_distribution slave_waits(slave_idle), rsp_stalls(backpressure);
  auto bad_block = [](uint32_t a) { return (a / 64) % 23 == 4; };

  struct SpanCmd {
    uint32_t addr, len;
    std::vector<uint8_t> data;
    bool error;
  };
  std::vector<uint8_t> mem(1 << 16), want;
  for (auto& b : mem) b = uint8_t(rng());
  want = mem;
  std::vector<SpanCmd> spans;
  for (int s = 0; s < 400; ++s) {
    SpanCmd c;
    c.len = 1 + rng() % Span;
    c.addr = (s % 6 == 0) ? 4096 * (1 + rng() % 14) - rng() % Span : rng() % 60000;
    c.data.resize(Span);
    for (auto& b : c.data) b = uint8_t(rng());
    c.error = false;
    for (uint32_t j = 0; j < c.len; ++j) {
      const uint32_t a = c.addr + j;
      if (bad_block(a & ~uint32_t(W - 1))) c.error = true;  // the slave drops error beats
      else want[a] = c.data[j];
    }
    spans.push_back(std::move(c));
  }

  TestType dut;
  reset(dut);
  std::deque<std::pair<uint32_t, int>> bursts;  // accepted AW awaiting data: address, beats
  std::deque<std::pair<int, bool>> responses;   // bursts whose data is in: when answerable, error?
  int beat_in_burst = 0;
  bool burst_err = false, b_shown = false;
  size_t issued = 0, answered = 0, most_pending = 0, beats = 0;
  int t = 0;
  for (; t < 400000 && answered < spans.size(); ++t) {
    dut.cmd_valid_i = issued < spans.size();
    if (dut.cmd_valid_i) {
      dut.cmd_addr_i = spans[issued].addr;
      dut.cmd_len_i = spans[issued].len;
      for (int j = 0; j < Span; ++j) set_bits(dut.cmd_data_i, 8 * j, 8, spans[issued].data[j]);
    }
    dut.m_axi_awready_i = !slave_waits(rng);
    dut.m_axi_wready_i = !bursts.empty() && !slave_waits(rng);
    // Write responses come 6 cycles after the data (the memory's latency).
    dut.m_axi_bvalid_i = b_shown || (!responses.empty() && responses.front().first <= t && !slave_waits(rng));
    dut.m_axi_bresp_i = !responses.empty() && responses.front().second ? 2 : 0;
    dut.rsp_ready_i = !rsp_stalls(rng);
    dut.eval();
    const bool cmd_fire = dut.cmd_valid_i && dut.cmd_ready_o;
    if (dut.m_axi_awvalid_o && dut.m_axi_awready_i) bursts.push_back({uint32_t(dut.m_axi_awaddr_o), dut.m_axi_awlen_o + 1});
    if (dut.m_axi_wvalid_o && dut.m_axi_wready_i) {
      ++beats;
      const uint32_t beat_addr = bursts.front().first + uint32_t(beat_in_burst * W);
      if (bad_block(beat_addr)) {
        burst_err = true;
      } else {
        for (int i = 0; i < W; ++i)
          if ((uint64_t(dut.m_axi_wstrb_o) >> i) & 1) mem[beat_addr + i] = uint8_t(get_bits(dut.m_axi_wdata_o, 8 * i, 8));
      }
      if (++beat_in_burst == bursts.front().second) {
        REQUIRE(dut.m_axi_wlast_o);
        bursts.pop_front();
        beat_in_burst = 0;
        responses.push_back({t + 6, burst_err});
        burst_err = false;
      }
    }
    most_pending = std::max(most_pending, issued - answered);
    if (dut.m_axi_bvalid_i && dut.m_axi_bready_o) responses.pop_front();
    b_shown = dut.m_axi_bvalid_i && !dut.m_axi_bready_o;
    if (dut.rsp_valid_o && dut.rsp_ready_i) {
      REQUIRE(answered < issued);
      INFO("span " << answered << " at " << spans[answered].addr << " len " << spans[answered].len);
      REQUIRE(bool(dut.rsp_error_o) == spans[answered].error);
      ++answered;
    }
    tick(dut);
    issued += cmd_fire;
  }
  REQUIRE(answered == spans.size());
  REQUIRE(mem == want);
  CHECK(most_pending >= 3);  // several spans were taken before the first was answered
  // Without stalls the W channel is busy every cycle: a beat per cycle, beyond the
  // pipeline's fill and the last response's latency.
  if (slave_idle == 0.0 && backpressure == 0.0) CHECK(size_t(t) <= beats + 12);
}
