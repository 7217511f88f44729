// SPDX-License-Identifier: Apache-2.0
#include "progen/random_program.hpp"

#include <algorithm>
#include <random>

#include "isa/act_block.hpp"
#include "util/hex.hpp"

namespace tessera {
namespace {

constexpr uint32_t kParamBase = 0x800;    // parameter blocks (device memory)
constexpr uint32_t kDataBase = 0x1000;    // random input data (low in memory)
constexpr int kParamBlocks = 3;           // good blocks; one more with a bad shift

class Generator {
 public:
  Generator(const Config& cfg, uint64_t seed, const RandomProgramOptions& opt)
      : cfg_(cfg), n_(cfg.array_size), opt_(opt), rng_(seed) {
    const uint32_t param_rows = kActParamRows * (kParamBlocks + 1);
    data_len_ = std::min<uint32_t>(cfg.dram_bytes / 4, 32768);
    out_len_ = std::min<uint32_t>(cfg.dram_bytes / 8, 16384);
    ub_win_ = std::min<uint32_t>(cfg.ub_rows - param_rows, 64);
    acc_win_ = std::min<uint32_t>(cfg.acc_rows, 48);
    // Where the program works: half the programs in small windows low in each memory,
    // where instructions depend on each other most; a quarter in the same windows at the
    // top of each memory (the high address bits); a quarter in windows as large as the
    // memories, with long instructions and large strides (the high count and stride bits).
    const int layout = pick(0, 3);
    wide_ = layout == 3;
    if (layout == 2) {  // (the program too, below the data: a high entry)
      ub_base_ = cfg.ub_rows - param_rows - ub_win_;
      acc_base_ = cfg.acc_rows - acc_win_;
      data_base_ = cfg.dram_bytes - data_len_ - out_len_;
      entry_ = data_base_ - kParamBase;
    } else if (wide_) {
      ub_win_ = cfg.ub_rows - param_rows;
      acc_win_ = cfg.acc_rows;
      data_len_ = cfg.dram_bytes - kDataBase - out_len_;
    }
    out_base_ = data_base_ + data_len_;
  }

  RandomProgram make() {
    p_.dram.assign(cfg_.dram_bytes, 0);
    p_.injected = opt_.inject;
    for (uint32_t i = 0; i < data_len_; ++i) p_.dram[data_base_ + i] = uint8_t(rng_());
    for (int b = 0; b <= kParamBlocks; ++b) write_params(b, b == kParamBlocks);
    // Load the good parameter blocks above the window of rows the program works in.
    for (int b = 0; b < kParamBlocks; ++b)
      emit(rhm(param_row(b), kActParamRows, param_addr(b), n_, n_, 1, 0));
    const int error_at = opt_.inject == ErrorCode::None ? -1 : pick(0, opt_.instructions - 1);
    for (int i = 0; i < opt_.instructions; ++i) {
      if (i == error_at) plant_error();
      else random_instr();
    }
    emit(op(Opcode::HALT));
    p_.entry = entry_;
    for (size_t i = 0; i < p_.words.size(); ++i) store_word(p_.words[i], &p_.dram[entry_ + i * kInstrBytes]);
    return p_;
  }

 private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  uint32_t param_addr(int b) const { return kParamBase + uint32_t(b) * uint32_t(act_block_bytes(n_)); }
  int64_t param_row(int b) const { return ub_base_ + ub_win_ + int64_t{kActParamRows} * b; }

  void write_params(int b, bool bad_shift) {
    uint8_t* block = &p_.dram[param_addr(b)];
    for (uint32_t i = 0; i < n_; ++i) {
      ActLane lane;
      lane.bias = pick(-(1 << 16), 1 << 16);
      lane.multiplier = pick(1 << 29, 0x7fffffff);
      lane.shift = uint8_t(pick(28, 40));
      put_act_lane(block, n_, i, lane);
    }
    if (bad_shift) block[act_shift_at(n_, uint32_t(pick(0, int(n_) - 1)))] = uint8_t(pick(64, 255));
  }

  static Instr op(Opcode o) {
    Instr in;
    in.op = o;
    return in;
  }
  static Instr rhm(int64_t ub, int64_t rows, int64_t addr, int64_t stride, int64_t seglen,
                   int64_t segs, int64_t segstride) {
    Instr in = op(Opcode::RHM);
    in.ub = ub, in.rows = rows, in.addr = addr, in.stride = stride, in.seglen = seglen,
    in.segs = segs, in.segstride = segstride;
    return in;
  }

