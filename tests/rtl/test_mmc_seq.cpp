// SPDX-License-Identifier: Apache-2.0
// Block tests of tpu_mmc_seq, the matrix sequencer, against the contracts written in its
// header and in tpu_matrix_unit's: random streams of `mmc` (switching or not,
// accumulating onto the row before or not) with random queue gaps, weight tiles that
// arrive at random times, and with or without the unified buffer's port denied. Checked
// every cycle:
// - the rows read are each instruction's rows in order, and each enters the matrix unit
//   two cycles after its read, the first row of a switching mmc with the switch;
// - each row's accumulator write (row, accumulate flag) follows its entry by the matrix
//   unit's latency plus two, and no row accumulates onto the row written the cycle before;
// - the shadow loads: N rows on consecutive cycles in order, only from a whole tile in
//   the weight FIFO, row 0 at least N - 1 cycles after the switch before, the next switch
//   at least a cycle after row 0 (tpu_matrix_unit's contract), one tile per switch;
// - each instruction retires once, two cycles after its last accumulator write, and each
//   row is reported to the chaining tracker then;
// - with a fault reported, instructions younger than it and not yet started are retired
//   without a row, older ones run to the end, and none stops halfway.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "Vtpu_mmc_seq_n4.h"
#include "Vtpu_mmc_seq_n8.h"
#include "isa/isa.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Params;
template <> struct Params<Vtpu_mmc_seq_n4> { static constexpr int N = 4, UbRows = 256, AccRows = 128, Slots = 8; };
template <> struct Params<Vtpu_mmc_seq_n8> { static constexpr int N = 8, UbRows = 512, AccRows = 256, Slots = 8; };

struct Mmc {
  int ub, rows, acc;
  bool sw, accumulate;
  uint32_t pc;
  int slot;
  // filled in as it runs
  bool taken = false, retired = false;
  int granted = 0, written = 0;
  long last_write = -1;
};

}  // namespace

