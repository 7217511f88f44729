// SPDX-License-Identifier: Apache-2.0
// Block tests of tpu_act_seq, the activation sequencer, against its header's promises
// and the contracts of the units around it, with models of them written from those
// contracts: the unified buffer's parameter blocks (each with a version, and a shift row
// that is legal or not), the activation unit's register file and its result rows (11
// cycles after a row's last plane), and the chaining tracker (accumulator rows an older
// `mmc` still has to write, reported a cycle late). Random `act`s (rows, pooling, a block
// used again, rewritten or scrubbed in between), random port-B grants, a serial unit's accept, and
// chaining waits. Checked every cycle:
// - the parameter rows are read in order from the block, only when the register file
//   does not already hold it unchanged, and the act streams only with the block's current
//   rows in the register file; a block with a shift above 63 ends the act with a fault,
//   and a good one reports the act as checked;
// - the accumulator reads go output row by row, plane by plane (acc + g*rows + r), each
//   only when the unit takes it and no older mmc still has to write the row, each the row
//   the tracker was asked about the cycle before; first and last planes marked;
// - each result row goes to ub + r and is announced a cycle before; the act retires once,
//   after its last row.
#include <catch2/catch.hpp>

#include <deque>
#include <map>
#include <random>
#include <vector>

#include "Vtpu_act_seq.h"
#include "isa/act_block.hpp"
#include "isa/isa.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

