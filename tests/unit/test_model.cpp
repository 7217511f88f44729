// SPDX-License-Identifier: Apache-2.0
// Golden model: results against the independent reference, numerics edge cases
// derived by hand, and every architectural error with its faulting PC.
#include <catch2/catch.hpp>
#include <cstring>

#include "layer_program.hpp"
#include "model/golden_model.hpp"
#include "model/numerics.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

struct Run {
  GoldenModel model;
  explicit Run(const Config& cfg) : model(cfg) {}
  Status go(const Image& img, uint64_t limit = 0) {
    for (const auto& s : img.sections) std::memcpy(&model.dram()[s.addr], s.bytes.data(), s.bytes.size());
    model.start(img.entry);
    return model.run(limit);
  }
};

std::vector<int8_t> read_i8(const GoldenModel& m, uint32_t addr, size_t n) {
  std::vector<int8_t> v(n);
  std::memcpy(v.data(), &m.dram()[addr], n);
  return v;
}

}  // namespace

TEST_CASE("GEMM with bias, requantization and ReLU matches the reference for random shapes", "[model]") {
  const uint32_t n = GENERATE(4u, 8u, 16u);
  const Config cfg = config_n(n);
  std::mt19937 rng(test_seed() ^ n);
  std::uniform_int_distribution<int> dim(1, 3 * int(n) + 5);
  for (int trial = 0; trial < 25; ++trial) {
    const int m = dim(rng), k = dim(rng), c = dim(rng);
    INFO("N=" << n << " shape " << m << "x" << k << "x" << c);
    const QuantLayer L = random_layer(rng, m, k, c);
    const LayerProgram p = tile_layer(cfg, L);
    Run r(cfg);
    const Status st = r.go(p.image);
    REQUIRE(st.state == RunState::Done);
    REQUIRE(read_i8(r.model, p.out_addr, size_t(m) * c) == L.reference());
  }
}

TEST_CASE("GEMM on exact multiples of N and counters", "[model]") {
  const Config cfg = config_n(8);
  std::mt19937 rng(test_seed());
  const QuantLayer L = random_layer(rng, 32, 24, 16);
  const LayerProgram p = tile_layer(cfg, L);
  Run r(cfg);
  REQUIRE(r.go(p.image).state == RunState::Done);
  REQUIRE(read_i8(r.model, p.out_addr, 32 * 16) == L.reference());
  const Counters& c = r.model.counters();
  CHECK(c.macs == 2u * 3u * 32u * 8u * 8u);   // 2 column tiles x 3 K tiles x 32 rows x N*N
  CHECK(c.weight_tiles == 6u);
  CHECK(c.dram_write_bytes == 32u * 16u);
  CHECK(c.dram_read_bytes == 9u * 2u * 8u + 32u * 24u + 24u * 16u);
  CHECK(c.instructions == p.image.sections[0].bytes.size() / kInstrBytes);
}

TEST_CASE("requantization: rounding ties away from zero, saturation, ReLU, zero point", "[model][numerics]") {
  const LaneParams half{0, 1 << 30, 31};  // multiply by 0.5
  CHECK(requantize(5, half, 0, false) == 3);    // 2.5 -> 3
  CHECK(requantize(-5, half, 0, false) == -3);  // -2.5 -> -3
  CHECK(requantize(3, half, 0, false) == 2);    // 1.5 -> 2
  CHECK(requantize(-3, half, 0, false) == -2);
  CHECK(requantize(4, half, 0, false) == 2);    // exact
  CHECK(requantize(7, {0, 1, 2}, 0, false) == 2);    // 1.75 -> 2
  CHECK(requantize(-6, {0, 1, 2}, 0, false) == -2);  // -1.5 -> -2
  const LaneParams unit{0, 1, 0};
  CHECK(requantize(1000, unit, 0, false) == 127);
  CHECK(requantize(-1000, unit, 0, false) == -128);
  CHECK(requantize(100, unit, 27, false) == 127);   // 127 after the zero point
  CHECK(requantize(101, unit, 27, false) == 127);   // saturates
  CHECK(requantize(-10, unit, 5, false) == -5);
  CHECK(requantize(-10, unit, 5, true) == 5);       // ReLU clamps at the zero point
  CHECK(requantize(-10, unit, -128, true) == -128);
  CHECK(requantize(7, {0, -1, 0}, 0, false) == -7);  // negative multiplier
  // bias add saturates at int32 before scaling: (2^31-1) / 2^25 = 63.99.. -> 64, not 128
  CHECK(requantize(INT32_MAX, {INT32_MAX, 1, 25}, 0, false) == 64);
  CHECK(requantize(INT32_MIN, {INT32_MIN, 1, 25}, 0, false) == -64);
  // largest product, largest shift: 2^62 / 2^63 = 0.5 -> 1
  CHECK(requantize(INT32_MIN, {0, INT32_MIN, 63}, 0, false) == 1);
  CHECK(requantize(0, {12345, 1 << 30, 40}, -3, false) == 9);  // 12345/1024 = 12.05 -> 12, then -3
}

