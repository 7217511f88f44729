// SPDX-License-Identifier: Apache-2.0
// Block tests of tpu_dma_in, the DMA-in sequencer, against the ISA's meaning of `rhm` and
// `rw` (docs/isa.md) and the read engine's beat stream as tpu_axi_read's header gives it:
// random programs of rhm (one to four segments, overlapping rows that the window gather
// takes) and rw (transposed or not, partial tiles), with random gaps in the queue, in
// the read engine's command and beat streams, in the unified buffer's port and in the
// weight FIFO's draining. Checked:
// - the unified buffer ends as the rhm instructions, applied in order, leave it;
// - the weight rows pushed are each rw's tile, row by row, in program order, and never
//   into a full FIFO; a tile event for each;
// - each instruction retires once, after its last row;
// - with bus errors: the first instruction that reads a bad block faults with its pc,
//   none younger writes a row, and all retire;
// - with another unit's fault reported: older instructions run whole, younger ones not
//   yet begun retire without a row, none stops halfway.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <vector>

#include "Vtpu_dma_in_n4w32.h"
#include "Vtpu_dma_in_n8w32.h"
#include "isa/isa.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera::rtl;

namespace {

template <typename M> struct Params;
template <> struct Params<Vtpu_dma_in_n4w32> { static constexpr int N = 4, W = 4, UbRows = 256, Slots = 8, WfRows = 16; };
template <> struct Params<Vtpu_dma_in_n8w32> { static constexpr int N = 8, W = 4, UbRows = 256, Slots = 8, WfRows = 32; };

constexpr uint32_t kMemBytes = 1 << 16;
bool bad_block(uint32_t a) { return (a / 64) % 53 == 7; }  // bus errors: whole 64-byte blocks

struct Op {
  tessera::Instr in;
  uint32_t pc;
  int slot;
  bool faults = false;  // reads a bad block
  // as it runs
  bool retired = false;
  int rows_out = 0;  // UB rows written or tile rows pushed
};

// Every byte address an instruction reads.
template <class F>
void for_each_read(const tessera::Instr& in, int N, F&& f) {
  if (in.op == tessera::Opcode::RHM) {
    for (int64_t r = 0; r < in.rows; ++r)
      for (int64_t s = 0; s < in.segs; ++s)
        for (int64_t b = 0; b < in.seglen; ++b) f(uint32_t(in.addr + r * in.stride + s * in.segstride + b));
  } else {
    const int64_t mem_rows = in.transpose ? in.n : in.k, row_len = in.transpose ? in.k : in.n;
    for (int64_t r = 0; r < mem_rows; ++r)
      for (int64_t b = 0; b < row_len; ++b) f(uint32_t(in.addr + r * in.stride + b));
  }
  (void)N;
}

// The rows an rhm writes (row r: its segments packed from lane 0, zeros after).
std::vector<uint8_t> rhm_row(const tessera::Instr& in, int64_t r, int N, const std::vector<uint8_t>& mem) {
  std::vector<uint8_t> row(size_t(N), 0);
  for (int64_t s = 0; s < in.segs; ++s)
    for (int64_t b = 0; b < in.seglen; ++b)
      row[size_t(s * in.seglen + b)] = mem[size_t(in.addr + r * in.stride + s * in.segstride + b)];
  return row;
}

// Row k of an rw's tile: W[k][n] = mem[addr + k*stride + n] (transposed: + n*stride + k).
std::vector<uint8_t> tile_row(const tessera::Instr& in, int k, int N, const std::vector<uint8_t>& mem) {
  std::vector<uint8_t> row(size_t(N), 0);
  if (k >= in.k) return row;
  for (int n = 0; n < in.n; ++n)
    row[size_t(n)] = mem[size_t(in.transpose ? in.addr + n * in.stride + k : in.addr + k * in.stride + n)];
  return row;
}

struct Span {
  uint32_t addr, len, sent = 0;  // bytes sent so far
  bool error = false;            // a beat so far came from a bad block
};

}  // namespace