TEMPLATE_TEST_CASE("matrix sequencer: rows, accumulator writes, shadow loads and retirements follow the contracts",
                   "[rtl][mmc_seq]", Vtpu_mmc_seq_n4, Vtpu_mmc_seq_n8) {
  constexpr int N = Params<TestType>::N, Slots = Params<TestType>::Slots;
  constexpr long Latency = 2 * N + 2;  // tpu_matrix_unit: a row's results leave 2N + 2 cycles after it enters
  const double gap = GENERATE(0.0, 0.3);
  const double deny = GENERATE(0.0, 0.3);
  const bool fault = GENERATE(false, true);
  INFO("N=" << N << " queue gaps=" << gap << " port denied=" << deny << " fault=" << fault);
  std::mt19937_64 rng(tessera::test::test_seed());
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };

  // The program: each mmc sometimes accumulating onto the row its predecessor ends on
  // (the accumulators' rule behind the sequencer's bubble).
  std::vector<Mmc> prog;
  int switches = 0;
  for (int i = 0; i < 300; ++i) {
    Mmc m{};
    m.rows = chance(0.3) ? N : uniform(1, 3 * N);
    m.ub = uniform(0, Params<TestType>::UbRows - m.rows);
    m.acc = !prog.empty() && chance(0.4) ? std::min(prog.back().acc + prog.back().rows - 1, Params<TestType>::AccRows - m.rows)
                                         : uniform(0, Params<TestType>::AccRows - m.rows);
    m.accumulate = chance(0.5);
    m.sw = i == 0 || chance(0.3);
    m.pc = uint32_t(0x100 + 16 * i);
    m.slot = i % Slots;
    switches += m.sw;
    prog.push_back(m);
  }
  const long fault_at = fault ? uniform(50, 1500) : -1;           // the cycle the fault is reported
  const uint32_t fault_pc = prog[size_t(uniform(20, 150))].pc;     // the faulting instruction's pc

  TestType dut;
  dut.clear_i = 0;
  dut.q_valid_i = 0;
  dut.err_valid_i = 0;
  dut.tile_i = 0;
  dut.ubr_grant_i = 0;
  reset(dut);

  struct Row {
    long cycle;  // when it enters the matrix unit, or is written to the accumulators
    size_t instr;
    int row;
  };
  size_t next = 0;                    // the next instruction to offer
  std::vector<int> slot_busy(Slots, 0);
  std::vector<size_t> taken;          // in order
  std::deque<Row> entering, writing, reporting;
  long rows_written = 0, tiles_in = 0, wf_written = 0, wf_read = 0;
  long last_switch_entry = -1000, last_row0 = -1000, loads_started = 0, switch_entries = 0;
  int load_row = -1;                  // the shadow load's last row written (-1: none running)
  long prev_write_cycle = -10;
  int prev_write_addr = -1;
  bool done = false;

  for (long t = 0; t < 20000 && !done; ++t) {
    // ---- inputs ----
    const bool fault_now = fault && t >= fault_at;
    dut.err_valid_i = fault_now;
    dut.err_pc_i = fault_pc;
    // a whole tile arrives now and then, while a switch may still need one and there is room
    if (tiles_in < switches && wf_written - wf_read + N <= 4 * N && chance(0.15)) wf_written += N, ++tiles_in;
    dut.tile_i = wf_written / N != wf_read / N;
    dut.ubr_grant_i = !chance(deny);
    const bool offer = next < prog.size() && !slot_busy[size_t(prog[next].slot)] && !chance(gap);
    dut.q_valid_i = offer;
    if (offer) {
      const Mmc& m = prog[next];
      tessera::Instr in;
      in.op = tessera::Opcode::MMC;
      in.ub = m.ub, in.rows = m.rows, in.acc = m.acc, in.sw = m.sw, in.accumulate = m.accumulate;
      const tessera::Word w = tessera::encode(in);
      set_bits(dut.q_instr_i, 0, 64, uint64_t(w));
      set_bits(dut.q_instr_i, 64, 64, uint64_t(w >> 64));
      dut.q_pc_i = m.pc;
      dut.q_slot_i = uint32_t(m.slot);
    }
    dut.eval();

    // ---- this cycle's outputs ----
    // the shadow load
    REQUIRE(bool(dut.w_we_o) == bool(dut.wf_ready_o));
    if (dut.w_we_o) {
      REQUIRE(int(dut.w_row_o) == load_row + 1);    // consecutive rows, in order
      if (dut.w_row_o == 0) {
        REQUIRE(wf_written / N != wf_read / N);     // a whole tile is there
        REQUIRE(t >= last_switch_entry + N - 1);    // N - 1 cycles after the switch before
        REQUIRE(loads_started == switch_entries);   // the tile before has been switched in
        last_row0 = t, ++loads_started;
      }
      load_row = int(dut.w_row_o) == N - 1 ? -1 : int(dut.w_row_o);
      ++wf_read;
    } else {
      REQUIRE(load_row == -1);                      // a load writes a row every cycle
    }
    // a row entering the matrix unit: the one granted two cycles ago
    if (!entering.empty() && entering.front().cycle == t) {
      const Row r = entering.front();
      entering.pop_front();
      REQUIRE(dut.mx_valid_o);
      REQUIRE(bool(dut.mx_switch_o) == (prog[r.instr].sw && r.row == 0));
      if (dut.mx_switch_o) {
        REQUIRE(switch_entries < loads_started);    // its tile's load has begun ...
        REQUIRE(t >= last_row0 + 1);                // ... and written row 0 a cycle or more ago
        last_switch_entry = t, ++switch_entries;
      }
      writing.push_back({t + Latency, r.instr, r.row});
    } else {
      REQUIRE(!dut.mx_valid_o);
    }
    // an accumulator write: the row that entered the matrix unit Latency cycles ago
    if (!writing.empty() && writing.front().cycle == t) {
      const Row r = writing.front();
      writing.pop_front();
      Mmc& m = prog[r.instr];
      REQUIRE(dut.acc_we_o);
      REQUIRE(int(dut.acc_addr_o) == m.acc + r.row);
      REQUIRE(bool(dut.acc_accumulate_o) == m.accumulate);
      // (the accumulators do not add onto the row written the cycle before)
      if (m.accumulate) REQUIRE(!(prev_write_cycle == t - 1 && prev_write_addr == m.acc + r.row));
      prev_write_cycle = t, prev_write_addr = m.acc + r.row;
      if (++m.written == m.rows) m.last_write = t;
      reporting.push_back({t + 2, r.instr, r.row});
      ++rows_written;
    } else {
      REQUIRE(!dut.acc_we_o);
    }
    // the chaining tracker's report: each row two cycles after its write
    if (!reporting.empty() && reporting.front().cycle == t) {
      const Row r = reporting.front();
      reporting.pop_front();
      REQUIRE(dut.accw_valid_o);
      REQUIRE(int(dut.accw_slot_o) == prog[r.instr].slot);
      REQUIRE(int(dut.accw_addr_o) == prog[r.instr].acc + r.row);
    } else {
      REQUIRE(!dut.accw_valid_o);
    }
    // retirements: two cycles after the last write, or without a row when younger than the fault
    for (int s = 0; s < Slots; ++s) {
      if (!((dut.retire_o >> s) & 1)) continue;
      size_t who = prog.size();
      for (size_t i : taken)
        if (prog[i].slot == s && !prog[i].retired) {
          who = i;
          break;
        }
      REQUIRE(who < prog.size());
      Mmc& m = prog[who];
      if (m.granted == 0) {
        REQUIRE(fault_now);
        REQUIRE(m.pc > fault_pc);
      } else {
        REQUIRE(m.written == m.rows);
        REQUIRE(m.last_write + 2 == t);
      }
      m.retired = true;
      slot_busy[size_t(s)] = 0;
    }
    // ---- the edge ----
    // The grant is the sequencer's own; its row event (ev_row_o, a register) shows it a
    // cycle later: the address read now is then the streaming instruction's next row.
    const int read_addr = int(dut.ubr_addr_o);
    const bool claimed = dut.ubr_valid_o && dut.ubr_grant_i;
    if (offer && dut.q_ready_o) {
      taken.push_back(next);
      prog[next].taken = true;
      slot_busy[size_t(prog[next].slot)] = 1;
      ++next;
    }
    tick(dut);
    dut.eval();
    if (dut.ev_row_o) {
      REQUIRE(claimed);
      size_t cur = prog.size();
      for (size_t i : taken)
        if (prog[i].granted < prog[i].rows && !prog[i].retired) {
          cur = i;
          break;
        }
      REQUIRE(cur < prog.size());
      Mmc& m = prog[cur];
      // nothing younger than the fault starts (the report reaches the sequencer a cycle late)
      if (m.granted == 0 && fault && t > fault_at) REQUIRE(m.pc <= fault_pc);
      REQUIRE(read_addr == m.ub + m.granted);
      entering.push_back({t + 2, cur, m.granted});
      ++m.granted;
    }
    done = next == prog.size() && std::all_of(prog.begin(), prog.end(), [](const Mmc& m) { return m.retired; });
  }
  // every instruction retired exactly once; older than the fault: all rows
  for (const Mmc& m : prog) {
    INFO("mmc at pc " << m.pc);
    REQUIRE(m.retired);
    if (!fault || m.pc <= fault_pc) REQUIRE(m.written == m.rows);
    if (m.granted) REQUIRE(m.written == m.rows);
  }
  // (the stimulus reaches what it is for: many rows; with a fault, dropped instructions)
  CHECK(rows_written > (fault ? 100 : 1000));
  if (fault) CHECK(std::count_if(prog.begin(), prog.end(), [](const Mmc& m) { return m.granted == 0; }) > 10);
  // (each load's tile switched in; with a fault, the tile of a dropped switch may be loaded)
  if (fault) CHECK(loads_started - switch_entries <= 1);
  else CHECK(loads_started == switch_entries);
}