  void emit(const Instr& in) {
    p_.words.push_back(encode(in));
    if (in.op == Opcode::RW) pending_ += int(in.tiles);
    if (in.op == Opcode::MMC && in.sw) pending_ -= int(in.tiles), has_active_ = true;
  }
  void emit_word(Word w) { p_.words.push_back(w); }

  int64_t rows(int64_t limit) {
    const int64_t r = wide_ && chance(0.2) ? pick(1, int(limit)) : chance(0.15) ? pick(1, 100) : pick(1, 16);
    return std::min(r, limit);
  }
  int64_t ub_start(int64_t rows) { return ub_base_ + pick(0, int(ub_win_ - rows)); }
  int64_t acc_start(int64_t rows) { return acc_base_ + pick(0, int(acc_win_ - rows)); }
  int64_t data_addr(int64_t span) { return data_base_ + pick(0, int(data_len_ - span)); }
  // A stride from lo to small_hi (in the wide layout now and then up to the 16-bit
  // field's limit) that keeps `count` steps of it within `room` bytes.
  int64_t stride(int lo, int small_hi, int64_t count, int64_t room, bool widen = true) {
    const int64_t hi = widen && wide_ && chance(0.5) ? 0xffff : small_hi;
    const int64_t top = std::min(hi, count > 0 ? room / count : int64_t{0xffff});
    return top > lo ? pick(lo, int(top)) : lo;
  }

  Instr random_rhm() {
    Instr in = op(Opcode::RHM);
    in.rows = rows(ub_win_);
    in.ub = ub_start(in.rows);
    in.seglen = pick(1, int(n_));
    in.segs = pick(1, int(n_ / in.seglen));
    in.segstride = chance(0.2) ? 0 : pick(0, 96);
    // (small strides: the DMA gathers rows that lie close together in a window)
    const int64_t row_room = int64_t(data_len_) - (in.segs - 1) * in.segstride - in.seglen;
    in.stride = chance(0.1) ? 0 : chance(0.3) ? stride(1, 2 * int(n_) + 2, in.rows - 1, row_room, false)
                                              : stride(0, 160, in.rows - 1, row_room);
    const int64_t span = (in.rows - 1) * in.stride + (in.segs - 1) * in.segstride + in.seglen;
    // Now and then read back what whm wrote: a dependency through device memory.
    in.addr = chance(0.2) && span < out_len_ ? out_base_ + pick(0, int(out_len_ - span)) : data_addr(span);
    return in;
  }
  // Now and then several tiles in one instruction (at most `max_tiles`).
  int64_t tiles(int max_tiles) { return max_tiles > 1 && chance(0.25) ? pick(2, std::min(max_tiles, 16)) : 1; }
  Instr random_rw(int max_tiles = 1) {
    Instr in = op(Opcode::RW);
    in.k = chance(0.5) ? n_ : pick(1, int(n_));
    in.n = chance(0.5) ? n_ : pick(1, int(n_));
    in.transpose = chance(0.3);
    const int64_t mrows = in.transpose ? in.n : in.k, mlen = in.transpose ? in.k : in.n;
    in.stride = stride(0, 80, mrows - 1, data_len_ / 2 - mlen);
    in.tiles = tiles(max_tiles);
    in.tstride = in.tiles > 1 ? pick(0, 200) : 0;
    in.addr = data_addr((in.tiles - 1) * in.tstride + (mrows - 1) * in.stride + mlen);
    return in;
  }
  Instr random_mmc(bool sw, int max_tiles = 1) {
    Instr in = op(Opcode::MMC);
    in.rows = rows(std::min(ub_win_, acc_win_));
    in.tiles = in.rows < int64_t(std::min(ub_win_, acc_win_)) / 2 ? tiles(sw ? max_tiles : 4) : 1;
    if (in.tiles > 1) {  // every tile's rows within the windows
      const int64_t room = int64_t(std::min(ub_win_, acc_win_)) - in.rows;
      in.ubstride = pick(0, int(room / (in.tiles - 1)));
      in.accstride = pick(0, int(room / (in.tiles - 1)));
    }
    in.ub = ub_start((in.tiles - 1) * in.ubstride + in.rows);
    in.acc = acc_start((in.tiles - 1) * in.accstride + in.rows);
    in.sw = sw;
    in.accumulate = chance(0.5);
    return in;
  }
  Instr random_act() {
    Instr in = op(Opcode::ACT);
    in.pool = chance(0.6) ? 1 : chance(0.8) ? pick(2, 4) : pick(5, 16);
    in.rows = std::max<int64_t>(1, rows(acc_win_ / in.pool));
    in.acc = acc_start(in.rows * in.pool);
    in.ub = ub_start(in.rows);
    in.params = param_row(pick(0, kParamBlocks - 1));
    in.zp = pick(-128, 127);
    in.relu = chance(0.5);
    return in;
  }
  Instr random_whm(double grouped = 0.25) {
    Instr in = op(Opcode::WHM);
    // now and then several groups: one after the other, or interleaved row by row
    in.groups = chance(grouped) ? (chance(0.9) ? pick(2, 8) : pick(9, 64)) : 1;
    in.len = pick(1, int(n_));
    // (rows of at least len bytes apart: as many as the output window holds)
    in.rows = std::max<int64_t>(1, rows(std::min<int64_t>(ub_win_ / in.groups, out_len_ / in.len)));
    in.stride = stride(int(in.len), 96, in.rows - 1, int64_t(out_len_) - in.len);
    const int64_t group_span = (in.rows - 1) * in.stride + in.len;
    if (in.groups > 1)
      in.gstride = in.groups * in.len <= in.stride && chance(0.3) ? in.len : group_span + pick(0, 48);
    const int64_t span = (in.groups - 1) * in.gstride + group_span;
    if (span > int64_t(out_len_)) in.groups = 1, in.gstride = 0;  // (too far for the output window)
    in.ub = ub_start(in.rows * in.groups);
    in.addr = out_base_ + pick(0, int(out_len_ - ((in.groups - 1) * in.gstride + group_span)));
    return in;
  }

