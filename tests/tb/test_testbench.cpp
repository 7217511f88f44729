// SPDX-License-Identifier: Apache-2.0
// End-to-end tests of the SystemC testbench (tb/) on one core configuration (TB_CORE,
// TB_CONFIG; one binary per configuration since SystemC elaborates once per process):
// random programs, planted errors and the firmware examples, compared with the golden
// model by the scoreboard; SLVERR and DECERR answers from the TLM memory; the
// watchdog; the scoreboard's mismatch report; the monitor's records.
#include <catch2/catch.hpp>

#include <random>

#include TB_CORE_HEADER
#include "asm/assembler.hpp"
#include "progen/random_program.hpp"
#include "scoreboard.hpp"
#include "test_seed.hpp"
#include "testbench.hpp"
#include "util/hex.hpp"

using namespace tessera;
using namespace tessera::sim;
using tessera::tb::ErrorRange;
using tessera::tb::MemorySettings;

namespace {

const Config& config() {
  static const Config cfg = load_config_file(std::string(TESSERA_SOURCE_DIR) + "/" TB_CONFIG);
  return cfg;
}

tb::Testbench<TB_CORE>& bench() {
  static auto* t = new tb::Testbench<TB_CORE>("tb", config());
  return *t;
}

struct TbRun {
  Expected want;
  RunResult got;
  Comparison cmp;
};

// The image on the testbench (from reset) and on the model, compared by the scoreboard.
// Bus-error ranges answer SLVERR unless `m` already lists ranges.
TbRun tb_run(const DiffInput& in, MemorySettings m, uint64_t watchdog = 100000) {
  TbRun r;
  r.want = run_model(config(), in);
  if (m.errors.empty())
    for (const AddrRange& a : in.bus_errors) m.errors.push_back({a, tlm::TLM_GENERIC_ERROR_RESPONSE});
  auto& t = bench();
  t.set_memory(m);
  t.reset();
  t.write_mem(0, in.dram.data(), in.dram.size());
  r.got = t.run(in.entry, 5000000, watchdog);
  r.cmp = compare_run(r.want, r.got, t.memory_bytes(), r.got.hang, 5000000);
  return r;
}

MemorySettings random_settings(std::mt19937& rng) {
  const MemTiming t = random_mem_timing(rng, config().dma_width / 8);
  MemorySettings m;
  m.latency = t.latency;
  m.bandwidth = t.bandwidth;
  m.random_stall = t.random_stall;
  m.seed = t.seed;
  return m;
}

[[maybe_unused]] DiffInput firmware(const std::string& name, uint32_t seed) {
  const Config& cfg = config();
  const AsmResult a = assemble_file(std::string(TESSERA_SOURCE_DIR) + "/firmware/examples/" + name, cfg);
  REQUIRE(a.image.has_value());
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  std::mt19937 rng(seed);
  for (size_t i = 0x2000; i < in.dram.size(); ++i) in.dram[i] = uint8_t(rng());  // inputs
  for (const auto& s : a.image->sections) std::copy(s.bytes.begin(), s.bytes.end(), in.dram.begin() + s.addr);
  in.entry = a.image->entry;
  return in;
}

}  // namespace

TEST_CASE("random programs, legal and with planted errors, match the golden model", "[tb]") {
  std::mt19937 rng(test::test_seed());
  const int programs = config().array_size == 4 ? 30 : 12;
  for (int i = 0; i < programs; ++i) {
    RandomProgramOptions o;
    if (i % 4 == 3) o.inject = ErrorCode(1 + (i / 4) % 7);
    const uint64_t seed = rng();
    const RandomProgram p = random_program(config(), seed, o);
    const MemorySettings m = random_settings(rng);
    const TbRun r = tb_run({p.dram, p.entry, p.bus_errors}, m);
    INFO("N=" << config().array_size << " seed " << seed << " latency " << m.latency << " bandwidth "
              << m.bandwidth << " stalls " << m.random_stall << "\n" << r.cmp.report << "\n" << p.listing());
    REQUIRE(r.cmp.match);
    CHECK((r.want.status.state == RunState::Error) == (o.inject != ErrorCode::None));
  }
}

