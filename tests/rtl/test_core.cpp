// SPDX-License-Identifier: Apache-2.0
// Whole-core tests: the Verilated tpu_core (N = 4 and N = 16, from configs/) runs
// constrained-random programs and the firmware examples, the lite core (the iCEBreaker's
// configuration) the cases at the edges of device memory; every run is compared with
// the golden model (state, error code, PC, counters, all of device memory). Device
// memory timing varies: latency, bandwidth and random handshake stalls.
#include <catch2/catch.hpp>

#include <map>
#include <optional>
#include <random>
#include <sstream>

#include "Vcore_n16.h"
#include "Vcore_n4.h"
#include "Vcore_n4_wedged.h"
#include "Vcore_n4_wedged___024root.h"
#include "Vlite_icebreaker.h"
#include "asm/assembler.hpp"
#include "config/config.hpp"
#include "isa/act_block.hpp"
#include "differential.hpp"
#include "progen/random_program.hpp"
#include "shipped_cores.hpp"
#include "test_seed.hpp"

using namespace tessera;
using namespace tessera::sim;

namespace {

template <class V> struct CoreConfig;
template <> struct CoreConfig<Vcore_n4> { static std::string path() { return shipped_core("n4").config; } };
template <> struct CoreConfig<Vcore_n16> { static std::string path() { return shipped_core("n16").config; } };
template <> struct CoreConfig<Vlite_icebreaker> { static std::string path() { return "configs/icebreaker.yaml"; } };

template <class V>
Config core_config() {
  return load_config_file(std::string(TESSERA_SOURCE_DIR) + "/" + CoreConfig<V>::path());
}

SimOptions random_timing(std::mt19937& rng, const Config& cfg) {
  SimOptions o;
  o.timing = random_mem_timing(rng, cfg.dma_width / 8);
  return o;
}

DiffInput to_input(const RandomProgram& p) { return {p.dram, p.entry, p.bus_errors}; }

// An rhm of `rows` whole rows of n bytes, one segment each, consecutive in memory.
Instr rhm_rows(int64_t n, int64_t ub, int64_t rows, int64_t addr) {
  Instr in;
  in.op = Opcode::RHM, in.ub = ub, in.rows = rows, in.addr = addr, in.stride = n, in.seglen = n, in.segs = 1;
  return in;
}

// An act parameter block at `at` (for n lanes) that passes each sum through: bias 0,
// multiplier 2^30, shift 30, so out = acc saturated to int8.
void identity_params(std::vector<uint8_t>& dram, size_t at, int64_t n) {
  for (int64_t i = 0; i < n; ++i) put_act_lane(&dram[at], uint32_t(n), uint32_t(i), ActLane{0, 1 << 30, 30});
}

// The cycle each instruction (by PC) retired, from the core's trace port.
template <class V>
struct RetireLog {
  std::map<int, uint32_t> slot_pc;
  std::map<uint32_t, uint64_t> retired;
  explicit RetireLog(CoreSim<V>& sim) {
    sim.on_cycle = [this](V& d, uint64_t c) {
      // Outputs after the edge describe the coming cycle; record them by that cycle.
      if (d.trace_issue_o) slot_pc[d.trace_slot_o] = d.trace_pc_o;
      for (int s = 0; s < int(8 * sizeof d.trace_retire_o); ++s)  // every scoreboard slot
        if ((uint64_t(d.trace_retire_o) >> s) & 1) retired[slot_pc[s]] = c;
    };
  }
  uint64_t at(uint32_t pc) const {
    REQUIRE(retired.count(pc));
    return retired.at(pc);
  }
};

// N = 16: three weight tiles loaded, a sync, then three multiplies of L rows (pc 0x40,
// 0x50, 0x60), each switching to the next tile; `between`, if given, goes after the
// first multiply (and moves the next two to 0x60, 0x70).
std::vector<Instr> streaming_multiplies(int L, std::optional<Instr> between) {
  Instr rw, sync, m1, m2, m3, halt;
  rw.op = Opcode::RW, rw.addr = 0x10000, rw.stride = 16, rw.k = 16, rw.n = 16;
  sync.op = Opcode::SYNC;
  m1.op = m2.op = m3.op = Opcode::MMC;
  m1.rows = m2.rows = m3.rows = L;
  m1.sw = m2.sw = m3.sw = 1;
  m2.acc = L, m3.acc = 2 * L;
  halt.op = Opcode::HALT;
  std::vector<Instr> prog = {rw, rw, rw, sync, m1, m2, m3, halt};
  if (between) prog.insert(prog.begin() + 5, *between);
  return prog;
}

template <class V>
void load_program(CoreSim<V>& sim, const std::vector<Instr>& prog) {
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &sim.memory().bytes()[16 * i]);
}

