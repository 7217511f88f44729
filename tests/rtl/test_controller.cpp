// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_controller (run control, decode, in-order issue, the whm fence,
// error collection, scrub start, the instruction counter) against the golden model and
// the contracts of the units around it (docs/architecture.md). Random programs from
// tpu-regress's generator, one in three with a planted error, are fetched from a model
// of the fetch unit (bus errors where the program has them) and issued into models of
// the four unit queues; each unit model takes its head when it may, runs it for a random
// time, raises the fault the golden model finds in it (or, now and then, in an
// instruction after the golden model's end: the oldest fault must still win) a cycle
// before retiring it, drops what is younger than a reported fault, passes an `act`'s
// parameter check, and starts a `whm` only when the controller lifts its hold.
// Checked every cycle:
// - each unit gets its instructions in program order, one per tile, each once, with a
//   slot that no instruction in flight holds; every unit instruction before the run's
//   end reaches its unit;
// - nothing younger than a `sync` or `halt` issues before everything older retired;
// - a `whm` starts only when every older DMA-in instruction has retired and every older
//   `act` retired or passed its check, and never one after the golden model's fault;
// - the run ends as the golden model's: state, error code, pc and instruction count;
// - a scrub starts during reset and once after each run; a start waits for the scrub.
#include <catch2/catch.hpp>

#include <array>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "Vtpu_controller_n4.h"
#include "isa/arch.hpp"
#include "isa/isa.hpp"
#include "model/golden_model.hpp"
#include "progen/random_program.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;
using tessera::ErrorCode;
using tessera::Opcode;

namespace {

// The Verilated controller's parameters (tests/rtl/CMakeLists.txt), as a configuration.
tessera::Config controller_config() {
  tessera::Config cfg;
  cfg.array_size = 4, cfg.ub_rows = 1024, cfg.acc_rows = 512, cfg.wfifo_depth = 4, cfg.dram_bytes = 65536;
  cfg.dma_width = 32;
  return cfg;
}
constexpr int kSlots = 8;

int unit_of(Opcode op) {
  switch (op) {
    case Opcode::RHM: case Opcode::RW: return 0;
    case Opcode::MMC: return 1;
    case Opcode::ACT: return 2;
    case Opcode::WHM: return 3;
    default: return -1;
  }
}

struct Issued {
  int index = 0;      // program order
  uint32_t pc = 0;    // with the tile in its low bits
  int slot = 0;
  int unit = 0;
  bool fault = false;  // the unit raises a fault on it
};

// One unit: its queue, the instruction it runs, and when that finishes.
struct UnitModel {
  std::deque<Issued> queue;
  bool busy = false, faulting = false, raised = false, checked = false;
  Issued cur;
  int left = 0, check_at = 0;
  uint32_t last_pc = 0;  // (fault_pc_i: the unit's pc register, steady while it runs)
};

}  // namespace