#ifdef TB_FIRMWARE  // the examples are written for the default core (N = 16)
TEST_CASE("the firmware examples match the golden model", "[tb]") {
  for (const char* prog : {"gemm64.s", "dense_relu.s"}) {
    const TbRun r = tb_run(firmware(prog, 7), tb::memory_settings(config()));
    INFO(prog << ": " << r.cmp.report);
    CHECK(r.cmp.match);
    CHECK(r.want.status.state == RunState::Done);
    // The monitor saw every instruction; the testbench's own clock agrees with the
    // core's cycle counter (the difference is the start-up register writes).
    CHECK(bench().timeline().entries().size() == r.got.counters.instructions);
    CHECK(bench().monitored_cycles() >= *r.got.counters.cycles);
    CHECK(bench().monitored_cycles() < *r.got.counters.cycles + 20);
  }
}
#endif

TEST_CASE("SLVERR and DECERR from the TLM memory end the run with the model's bus error", "[tb]") {
  // A legal program whose reads and writes cover device memory; fault a range it uses.
  const RandomProgram p = random_program(config(), 77, {});
  const Expected clean = run_model(config(), {p.dram, p.entry, {}});
  REQUIRE(!clean.writes.empty());
  const uint32_t at = uint32_t(clean.writes.front().addr) / 64 * 64;
  for (auto response : {tlm::TLM_GENERIC_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE}) {
    MemorySettings m = tb::memory_settings(config());
    m.errors.push_back({{at, at + 64}, response});
    const TbRun r = tb_run({p.dram, p.entry, {{at, at + 64}}}, m);
    INFO((response == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "DECERR" : "SLVERR") << ": " << r.cmp.report);
    CHECK(r.cmp.match);
    CHECK(r.got.status.error == ErrorCode::BusError);
  }
}

TEST_CASE("the watchdog stops a run that makes no progress, with a report", "[tb][watchdog]") {
  // A memory slower than the watchdog's patience looks like a hang: the first fetch
  // waits longer than 5000 cycles. (The patience must exceed the memory scrub after
  // reset, max(ub_rows, acc_rows) cycles, which delays the start.)
  const RandomProgram p = random_program(config(), 5, {});
  MemorySettings m = tb::memory_settings(config());
  m.latency = 50000;
  const TbRun r = tb_run({p.dram, p.entry, {}}, m, 5000);
  REQUIRE(r.got.hang.has_value());
  INFO(*r.got.hang);
  CHECK(r.got.hang->find("watchdog: no progress for 5000 cycles") != std::string::npos);
  CHECK(r.got.hang->find("bus: transfers outstanding") != std::string::npos);
  CHECK(r.got.status.state == RunState::Running);
  // The testbench recovers with a reset.
  const TbRun again = tb_run({p.dram, p.entry, {}}, tb::memory_settings(config()));
  CHECK(again.cmp.match);
}

TEST_CASE("the scoreboard reports the first mismatch and the instruction that wrote it", "[tb]") {
  const RandomProgram p = random_program(config(), 11, {});
  const TbRun r = tb_run({p.dram, p.entry, {}}, tb::memory_settings(config()));
  REQUIRE(r.cmp.match);
  REQUIRE(!r.want.writes.empty());
  // Corrupt one byte the last whm wrote, as a broken core would have.
  const Expected::Write& w = r.want.writes.back();
  std::vector<uint8_t> bad = bench().memory_bytes();
  bad[w.addr] ^= 0x5a;
  const Comparison c = compare_run(r.want, r.got, bad, std::nullopt, 0);
  CHECK_FALSE(c.match);
  CHECK(c.report.find("device memory at " + tessera::hex(w.addr)) != std::string::npos);
  CHECK(c.report.find("RTL " + tessera::hex(bad[w.addr], 2) + ", model " + tessera::hex(r.want.dram[w.addr], 2)) !=
        std::string::npos);
  CHECK(c.report.find("last written by pc " + tessera::hex(w.pc) + " (whm") != std::string::npos);
  // A byte no instruction wrote comes from the loaded image.
  bad = bench().memory_bytes();
  const uint32_t top = config().dram_bytes - 1;
  bad[top] ^= 1;
  CHECK(compare_run(r.want, r.got, bad, std::nullopt, 0).report.find("loaded image") != std::string::npos);
}