  void random_instr() {
    const int r = pick(0, 99);
    if (r < 18) emit(random_rhm());
    else if (r < 34) {
      if (pending_ < int(cfg_.wfifo_depth)) emit(random_rw(int(cfg_.wfifo_depth) - pending_));
      else emit(random_mmc(true, pending_));
    } else if (r < 62) {
      const bool sw = pending_ > 0 && (!has_active_ || chance(0.6));
      if (!sw && !has_active_) emit(random_rw(int(cfg_.wfifo_depth) - pending_));
      else emit(random_mmc(sw, pending_));
    } else if (r < 78) emit(random_act());
    else if (r < 92) emit(random_whm());
    else if (r < 96) emit(op(Opcode::SYNC));
    else emit(op(Opcode::NOP));
  }

  void plant_error() {
    switch (opt_.inject) {
      case ErrorCode::Illegal:
        if (chance(0.5)) emit_word(Word(pick(8, 15)));  // reserved opcode
        else emit_word(encode(random_rhm()) | (Word(1) << 127));  // reserved bit
        break;
      case ErrorCode::UbRange: {  // reported before any weight-FIFO problem (smaller code)
        Instr in = random_mmc(pending_ > 0);
        in.ub = cfg_.ub_rows - 1;
        in.rows = 2;
        if (chance(0.3)) {  // only the last tile is out of range
          in.tiles = pick(2, 16), in.rows = 1, in.ub = 0;
          in.ubstride = (cfg_.ub_rows - 1) / (in.tiles - 1) + 1;
        }
        emit(in);
        break;
      }
      case ErrorCode::AccRange: {
        Instr in = random_act();
        in.acc = cfg_.acc_rows - 1;
        in.rows = 2;
        emit(in);
        break;
      }
      case ErrorCode::DramRange: {
        if (pending_ < int(cfg_.wfifo_depth) && chance(0.3)) {  // only an rw's last tile reaches past the end
          Instr in = random_rw();
          in.tiles = pick(2, 16), in.transpose = 0, in.stride = in.n;
          in.addr = int64_t(cfg_.dram_bytes) / 2 - pick(0, 64);
          in.tstride = (int64_t(cfg_.dram_bytes) - in.addr) / (in.tiles - 1) + 1;  // the last starts past the end
          emit(in);
          break;
        }
        Instr in = random_rhm();
        in.rows = 1;
        in.addr = cfg_.dram_bytes - pick(0, int(in.seglen) - 1);
        emit(in);
        break;
      }
      case ErrorCode::WeightFifo:
        if (chance(0.5) || has_active_) {
          const int over = int(cfg_.wfifo_depth) - pending_ + pick(1, 2);  // tiles that overfill it
          if (over <= 16 && chance(0.5)) {  // a tile in the middle of an rw finds the FIFO full
            Instr in = random_rw();
            in.tiles = over;
            in.tstride = 0;
            emit(in);
            break;
          }
          while (pending_ < int(cfg_.wfifo_depth)) emit(random_rw());
          emit(random_rw());  // one too many
        } else {
          if (pending_ < 16 && chance(0.5)) {  // a tile in the middle of an mmc finds it empty
            Instr in = random_mmc(true);
            in.tiles = pending_ + 1, in.ubstride = in.accstride = 0;
            emit(in);
            break;
          }
          while (pending_ > 0) emit(random_mmc(true));
          emit(random_mmc(true));  // nothing to switch to
        }
        break;
      case ErrorCode::BusError: {
        const int kind = pick(0, 3);
        if (kind == 0) {  // on the instruction fetch of the next instructions
          const uint32_t at = entry_ + uint32_t(p_.words.size()) * kInstrBytes;
          p_.bus_errors.push_back({at & ~63u, (at & ~63u) + 64});
          random_instr();
        } else if (kind == 3) {  // (on its first row: with several groups, the later ones are still written)
          Instr in = random_whm(0.5);
          const uint64_t a = (in.addr + in.len - 1) & ~63u;
          p_.bus_errors.push_back({uint32_t(a), uint32_t(a + 64)});
          emit(in);
        } else {
          const int room = int(cfg_.wfifo_depth) - pending_;
          Instr in = kind == 1 ? random_rhm() : random_rw(room);
          if (in.op == Opcode::RW && room <= 0) in = random_rhm();
          if (in.op == Opcode::RW && room > 1 && in.tiles == 1 && chance(0.5)) {  // fault past the first tile
            in.tiles = pick(2, std::min(room, 16)), in.tstride = 64;
            in.addr = data_addr((in.tiles - 1) * in.tstride + (in.transpose ? in.n - 1 : in.k - 1) * in.stride +
                                (in.transpose ? in.k : in.n));
          }
          // (an rw of several tiles: on its last tile, so the ones before are loaded)
          const uint64_t a = (in.addr + (in.tiles - 1) * in.tstride) & ~uint64_t(63);
          p_.bus_errors.push_back({uint32_t(a), uint32_t(a + 64)});
          emit(in);
        }
        break;
      }
      case ErrorCode::ActParam: {
        Instr load = rhm(param_row(kParamBlocks), kActParamRows, param_addr(kParamBlocks), n_, n_, 1, 0);
        emit(load);
        Instr in = random_act();
        in.params = param_row(kParamBlocks);
        emit(in);
        break;
      }
      case ErrorCode::None:
        random_instr();
        break;
    }
  }

  const Config& cfg_;
  uint32_t n_;
  RandomProgramOptions opt_;
  std::mt19937_64 rng_;
  uint32_t data_len_, out_base_, out_len_, ub_win_, acc_win_;
  uint32_t data_base_ = kDataBase, ub_base_ = 0, acc_base_ = 0, entry_ = 0;  // (the program below kParamBase)
  bool wide_ = false;
  int pending_ = 0;
  bool has_active_ = false;
  RandomProgram p_;
};

}  // namespace

RandomProgram random_program(const Config& cfg, uint64_t seed, const RandomProgramOptions& opt) {
  return Generator(cfg, seed, opt).make();
}

std::string RandomProgram::listing() const {
  std::string s;
  for (size_t i = 0; i < words.size(); ++i) {
    Instr in;
    s += hex(uint32_t(entry + i * kInstrBytes)) + ": ";
    s += decode(words[i], in) == DecodeResult::Ok ? format_instr(in) : "(illegal) " + word_hex(words[i]);
    s += "\n";
  }
  for (const auto& r : bus_errors) s += "bus error range [" + hex(uint32_t(r.lo)) + ", " + hex(uint32_t(r.hi)) + ")\n";
  return s;
}

}  // namespace tessera