TEST_CASE("requantize agrees with the long-double reference on random inputs", "[model][numerics]") {
  std::mt19937_64 rng(test_seed());
  std::uniform_int_distribution<int32_t> any32(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int> shift(0, 63), zp(-128, 127), coin(0, 1);
  for (int i = 0; i < 200000; ++i) {
    const int32_t acc = any32(rng), bias = any32(rng) >> (i % 20), mult = any32(rng);
    const int s = shift(rng), z = zp(rng);
    const bool relu = coin(rng);
    const LaneParams p{bias, mult, static_cast<uint8_t>(s)};
    REQUIRE(int(requantize(acc, p, static_cast<int8_t>(z), relu)) ==
            int(ref_requant(acc, bias, mult, s, z, relu)));
  }
}

TEST_CASE("rhm gathers segments and zero-fills; whm writes len bytes per row", "[model]") {
  const Config cfg = config_n(8);
  std::vector<uint8_t> data(256);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i);
  // Row r = bytes [r*10 + s*32, +3) for s = 0, 1: a 3x3-style im2col gather.
  const std::vector<Instr> prog = {rhm(5, 3, 0x1000, 10, 3, 2, 32), whm(5, 3, 0x2000, 8, 8), halt()};
  Run r(cfg);
  REQUIRE(r.go(make_image(cfg, prog, 0x1000, data)).state == RunState::Done);
  for (int row = 0; row < 3; ++row) {
    const std::vector<int8_t> got = read_i8(r.model, 0x2000 + 8 * row, 8);
    const int b = row * 10;
    const std::vector<int8_t> want = {int8_t(b), int8_t(b + 1), int8_t(b + 2), int8_t(b + 32),
                                      int8_t(b + 33), int8_t(b + 34), 0, 0};
    CHECK(got == want);
  }
  CHECK(r.model.counters().dram_read_bytes == 18u);
  CHECK(r.model.counters().dram_write_bytes == 24u);
}

TEST_CASE("whm groups: group g's rows from UB row ub + g*rows to addr + g*gstride", "[model]") {
  const Config cfg = config_n(8);
  std::vector<uint8_t> data(48);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i + 1);
  // UB rows 10..15 hold bytes 1..48, 8 a row; 3 groups of 2 rows, 3 bytes of each row,
  // rows 8 bytes apart and groups 32: row (g, r) is UB row 10 + 2g + r at 0x2000 + 32g + 8r.
  const std::vector<Instr> prog = {rhm(10, 6, 0x1000, 8, 8), whm_groups(10, 2, 0x2000, 8, 3, 3, 32), halt()};
  Run r(cfg);
  REQUIRE(r.go(make_image(cfg, prog, 0x1000, data)).state == RunState::Done);
  std::vector<int8_t> want(96, 0);
  for (int g = 0; g < 3; ++g)
    for (int row = 0; row < 2; ++row)
      for (int i = 0; i < 3; ++i) want[size_t(32 * g + 8 * row + i)] = int8_t((2 * g + row) * 8 + i + 1);
  CHECK(read_i8(r.model, 0x2000, 96) == want);
  CHECK(r.model.counters().dram_write_bytes == 18u);
}