TEST_CASE("activation sequencer: parameters, streaming, chaining and results follow the contracts", "[rtl][act_seq]") {
  constexpr int UbRows = 256, AccRows = 128, Slots = 8, ActLatency = 11;
  constexpr int Rows = int(tessera::kActParamRows), ShiftRow = Rows - 1;
  const bool serial = GENERATE(false, true);
  const double deny = GENERATE(0.0, 0.4);
  INFO("serial=" << serial << " port B denied=" << deny);
  std::mt19937_64 rng(tessera::test::test_seed());
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };

  // The unified buffer's parameter rows: a version per row, and per block start whether
  // its shift row is bad. Four block places, so that blocks are used again.
  std::vector<int> ub_version(UbRows, 0);
  std::map<int, bool> shift_bad;  // by shift row
  const int places[4] = {0, 20, 40, 200};
  for (int p : places) shift_bad[p + ShiftRow] = false;
  // The register file: per row the UB row and version it was loaded from; the shift row's
  // badness as the unit reports it (from the cycle after the row is written).
  std::vector<std::pair<int, int>> regfile(Rows, {-1, -1});
  bool reported_bad = false;

  Vtpu_act_seq dut;
  dut.q_valid_i = 0;
  dut.err_valid_i = 0;
  dut.ubr_grant_i = 0;
  dut.shift_error_i = 0;
  dut.act_accept_i = 1;
  dut.acc_wait_i = 0;
  dut.acc_wait_next_i = 0;
  dut.out_valid_i = 0;
  dut.out_soon_i = 0;
  dut.ub_we_i = 0;
  dut.ub_we2_i = 0;
  dut.scrub_i = 0;
  reset(dut);

  // The register file holds an unchanged, checked block at cached_at (-1: none).
  int cached_at = -1;
  std::map<int, long> pending;  // accumulator row -> the cycle its older mmc writes it
  auto pending_at = [&](int row, long t) {
    auto it = pending.find(row);
    return it != pending.end() && it->second > t;
  };
  int acts = 0, faults = 0, reloads = 0, hits = 0, waits = 0, prev_params = -1;
  long t = 0;
  // (240 acts: with 120, cache hits were 40 +- 9 and now and then below the 10 checked
  // at the end, a run of acts meeting bad or rewritten blocks)
  for (int a = 0; a < 240; ++a) {
    // Between acts: UB writes now and then rewrite a block (a new version; its shift row
    // may turn bad or good), two cycles at least before the next act, as issue ensures.
    if (chance(0.3)) {
      const int place = places[uniform(0, 3)], row = place + (chance(0.5) ? ShiftRow : uniform(0, Rows - 1));
      dut.ub_we_i = 1;
      dut.ub_wa_i = uint32_t(row);
      tick(dut);
      dut.ub_we_i = 0;
      ++ub_version[size_t(row)];
      if (row == place + ShiftRow) shift_bad[row] = chance(0.4);
      if (cached_at >= 0 && row >= cached_at && row < cached_at + Rows) cached_at = -1;
      t += 1;
    }
    // Now and then a scrub between runs: every row becomes zero (a new version, a
    // legal shift row), and the register file must be loaded again.
    if (a % 40 == 20) {
      dut.scrub_i = 1;
      tick(dut);
      dut.scrub_i = 0;
      for (int& v : ub_version) ++v;
      for (auto& [row, is_bad] : shift_bad) is_bad = false;
      cached_at = -1;
      t += 1;
      for (int p : places)  // the next run writes its parameters: some shift rows bad
        if (chance(0.5)) {
          dut.ub_we_i = 1;
          dut.ub_wa_i = uint32_t(p + ShiftRow);
          tick(dut);
          dut.ub_we_i = 0;
          ++ub_version[size_t(p + ShiftRow)];
          shift_bad[p + ShiftRow] = true;
          t += 1;
        }
    }
    tick(dut), tick(dut);
    t += 2;
    // The act.
    const int pool = uniform(1, 4), rows = uniform(1, AccRows / pool);
    // (its result rows stay clear of the parameter blocks)
    const int acc = uniform(0, AccRows - rows * pool), ub = uniform(50, 199 - rows);
    const int params = prev_params >= 0 && chance(0.5) ? prev_params : places[uniform(0, 3)];
    prev_params = params;
    const int slot = a % Slots;
    tessera::Instr in;
    in.op = tessera::Opcode::ACT;
    in.acc = acc, in.ub = ub, in.rows = rows, in.params = params, in.pool = pool, in.zp = uniform(-128, 127);
    in.relu = chance(0.5);
    const tessera::Word w = tessera::encode(in);
    set_bits(dut.q_instr_i, 0, 64, uint64_t(w));
    set_bits(dut.q_instr_i, 64, 64, uint64_t(w >> 64));
    dut.q_pc_i = uint32_t(0x100 + 16 * a);
    dut.q_slot_i = uint32_t(slot);
    // older mmcs still writing some of its rows
    pending.clear();
    for (int k = 0; k < rows * pool; ++k)
      if (chance(0.2)) pending[acc + k] = t + uniform(0, 3 * rows * pool);
    const bool must_load = cached_at != params;
    const bool bad = shift_bad[params + ShiftRow];
    ++acts;

    int next_param = 0, reads = 0, outs = 0, announced = 0;
    std::deque<std::pair<long, int>> param_arrivals;  // (cycle, UB row): a read's data
    std::deque<long> results;                          // cycles result rows come out
    bool taken = false, streamed = false, retired = false, checked = false, was_read = false;
    long fault_at = -1;  // the fault is raised a cycle before the retirement
    uint32_t prev_chk = 0, prev_chk_next = 0;
    int rows_given = 0;
    for (int c = 0; c < 20000 && !retired; ++c, ++t) {
      dut.q_valid_i = !taken;
      dut.ubr_grant_i = !chance(deny);
      dut.act_accept_i = !serial || chance(0.35);
      // the tracker's answers, a cycle late, about the rows asked for a cycle ago
      dut.acc_wait_i = pending_at(int(prev_chk), t - 1);
      dut.acc_wait_next_i = pending_at(int(prev_chk_next), t - 1);
      dut.shift_error_i = reported_bad;
      dut.out_valid_i = !results.empty() && results.front() == t;
      dut.out_soon_i = !results.empty() && results.front() == t + 1;
      dut.eval();
      // every UB write reaches the sequencer (here its own result rows)
      dut.ub_we_i = dut.ubw_valid_o;
      dut.ub_wa_i = dut.ubw_addr_o;
      dut.eval();

      const bool take = dut.q_valid_i && dut.q_ready_o;
      // parameter reads: the block's rows in order, only when it is not held already
      if (dut.ubr_valid_o && dut.ubr_grant_i) {
        REQUIRE(must_load);
        REQUIRE(next_param < Rows);
        REQUIRE(int(dut.ubr_addr_o) == params + next_param);
        param_arrivals.push_back({t + 2, params + next_param});
        ++next_param;
      }
      if (dut.param_we_o) {
        REQUIRE(!param_arrivals.empty());
        REQUIRE(param_arrivals.front().first == t);
        const int row = param_arrivals.front().second;
        REQUIRE(int(dut.param_row_o) == row - params);
        param_arrivals.pop_front();
      } else {
        REQUIRE((param_arrivals.empty() || param_arrivals.front().first != t));
      }
      // accumulator reads
      if (dut.acc_rd_o) {
        REQUIRE(!bad);
        REQUIRE(dut.act_accept_i);
        if (!streamed) {  // the register file holds the block as it is now
          for (int k = 0; k < Rows; ++k) {
            REQUIRE(regfile[size_t(k)].first == params + k);
            REQUIRE(regfile[size_t(k)].second == ub_version[size_t(params + k)]);
          }
          streamed = true;
        }
        const int r = reads / pool, g = reads % pool;
        const int row = acc + g * rows + r;
        REQUIRE(int(dut.acc_addr_o) == row);
        REQUIRE(int(was_read ? prev_chk_next : prev_chk) == row);  // the row the tracker was asked about
        REQUIRE(!pending_at(row, t - 1));                         // no older mmc still writes it
        ++reads;
      } else if (streamed && reads < rows * pool && dut.act_accept_i) {
        ++waits;
      }
      if (dut.in_valid_o) {
        const int k = rows_given++;
        REQUIRE(bool(dut.in_first_o) == (k % pool == 0));
        REQUIRE(bool(dut.in_last_o) == (k % pool == pool - 1));
        if (dut.in_last_o) results.push_back(t + ActLatency);
      }
      // result rows
      REQUIRE(bool(dut.ubw_valid_o) == bool(dut.out_valid_i));
      if (dut.out_valid_i) {
        REQUIRE(int(dut.ubw_addr_o) == ub + outs);
        ++outs;
        results.pop_front();
      }
      REQUIRE(bool(dut.chain_valid_o) == bool(dut.out_soon_i));
      if (dut.out_soon_i) REQUIRE(int(dut.chain_addr_o) == ub + announced++);
      if (dut.out_valid_i || dut.out_soon_i) REQUIRE(int(dut.slot_o) == slot);
      // checked and retired
      if (dut.checked_o) {
        REQUIRE(!bad);
        REQUIRE(dut.checked_o == (1u << slot));
        REQUIRE(!checked);
        checked = true;
      }
      if (dut.fault_o) {
        REQUIRE(bad);
        REQUIRE(fault_at < 0);
        REQUIRE(uint32_t(dut.fault_pc_o) == 0x100u + 16u * uint32_t(a));
        fault_at = t;
      }
      if (dut.retire_o) {
        REQUIRE(dut.retire_o == (1u << slot));
        REQUIRE(fault_at == (bad ? t - 1 : -1));
        if (bad) {
          REQUIRE(reads == 0);
          ++faults;
        } else {
          REQUIRE(checked);
          REQUIRE(outs == rows);
        }
        retired = true;
      }
      was_read = dut.acc_rd_o;
      prev_chk = dut.acc_chk_o;
      prev_chk_next = dut.acc_chk_next_o;
      if (dut.param_we_o) {
        const int k = int(dut.param_row_o);
        regfile[size_t(k)] = {params + k, ub_version[size_t(params + k)]};
        if (k == ShiftRow) reported_bad = shift_bad[params + ShiftRow];
      }
      taken = taken || take;
      tick(dut);
    }
    REQUIRE(retired);
    REQUIRE(next_param == (must_load ? Rows : 0));
    reloads += must_load;
    hits += !must_load;
    cached_at = bad ? -1 : params;
    dut.q_valid_i = 0;
  }
  CHECK(acts == 240);
  CHECK(faults > 3);
  CHECK(hits > 10);
  CHECK(reloads > 10);
  CHECK(waits > 10);
}