TEMPLATE_TEST_CASE("DMA-in: rhm rows, rw tiles and retirements as the ISA says, under any timing",
                   "[rtl][dma_in]", Vtpu_dma_in_n4w32, Vtpu_dma_in_n8w32) {
  using P = Params<TestType>;
  constexpr int N = P::N, W = P::W, Slots = P::Slots;
  const double gap = GENERATE(0.0, 0.4);
  const int mode = GENERATE(0, 1, 2);  // 1: bus errors; 2: another unit reports a fault
  const bool errors = mode == 1, external = mode == 2;
  INFO("N=" << N << " gaps=" << gap << " bus errors=" << errors << " another unit's fault=" << external);
  std::mt19937_64 rng(tessera::test::test_seed());
  auto chance = [&](double p) { return std::bernoulli_distribution(p)(rng); };
  auto uniform = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };

  std::vector<uint8_t> mem(kMemBytes);
  for (auto& b : mem) b = uint8_t(rng());

  // The program. Without errors, reads avoid the bad blocks; with them, a few do.
  const size_t fault_at = errors ? size_t(uniform(40, 100)) : ~size_t{0};
  std::vector<Op> prog;
  while (prog.size() < 160) {
    tessera::Instr in;
    if (chance(0.6)) {
      in.op = tessera::Opcode::RHM;
      in.segs = chance(0.5) ? 1 : uniform(2, std::min<int64_t>(N, 4));
      in.seglen = uniform(1, N / in.segs);
      in.rows = chance(0.2) ? uniform(17, 40) : uniform(1, 16);
      in.ub = uniform(0, P::UbRows - in.rows);
      // rows close together (the window gather's case), apart, or overlapping
      in.stride = chance(0.5) ? uniform(0, 6) : uniform(N, 200);
      in.segstride = in.segs == 1 ? 0 : uniform(in.seglen, 300);
      in.addr = uniform(0, kMemBytes - 1 - in.rows * in.stride - in.segs * (in.segstride + in.seglen));
    } else {
      in.op = tessera::Opcode::RW;
      in.transpose = chance(0.4);
      in.k = chance(0.6) ? N : uniform(1, N);
      in.n = chance(0.6) ? N : uniform(1, N);
      in.stride = uniform(in.transpose ? in.k : in.n, 300);
      in.addr = uniform(0, kMemBytes - 1 - N * in.stride - N);
    }
    Op op{in, uint32_t(0x100 + 16 * prog.size()), int(prog.size() % Slots)};
    uint32_t lo = ~0u, hi = 0;
    for_each_read(in, N, [&](uint32_t a) {
      op.faults |= bad_block(a & ~uint32_t(W - 1));
      lo = std::min(lo, a), hi = std::max(hi, a);
    });
    // (the window gather reads the bytes between a group's rows too: a bad block there
    // alone would fault where the ISA reads nothing bad, so such programs are not made)
    bool range_bad = false;
    for (uint32_t a = lo & ~uint32_t(W - 1); a <= hi; a += W) range_bad |= bad_block(a);
    if (range_bad != op.faults) continue;
    // with bus errors, the first faulting instruction is at fault_at (drawn until one
    // faults); younger ones may fault too (they are dropped)
    if (prog.size() == fault_at ? !op.faults : op.faults && !(prog.size() > fault_at && chance(0.5))) continue;
    prog.push_back(op);
  }
  const auto first_fault = std::find_if(prog.begin(), prog.end(), [](const Op& o) { return o.faults; });
  REQUIRE((first_fault != prog.end()) == errors);
  // the faulting instruction's pc: the DMA's own, or another unit's (reported at ext_at)
  const uint32_t fault_pc = errors ? first_fault->pc : external ? prog[size_t(uniform(40, 120))].pc : ~0u;
  // (early enough that many younger instructions have not begun, at any timing)
  const long ext_at = external ? long(uniform(50, 500)) : -1;

  TestType dut;
  dut.q_valid_i = 0;
  dut.err_valid_i = 0;
  dut.req_ready_i = 0;
  dut.beat_valid_i = 0;
  dut.ubw_ready_i = 0;
  dut.wf_ready_i = 0;
  dut.wf_free_i = 0;
  reset(dut);

  std::vector<std::vector<uint8_t>> ub(size_t(P::UbRows), std::vector<uint8_t>(size_t(N), 0xee));
  std::vector<std::vector<uint8_t>> pushed;  // weight rows, in order
  std::deque<Span> spans;                    // commands taken, beats not all sent
  std::vector<int> slot_busy(Slots, 0);
  size_t next = 0, retired = 0, oldest = 0;  // oldest: the oldest instruction not retired
  int wf_rows = 0, tiles = 0;
  long fault_seen = -1;
  bool beat_shown = false;
  for (long t = 0; t < 60000 && retired < prog.size(); ++t) {
    // ---- inputs ----
    const bool offer = next < prog.size() && !slot_busy[size_t(prog[next].slot)] && !chance(gap);
    dut.q_valid_i = offer;
    if (offer) {
      const tessera::Word w = tessera::encode(prog[next].in);
      set_bits(dut.q_instr_i, 0, 64, uint64_t(w));
      set_bits(dut.q_instr_i, 64, 64, uint64_t(w >> 64));
      dut.q_pc_i = prog[next].pc;
      dut.q_slot_i = uint32_t(prog[next].slot);
    }
    // the fault reaches the unit two cycles after it reported it (the core's oldest-fault choice)
    dut.err_valid_i = (fault_seen >= 0 && t >= fault_seen + 2) || (external && t >= ext_at);
    dut.err_pc_i = fault_pc;
    dut.req_ready_i = !chance(gap);
    // the read engine's next beat (held, once shown, until taken)
    if (!beat_shown && !spans.empty() && !chance(gap)) {
      Span& s = spans.front();
      const uint32_t at = s.addr + s.sent, word = at & ~uint32_t(W - 1);
      const uint32_t lo = at - word, hi = std::min<uint32_t>(W, s.addr + s.len - word);
      for (int i = 0; i < W; ++i) set_bits(dut.beat_data_i, 8 * unsigned(i), 8, mem[word + uint32_t(i)]);
      dut.beat_lo_i = lo;
      dut.beat_hi_i = hi;
      dut.beat_fill_i = (1u << (hi - lo)) - 1;
      dut.beat_last_i = s.sent + (hi - lo) == s.len;
      s.error |= bad_block(word);  // (tpu_axi_read: from the bad beat to the span's end)
      dut.beat_error_i = s.error;
      beat_shown = true;
    }
    dut.beat_valid_i = beat_shown;
    dut.ubw_ready_i = !chance(gap);
    dut.wf_free_i = uint32_t(P::WfRows - wf_rows);
    dut.wf_ready_i = wf_rows < P::WfRows;
    dut.eval();

    // ---- this cycle's outputs ----
    // a row belongs to the oldest instruction of its kind with rows still to come (each
    // kind's rows go out in order; an rw's may pass an rhm's waiting for the port)
    auto owner = [&](tessera::Opcode kind) -> Op* {
      for (size_t i = oldest; i < next; ++i) {
        Op& o = prog[i];
        if (o.in.op == kind && o.rows_out < (kind == tessera::Opcode::RHM ? o.in.rows : N)) return &o;
      }
      return nullptr;
    };
    if (dut.ubw_valid_o && dut.ubw_ready_i) {
      Op* cur = owner(tessera::Opcode::RHM);
      REQUIRE(cur);
      if (!external) REQUIRE(cur->pc <= fault_pc);  // nothing younger than its own fault writes
      const int64_t r = cur->rows_out++;
      REQUIRE(int64_t(dut.ubw_addr_o) == cur->in.ub + r);
      std::vector<uint8_t> row(static_cast<size_t>(N), 0);
      for (int i = 0; i < N; ++i) row[size_t(i)] = uint8_t(get_bits(dut.ubw_data_o, 8 * unsigned(i), 8));
      if (!cur->faults) REQUIRE(row == rhm_row(cur->in, r, N, mem));
      ub[size_t(dut.ubw_addr_o)] = row;
    }
    if (dut.wf_valid_o && dut.wf_ready_i) {
      Op* cur = owner(tessera::Opcode::RW);
      REQUIRE(cur);
      if (!external) REQUIRE(cur->pc <= fault_pc);
      const int k = cur->rows_out++;
      std::vector<uint8_t> row(static_cast<size_t>(N), 0);
      for (int i = 0; i < N; ++i) row[size_t(i)] = uint8_t(get_bits(dut.wf_data_o, 8 * unsigned(i), 8));
      if (!cur->faults) REQUIRE(row == tile_row(cur->in, k, N, mem));
      pushed.push_back(row);
      ++wf_rows;
    }
    tiles += dut.tile_o;
    if (dut.fault_o) {
      REQUIRE(errors);
      REQUIRE(fault_seen < 0);  // one fault: nothing younger runs after it
      REQUIRE(dut.fault_pc_o == fault_pc);
      fault_seen = t;
    }
    // (an rw may retire before an older rhm whose rows wait for the port: the slots say which)
    for (int s = 0; s < Slots; ++s) {
      if (!((dut.retire_o >> s) & 1)) continue;
      size_t who = next;
      for (size_t i = oldest; i < next; ++i)
        if (prog[i].slot == s && !prog[i].retired) who = i;
      REQUIRE(who < next);
      Op& o = prog[who];
      const int64_t total = o.in.op == tessera::Opcode::RHM ? o.in.rows : N;
      INFO("pc " << o.pc << " rows out " << o.rows_out << " of " << total);
      // older than the fault: every row (another unit's faulting instruction too); younger:
      // none after the DMA's own fault, none or all after another's (begun before the report)
      if (o.pc < fault_pc || (external && o.pc == fault_pc)) REQUIRE(o.rows_out == total);
      if (o.pc > fault_pc) REQUIRE((o.rows_out == 0 || (external && o.rows_out == total)));
      o.retired = true;
      slot_busy[size_t(s)] = 0;
      ++retired;
    }
    while (oldest < next && prog[oldest].retired) ++oldest;

    // ---- the edge ----
    if (offer && dut.q_ready_o) slot_busy[size_t(prog[next++].slot)] = 1;
    if (dut.req_valid_o && dut.req_ready_i) {
      REQUIRE(dut.req_len_o >= 1);
      REQUIRE(dut.req_addr_o + dut.req_len_o <= kMemBytes);
      spans.push_back({dut.req_addr_o, dut.req_len_o});
    }
    if (beat_shown && dut.beat_ready_o) {
      Span& s = spans.front();
      s.sent += uint32_t(dut.beat_hi_i - dut.beat_lo_i);
      if (s.sent == s.len) spans.pop_front();
      beat_shown = false;
    }
    if (wf_rows > 0 && chance(0.3)) --wf_rows;  // the matrix unit takes weight rows now and then
    tick(dut);
  }
  REQUIRE(retired == prog.size());
  REQUIRE(spans.empty());
  dut.eval();
  CHECK(!dut.busy_o);
  // the unified buffer as the rhm instructions that ran leave it, in order
  std::vector<std::vector<uint8_t>> want(size_t(P::UbRows), std::vector<uint8_t>(size_t(N), 0xee));
  std::vector<std::vector<uint8_t>> want_pushed;
  for (const Op& o : prog) {
    if (errors && o.pc >= fault_pc) break;
    if (o.rows_out == 0) continue;  // (dropped, younger than another unit's fault)
    if (o.in.op == tessera::Opcode::RHM)
      for (int64_t r = 0; r < o.in.rows; ++r) want[size_t(o.in.ub + r)] = rhm_row(o.in, r, N, mem);
    else
      for (int k = 0; k < N; ++k) want_pushed.push_back(tile_row(o.in, k, N, mem));
  }
  if (errors && first_fault->in.op == tessera::Opcode::RHM) {  // (its rows before the bad one may land)
    for (int64_t r = 0; r < first_fault->in.rows; ++r) want[size_t(first_fault->in.ub + r)] = ub[size_t(first_fault->in.ub + r)];
  }
  CHECK(ub == want);
  REQUIRE(pushed.size() >= want_pushed.size());
  CHECK(std::equal(want_pushed.begin(), want_pushed.end(), pushed.begin()));
  if (errors) {
    CHECK(fault_seen >= 0);
    CHECK(pushed.size() - want_pushed.size() <= size_t(N));  // (the faulting rw's rows, at most)
  } else {
    CHECK(pushed == want_pushed);
    CHECK(tiles == int(want_pushed.size()) / N);
  }
  // (the stimulus reaches what it is for)
  CHECK(std::count_if(prog.begin(), prog.end(), [](const Op& o) { return o.in.op == tessera::Opcode::RW; }) > 30);
  if (errors) CHECK(std::count_if(prog.begin(), prog.end(), [&](const Op& o) { return o.pc > fault_pc; }) > 10);
  if (external)
    CHECK(std::count_if(prog.begin(), prog.end(), [&](const Op& o) { return o.pc > fault_pc && o.rows_out == 0; }) > 10);
}