TEST_CASE("rw transpose reads the tile's columns as memory rows", "[model]") {
  const Config cfg = config_n(4);
  // W (k=3 x n=2) = [[1,2],[3,4],[5,6]]; stored plain (stride 2) and transposed (stride 3).
  std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6, 0, 0, 1, 3, 5, 2, 4, 6, 0, 0,
                               1, 1, 1, 0};  // x = [1, 1, 1, 0] at 0x1010
  const std::vector<uint8_t> params = param_block(4, {0, 0, 0, 0}, {1, 1, 1, 1}, {0, 0, 0, 0});
  data.resize(0x20);
  data.insert(data.end(), params.begin(), params.end());
  const std::vector<Instr> prog = {
      rhm(0, 1, 0x1010, 4, 4),          rhm(10, 9, 0x1020, 4, 4),
      rw(0x1000, 2, 3, 2),              rw(0x1008, 3, 3, 2, true),
      mmc(0, 1, 0, true, false),        mmc(0, 1, 1, true, false),
      act(0, 1, 2, 10),                 whm(1, 2, 0x3000, 4, 4),
      halt()};
  Run r(cfg);
  REQUIRE(r.go(make_image(cfg, prog, 0x1000, data)).state == RunState::Done);
  const std::vector<int8_t> want = {9, 12, 0, 0};  // [1,1,1] x W = [9, 12]
  CHECK(read_i8(r.model, 0x3000, 4) == want);
  CHECK(read_i8(r.model, 0x3004, 4) == want);
}

TEST_CASE("an rw or mmc of several tiles does what its one-tile instructions do", "[model]") {
  // Three weight tiles (k=3 x n=2, 8 bytes apart) and two input rows; the program with
  // tiles=3 against the same program written out tile by tile.
  const Config cfg = config_n(4);
  std::vector<uint8_t> data(0x40);
  for (size_t i = 0; i < 24; ++i) data[i] = uint8_t(int(i % 7) - 3);
  for (size_t i = 0; i < 8; ++i) data[0x20 + i] = uint8_t(int(i) - 2);
  const std::vector<uint8_t> params = param_block(4, {1, -2, 3, 0}, {1 << 30, 1 << 30, 1 << 30, 1 << 30}, {31, 31, 31, 31});
  data.insert(data.end(), params.begin(), params.end());
  Instr rw3 = rw(0x1000, 2, 3, 2);
  rw3.tiles = 3, rw3.tstride = 8;
  Instr mmc3 = mmc(0, 2, 4, true, false);
  mmc3.tiles = 3, mmc3.ubstride = 1, mmc3.accstride = 3;
  const std::vector<Instr> tail = {act(4, 20, 8, 10), whm(20, 8, 0x3000, 4, 4), halt()};
  std::vector<Instr> multi = {rhm(0, 4, 0x1020, 2, 2), rhm(10, 9, 0x1040, 4, 4), rw3, mmc3};
  std::vector<Instr> single = {rhm(0, 4, 0x1020, 2, 2), rhm(10, 9, 0x1040, 4, 4), rw(0x1000, 2, 3, 2),
                               rw(0x1008, 2, 3, 2), rw(0x1010, 2, 3, 2), mmc(0, 2, 4, true, false),
                               mmc(1, 2, 7, true, false), mmc(2, 2, 10, true, false)};
  multi.insert(multi.end(), tail.begin(), tail.end());
  single.insert(single.end(), tail.begin(), tail.end());
  Run a(cfg), b(cfg);
  REQUIRE(a.go(make_image(cfg, multi, 0x1000, data)).state == RunState::Done);
  REQUIRE(b.go(make_image(cfg, single, 0x1000, data)).state == RunState::Done);
  CHECK(read_i8(a.model, 0x3000, 32) == read_i8(b.model, 0x3000, 32));
  CHECK(a.model.counters().macs == b.model.counters().macs);
  CHECK(a.model.counters().weight_tiles == 3);
  CHECK(a.model.counters().instructions + 4 == b.model.counters().instructions);  // one each
}

