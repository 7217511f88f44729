// SPDX-License-Identifier: Apache-2.0
// The simulated iCEBreaker board (tpu-board-sim's BoardSim) driven through a
// pseudo-terminal by the driver's UART backend, against the golden model: a random
// program, a GEMM, one digits inference; then the link itself: corrupted and truncated
// frames, a noisy line, a silent port.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <random>
#include <thread>

#include "asm/assembler.hpp"
#include "board_sim.hpp"
#include "compiler/compiler.hpp"
#include "compiler/gemm.hpp"
#include "config/config.hpp"
#include "driver/csr_access.hpp"
#include "driver/device.hpp"
#include "driver/uart_link.hpp"
#include "nn/dataset.hpp"
#include "nn/quant_model.hpp"
#include "nn/quantize.hpp"
#include "progen/random_program.hpp"

using namespace tessera;

namespace {

const Config& board_config() {
  static const Config c = load_config_file(TESSERA_SOURCE_DIR "/configs/icebreaker.yaml");
  return c;
}

// A board clocked in a thread of its own for as long as the object lives.
class RunningBoard {
 public:
  explicit RunningBoard(const sim::BoardSimOptions& o = {}) : board_(o), thread_([this] { board_.run(600); }) {}
  ~RunningBoard() {
    board_.stop();
    thread_.join();
  }
  const std::string& port() const { return board_.port(); }
  DeviceOptions options() const {
    DeviceOptions o;
    o.backend = BackendKind::Uart;
    o.port = port();
    o.link_timeout_ms = 1000;  // a simulated second is long
    return o;
  }

 private:
  sim::BoardSim board_;
  std::thread thread_;
};

Image assemble(const std::string& source, const std::string& name) {
  const AsmResult a = assemble_source(source, name, ".", board_config());
  if (!a.image) FAIL(a.diags.format());
  return *a.image;
}

// Runs img on `board` and on the golden model; everything the host can see must agree.
void check_same_as_model(Device& board, const Image& img, const std::vector<std::pair<std::string, std::vector<uint8_t>>>& inputs,
                         const std::vector<std::string>& outputs) {
  auto gold = Device::open(board_config());
  for (Device* d : {&board, gold.get()}) {
    d->load(img);
    for (const auto& [sym, bytes] : inputs) d->write(sym, bytes);
  }
  const RunResult got = board.run(), want = gold->run();
  CHECK(got.status.state == want.status.state);
  CHECK(got.status.error == want.status.error);
  CHECK(got.status.pc == want.status.pc);
  CHECK(got.counters.instructions == want.counters.instructions);
  CHECK(got.counters.macs == want.counters.macs);
  for (const auto& sym : outputs) {
    INFO("symbol " << sym);
    CHECK(board.read(sym) == gold->read(sym));
  }
}

std::vector<uint8_t> random_bytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = uint8_t(rng());
  return v;
}

}  // namespace

TEST_CASE("a random program on the board: status, counters and all of memory as on the model", "[board]") {
  RunningBoard rb;
  auto board = Device::open(board_config(), rb.options());
  auto gold = Device::open(board_config());
  const RandomProgram p = random_program(board_config(), 2026, {});
  // The generator's memory image (zeros included: SPRAM starts undefined), code first.
  Image img;
  img.config_fingerprint = board_config().fingerprint();
  img.config_summary = board_config().summary();
  img.entry = p.entry;
  const long text = long(p.entry + 16 * p.words.size());
  img.sections.push_back({SectionKind::Text, 0, std::vector<uint8_t>(p.dram.begin(), p.dram.begin() + text)});
  img.sections.push_back({SectionKind::Data, uint32_t(text), std::vector<uint8_t>(p.dram.begin() + text, p.dram.end())});
  for (Device* d : {board.get(), gold.get()}) d->load(img);
  const RunResult got = board->run(), want = gold->run();
  INFO(p.listing());
  CHECK(got.status.state == want.status.state);
  CHECK(got.status.error == want.status.error);
  CHECK(got.status.pc == want.status.pc);
  CHECK(got.counters.instructions == want.counters.instructions);
  CHECK(board->read_mem(0, board_config().dram_bytes) == gold->read_mem(0, board_config().dram_bytes));
}

TEST_CASE("a GEMM and one digits inference on the board give the model's bytes", "[board]") {
  RunningBoard rb;
  auto board = Device::open(board_config(), rb.options());
  const compiler::GemmProgram g = compiler::gemm_program(board_config(), 8, 16, 12);
  check_same_as_model(*board, assemble(g.assembly, "gemm.s"),
                      {{"a", random_bytes(8 * 16, 1)}, {"b", random_bytes(16 * 12, 2)}}, {"c"});

  const nn::QuantModel q = nn::load_model(TESSERA_SOURCE_DIR "/firmware/models/digits_mlp.yaml");
  compiler::CompileOptions opt;
  opt.batch = 1;
  const compiler::CompiledModel c = compiler::compile_model(q, board_config(), opt);
  const nn::Digits test = nn::split_digits(nn::load_digits_csv(TESSERA_SOURCE_DIR "/firmware/data/digits/digits.csv")).test;
  const std::vector<int8_t> x = nn::quantize_digit(q, test.images[0].data());
  check_same_as_model(*board, assemble(c.assembly, "digits_mlp.s"), {{"input", std::vector<uint8_t>(x.begin(), x.end())}},
                      {"logits"});
}

