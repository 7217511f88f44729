// SPDX-License-Identifier: Apache-2.0
// Whole-core tests: the Verilated tpu_core (N = 4 and N = 16, from configs/) runs
// constrained-random programs and the firmware examples; every run is compared with
// the golden model (state, error code, PC, counters, all of device memory). Device
// memory timing varies: latency, bandwidth and random handshake stalls.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "Vcore_n16.h"
#include "Vcore_n4.h"
#include "Vcore_n4_wedged.h"
#include "asm/assembler.hpp"
#include "config/config.hpp"
#include "differential.hpp"
#include "progen/random_program.hpp"
#include "test_seed.hpp"

using namespace tessera;
using namespace tessera::sim;

namespace {

template <class V> struct CoreConfig;
template <> struct CoreConfig<Vcore_n4> { static constexpr const char* file = "configs/n4.yaml"; };
template <> struct CoreConfig<Vcore_n16> { static constexpr const char* file = "configs/default.yaml"; };

template <class V>
Config core_config() {
  return load_config_file(std::string(TESSERA_SOURCE_DIR) + "/" + CoreConfig<V>::file);
}

SimOptions random_timing(std::mt19937& rng, const Config& cfg) {
  SimOptions o;
  o.timing = random_mem_timing(rng, cfg.dma_width / 8);
  return o;
}

DiffInput to_input(const RandomProgram& p) { return {p.dram, p.entry, p.bus_errors}; }

}  // namespace

TEMPLATE_TEST_CASE("the core runs random legal programs exactly as the golden model",
                   "[rtl][core]", Vcore_n4, Vcore_n16) {
  const Config cfg = core_config<TestType>();
  std::mt19937 rng(test::test_seed());
  const int programs = cfg.array_size == 4 ? 40 : 20;
  int done = 0;
  for (int i = 0; i < programs; ++i) {
    const uint64_t seed = rng();
    const RandomProgram p = random_program(cfg, seed, {});
    const SimOptions opt = random_timing(rng, cfg);
    const DiffResult d = differential_run<TestType>(cfg, to_input(p), opt);
    INFO("N=" << cfg.array_size << " program seed " << seed << " latency " << opt.timing.latency
              << " bandwidth " << opt.timing.bandwidth << " stalls " << opt.timing.random_stall
              << "\n" << d.report << "\n" << p.listing());
    REQUIRE(d.match);
    done += d.model.state == RunState::Done;
  }
  CHECK(done == programs);  // legal programs end in DONE
}

TEMPLATE_TEST_CASE("every architectural error ends the RTL run with the model's code and PC",
                   "[rtl][core]", Vcore_n4, Vcore_n16) {
  const Config cfg = core_config<TestType>();
  std::mt19937 rng(test::test_seed() + 1);
  std::map<ErrorCode, int> seen;
  for (int e = int(ErrorCode::Illegal); e <= int(ErrorCode::ActParam); ++e) {
    for (int i = 0; i < 3; ++i) {
      const uint64_t seed = rng();
      RandomProgramOptions o;
      o.inject = ErrorCode(e);
      o.instructions = 20;
      const RandomProgram p = random_program(cfg, seed, o);
      const SimOptions opt = random_timing(rng, cfg);
      const DiffResult d = differential_run<TestType>(cfg, to_input(p), opt);
      INFO("N=" << cfg.array_size << " injected " << error_name(ErrorCode(e)) << " seed " << seed
                << "\n" << d.report << "\n" << p.listing());
      REQUIRE(d.match);
      CHECK(d.model.state == RunState::Error);
      seen[d.model.error]++;
    }
  }
  for (int e = int(ErrorCode::Illegal); e <= int(ErrorCode::ActParam); ++e)
    CHECK(seen[ErrorCode(e)] > 0);
}

TEST_CASE("the firmware examples run on the N=16 core as on the model", "[rtl][core][firmware]") {
  const Config cfg = core_config<Vcore_n16>();
  for (const char* prog : {"gemm64.s", "dense_relu.s"}) {
    const AsmResult a =
        assemble_file(std::string(TESSERA_SOURCE_DIR) + "/firmware/examples/" + prog, cfg);
    REQUIRE(a.image.has_value());
    DiffInput in;
    in.dram.assign(cfg.dram_bytes, 0);
    std::mt19937 rng(test::test_seed() + 2);
    for (size_t i = 0x10000; i < in.dram.size(); ++i) in.dram[i] = uint8_t(rng());  // inputs
    for (const auto& s : a.image->sections)
      std::copy(s.bytes.begin(), s.bytes.end(), in.dram.begin() + s.addr);
    in.entry = a.image->entry;
    const DiffResult d = differential_run<Vcore_n16>(cfg, in, SimOptions{});
    INFO(prog << ": " << d.report);
    CHECK(d.match);
    CHECK(d.model.state == RunState::Done);
  }
}