TEST_CASE("act max-pools across planes and accumulate saturates at int32", "[model]") {
  const Config cfg = config_n(4);
  // x rows r = [r-2, 0, 0, 0] with identity weights: plane g holds rows g*2..g*2+1.
  std::vector<uint8_t> data;
  for (int r = 0; r < 6; ++r) data.insert(data.end(), {uint8_t(int8_t(r * 7 - 20)), 0, 0, 0});
  const std::vector<uint8_t> eye = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
  const std::vector<uint8_t> params = param_block(4, {0, 0, 0, 0}, {1, 1, 1, 1}, {0, 0, 0, 0});
  data.resize(0x20);
  data.insert(data.end(), eye.begin(), eye.end());
  data.resize(0x40);
  data.insert(data.end(), params.begin(), params.end());
  const std::vector<Instr> prog = {rhm(0, 6, 0x1000, 4, 4), rhm(20, 9, 0x1040, 4, 4),
                                   rw(0x1020, 4, 4, 4),     mmc(0, 6, 0, true, false),
                                   act(0, 10, 2, 20, 0, false, 3), whm(10, 2, 0x3000, 4, 4),
                                   act(0, 12, 2, 20, 0, true, 1),  whm(12, 2, 0x3010, 4, 4),
                                   halt()};
  Run r(cfg);
  REQUIRE(r.go(make_image(cfg, prog, 0x1000, data)).state == RunState::Done);
  // values -20 -13 -6 1 8 15; pool over planes {0,2,4} and {1,3,5}: max(-20,-6,8)=8, max(-13,1,15)=15
  CHECK(read_i8(r.model, 0x3000, 8) == std::vector<int8_t>{8, 0, 0, 0, 15, 0, 0, 0});
  // ReLU with zero point 0 on the first plane: -20 -> 0, -13 -> 0
  CHECK(read_i8(r.model, 0x3010, 8) == std::vector<int8_t>{0, 0, 0, 0, 0, 0, 0, 0});

  // Saturation: 32 * (-128)(-128) = 524288 per multiply; 4097 accumulations pass 2^31.
  const Config big = config_n(32);
  std::vector<uint8_t> d2(32 + 32 * 32, 0x80);  // x = all -128, W = all -128
  std::vector<Instr> p2 = {rhm(0, 1, 0x20000, 32, 32), rw(0x20020, 32, 32, 32), mmc(0, 1, 0, true, false)};
  for (int i = 0; i < 4200; ++i) p2.push_back(mmc(0, 1, 0, false, true));
  p2.push_back(halt());
  Run r2(big);
  REQUIRE(r2.go(make_image(big, p2, 0x20000, d2)).state == RunState::Done);
  CHECK(r2.model.acc_row(0)[0] == INT32_MAX);
  CHECK(r2.model.acc_row(0)[31] == INT32_MAX);
}

namespace {

Word with_bit(Word w, unsigned bit) { return w | (Word{1} << bit); }

// Runs `prog` (raw words allowed) and returns the final status.
Status run_words(const Config& cfg, const std::vector<Word>& words, std::vector<AddrRange> bus = {},
                 std::vector<uint8_t> data = {}) {
  Image img;
  img.config_fingerprint = cfg.fingerprint();
  Section text{SectionKind::Text, 0, std::vector<uint8_t>(words.size() * kInstrBytes)};
  for (size_t i = 0; i < words.size(); ++i) store_word(words[i], &text.bytes[i * kInstrBytes]);
  img.sections.push_back(text);
  if (!data.empty()) img.sections.push_back({SectionKind::Data, 0x1000, data});
  Run r(cfg);
  r.model.set_bus_errors(std::move(bus));
  return r.go(img);
}

Word w(const Instr& in) { return encode(in); }

}  // namespace