namespace {
// Raw frames to the board: the request as bytes, the reply as bytes (or none).
struct RawLink {
  explicit RawLink(const std::string& port) : serial(port, 115200) {}
  std::vector<uint8_t> ask(const std::vector<uint8_t>& frame, size_t reply_bytes, int timeout_ms = 1500) {
    serial.write(frame);
    std::vector<uint8_t> got;
    serial.read(got, reply_bytes, timeout_ms);
    return got;
  }
  SerialPort serial;
};

uint32_t le32(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t(b[at]) | uint32_t(b[at + 1]) << 8 | uint32_t(b[at + 2]) << 16 | uint32_t(b[at + 3]) << 24;
}
}  // namespace

TEST_CASE("a corrupted frame gets a checksum reply and changes nothing", "[board][link]") {
  RunningBoard rb;
  RawLink link(rb.port());
  const std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6, 7, 8};
  REQUIRE(link.ask(uart::mem_write_request(0x100, data), 3) == std::vector<uint8_t>{0xa5, 0, 0});
  REQUIRE(link.ask(uart::csr_write_request(csr::kEntry, 0x40), 3) == std::vector<uint8_t>{0xa5, 0, 0});

  // One bit flipped in the payload, in the address, in the checksum itself.
  for (size_t at : {size_t(9), size_t(3), size_t(16)}) {
    std::vector<uint8_t> bad = uart::mem_write_request(0x100, {9, 9, 9, 9, 9, 9, 9, 9});
    bad[at] ^= 0x04;
    INFO("flipped byte " << at);
    CHECK(link.ask(bad, 3) == std::vector<uint8_t>{0xa5, 1, 0xff});  // status 1; 1 + 0xff = 0
  }
  std::vector<uint8_t> bad_csr = uart::csr_write_request(csr::kEntry, 0x80);
  bad_csr[9] ^= 0x01;  // the value
  CHECK(link.ask(bad_csr, 3) == std::vector<uint8_t>{0xa5, 1, 0xff});

  const std::vector<uint8_t> mem = link.ask(uart::mem_read_request(0x100, 8), 11);
  REQUIRE(mem.size() == 11);
  CHECK(std::vector<uint8_t>(mem.begin() + 2, mem.begin() + 10) == data);
  const std::vector<uint8_t> entry = link.ask(uart::csr_read_request(csr::kEntry), 7);
  REQUIRE(entry.size() == 7);
  CHECK(le32(entry, 2) == 0x40);
  // Unknown commands and out-of-range requests are refused, with their own status.
  CHECK(link.ask(uart::encode_request(9, 0, 0, {}), 3) == std::vector<uint8_t>{0xa5, 2, 0xfe});
  CHECK(link.ask(uart::mem_read_request(board_config().dram_bytes - 4, 8), 3) == std::vector<uint8_t>{0xa5, 3, 0xfd});
}

TEST_CASE("a frame that loses a byte gets no reply and the next request works", "[board][link]") {
  RunningBoard rb;
  RawLink link(rb.port());
  std::vector<uint8_t> cut = uart::mem_write_request(0x200, {7, 7, 7, 7});
  cut.erase(cut.begin() + 10);  // a payload byte lost on the wire
  CHECK(link.ask(cut, 3, 300).empty());  // incomplete: the bridge waits, then drops it
  CHECK(link.ask(uart::mem_write_request(0x200, {1, 2, 3, 4}), 3) == std::vector<uint8_t>{0xa5, 0, 0});
  const std::vector<uint8_t> mem = link.ask(uart::mem_read_request(0x200, 4), 7);
  REQUIRE(mem.size() == 7);
  CHECK(le32(mem, 2) == 0x04030201);
}

TEST_CASE("on a noisy line the driver retries until every transfer is intact", "[board][link]") {
  sim::BoardSimOptions faults;
  // Rarer than the longest frame (266 bytes), so that a retry can get through.
  faults.corrupt_every = 1009;  // a flipped bit every 1009 bytes the host sends
  faults.drop_every = 2503;     // and a byte lost every 2503
  RunningBoard rb(faults);
  LinkOptions lo;
  lo.timeout_ms = 1000;
  lo.tries = 6;
  UartLink link(std::make_unique<SerialPort>(rb.port(), 115200), lo);
  const std::vector<uint8_t> data = random_bytes(8000, 5);
  link.mem_write(0x1000, data.data(), data.size());
  std::vector<uint8_t> back(data.size());
  link.mem_read(0x1000, back.data(), back.size());
  CHECK(back == data);
  CHECK(link.stats().rejected_requests > 0);  // the board saw corrupted frames ...
  CHECK(link.stats().timeouts > 0);           // ... and incomplete ones, and the host retried
  CHECK(link.stats().retries == link.stats().rejected_requests + link.stats().timeouts);
}

TEST_CASE("a silent port is a clear error after the retries, not a hang", "[board][link]") {
  // A pseudo-terminal nobody answers on: a board without its bitstream.
  const int master = posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(master >= 0);
  REQUIRE(grantpt(master) == 0);
  REQUIRE(unlockpt(master) == 0);
  DeviceOptions o;
  o.backend = BackendKind::Uart;
  o.port = ptsname(master);
  o.link_timeout_ms = 100;
  o.link_tries = 3;
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(Device::open(board_config(), o),
                    Catch::Contains("no reply from the board on " + o.port + " after 3 tries (100 ms each)"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  close(master);

  o.port = "/dev/does-not-exist";
  CHECK_THROWS_WITH(Device::open(board_config(), o), Catch::Contains("cannot open serial port /dev/does-not-exist"));
  o.port = "";
  CHECK_THROWS_WITH(Device::open(board_config(), o), Catch::Contains("needs a serial port"));
}

TEST_CASE("the board refuses a configuration it was not built with", "[board][link]") {
  RunningBoard rb;
  Config other = board_config();
  other.ub_rows *= 2;
  DeviceOptions o = rb.options();
  CHECK_THROWS_WITH(Device::open(other, o), Catch::Contains("do not match the configuration"));
}