// Runs `prog` (from address 0, the configuration's memory timing) on the N = 16 core: the
// cycle each instruction retired, by PC.
std::map<uint32_t, uint64_t> retire_cycles(const std::vector<Instr>& prog) {
  CoreSim<Vcore_n16> sim(core_config<Vcore_n16>(), SimOptions{});
  load_program(sim, prog);
  const RetireLog<Vcore_n16> log(sim);
  const RunResult r = sim.run(0, 100000);
  REQUIRE(r.ok());
  return log.retired;
}

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
  Config cfg = core_config<Vcore_n4>();
  SimOptions opt;
  opt.watchdog_cycles = 2000;
  CoreSim<Vcore_n4_wedged> sim(cfg, opt);
  // The wedge, from outside the RTL: after every edge the weight FIFO says it is full
  // with no room (registers that change only on a push or a pop, neither of which can
  // then happen), so the DMA-in's rw waits forever.
  sim.on_cycle = [](Vcore_n4_wedged& d, uint64_t) {
    d.rootp->tpu_core__DOT__u_wfifo__DOT__free_q = 0;
    d.rootp->tpu_core__DOT__u_wfifo__DOT__full_q = 1;
  };
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
  // Three tiles in the FIFO, then three multiplies of L rows, each switching to the
  // next tile: each mmc must retire exactly L cycles after the one before it, and no
  // cycle may be spent waiting for a shadow-weight load. Multiplies of N rows: the
  // first switch is still free (a load starts the cycle its contract first allows), the
  // second costs a cycle (the loader starts a tile N + 1 cycles after the one before).
  const Config cfg = core_config<Vcore_n16>();
  const int L = GENERATE(40, 16);
  const int lost = L == int(cfg.array_size) ? 1 : 0;
  CoreSim<Vcore_n16> sim(cfg, SimOptions{});
  load_program(sim, streaming_multiplies(L, {}));
  const RetireLog<Vcore_n16> log(sim);
  const RunResult r = sim.run(0, 100000);
  REQUIRE(r.ok());
  CHECK(log.at(0x50) - log.at(0x40) == uint64_t(L));
  CHECK(log.at(0x60) - log.at(0x50) == uint64_t(L + lost));
  CHECK(*r.counters.weight_shift == uint64_t(lost));
  CHECK(*r.counters.weight_stall == 0u);
  CHECK(*r.counters.matrix_active == uint64_t(3 * L));
}