TEST_CASE("controller: issue order, barriers, the whm fence, faults and the run's end follow the golden model",
          "[rtl][controller]") {
  const tessera::Config cfg = controller_config();
  std::mt19937_64 rng(tessera::test::test_seed());
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const ErrorCode plants[] = {ErrorCode::Illegal, ErrorCode::UbRange, ErrorCode::AccRange, ErrorCode::DramRange,
                              ErrorCode::WeightFifo, ErrorCode::BusError, ErrorCode::ActParam};

  Vtpu_controller_n4 dut;
  dut.start_i = 0;
  dut.f_valid_i = 0;
  dut.fetch_busy_i = 0;
  dut.q_ready_i = 0;
  dut.unit_idle_i = 0xf;
  dut.retire_i = 0;
  dut.fault_i = 0;
  dut.scrub_busy_i = 0;
  dut.accw_valid_i = 0;
  dut.ubw_valid_i = 0;
  dut.act_checked_i = 0;
  dut.ev_row_i = dut.ev_weight_stall_i = dut.ev_weight_shift_i = dut.ev_dma_wait_i = 0;
  dut.read_bytes_i = dut.write_bytes_i = 0;
  dut.tile_i = 0;
  set_bits(dut.fault_code_i, 0, 12, uint64_t(ErrorCode::BusError) | uint64_t(ErrorCode::ActParam) << 4 |
                                        uint64_t(ErrorCode::BusError) << 8);
  int scrubs = 0, scrub_left = 0;  // scrub starts seen; cycles the memories still clear
  bool scrub_was = false;
  auto clock = [&]() {
    scrubs += dut.scrub_o && !scrub_was;
    scrub_was = dut.scrub_o;
    if (dut.scrub_o) scrub_left = uniform(3, 60);  // the memories clear themselves
    else if (scrub_left > 0) --scrub_left;
    tick(dut);
    dut.scrub_busy_i = scrub_left > 0;
  };
  dut.rst_ni = 0;
  clock(), clock();
  dut.rst_ni = 1;
  CHECK(scrubs >= 1);  // a scrub during reset

  int errors = 0, whms_started = 0, syncs_passed = 0, faults_raised = 0, younger_faults = 0, waited = 0;
  constexpr int kRuns = 100;
  for (int run = 0; run < kRuns; ++run) {
    INFO("run " << run);
    tessera::RandomProgramOptions o;
    o.instructions = uniform(10, 40);
    // (every other run with an error; most of them faults the units find, which race
    // with younger faults: the oldest must win)
    o.inject = run % 2 == 0 ? ErrorCode::None : chance(0.3) ? plants[uniform(0, 6)]
                                                           : chance(0.5) ? ErrorCode::BusError : ErrorCode::ActParam;
    const tessera::RandomProgram p = tessera::random_program(cfg, rng(), o);
    tessera::GoldenModel gm(cfg);
    gm.dram() = p.dram;
    gm.set_bus_errors(p.bus_errors);
    gm.start(p.entry);
    const tessera::Status want = gm.run(0);
    const uint64_t want_count = gm.counters().instructions;
    errors += want.state == tessera::RunState::Error;
    const auto bus_error = [&](uint32_t lo, uint32_t len) {
      for (const auto& r : p.bus_errors)
        if (lo < r.hi && r.lo < lo + len) return true;
      return false;
    };
    // The program's instructions: opcode, unit, tiles.
    struct Prog {
      Opcode op;
      int unit, tiles;
    };
    std::vector<Prog> prog;
    for (tessera::Word w : p.words) {
      tessera::Instr in;
      const bool ok = tessera::decode(w, in) == tessera::DecodeResult::Ok;
      const Opcode op = ok ? in.op : Opcode::NOP;
      prog.push_back({op, ok ? unit_of(op) : -1, ok && (op == Opcode::RW || op == Opcode::MMC) ? int(in.tiles) : 1});
    }
    const int stop = int((want.pc - p.entry) / 16);  // the instruction the golden model ended at
    const bool fetch_fault = want.error == ErrorCode::BusError && bus_error(want.pc, 16);
    const bool unit_fault = (want.error == ErrorCode::BusError && !fetch_fault) || want.error == ErrorCode::ActParam;
    INFO("golden: state " << int(want.state) << " error " << int(want.error) << " at instruction " << stop);

    // Start (often while the last run's scrub is still going: the run waits for it).
    waited += dut.scrub_busy_i;
    dut.start_i = 1;
    set_bits(dut.entry_i, 0, 32, p.entry);
    clock();
    dut.start_i = 0;
    uint32_t fetch_pc = 0;
    bool fetching = false;
    std::array<UnitModel, 4> units;
    std::map<int, Issued> in_flight;  // by slot
    std::vector<std::vector<std::pair<int, uint32_t>>> got(4);  // per unit: (index, pc) issued
    std::set<int> done_checked;  // program indices of acts past their check (or retired)
    std::vector<bool> retired(prog.size(), false);
    std::vector<int> tiles_retired(prog.size(), 0);
    bool started = false, running = false, ended = false;
    long t = 0;
    for (; t < 200000 && !ended; ++t) {
      // fetch: the program's words from the entry on, at a random pace
      if (dut.fetch_stop_o) fetching = false;
      if (dut.fetch_start_o) {
        REQUIRE_FALSE(dut.scrub_busy_i);  // the run began after the scrub
        REQUIRE_FALSE(started);
        fetching = true, fetch_pc = p.entry, started = true;
      }
      dut.f_valid_i = fetching && fetch_pc + 16 <= p.dram.size() && chance(0.7);
      const tessera::Word w = tessera::load_word(&p.dram[fetch_pc]);
      set_bits(dut.f_instr_i, 0, 64, uint64_t(w));
      set_bits(dut.f_instr_i, 64, 64, uint64_t(w >> 64));
      dut.f_pc_i = fetch_pc;
      dut.f_fault_i = bus_error(fetch_pc, 16) ? uint8_t(ErrorCode::BusError) : 0;
      // units: queue room, idle flags, the DMA-out head's slot
      uint8_t ready = 0, idle = 0;
      for (int u = 0; u < 4; ++u) {
        ready |= uint8_t((units[u].queue.size() < 4 && chance(0.8)) << u);
        idle |= uint8_t((units[u].queue.empty() && !units[u].busy) << u);
      }
      dut.q_ready_i = ready;
      dut.unit_idle_i = idle;
      dut.whm_slot_i = units[3].queue.empty() ? 0 : units[3].queue.front().slot;
      // retirements and faults decided last cycle are driven now
      uint32_t retire = 0, checked = 0;
      uint8_t fault = 0;
      const int fault_bit[4] = {0, -1, 1, 2};
      for (int u = 0; u < 4; ++u) {
        UnitModel& m = units[u];
        if (!m.busy) continue;
        if (m.left > 0) {
          --m.left;
          if (u == 2 && !m.faulting && !m.checked && m.left <= m.check_at) m.checked = true, checked |= 1u << m.cur.slot;
          continue;
        }
        if (m.faulting && !m.raised) {  // the fault a cycle before the retirement
          m.raised = true;
          fault |= uint8_t(1 << fault_bit[u]);
          ++faults_raised;
          if (m.cur.index > stop) ++younger_faults;
          continue;
        }
        retire |= 1u << m.cur.slot;
        m.busy = false;
      }
      dut.retire_i = retire;
      dut.act_checked_i = checked;
      dut.fault_i = fault;
      for (int u = 0; u < 4; ++u)
        if (fault_bit[u] >= 0) set_bits(dut.fault_pc_i, 32 * fault_bit[u], 32, units[u].last_pc);
      dut.eval();

      // Issue this cycle.
      const uint8_t qv = dut.q_valid_o;
      if (qv) {
        REQUIRE((qv & (qv - 1)) == 0);  // one unit at a time
        const int u = __builtin_ctz(qv);
        REQUIRE(((ready >> u) & 1));    // only into a queue with room
        Issued is;
        is.pc = uint32_t(dut.q_pc_o);
        is.index = int(((is.pc & ~15u) - p.entry) / 16);
        is.slot = int(dut.q_slot_o);
        is.unit = u;
        INFO("issue pc 0x" << std::hex << is.pc << std::dec << " unit " << u << " slot " << is.slot);
        REQUIRE(is.index >= 0);
        REQUIRE(is.index < int(prog.size()));
        REQUIRE(prog[size_t(is.index)].unit == u);
        REQUIRE(in_flight.count(is.slot) == 0);  // a free slot
        REQUIRE(get_bits(dut.q_instr_o, 0, 4) == uint64_t(prog[size_t(is.index)].op));
        // program order per unit, one entry per tile
        const uint32_t tile = is.pc & 15u;
        if (!got[u].empty()) {
          const auto& [pi, ppc] = got[u].back();
          REQUIRE(std::make_pair(is.index, tile) > std::make_pair(pi, ppc & 15u));
          if (pi == is.index) REQUIRE(tile == (ppc & 15u) + 1);
          else REQUIRE(tile == 0);
        } else {
          REQUIRE(tile == 0);
        }
        // barriers: everything older than the youngest older sync or halt has retired
        for (int s = is.index - 1; s >= 0; --s)
          if (prog[size_t(s)].op == Opcode::SYNC || prog[size_t(s)].op == Opcode::HALT) {
            for (const auto& [slot, f] : in_flight) REQUIRE(f.index > s);
            ++syncs_passed;
            break;
          }
        // faults: the golden model's (on the instruction's first tile), or now and then
        // one in an instruction after the golden model's end
        is.fault = u != 1 && tile == 0 &&
                   ((unit_fault && is.index == stop) || (is.index > stop && chance(0.8)));
        got[u].push_back({is.index, is.pc});
        in_flight[is.slot] = is;
        units[u].queue.push_back(is);
      }
      if (dut.f_ready_o) fetch_pc += 16;
      const bool now_running = dut.state_o == uint8_t(tessera::RunState::Running);
      ended = running && !now_running;
      running = running || now_running;
      clock();
      const bool err_valid = dut.err_valid_o;  // (as the units see them when they take)
      const uint32_t err_pc = dut.err_pc_o;
      // the retirements driven this cycle have happened
      for (int s = 0; s < kSlots; ++s)
        if ((retire >> s) & 1) {
          REQUIRE(in_flight.count(s) == 1);
          const Issued& f = in_flight[s];
          if (++tiles_retired[size_t(f.index)] == prog[size_t(f.index)].tiles) retired[size_t(f.index)] = true;
          if (f.unit == 2) done_checked.insert(f.index);
          in_flight.erase(s);
        }
      for (int s = 0; s < kSlots; ++s)
        if ((checked >> s) & 1) done_checked.insert(in_flight.at(s).index);
      // units take their heads (the DMA-out unit asks for its head's hold first)
      dut.whm_slot_i = units[3].queue.empty() ? 0 : units[3].queue.front().slot;
      dut.eval();
      for (int u = 0; u < 4; ++u) {
        UnitModel& m = units[u];
        if (m.busy || m.queue.empty()) continue;
        const Issued head = m.queue.front();
        const bool younger = err_valid && head.pc > err_pc;
        if (u == 3 && dut.whm_hold_o) continue;  // held by its fence (whm_slot_i: this head's)
        m.queue.pop_front();
        m.busy = true, m.cur = head, m.raised = false, m.checked = false;
        m.faulting = head.fault && !younger;
        // (a faulting instruction often runs long, so that younger ones start meanwhile)
        m.left = younger ? 0 : m.faulting ? uniform(60, 150) : uniform(0, chance(0.1) ? 60 : 8);
        m.check_at = uniform(0, m.left);
        m.last_pc = head.pc;
        if (u == 3 && !younger) {  // a whm starts: its fence is down
          INFO("whm at instruction " << head.index);
          for (int k = 0; k < head.index; ++k) {
            INFO("older instruction " << k << " (opcode " << int(prog[size_t(k)].op) << ", " << tiles_retired[size_t(k)]
                 << " of " << prog[size_t(k)].tiles << " tiles retired)");
            if (prog[size_t(k)].unit == 0) REQUIRE(retired[size_t(k)]);
            if (prog[size_t(k)].unit == 2) REQUIRE(done_checked.count(k) == 1);
          }
          // (never past the golden model's end; the faulting whm itself runs into its fault)
          if (want.state == tessera::RunState::Error) REQUIRE((head.index < stop || (head.index == stop && unit_fault)));
          ++whms_started;
        }
      }
    }
    REQUIRE(ended);
    // let the last events land, then compare with the golden model
    dut.f_valid_i = 0;
    for (int k = 0; k < 3; ++k) clock();
    CHECK(int(dut.state_o) == int(want.state));
    CHECK(int(dut.error_o) == int(want.error));
    CHECK(dut.pc_o == want.pc);
    dut.cnt_rd_i = 1, dut.cnt_index_i = uint8_t(tessera::CounterId::Instructions);
    dut.eval();
    REQUIRE(dut.cnt_valid_o);
    CHECK(uint64_t(dut.cnt_value_o) == want_count);
    dut.cnt_rd_i = 0;
    // every unit instruction before the end reached its unit, every tile of it
    for (int k = 0; k < stop; ++k) {
      if (prog[size_t(k)].unit < 0) continue;
      int tiles = 0;
      for (const auto& [pi, pc] : got[size_t(prog[size_t(k)].unit)]) tiles += pi == k;
      INFO("instruction " << k);
      CHECK(tiles == prog[size_t(k)].tiles);
    }
    CHECK(in_flight.empty());
    for (int k = uniform(0, 40); k > 0; --k) clock();  // the next start: during the scrub, or after
  }
  CHECK(scrubs == 1 + kRuns);  // one during reset, one after each run
  CHECK(errors >= 35);         // the planted errors ended runs
  CHECK(whms_started > 50);
  CHECK(syncs_passed > 20);
  CHECK(faults_raised > 3);
  CHECK(younger_faults > 2);  // younger faults came, and the oldest won
  CHECK(waited > 3);          // starts that came while the memories were being cleared
}