TEST_CASE("every architectural error stops the model with its code and the faulting PC", "[model][errors]") {
  const Config cfg = config_n(8);  // ub_rows 1024, acc_rows 512, dram 256 KiB, FIFO depth 4
  const Word nop = w(op(Opcode::NOP)), hlt = w(halt());
  struct Case {
    const char* what;
    std::vector<Word> prog;
    ErrorCode code;
    uint32_t pc;
    std::vector<AddrRange> bus;
  };
  const std::vector<Case> cases = {
      {"reserved opcode", {nop, Word{9}, hlt}, ErrorCode::Illegal, 0x10, {}},
      {"reserved opcode 15", {Word{15}}, ErrorCode::Illegal, 0x0, {}},
      {"reserved bit in nop", {with_bit(nop, 100), hlt}, ErrorCode::Illegal, 0x0, {}},
      {"reserved bit in mmc", {nop, nop, with_bit(w(mmc(0, 1, 0, false, false)), 127)}, ErrorCode::Illegal, 0x20, {}},
      {"seglen above N", {w(rhm(0, 1, 0, 8, 9))}, ErrorCode::Illegal, 0x0, {}},
      {"seglen*segs above N", {w(rhm(0, 1, 0, 8, 3, 3, 3))}, ErrorCode::Illegal, 0x0, {}},
      {"rw k above N", {nop, w(rw(0x1000, 8, 9, 8))}, ErrorCode::Illegal, 0x10, {}},
      {"whm len above N", {w(whm(0, 1, 0x1000, 8, 16))}, ErrorCode::Illegal, 0x0, {}},
      {"rhm past the unified buffer", {w(rhm(1020, 5, 0x1000, 8, 8))}, ErrorCode::UbRange, 0x0, {}},
      {"act parameters past the unified buffer", {w(act(0, 0, 1, 1016))}, ErrorCode::UbRange, 0x0, {}},
      {"mmc past the accumulators", {w(rw(0x1000, 8, 8, 8)), w(mmc(0, 1, 512, true, false))}, ErrorCode::AccRange, 0x10, {}},
      {"act pooled planes past the accumulators", {w(act(0, 0, 200, 0, 0, false, 3))}, ErrorCode::AccRange, 0x0, {}},
      {"ub and acc both out of range: smaller code", {w(mmc(2000, 1, 9999, false, false))}, ErrorCode::UbRange, 0x0, {}},
      {"whm past device memory", {w(whm(0, 2, 0x3fff8, 8, 8))}, ErrorCode::DramRange, 0x0, {}},
      // (rows * groups UB rows; the last group's bytes)
      {"whm groups past the unified buffer", {w(whm_groups(1000, 10, 0x1000, 8, 8, 3, 80))}, ErrorCode::UbRange, 0x0, {}},
      {"whm's last group past device memory", {w(whm_groups(0, 1, 0x30000, 8, 8, 3, 0x8000))}, ErrorCode::DramRange,
       0x0, {}},
      {"rhm stride past device memory", {w(rhm(0, 5, 0x1000, 0xffff, 8))}, ErrorCode::DramRange, 0x0, {}},
      {"rw transpose past device memory", {w(rw(0x3fff0, 64, 8, 8, true))}, ErrorCode::DramRange, 0x0, {}},
      // transpose reads n memory rows of k bytes: 8 rows of 2 here, past the end ...
      {"rw transpose reads n rows of k bytes", {w(rw(0x3ff40, 64, 2, 8, true))}, ErrorCode::DramRange, 0x0, {}},
      // ... and without transpose k rows of n bytes: 8 rows of 2
      {"rw reads k rows of n bytes", {w(rw(0x3ff40, 64, 8, 2))}, ErrorCode::DramRange, 0x0, {}},
      {"bus error on a transposed rw's last memory row", {w(rw(0x1000, 64, 2, 4, true))}, ErrorCode::BusError, 0x0,
       {{0x10c0, 0x10c1}}},
      {"mmc with no weight tile", {nop, w(mmc(0, 1, 0, false, false))}, ErrorCode::WeightFifo, 0x10, {}},
      {"mmc switch with an empty FIFO", {w(rw(0x1000, 8, 8, 8)), w(mmc(0, 1, 0, true, false)),
                                         w(mmc(0, 1, 0, true, false))}, ErrorCode::WeightFifo, 0x20, {}},
      {"rw beyond the FIFO depth", {w(rw(0x1000, 8, 8, 8)), w(rw(0x1000, 8, 8, 8)), w(rw(0x1000, 8, 8, 8)),
                                    w(rw(0x1000, 8, 8, 8)), w(rw(0x1000, 8, 8, 8))}, ErrorCode::WeightFifo, 0x40, {}},
      {"bus error on rhm", {nop, w(rhm(0, 4, 0x1000, 16, 8)), hlt}, ErrorCode::BusError, 0x10, {{0x1031, 0x1032}}},
      {"bus error on rw", {w(rw(0x1000, 8, 8, 8))}, ErrorCode::BusError, 0x0, {{0x1000, 0x1001}}},
      {"bus error on whm", {w(whm(0, 1, 0x1000, 8, 8))}, ErrorCode::BusError, 0x0, {{0x1007, 0x1100}}},
      {"bus error on instruction fetch", {nop, nop, nop, hlt}, ErrorCode::BusError, 0x20, {{0x28, 0x29}}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const Status st = run_words(cfg, c.prog, c.bus, std::vector<uint8_t>(64, 1));
    CHECK(st.state == RunState::Error);
    CHECK(st.error == c.code);
    CHECK(st.pc == c.pc);
  }
}

TEST_CASE("a fault in a tile of an rw or mmc stops at its pc, after the tiles before it", "[model][errors]") {
  const Config cfg = config_n(8);  // FIFO depth 4, ub_rows 1024, acc_rows 512
  const Word hlt = w(halt());
  auto tiles = [](Instr in, int64_t t, int64_t stride) {
    in.tiles = t;
    if (in.op == Opcode::RW) in.tstride = stride;
    else in.ubstride = in.accstride = stride;
    return w(in);
  };
  struct Case {
    const char* what;
    std::vector<Word> prog;
    ErrorCode code;
    uint32_t pc;
    uint64_t instructions, tiles_loaded;
    std::vector<AddrRange> bus;
  };
  const std::vector<Case> cases = {
      {"the fifth tile of an rw finds the FIFO full", {w(rw(0x1000, 8, 8, 8)), tiles(rw(0x1000, 8, 8, 8), 4, 64), hlt},
       ErrorCode::WeightFifo, 0x10, 1, 4, {}},
      {"the third switch of an mmc finds it empty", {tiles(rw(0x1000, 8, 8, 8), 2, 64), tiles(mmc(0, 1, 0, true, false), 3, 1), hlt},
       ErrorCode::WeightFifo, 0x10, 1, 2, {}},
      {"a bus error in an rw's second tile", {tiles(rw(0x1000, 8, 8, 8), 3, 64), hlt},
       ErrorCode::BusError, 0x0, 0, 1, {{0x1040, 0x1041}}},
      {"the last tile of an mmc past the unified buffer: nothing runs", {w(rw(0x1000, 8, 8, 8)), tiles(mmc(0, 2, 0, false, false), 3, 512), hlt},
       ErrorCode::UbRange, 0x10, 1, 1, {}},
      {"the last tile of an rw past device memory", {tiles(rw(0x3f000, 8, 8, 8), 2, 0x1000), hlt},
       ErrorCode::DramRange, 0x0, 0, 0, {}},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    GoldenModel m(cfg);
    for (size_t i = 0; i < c.prog.size(); ++i) store_word(c.prog[i], &m.dram()[i * kInstrBytes]);
    m.set_bus_errors(c.bus);
    m.start(0);
    const Status st = m.run(0);
    CHECK(st.state == RunState::Error);
    CHECK(st.error == c.code);
    CHECK(st.pc == c.pc);
    CHECK(m.counters().instructions == c.instructions);
    CHECK(m.counters().weight_tiles == c.tiles_loaded);
  }
}

TEST_CASE("a bus-error range next to the access does not fault", "[model][errors]") {
  const Config cfg = config_n(8);
  const Status st = run_words(cfg, {w(rhm(0, 4, 0x1000, 16, 8)), w(halt())}, {{0x1008, 0x1010}, {0x1040, 0x1050}});
  CHECK(st.state == RunState::Done);
  // The same shapes as above with k and n swapped stay inside memory and clear of errors.
  CHECK(run_words(cfg, {w(rw(0x3ff40, 64, 8, 2, true)), w(halt())}).state == RunState::Done);
  CHECK(run_words(cfg, {w(rw(0x3ff40, 64, 2, 8)), w(halt())}).state == RunState::Done);
  CHECK(run_words(cfg, {w(rw(0x1000, 64, 4, 2, true)), w(halt())}, {{0x10c0, 0x10c1}}).state == RunState::Done);
}

TEST_CASE("act shift above 63 is ACT_PARAM", "[model][errors]") {
  const Config cfg = config_n(4);
  std::vector<uint8_t> data = param_block(4, {0, 0, 0, 0}, {1, 1, 1, 1}, {0, 0, 64, 0});
  std::vector<Instr> prog = {rhm(0, 9, 0x1000, 4, 4), op(Opcode::NOP), act(0, 20, 1, 0), halt()};
  Run r(cfg);
  Status st = r.go(make_image(cfg, prog, 0x1000, data));
  CHECK(st.state == RunState::Error);
  CHECK(st.error == ErrorCode::ActParam);
  CHECK(st.pc == 0x20);
}

TEST_CASE("a whm that meets a bus error writes every byte of its rows outside the error range",
          "[model][errors]") {
  const Config cfg = config_n(4);
  Run r(cfg);
  r.model.set_bus_errors({{0x2009, 0x200a}});  // one byte of the second row's destination
  const std::vector<uint8_t> rows = {1, 2, 3, 4, 5, 6, 7, 8};
  const Status st = r.go(make_image(
      cfg, {rhm(0, 2, 0x1000, 4, 4), whm(0, 3, 0x2000, 8, 4), halt()}, 0x1000, rows));
  CHECK(st.error == ErrorCode::BusError);
  CHECK(st.pc == 0x10);
  // Rows 0 and 2 whole, row 1 without its faulting byte (row 2 is UB row 2: zeros).
  const std::vector<uint8_t> expect = {1, 2, 3, 4, 0, 0, 0, 0, 5, 0, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0};
  CHECK(std::equal(expect.begin(), expect.end(), r.model.dram().begin() + 0x2000));
}

TEST_CASE("a whm whose first row faults still writes the rows after it", "[model][errors]") {
  const Config cfg = config_n(4);
  Run r(cfg);
  r.model.set_bus_errors({{0x2000, 0x2004}});  // all of the first row's destination
  const std::vector<uint8_t> rows = {1, 2, 3, 4, 5, 6, 7, 8};
  const Status st = r.go(make_image(
      cfg, {rhm(0, 2, 0x1000, 4, 4), whm(0, 2, 0x2000, 8, 4), halt()}, 0x1000, rows));
  CHECK(st.error == ErrorCode::BusError);
  const std::vector<uint8_t> expect = {0, 0, 0, 0, 0, 0, 0, 0, 5, 6, 7, 8};
  CHECK(std::equal(expect.begin(), expect.end(), r.model.dram().begin() + 0x2000));
}

TEST_CASE("a whm of several groups that meets a bus error writes every other byte of them", "[model][errors]") {
  const Config cfg = config_n(4);
  Run r(cfg);
  r.model.set_bus_errors({{0x2010, 0x2011}});  // the first byte of the second group
  const std::vector<uint8_t> rows = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const Status st = r.go(make_image(
      cfg, {rhm(0, 3, 0x1000, 4, 4), whm_groups(0, 1, 0x2000, 4, 4, 3, 16), halt()}, 0x1000, rows));
  CHECK(st.error == ErrorCode::BusError);
  CHECK(st.pc == 0x10);
  // groups 0 and 2 whole, group 1 without its faulting byte
  const std::vector<uint8_t> expect = {1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 8,
                                       0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 10, 11, 12};
  CHECK(std::equal(expect.begin(), expect.end(), r.model.dram().begin() + 0x2000));
}

TEST_CASE("running off the end of device memory is DRAM_RANGE at the fetch address", "[model][errors]") {
  Config cfg = config_n(4);
  cfg.dram_bytes = 4096;
  const Status st = run_words(cfg, {w(op(Opcode::NOP))});  // then zero words (nop) to the end
  CHECK(st.state == RunState::Error);
  CHECK(st.error == ErrorCode::DramRange);
  CHECK(st.pc == 4096);
}

TEST_CASE("the instruction limit stops a run that is still going", "[model]") {
  const Config cfg = config_n(4);
  Run r(cfg);
  const Status st = r.go(make_image(cfg, {op(Opcode::NOP), op(Opcode::NOP), op(Opcode::NOP), halt()}), 2);
  CHECK(st.state == RunState::Running);
  CHECK(r.model.counters().instructions == 2u);
}