TEMPLATE_TEST_CASE("an rhm reads what an older whm wrote to device memory", "[rtl][core]",
                   Vcore_n4, Vcore_n16) {
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  auto rhm = [&](int64_t ub, int64_t addr) { return rhm_rows(n, ub, 8, addr); };
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

// The fetch past the end of device memory faults at pc = dram_bytes, beyond every
// program address: the instructions before it are older and complete (a unit that
// compared only the low address bits would take them for younger and drop them).
TEMPLATE_TEST_CASE("instructions before a fetch past the end of memory complete", "[rtl][core]",
                   Vcore_n4, Vcore_n16, Vlite_icebreaker) {
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  Instr rhm, whm;
  rhm.op = Opcode::RHM, rhm.ub = 0, rhm.rows = 4, rhm.addr = 0x1000, rhm.stride = n, rhm.seglen = n, rhm.segs = 1;
  whm.op = Opcode::WHM, whm.ub = 0, whm.rows = 4, whm.addr = 0x2000, whm.stride = n, whm.len = n;
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  in.entry = uint32_t(cfg.dram_bytes - 32);   // rhm, whm, then the end: no halt
  store_word(encode(rhm), &in.dram[in.entry]);
  store_word(encode(whm), &in.dram[in.entry + 16]);
  for (int i = 0; i < 4 * n; ++i) in.dram[0x1000 + i] = uint8_t(i + 1);
  const DiffResult d = differential_run<TestType>(cfg, in, SimOptions{});
  INFO(d.report);
  CHECK(d.model.error == ErrorCode::DramRange);
  CHECK(d.match);
}

// A run whose entry leaves no whole instruction in device memory faults DRAM_RANGE at
// the entry itself, however far past the end it lies (the PC register keeps all of it);
// one whose entry holds the last instruction runs it and faults at the end.
TEMPLATE_TEST_CASE("a run from an entry at or past the end of memory faults there", "[rtl][core]",
                   Vcore_n4, Vlite_icebreaker) {
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  const uint32_t end = uint32_t(cfg.dram_bytes);
  for (const uint32_t entry : {end - 16, end - 8, end, end + 16, end + 0x1230, 2 * end, 0x80000000u, 0xfffffff0u}) {
    DiffInput in;
    in.dram.assign(cfg.dram_bytes, 0);
    in.entry = entry;
    if (entry < end) store_word(encode(rhm_rows(n, 0, 2, 0x1000)), &in.dram[entry & ~15u]);
    const DiffResult d = differential_run<TestType>(cfg, in, SimOptions{});
    INFO("entry " << entry << "\n" << d.report);
    CHECK(d.model.error == ErrorCode::DramRange);
    CHECK(d.match);
  }
}

// An instruction whose fetch had a bus error faults there and does nothing else, even
// when the words that arrived make a whm that could run at once (all units idle): the
// error covers only its third word, and device memory must stay as it was. (The lite
// core, whose fetch reads a word at a time. The full core's fetch reads 64-byte spans
// and gives a bus error to every instruction of its span: it assumes error ranges
// 64-byte aligned, as the tests inject them, rtl/tpu_fetch.v.)
TEMPLATE_TEST_CASE("a whm fetched with a bus error in one word writes nothing", "[rtl][core]",
                   Vlite_icebreaker) {
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  Instr nop, whm;
  nop.op = Opcode::NOP;
  whm.op = Opcode::WHM, whm.ub = 0, whm.rows = 1, whm.addr = 0x2000, whm.stride = n, whm.len = n;
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  in.entry = 0;
  store_word(encode(nop), &in.dram[0]);
  store_word(encode(whm), &in.dram[16]);
  for (int i = 0; i < 64; ++i) in.dram[0x2000 + size_t(i)] = 0xa5;   // (a whm that ran would zero these)
  in.bus_errors.push_back({16 + 8, 16 + 12});   // (its third word: the address's high half and the stride, 0 anyway)
  const DiffResult d = differential_run<TestType>(cfg, in, SimOptions{});
  INFO(d.report);
  CHECK(d.model.error == ErrorCode::BusError);
  CHECK(d.match);
}

// Two faults in flight: the core reports the older instruction's even when the younger
// one's comes first. An rw (bus error on its last tile) with a younger act that faults
// on its shift row at once, beside it; and an act that copies its parameter block
// before it finds the bad shift, with a younger one-tile rw whose first beat fails
// meanwhile. (The lite core runs an act beside an rw; the full core's units overlap too.)
TEMPLATE_TEST_CASE("the older of two faults in flight ends the run", "[rtl][core]", Vcore_n4, Vlite_icebreaker) {
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  const int64_t tiles = std::min<int64_t>(4, cfg.wfifo_depth);
  Instr rw, act, halt;
  rw.op = Opcode::RW, rw.addr = 0x6000, rw.stride = n, rw.k = n, rw.n = n, rw.tiles = tiles, rw.tstride = 0x100;
  act.op = Opcode::ACT, act.acc = 0, act.rows = 1, act.params = 10, act.pool = 1;
  halt.op = Opcode::HALT;
  for (const bool act_first : {false, true}) {
    DYNAMIC_SECTION((act_first ? "the act first" : "the rw first")) {
      act.ub = act_first ? 12 : 64;   // (12: its output row is in the block, which it copies first)
      if (act_first) rw.tiles = 1;
      std::vector<Instr> prog = {rhm_rows(n, 10, kActParamRows, 0x2000)};
      if (act_first) prog.push_back(act), prog.push_back(rw);
      else prog.push_back(rw), prog.push_back(act);
      prog.push_back(halt);
      DiffInput in;
      in.dram.assign(cfg.dram_bytes, 0);
      for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
      in.dram[0x2000 + act_shift_at(uint32_t(n), 0)] = 64;
      const int64_t bad = act_first ? rw.addr : rw.addr + (rw.tiles - 1) * rw.tstride;
      in.bus_errors.push_back({uint32_t(bad), uint32_t(bad + 4)});
      in.entry = 0;
      const DiffResult d = differential_run<TestType>(cfg, in, SimOptions{});
      INFO(d.report);
      CHECK(d.model.error == (act_first ? ErrorCode::ActParam : ErrorCode::BusError));
      CHECK(d.match);
    }
  }
}

TEMPLATE_TEST_CASE("an act reloads its parameters after a write to them, and only then", "[rtl][core]",
                   Vcore_n4, Vcore_n16) {
  // The activation sequencer keeps the last parameter block it loaded and skips the
  // load when the next act names the same rows. Between acts with the same block:
  // nothing, an rhm writing the row just past the block, an rhm rewriting the shift row,
  // an rhm rewriting a bias row. The outputs match the model only if every rewrite was
  // seen and the untouched block was reused correctly.
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  auto rhm = [&](int64_t ub, int64_t rows, int64_t addr) { return rhm_rows(n, ub, rows, addr); };
  Instr rw, mmc, halt;
  rw.op = Opcode::RW, rw.addr = 0x6000, rw.stride = n, rw.k = n, rw.n = n;
  mmc.op = Opcode::MMC, mmc.ub = 32, mmc.rows = 8, mmc.acc = 0, mmc.sw = 1;
  halt.op = Opcode::HALT;
  int out = 0;
  auto act_whm = [&](std::vector<Instr>& prog) {
    Instr act, whm;
    act.op = Opcode::ACT, act.acc = 0, act.ub = 64 + 8 * out, act.rows = 8, act.params = 10, act.pool = 1;
    whm.op = Opcode::WHM, whm.ub = act.ub, whm.rows = 8, whm.addr = 0x8000 + 8 * n * out, whm.stride = n, whm.len = n;
    prog.push_back(act), prog.push_back(whm), ++out;
  };
  const int64_t rows = kActParamRows, shift_row = 10 + kActShiftRow, bias_row = 10 + kActBiasRow;
  std::vector<Instr> prog = {rhm(10, rows, 0x2000), rhm(32, 8, 0x4000), rw, mmc};
  act_whm(prog);
  act_whm(prog);                                // same block, untouched
  prog.push_back(rhm(10 + rows, 1, 0x3000));    // the row after the block
  act_whm(prog);
  prog.push_back(rhm(shift_row, 1, 0x3100));    // the shift row
  act_whm(prog);
  prog.push_back(rhm(bias_row, 1, 0x3200));     // a bias row
  act_whm(prog);
  prog.push_back(halt);
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
  std::mt19937 rng(tessera::test::test_seed() + 9);
  for (int i = 0; i < 0x1000; ++i) in.dram[0x2000 + i] = uint8_t(rng()), in.dram[0x4000 + i] = uint8_t(rng());
  for (int i = 0; i < 0x400; ++i) in.dram[0x3000 + i] = uint8_t(rng()), in.dram[0x6000 + i] = uint8_t(rng());
  for (int i = 0; i < n; ++i) {  // shifts that the act accepts (<= 63), and that differ
    in.dram[0x2000 + act_shift_at(uint32_t(n), uint32_t(i))] = uint8_t(30 + rng() % 20);
    in.dram[0x3100 + i] = uint8_t(30 + rng() % 20);
  }
  const DiffResult d = differential_run<TestType>(cfg, in, SimOptions{});
  INFO(d.report);
  CHECK(d.match);
}

// Two faults at once: the parameters' rhm (0x2000, 9 rows, shifts of 255, so the act
// faults), an act of one row with them, and a 300-row rhm (0x4000) whose last row is a
// bus error, in the order `order` gives ('p' the parameters, 'a' the act, 'l' the long
// rhm, 's' a small rhm), then halt. The model's error and whether the RTL matched it.
namespace {
template <class V>
DiffResult two_faults(const char* order) {
  const Config cfg = core_config<V>();
  const int64_t n = cfg.array_size;
  Instr act, halt;
  act.op = Opcode::ACT, act.acc = 0, act.ub = 600, act.rows = 1, act.params = 0, act.pool = 1;
  halt.op = Opcode::HALT;
  std::vector<Instr> prog;
  for (const char* c = order; *c; ++c) {
    if (*c == 'p') prog.push_back(rhm_rows(n, 0, 9, 0x2000));
    if (*c == 'a') prog.push_back(act);
    if (*c == 'l') prog.push_back(rhm_rows(n, 16, 300, 0x4000));
    if (*c == 's') prog.push_back(rhm_rows(n, 400, 2, 0x3000));
  }
  prog.push_back(halt);
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
  for (int i = 0; i < n; ++i) in.dram[0x2000 + 8 * n + i] = 0xff;
  const uint32_t last_row = uint32_t(0x4000 + 299 * n);
  in.bus_errors = {AddrRange{last_row, last_row + uint32_t(n)}};
  return differential_run<V>(cfg, in, SimOptions{});
}
}  // namespace

// The younger fault reported first: the act faults while the older, long rhm streams
// and then meets its bus error. The small rhm after that one was already asked for and
// is drained with it; the DMA-in must drop it as younger than its own fault, although
// the act's report (a younger PC) is all the controller has said so far. (The act waits
// only for the parameters' rhm.)
TEMPLATE_TEST_CASE("a DMA-in fault after a younger reported fault drops the rhm behind it", "[rtl][core]",
                   Vcore_n4, Vcore_n16) {
  const DiffResult d = two_faults<TestType>("plsa");
  INFO(d.report);
  CHECK(d.model.error == ErrorCode::BusError);
  CHECK(d.match);
}

// The older fault reported first: the act faults while the younger, long rhm (taken
// before that report, so not dropped) streams and then meets its bus error. The
// controller must keep the act's fault: the rhm's is younger.
TEMPLATE_TEST_CASE("a younger fault reported after an older one leaves the older one standing", "[rtl][core]",
                   Vcore_n4, Vcore_n16) {
  const DiffResult d = two_faults<TestType>("pal");
  INFO(d.report);
  CHECK(d.model.error == ErrorCode::ActParam);
  CHECK(d.match);
}

TEST_CASE("a whm beside streaming multiplies costs them no input rows", "[rtl][core][timing]") {
  // As above, with a whm of 8 UB rows issued between the multiplies: it reads through
  // the unified buffer's second port, so the multiplies still retire L cycles apart.
  const Config cfg = core_config<Vcore_n16>();
  const int L = 40;
  Instr whm;
  whm.op = Opcode::WHM, whm.ub = 200, whm.rows = 8, whm.addr = 0x20000, whm.stride = 16, whm.len = 16;
  CoreSim<Vcore_n16> sim(cfg, SimOptions{});
  load_program(sim, streaming_multiplies(L, whm));
  const RetireLog<Vcore_n16> log(sim);
  const RunResult r = sim.run(0, 100000);
  REQUIRE(r.ok());
  // pc 0x40, 0x60, 0x70: the multiplies; 0x50: the whm
  CHECK(log.at(0x50) < log.at(0x70));  // the whm ran while the multiplies streamed
  CHECK(log.at(0x60) - log.at(0x40) == uint64_t(L));
  CHECK(log.at(0x70) - log.at(0x60) == uint64_t(L));
  CHECK(r.counters.dram_write_bytes == 8u * 16u);
}

TEST_CASE("consecutive weight loads overlap their memory latency", "[rtl][core][timing]") {
  // Four rw with a read latency of 30 cycles. One instruction at a time, a tile costs
  // at least the latency, its 16 beats and its 16 pushes into the weight FIFO: 62
  // cycles. The DMA-in asks for the next tile's rows while it places this one's, and
  // pushes each tile row as it arrives, so the tiles land closer together than that.
  const Config cfg = core_config<Vcore_n16>();
  SimOptions opt;
  opt.timing.latency = 30;
  Instr rw, halt;
  rw.op = Opcode::RW, rw.stride = 16, rw.k = 16, rw.n = 16;
  halt.op = Opcode::HALT;
  std::vector<Instr> prog;
  for (int i = 0; i < 4; ++i) prog.push_back(rw), prog.back().addr = 0x10000 + 0x100 * i;
  prog.push_back(halt);
  CoreSim<Vcore_n16> sim(cfg, opt);
  load_program(sim, prog);
  const RetireLog<Vcore_n16> log(sim);
  const RunResult r = sim.run(0, 100000);
  REQUIRE(r.ok());
  CHECK(r.counters.weight_tiles == 4u);
  for (uint32_t pc = 0x10; pc <= 0x30; pc += 0x10) {
    INFO("rw at " << pc);
    CHECK(log.at(pc) - log.at(pc - 0x10) < 30u + 2 * 16u);
  }
}

TEST_CASE("short rhm instructions stream their rows back to back", "[rtl][core][timing]") {
  // Ten rhm of 8 one-beat rows each. The DMA-in asks for the next instruction's spans
  // while it places this one's and goes from one instruction's last row to the next
  // one's first without a pause, so once the first rows are in, each rhm retires 8
  // cycles after the one before (it took 3-4 more at every hand-over before).
  const Config cfg = core_config<Vcore_n16>();
  const int64_t n = cfg.array_size;
  Instr rhm, halt;
  rhm.op = Opcode::RHM, rhm.rows = 8, rhm.stride = 64, rhm.seglen = n, rhm.segs = 1;
  halt.op = Opcode::HALT;
  std::vector<Instr> prog;
  for (int i = 0; i < 10; ++i) {
    prog.push_back(rhm);
    prog.back().ub = 8 * i, prog.back().addr = 0x10000 + 0x200 * i;
  }
  prog.push_back(halt);
  const std::map<uint32_t, uint64_t> log = retire_cycles(prog);
  // Instruction fetch shares the read engine and goes first: the program's second and
  // third 64-byte fetch spans (4 bus words each at N = 16) may land between these rows.
  const uint64_t fetch_beats = 2 * 64 / (cfg.dma_width / 8);
  std::ostringstream gaps;
  for (uint32_t pc = 0x30; pc <= 0x90; pc += 0x10) gaps << " " << log.at(pc) - log.at(pc - 0x10);
  INFO("cycles between retirements:" << gaps.str());
  CHECK(log.at(0x90) - log.at(0x20) <= 7u * 8u + fetch_beats);
}

TEMPLATE_TEST_CASE("gathered rhm rows equal the model's under any memory timing", "[rtl][core][gather]", Vcore_n4,
                   Vcore_n16) {
  // rhm of up to 4 segments with strides around the window gather's limit (4 bus words
  // + 1 byte per segment and group), from every alignment, each row written back by a
  // whm: all of device memory is compared with the model's.
  const Config cfg = core_config<TestType>();
  REQUIRE(cfg.gather_segs >= 2);
  const int n = int(cfg.array_size), bus = int(cfg.dma_width / 8);
  std::mt19937 rng(test::test_seed() + 7);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int run = 0; run < 4; ++run) {
    DiffInput in;
    in.dram.assign(cfg.dram_bytes, 0);
    std::vector<Instr> prog;
    for (int i = 0; i < 24; ++i) {
      Instr rhm, whm;
      rhm.op = Opcode::RHM, rhm.ub = 64 * (i % 4), rhm.rows = pick(1, 40);
      rhm.seglen = pick(1, n);
      rhm.segs = std::min(pick(1, int(cfg.gather_segs) + 1), n / int(rhm.seglen));
      rhm.stride = pick(0, 4 * bus + 2), rhm.segstride = pick(0, 3) == 0 ? 0 : pick(1, 300);
      rhm.addr = 0x4000 + pick(0, 2 * bus);
      whm.op = Opcode::WHM, whm.ub = rhm.ub, whm.rows = rhm.rows, whm.stride = n, whm.len = n;
      whm.addr = 0x8000 + 0x400 * i;
      prog.push_back(rhm), prog.push_back(whm);
    }
    prog.push_back(Instr{});
    prog.back().op = Opcode::HALT;
    for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
    for (int a = 0x4000; a < 0x8000; ++a) in.dram[a] = uint8_t(rng());
    const SimOptions opt = random_timing(rng, cfg);
    const DiffResult d = differential_run<TestType>(cfg, in, opt);
    std::ostringstream listing;
    for (const Instr& x : prog) listing << format_instr(x) << "\n";
    INFO("N=" << n << " latency " << opt.timing.latency << " bandwidth " << opt.timing.bandwidth << " stalls "
              << opt.timing.random_stall << "\n" << d.report << "\n" << listing.str());
    REQUIRE(d.match);
    CHECK(d.model.state == RunState::Done);
  }
}

