// SPDX-License-Identifier: Apache-2.0
// Block tests of the board's host link: the UART receiver and transmitter against a
// C++ bit-level encoder/decoder, and the bridge (rtl/tpu_uart_bridge.v) against the
// host protocol (tools/driver/uart_protocol) with C++ models of the core's registers
// (AXI4-Lite, random handshakes, SLVERR above 0xf0) and of device memory.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <optional>
#include <random>

#include "Vtpu_uart_bridge.h"
#include "Vtpu_uart_rx.h"
#include "Vtpu_uart_tx.h"
#include "driver/uart_protocol.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

constexpr int kClksPerBit = 8;  // the test builds of tpu_uart_rx / tpu_uart_tx

// The line levels of one 8N1 byte, one entry per clock.
void serialize(uint8_t b, std::deque<int>& line, bool good_stop = true) {
  auto bit = [&](int v) { line.insert(line.end(), kClksPerBit, v); };
  bit(0);
  for (int i = 0; i < 8; ++i) bit((b >> i) & 1);
  bit(good_stop ? 1 : 0);
}

struct Bridge {
  Vtpu_uart_bridge dut;
  std::mt19937 rng{test::test_seed()};
  std::vector<uint8_t> mem = std::vector<uint8_t>(4096);
  std::map<uint8_t, uint32_t> regs;
  std::deque<uint8_t> to_dut;
  std::vector<uint8_t> from_dut;
  bool r_pending = false, aw_got = false, w_got = false, b_pending = false, mem_rvalid = false;
  uint32_t r_data = 0, w_data = 0;
  uint8_t aw_addr = 0, mem_rdata = 0;
  int r_resp = 0, b_resp = 0;

  // (the bridge takes its reset through a register: it leaves reset a cycle after rst_ni)
  Bridge() {
    reset(dut);
    tick(dut);
  }
  bool coin(double p) { return std::bernoulli_distribution(p)(rng); }

  void cycle() {
    dut.in_valid_i = !to_dut.empty() && coin(0.5);
    dut.in_data_i = to_dut.empty() ? 0 : to_dut.front();
    dut.out_ready_i = coin(0.7);
    dut.mem_ready_i = coin(0.7);
    dut.mem_rvalid_i = mem_rvalid;
    dut.mem_rdata_i = mem_rdata;
    dut.m_arready_i = !r_pending;
    dut.m_rvalid_i = r_pending, dut.m_rdata_i = r_data, dut.m_rresp_i = r_resp;
    dut.m_awready_i = !aw_got && coin(0.6);
    dut.m_wready_i = !w_got && coin(0.6);
    dut.m_bvalid_i = b_pending, dut.m_bresp_i = b_resp;
    dut.eval();
    if (dut.in_valid_i) to_dut.pop_front();
    if (dut.out_valid_o && dut.out_ready_i) from_dut.push_back(dut.out_data_o);
    mem_rvalid = false;
    if (dut.mem_valid_o && dut.mem_ready_i) {
      REQUIRE(dut.mem_addr_o < mem.size());
      if (dut.mem_we_o) mem[dut.mem_addr_o] = dut.mem_wdata_o;
      else mem_rvalid = true, mem_rdata = mem[dut.mem_addr_o];
    }
    if (dut.m_rvalid_i && dut.m_rready_o) r_pending = false;
    if (dut.m_arvalid_o && dut.m_arready_i) {
      r_pending = true;
      r_resp = dut.m_araddr_o >= 0xf0 ? 2 : 0;
      r_data = regs[dut.m_araddr_o];
    }
    if (dut.m_bvalid_i && dut.m_bready_o) b_pending = false;
    if (dut.m_awvalid_o && dut.m_awready_i) aw_got = true, aw_addr = dut.m_awaddr_o;
    if (dut.m_wvalid_o && dut.m_wready_i) w_got = true, w_data = dut.m_wdata_o;
    if (aw_got && w_got && !b_pending) {
      b_resp = aw_addr >= 0xf0 ? 2 : 0;
      if (!b_resp) regs[aw_addr] = w_data;
      aw_got = w_got = false;
      b_pending = true;
    }
    tick(dut);
  }

  // Sends the bytes and waits for a whole reply (nullopt: none within max_cycles).
  std::optional<uart::Reply> transact(const std::vector<uint8_t>& frame, size_t ok_payload, int max_cycles = 20000) {
    from_dut.clear();
    to_dut.insert(to_dut.end(), frame.begin(), frame.end());
    for (int t = 0; t < max_cycles; ++t) {
      cycle();
      if (auto r = uart::parse_reply(from_dut, ok_payload)) {
        for (int i = 0; i < 50; ++i) cycle();  // nothing more may follow
        CHECK(from_dut.size() == 3 + r->payload.size());
        return r;
      }
    }
    return std::nullopt;
  }
};

}  // namespace