TEST_CASE("a wedged weight FIFO produces the watchdog report, not a hang", "[rtl][core][watchdog]") {
  Config cfg = load_config_file(std::string(TESSERA_SOURCE_DIR) + "/configs/n4.yaml");
  SimOptions opt;
  opt.watchdog_cycles = 2000;
  CoreSim<Vcore_n4_wedged> sim(cfg, opt);
  Instr rw, mmc, halt;
  rw.op = Opcode::RW, rw.addr = 0x1000, rw.stride = 4, rw.k = 4, rw.n = 4;
  mmc.op = Opcode::MMC, mmc.rows = 4, mmc.sw = 1;
  halt.op = Opcode::HALT;
  std::vector<uint8_t>& mem = sim.memory().bytes();
  for (int i = 0; i < 3; ++i) store_word(encode(std::vector<Instr>{rw, mmc, halt}[i]), &mem[16 * i]);
  const RunResult r = sim.run(0, 1000000);
  REQUIRE(sim.hang().has_value());
  CHECK(r.status.state == RunState::Running);
  CHECK(sim.hang()->find("watchdog: no progress for 2000 cycles") != std::string::npos);
  CHECK(sim.hang()->find("dma-in: busy") != std::string::npos);
}


TEST_CASE("back-to-back multiplies with weight switches stream without a bubble", "[rtl][core][timing]") {
  // Two tiles already in the FIFO, then three multiplies of L rows, the last two
  // switching tiles: each mmc must retire exactly L cycles after the one before it,
  // and no cycle may be spent waiting for a shadow-weight load.
  const Config cfg = core_config<Vcore_n16>();
  const int L = 40;
  Instr rw, sync, m1, m2, m3, halt;
  rw.op = Opcode::RW, rw.addr = 0x10000, rw.stride = 16, rw.k = 16, rw.n = 16;
  sync.op = Opcode::SYNC;
  m1.op = m2.op = m3.op = Opcode::MMC;
  m1.rows = m2.rows = m3.rows = L;
  m1.sw = m2.sw = m3.sw = 1;
  m2.acc = L, m3.acc = 2 * L;
  halt.op = Opcode::HALT;
  const std::vector<Instr> prog = {rw, rw, rw, sync, m1, m2, m3, halt};
  CoreSim<Vcore_n16> sim(cfg, SimOptions{});
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &sim.memory().bytes()[16 * i]);
  std::map<int, uint32_t> slot_pc;
  std::map<uint32_t, uint64_t> retired;
  sim.on_cycle = [&](Vcore_n16& d, uint64_t c) {
    // Outputs after the edge describe the coming cycle; record them by that cycle.
    if (d.trace_issue_o) slot_pc[d.trace_slot_o] = d.trace_pc_o;
    for (int s = 0; s < 8; ++s)
      if ((d.trace_retire_o >> s) & 1) retired[slot_pc[s]] = c;
  };
  const RunResult r = sim.run(0, 100000);
  REQUIRE(r.ok());
  REQUIRE(retired.count(0x40));
  REQUIRE(retired.count(0x50));
  REQUIRE(retired.count(0x60));
  CHECK(retired[0x50] - retired[0x40] == uint64_t(L));
  CHECK(retired[0x60] - retired[0x50] == uint64_t(L));
  CHECK(*r.counters.weight_shift == 0u);
  CHECK(*r.counters.weight_stall == 0u);
  CHECK(*r.counters.matrix_active == uint64_t(3 * L));
}

TEMPLATE_TEST_CASE("an rhm reads what an older whm wrote to device memory", "[rtl][core]",
                   Vcore_n4, Vcore_n16) {
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  auto rhm = [&](int64_t ub, int64_t addr) {
    Instr in;
    in.op = Opcode::RHM, in.ub = ub, in.rows = 8, in.addr = addr, in.stride = n, in.seglen = n, in.segs = 1;
    return in;
  };
  auto whm = [&](int64_t ub, int64_t addr) {
    Instr in;
    in.op = Opcode::WHM, in.ub = ub, in.rows = 8, in.addr = addr, in.stride = n, in.len = n;
    return in;
  };
  Instr halt;
  halt.op = Opcode::HALT;
  // data -> UB 0 -> out1 -> UB 16 -> out2: out2 holds the data only if the second rhm
  // waited for the first whm's writes.
  const std::vector<Instr> prog = {rhm(0, 0x2000), whm(0, 0x3000), rhm(16, 0x3000), whm(16, 0x4000), halt};
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
  for (int i = 0; i < 8 * n; ++i) in.dram[0x2000 + i] = uint8_t(i + 1);
  const DiffResult d = differential_run<TestType>(cfg, in, SimOptions{});
  INFO(d.report);
  CHECK(d.match);
}