TEST_CASE("a gathered rhm of three segments streams a row per cycle", "[rtl][core][timing][gather]") {
  // The rows of a 3x3 convolution's windows over an RGB image 34 pixels wide: 3
  // segments of 5 bytes, one image row apart, 3 bytes (a pixel) between rows. Four rhm of
  // 64 rows: the window gather reads each segment's group of 17 rows as one span of 53
  // bytes and cuts one row per cycle from it, so the four take about 4 * 64 cycles after
  // the first rows are in; a span per segment and row (the gather off) would take three
  // cycles per row.
  Instr rhm, halt;
  rhm.op = Opcode::RHM, rhm.rows = 64, rhm.stride = 3, rhm.seglen = 5, rhm.segs = 3, rhm.segstride = 34 * 3;
  halt.op = Opcode::HALT;
  std::vector<Instr> prog;
  for (int i = 0; i < 4; ++i) {
    prog.push_back(rhm);
    prog.back().ub = 64 * i, prog.back().addr = 0x10000 + 34 * 3 * i + i;
  }
  prog.push_back(halt);
  const std::map<uint32_t, uint64_t> log = retire_cycles(prog);
  const uint64_t cycles = log.at(0x30) - log.at(0x00);
  INFO("cycles from the first rhm's retirement to the last's: " << cycles);
  CHECK(cycles <= 3u * 64u + 32u);  // (a span per segment and row: about 3 * 3 * 64)
}

