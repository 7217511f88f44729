// SPDX-License-Identifier: Apache-2.0
// Block test of tpu_lite_check, the lite core's static checks by shift and add: on
// random instruction words (fields drawn small, near the limits and anywhere, some with
// reserved bits or opcodes) its error code is the decoder's and check_static's
// (tools/isa: what the golden model faults with before executing), its unified-buffer
// and accumulator range ends the instruction's, and each check ends within its 40 cycles.
#include <catch2/catch.hpp>

#include <random>

#include "Vtpu_lite_check.h"
#include "isa/isa.hpp"
#include "isa/legality.hpp"
#include "test_seed.hpp"
#include "vl_bits.hpp"

using namespace tessera;
using namespace tessera::rtl;

namespace {

// The block's parameters (tests/rtl/CMakeLists.txt): small memories, so that random
// fields land on both sides of every limit.
Config check_config() {
  Config c;
  c.array_size = 4;
  c.ub_rows = 256;
  c.acc_rows = 128;
  c.dram_bytes = 65536;
  return c;
}

// A field's encoded value: small, near a limit of the configuration, or anywhere.
uint64_t draw(std::mt19937& rng, unsigned width, const Config& cfg) {
  const uint64_t top = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  const uint64_t limits[] = {cfg.array_size, cfg.ub_rows, cfg.acc_rows, cfg.dram_bytes};
  switch (rng() % 4) {
    case 0: return rng() % 9 & top;
    case 1: {
      const uint64_t l = limits[rng() % 4];
      return (l + (rng() % 9) - 4) & top;
    }
    case 2: return (uint64_t{rng()} % (cfg.ub_rows / 4 + 1)) & top;
    default: return (uint64_t{rng()} << 32 | rng()) & top;
  }
}

Word random_word(std::mt19937& rng, const Config& cfg) {
  const unsigned op = rng() % 10 == 0 ? 8 + rng() % 8 : rng() % 8;
  Word w = op;
  if (const OpSpec* spec = find_op(static_cast<Opcode>(op))) {
    for (const FieldSpec& f : spec->fields) w |= Word{draw(rng, f.width, cfg)} << f.lsb;
    if (rng() % 12 == 0) {  // a reserved bit
      const Word reserved = reserved_mask(*spec);
      for (int tries = 0; tries < 64; ++tries) {
        const unsigned bit = rng() % 128;
        if ((reserved >> bit) & 1) {
          w |= Word{1} << bit;
          break;
        }
      }
    }
  }
  return w;
}

// One past the last unified-buffer row the instruction writes (rhm, act) or reads
// (whm, mmc: every tile's).
int64_t ub_end(const Instr& in) {
  switch (in.op) {
    case Opcode::WHM: return in.ub + in.rows * in.groups;
    case Opcode::MMC: return in.ub + (in.tiles - 1) * in.ubstride + in.rows;
    default: return in.ub + in.rows;
  }
}

// The word with one of its range ends moved onto its limit, or one row or byte either
// side of it (the base field set to the limit minus the span), where the field allows.
Word on_a_limit(std::mt19937& rng, Word w, const Config& cfg) {
  Instr in;
  if (decode(w, in) != DecodeResult::Ok) return w;
  const MemRows m = rw_memory_rows(in);
  int64_t* base = nullptr;
  int64_t span = 0, limit = 0;
  switch (rng() % 3) {
    case 0:  // device memory: addr
      base = &in.addr, limit = cfg.dram_bytes;
      if (in.op == Opcode::RHM) span = (in.rows - 1) * in.stride + (in.segs - 1) * in.segstride + in.seglen;
      else if (in.op == Opcode::WHM) span = (in.groups - 1) * in.gstride + (in.rows - 1) * in.stride + in.len;
      else if (in.op == Opcode::RW) span = (in.tiles - 1) * in.tstride + (m.rows - 1) * in.stride + m.len;
      else base = nullptr;
      break;
    case 1:  // unified buffer: ub (act: also its parameter block)
      base = &in.ub, limit = cfg.ub_rows, span = ub_end(in) - in.ub;
      if (in.op == Opcode::ACT && rng() % 2) base = &in.params, span = kActParamRows;
      if (in.op == Opcode::RW) base = nullptr;
      break;
    default:  // accumulators: acc
      base = &in.acc, limit = cfg.acc_rows;
      if (in.op == Opcode::MMC) span = (in.tiles - 1) * in.accstride + in.rows;
      else if (in.op == Opcode::ACT) span = in.rows * in.pool;
      else base = nullptr;
  }
  if (!base) return w;
  const int64_t v = limit - span + int64_t(rng() % 3) - 1;
  if (v < 0 || v >= (int64_t{1} << (base == &in.addr ? 32 : 16))) return w;
  *base = v;
  return encode(in);
}

// What the golden model faults with before executing: the decoder's ILLEGAL, then the
// static checks.
ErrorCode expected_error(Word w, const Config& cfg, Instr& in) {
  if (decode(w, in) != DecodeResult::Ok) return ErrorCode::Illegal;
  return check_static(in, cfg).code;
}

}  // namespace

TEST_CASE("lite check: random instructions fault as the golden model decides", "[rtl][lite]") {
  const Config cfg = check_config();
  std::mt19937 rng(test::test_seed());
  Vtpu_lite_check dut;
  reset(dut);
  int counts[8] = {};
  for (int i = 0; i < 20000; ++i) {
    const Word w = rng() % 2 ? on_a_limit(rng, random_word(rng, cfg), cfg) : random_word(rng, cfg);
    Instr in;
    const ErrorCode want = expected_error(w, cfg, in);
    INFO("instruction " << word_hex(w));
    for (unsigned b = 0; b < 4; ++b) dut.instr_i[b] = static_cast<uint32_t>(w >> (32 * b));
    dut.start_i = 1;
    tick(dut);
    dut.start_i = 0;
    int cycles = 1;
    while (!dut.done_o && cycles < 100) tick(dut), ++cycles;
    REQUIRE(dut.done_o);
    CHECK(cycles <= 40);
    REQUIRE(int(dut.err_o) == int(want));
    const bool ub_checked = want == ErrorCode::None || want == ErrorCode::AccRange || want == ErrorCode::DramRange;
    if (ub_checked && (in.op == Opcode::RHM || in.op == Opcode::WHM || in.op == Opcode::MMC || in.op == Opcode::ACT))
      REQUIRE(int64_t(dut.ub_end_o) == ub_end(in));
    const bool acc_checked = want == ErrorCode::None || want == ErrorCode::DramRange;
    if (acc_checked && in.op == Opcode::MMC) REQUIRE(int64_t(dut.acc_end_o) == in.acc + (in.tiles - 1) * in.accstride + in.rows);
    if (acc_checked && in.op == Opcode::ACT) REQUIRE(int64_t(dut.acc_end_o) == in.acc + in.rows * in.pool);
    ++counts[int(want)];
    tick(dut);
    REQUIRE_FALSE(dut.done_o);
  }
  // every outcome came up
  for (ErrorCode e : {ErrorCode::None, ErrorCode::Illegal, ErrorCode::UbRange, ErrorCode::AccRange, ErrorCode::DramRange})
    CHECK(counts[int(e)] > 100);
}