TEST_CASE("the UART transmitter sends 8N1 frames the decoder reads back", "[rtl][uart]") {
  Vtpu_uart_tx tx;
  reset(tx);
  std::mt19937 rng(test::test_seed());
  std::vector<uint8_t> sent, got;
  int low_run = -1;  // clocks since a start bit began (-1: idle)
  uint8_t shift = 0;
  for (int t = 0; t < 20000; ++t) {
    tx.valid_i = rng() % 3 == 0;
    tx.data_i = uint8_t(rng());
    tx.eval();
    if (tx.valid_i && tx.ready_o) sent.push_back(tx.data_i);
    const int line = tx.tx_o;
    if (low_run < 0 && line == 0) low_run = 0;
    if (low_run >= 0) {
      const int bit = low_run / kClksPerBit, mid = low_run % kClksPerBit == kClksPerBit / 2;
      if (mid && bit >= 1 && bit <= 8) shift = uint8_t(shift >> 1 | line << 7);
      if (mid && bit == 9) {
        REQUIRE(line == 1);  // stop bit
        got.push_back(shift);
      }
      low_run = bit == 9 && mid ? -1 : low_run + 1;
    }
    tick(tx);
  }
  REQUIRE(sent.size() > 100);
  got.resize(std::min(got.size(), sent.size()));
  sent.resize(got.size());
  CHECK(got == sent);
}

TEST_CASE("the UART receiver reads 8N1 bytes and drops a frame with a bad stop bit", "[rtl][uart]") {
  Vtpu_uart_rx rx;
  rx.rx_i = 1;
  reset(rx);
  std::mt19937 rng(test::test_seed() + 1);
  std::deque<int> line;
  std::vector<uint8_t> want, got;
  for (int i = 0; i < 200; ++i) {
    line.insert(line.end(), rng() % 20, 1);  // idle between bytes
    const uint8_t b = uint8_t(rng());
    const bool good = i % 17 != 5;
    serialize(b, line, good);
    if (good) want.push_back(b);
    else line.insert(line.end(), 3 * kClksPerBit, 1);  // the line recovers
  }
  line.insert(line.end(), 4 * kClksPerBit, 1);
  while (!line.empty()) {
    rx.rx_i = line.front();
    line.pop_front();
    rx.eval();
    if (rx.valid_o) got.push_back(rx.data_o);
    tick(rx);
  }
  CHECK(got == want);
}

TEST_CASE("the bridge executes register and memory requests", "[rtl][uart]") {
  Bridge b;
  auto r = b.transact(uart::csr_write_request(0x24, 0x12345678), 0);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
  CHECK(b.regs[0x24] == 0x12345678);
  r = b.transact(uart::csr_read_request(0x24), 4);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
  CHECK(r->payload == std::vector<uint8_t>{0x78, 0x56, 0x34, 0x12});
  r = b.transact(uart::csr_read_request(0xf4), 4);  // the register block answers SLVERR
  REQUIRE(r);
  CHECK(r->status == uart::Status::Bus);

  std::vector<uint8_t> data(37);
  for (auto& v : data) v = uint8_t(b.rng());
  r = b.transact(uart::mem_write_request(1000, data), 0);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
  CHECK(std::vector<uint8_t>(b.mem.begin() + 1000, b.mem.begin() + 1037) == data);
  r = b.transact(uart::mem_read_request(1000, 37), 37);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
  CHECK(r->payload == data);
  r = b.transact(uart::mem_read_request(4090, 6), 6);  // the last bytes of memory
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
}

TEST_CASE("bad frames get an error reply and change nothing", "[rtl][uart]") {
  Bridge b;
  const std::vector<uint8_t> before = b.mem;
  std::vector<uint8_t> frame = uart::mem_write_request(100, std::vector<uint8_t>(20, 0xee));
  frame[12] ^= 0x10;  // a payload byte corrupted on the line
  auto r = b.transact(frame, 0);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Checksum);
  CHECK(b.mem == before);
  frame = uart::csr_write_request(0x20, 5);
  frame.back() ^= 1;  // a wrong checksum byte
  r = b.transact(frame, 0);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Checksum);
  CHECK(b.regs.count(0x20) == 0);
  r = b.transact(uart::encode_request(9, 0, 0, {}), 0);
  REQUIRE(r);
  CHECK(r->status == uart::Status::UnknownCommand);
  r = b.transact(uart::mem_write_request(4090, std::vector<uint8_t>(7, 1)), 0);  // past the end
  REQUIRE(r);
  CHECK(r->status == uart::Status::Range);
  r = b.transact(uart::mem_read_request(0, 65), 65);  // above MaxPayload (64 in this build)
  REQUIRE(r);
  CHECK(r->status == uart::Status::Range);
  r = b.transact(uart::mem_write_request(0, std::vector<uint8_t>(70, 7)), 0);  // a payload past the buffer
  REQUIRE(r);
  CHECK(r->status == uart::Status::Range);
  for (const uint32_t addr : {0x1000u, 0x10000u, 0x80000000u, 0x80000ff0u}) {  // address bits past memory
    INFO("addr " << addr);
    r = b.transact(uart::mem_write_request(addr, std::vector<uint8_t>(4, 1)), 0);
    REQUIRE(r);
    CHECK(r->status == uart::Status::Range);
  }
  CHECK(b.mem == before);
  r = b.transact(uart::mem_read_request(4096 - 64, 64), 64);  // up to the last byte: fine
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
}

TEST_CASE("a frame cut short is dropped after the timeout and the link recovers", "[rtl][uart]") {
  Bridge b;
  std::vector<uint8_t> frame = uart::mem_write_request(8, {1, 2, 3, 4});
  frame.resize(6);  // the rest is lost
  CHECK_FALSE(b.transact(frame, 0, 1000));  // no reply: the host's read times out
  CHECK(b.mem[8] == 0);
  auto r = b.transact(uart::mem_write_request(8, {1, 2, 3, 4}), 0);
  REQUIRE(r);
  CHECK(r->status == uart::Status::Ok);
  CHECK(b.mem[11] == 4);
}