TEST_CASE("the testbench memory's bandwidth holds however many bursts are in flight", "[rtl][core][timing]") {
  // One rhm of 64 one-beat rows (16 bytes each, 64 bursts in flight at a time). At 16
  // bytes a cycle it streams a row per cycle; at 8 bytes a cycle the 1 KB take at
  // least 128 cycles, although each burst on its own would take only 2.
  const Config cfg = core_config<Vcore_n16>();
  Instr rhm, halt;
  rhm.op = Opcode::RHM, rhm.rows = 64, rhm.addr = 0x10000, rhm.stride = 64, rhm.seglen = 16, rhm.segs = 1;
  halt.op = Opcode::HALT;
  uint64_t cycles[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    SimOptions opt;
    opt.timing.latency = 20;
    opt.timing.bandwidth = i == 0 ? 16 : 8;
    CoreSim<Vcore_n16> sim(cfg, opt);
    load_program(sim, {rhm, halt});
    const RunResult r = sim.run(0, 100000);
    REQUIRE(r.ok());
    cycles[i] = r.counters.cycles.value_or(0);
  }
  INFO("16 bytes a cycle: " << cycles[0] << " cycles; 8 bytes a cycle: " << cycles[1]);
  CHECK(cycles[1] >= 128);
  CHECK(cycles[1] >= cycles[0] + 56);  // the 64 rows' second cycle each, less the start-up
}

TEMPLATE_TEST_CASE("a whm waits for older loads that may fault without blocking younger instructions",
                   "[rtl][core]", Vcore_n4, Vcore_n16) {
  // rw, a long rhm, then a whm of other UB rows and a younger mmc. The whm may not write
  // device memory before the rhm is known not to fault, but younger instructions issue
  // meanwhile: the mmc finishes while the rhm is still reading. When the rhm's last row
  // is a bus error, the run ends there and the whm writes nothing (as on the model).
  const Config cfg = core_config<TestType>();
  const int64_t n = cfg.array_size;
  Instr rw, rhm, whm, mmc, halt;
  rw.op = Opcode::RW, rw.addr = 0x4000, rw.stride = n, rw.k = n, rw.n = n;
  rhm.op = Opcode::RHM, rhm.ub = 0, rhm.rows = 100, rhm.addr = 0x6000, rhm.stride = 64, rhm.seglen = n,
  rhm.segs = 1;
  whm.op = Opcode::WHM, whm.ub = 200, whm.rows = 4, whm.addr = 0x9000, whm.stride = n, whm.len = n;
  mmc.op = Opcode::MMC, mmc.ub = 120, mmc.rows = 8, mmc.sw = 1;
  halt.op = Opcode::HALT;
  const std::vector<Instr> prog = {rw, rhm, whm, mmc, halt};
  SimOptions opt;
  opt.timing.latency = 30;
  opt.timing.bandwidth = 1;  // slow memory: the rhm takes a while
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
  for (size_t i = 0x4000; i < 0xA000; ++i) in.dram[i] = uint8_t(i * 7 + 3);
  SECTION("no fault: younger instructions pass the waiting whm") {
    CoreSim<TestType> sim(cfg, opt);
    const RetireLog<TestType> log(sim);
    const DiffResult d = differential_run_on(sim, cfg, in);
    INFO(d.report);
    REQUIRE(d.match);
    CHECK(log.at(0x30) < log.at(0x10));  // the mmc, younger than the whm, before the rhm
    CHECK(log.at(0x20) > log.at(0x10));  // the whm after the rhm
  }
  SECTION("the rhm faults: the whm writes nothing") {
    const uint32_t last_row = 0x6000 + 99 * 64;
    in.bus_errors = {{last_row, last_row + 64}};
    const DiffResult d = differential_run<TestType>(cfg, in, opt);
    INFO(d.report);
    REQUIRE(d.match);
    CHECK(d.model.state == RunState::Error);
    CHECK(d.model.error == ErrorCode::BusError);
    CHECK(d.model.pc == 0x10u);
  }
}

// A transposed rw cut short by a bus error leaves some tile columns in the DMA-in's tile
// buffer; the next run's transposed rw of one memory row must find the others zero (the
// buffer is cleared while the DMA-in is idle, not at each take).
TEST_CASE("a transposed rw after one cut short by a bus error starts from a zero tile", "[rtl][core]") {
  const Config cfg = core_config<Vcore_n4>();
  const int64_t n = cfg.array_size;
  Instr rw, halt;
  rw.op = Opcode::RW, rw.addr = 0x6000, rw.stride = n, rw.k = n, rw.n = n, rw.transpose = 1;
  halt.op = Opcode::HALT;
  DiffInput first;
  first.dram.assign(cfg.dram_bytes, 0);
  store_word(encode(rw), &first.dram[0]);
  store_word(encode(halt), &first.dram[16]);
  for (int i = 0; i < 4 * n; ++i) first.dram[0x6000 + i] = uint8_t(17 + i);
  first.bus_errors = {AddrRange{uint32_t(0x6000 + 2 * n), uint32_t(0x6000 + 3 * n)}};  // memory row 2

  // params at UB 10 (bias 0, multiplier 2^30, shift 30: out = acc, saturated), inputs of
  // ones, one memory row of weights (tile column 0), the product written out
  auto rhm = [&](int64_t ub, int64_t rows, int64_t addr) { return rhm_rows(n, ub, rows, addr); };
  Instr one_col = rw, mmc, act, whm;
  one_col.addr = 0x7000, one_col.n = 1;
  mmc.op = Opcode::MMC, mmc.ub = 32, mmc.rows = 4, mmc.acc = 0, mmc.sw = 1;
  act.op = Opcode::ACT, act.acc = 0, act.ub = 64, act.rows = 4, act.params = 10, act.pool = 1;
  whm.op = Opcode::WHM, whm.ub = 64, whm.rows = 4, whm.addr = 0x8000, whm.stride = n, whm.len = n;
  const std::vector<Instr> prog = {rhm(10, 9, 0x2000), rhm(32, 4, 0x4000), one_col, mmc, act, whm, halt};
  DiffInput second;
  second.dram.assign(cfg.dram_bytes, 0);
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &second.dram[16 * i]);
  identity_params(second.dram, 0x2000, n);
  for (int i = 0; i < 4 * n; ++i) second.dram[0x4000 + i] = 1;
  for (int i = 0; i < n; ++i) second.dram[0x7000 + i] = uint8_t(2 + i);

  CoreSim<Vcore_n4> sim(cfg, SimOptions{});
  const DiffResult d1 = differential_run_on(sim, cfg, first);
  INFO(d1.report);
  REQUIRE(d1.match);
  REQUIRE(d1.model.error == ErrorCode::BusError);
  const DiffResult d2 = differential_run_on(sim, cfg, second);
  INFO(d2.report);
  CHECK(d2.match);
  CHECK(d2.model.state == RunState::Done);
}

// Two transposed rws back to back, the second of one memory row: its tile's other
// columns must be zero, not the first tile's (the DMA-in clears the tile at its last
// push, and takes the next rw in the same cycle).
TEST_CASE("a transposed rw right after another finds the rest of its tile zero", "[rtl][core]") {
  const Config cfg = core_config<Vcore_n4>();
  const int64_t n = cfg.array_size;
  auto rhm = [&](int64_t ub, int64_t rows, int64_t addr) { return rhm_rows(n, ub, rows, addr); };
  Instr full, one_col, mmc1, mmc2, act, whm, halt;
  full.op = Opcode::RW, full.addr = 0x6000, full.stride = n, full.k = n, full.n = n, full.transpose = 1;
  one_col = full, one_col.addr = 0x7000, one_col.n = 1;
  mmc1.op = Opcode::MMC, mmc1.ub = 32, mmc1.rows = 4, mmc1.acc = 0, mmc1.sw = 1;
  mmc2 = mmc1, mmc2.acc = 8;
  act.op = Opcode::ACT, act.acc = 0, act.ub = 64, act.rows = 12, act.params = 10, act.pool = 1;
  whm.op = Opcode::WHM, whm.ub = 64, whm.rows = 12, whm.addr = 0x8000, whm.stride = n, whm.len = n;
  halt.op = Opcode::HALT;
  const std::vector<Instr> prog = {rhm(10, 9, 0x2000), rhm(32, 4, 0x4000), full, one_col, mmc1, mmc2, act, whm, halt};
  DiffInput in;
  in.dram.assign(cfg.dram_bytes, 0);
  for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
  identity_params(in.dram, 0x2000, n);
  for (int i = 0; i < 4 * n; ++i) in.dram[0x4000 + i] = 1, in.dram[0x6000 + i] = uint8_t(3 + i);
  for (int i = 0; i < n; ++i) in.dram[0x7000 + i] = uint8_t(2 + i);
  const DiffResult d = differential_run<Vcore_n4>(cfg, in, SimOptions{});
  INFO(d.report);
  CHECK(d.match);
  CHECK(d.model.state == RunState::Done);
}

// Each run starts from the clean core the model assumes: the run before it left data
// in unified-buffer and accumulator rows, which the controller scrubs after that run
// ends. The second run writes out rows it never wrote itself.
TEST_CASE("a run after another finds the buffers scrubbed", "[rtl][core]") {
  const Config cfg = core_config<Vcore_n4>();
  const int64_t n = cfg.array_size;
  auto rhm = [&](int64_t ub, int64_t rows, int64_t addr) { return rhm_rows(n, ub, rows, addr); };
  auto image = [&](const std::vector<Instr>& prog) {
    DiffInput in;
    in.dram.assign(cfg.dram_bytes, 0);
    for (size_t i = 0; i < prog.size(); ++i) store_word(encode(prog[i]), &in.dram[16 * i]);
    return in;
  };
  Instr rw, mmc, act, whm_in, whm_out, halt;
  rw.op = Opcode::RW, rw.addr = 0x6000, rw.stride = n, rw.k = n, rw.n = n;
  mmc.op = Opcode::MMC, mmc.ub = 0, mmc.rows = 8, mmc.acc = 0, mmc.sw = 1;
  act.op = Opcode::ACT, act.acc = 0, act.ub = 64, act.rows = 8, act.params = 100, act.pool = 1;
  whm_in.op = Opcode::WHM, whm_in.ub = 0, whm_in.rows = 8, whm_in.addr = 0x8000, whm_in.stride = n, whm_in.len = n;
  whm_out = whm_in, whm_out.ub = 64, whm_out.addr = 0x9000;
  halt.op = Opcode::HALT;

  // first: inputs into UB rows 0-7, their products into accumulator rows 0-7
  DiffInput first = image({rhm(0, 8, 0x4000), rw, mmc, halt});
  for (int i = 0; i < 8 * n; ++i) first.dram[0x4000 + i] = uint8_t(1 + i);
  for (int i = 0; i < n * n; ++i) first.dram[0x6000 + i] = uint8_t(3 + i);
  // second: the accumulator rows through the activation unit, and the UB rows, written out
  DiffInput second = image({rhm(100, 9, 0x2000), act, whm_in, whm_out, halt});
  identity_params(second.dram, 0x2000, n);
  for (int i = 0; i < 8 * n; ++i) second.dram[0x8000 + i] = second.dram[0x9000 + i] = 0x5a;

  CoreSim<Vcore_n4> sim(cfg, SimOptions{});
  const DiffResult d1 = differential_run_on(sim, cfg, first);
  INFO(d1.report);
  REQUIRE(d1.match);
  REQUIRE(d1.model.state == RunState::Done);
  const DiffResult d2 = differential_run_on(sim, cfg, second);
  INFO(d2.report);
  CHECK(d2.match);
  CHECK(d2.model.state == RunState::Done);
  CHECK(sim.memory().bytes()[0x8000] == 0);  // (the model's clean core, written out)
}
