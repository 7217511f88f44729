// SPDX-License-Identifier: Apache-2.0
#include "model/golden_model.hpp"

#include <algorithm>
#include <cstring>

#include "isa/legality.hpp"
#include "model/numerics.hpp"

namespace tessera {

GoldenModel::GoldenModel(const Config& cfg)
    : cfg_(cfg),
      n_(cfg.array_size),
      dram_(cfg.dram_bytes, 0),
      ub_(size_t{cfg.ub_rows} * cfg.array_size, 0),
      acc_(size_t{cfg.acc_rows} * cfg.array_size, 0) {}

void GoldenModel::start(uint32_t entry) {
  entry &= ~uint32_t{15};  // instructions are 16-byte aligned: ENTRY's low bits are ignored (docs/isa.md)
  std::fill(ub_.begin(), ub_.end(), 0);
  std::fill(acc_.begin(), acc_.end(), 0);
  wfifo_.clear();
  has_active_ = false;
  counters_ = Counters{};
  status_ = Status{RunState::Running, ErrorCode::None, entry};
  next_pc_ = entry;
}

void GoldenModel::stop(RunState state, ErrorCode err) {
  status_.state = state;
  status_.error = err;
}

bool GoldenModel::bus_error_in(uint64_t lo, uint64_t len) const {
  for (const auto& r : bus_errors_)
    if (lo < r.hi && r.lo < lo + len) return true;
  return false;
}

// The run-time conditions of one tile (static legality, shared with the assembler, is
// checked for the whole instruction first, so the smallest applicable error code wins).
ErrorCode GoldenModel::check(const Instr& in) const {
  switch (in.op) {
    case Opcode::RHM:
      for (int64_t r = 0; r < in.rows; ++r)
        for (int64_t s = 0; s < in.segs; ++s)
          if (bus_error_in(in.addr + r * in.stride + s * in.segstride, in.seglen))
            return ErrorCode::BusError;
      return ErrorCode::None;
    case Opcode::WHM:  // a bus error shows while the rows are written (exec_whm)
      return ErrorCode::None;
    case Opcode::RW: {
      if (wfifo_.size() >= cfg_.wfifo_depth) return ErrorCode::WeightFifo;
      const MemRows m = rw_memory_rows(in);
      for (int64_t r = 0; r < m.rows; ++r)
        if (bus_error_in(in.addr + r * in.stride, m.len)) return ErrorCode::BusError;
      return ErrorCode::None;
    }
    case Opcode::MMC:
      return (in.sw ? wfifo_.empty() : !has_active_) ? ErrorCode::WeightFifo : ErrorCode::None;
    case Opcode::ACT:
      return check_act_params(in);
    case Opcode::NOP:
    case Opcode::HALT:
    case Opcode::SYNC:
      return ErrorCode::None;
  }
  return ErrorCode::Illegal;
}

ErrorCode GoldenModel::check_act_params(const Instr& in) const {
  const uint8_t* block = reinterpret_cast<const uint8_t*>(ub_row(in.params));
  for (uint32_t i = 0; i < n_; ++i)
    if (get_act_lane(block, n_, i).shift > 63) return ErrorCode::ActParam;
  return ErrorCode::None;
}

bool GoldenModel::step() {
  if (status_.state != RunState::Running) return false;
  const uint32_t pc = next_pc_;
  status_.pc = pc;
  if (uint64_t{pc} + kInstrBytes > cfg_.dram_bytes) {
    stop(RunState::Error, ErrorCode::DramRange);
    return false;
  }
  if (bus_error_in(pc, kInstrBytes)) {
    stop(RunState::Error, ErrorCode::BusError);
    return false;
  }
  Instr in;
  if (decode(load_word(&dram_[pc]), in) != DecodeResult::Ok) {
    stop(RunState::Error, ErrorCode::Illegal);
    return false;
  }
  const ErrorCode err = check_static(in, cfg_).code;
  if (err != ErrorCode::None) {
    stop(RunState::Error, err);
    return false;
  }
  // An rw or mmc of several tiles runs as that many instructions at this pc; a fault
  // in tile t stops the run after tiles 0 .. t-1 (docs/isa.md).
  for (int64_t t = 0; t < in.tiles; ++t) {
    const Instr one = tile_of(in, t);
    ErrorCode code = check(one);
    if (code == ErrorCode::None) code = execute(one);
    if (code != ErrorCode::None) {
      stop(RunState::Error, code);
      return false;
    }
  }
  counters_.instructions++;
  next_pc_ = pc + kInstrBytes;
  if (in.op == Opcode::HALT) stop(RunState::Done, ErrorCode::None);
  return status_.state == RunState::Running;
}

Status GoldenModel::run(uint64_t max_instructions) {
  while (status_.state == RunState::Running &&
         (max_instructions == 0 || counters_.instructions < max_instructions)) {
    step();
  }
  return status_;
}

ErrorCode GoldenModel::execute(const Instr& in) {
  switch (in.op) {
    case Opcode::RHM: exec_rhm(in); break;
    case Opcode::WHM: return exec_whm(in);
    case Opcode::RW: exec_rw(in); break;
    case Opcode::MMC: exec_mmc(in); break;
    case Opcode::ACT: exec_act(in); break;
    case Opcode::NOP:
    case Opcode::HALT:
    case Opcode::SYNC:
      break;  // sequential execution: every earlier instruction has already retired
  }
  return ErrorCode::None;
}

void GoldenModel::exec_rhm(const Instr& in) {
  for (int64_t r = 0; r < in.rows; ++r) {
    int8_t* row = &ub_[size_t(in.ub + r) * n_];
    std::memset(row, 0, n_);
    for (int64_t s = 0; s < in.segs; ++s) {
      const uint8_t* src = &dram_[in.addr + r * in.stride + s * in.segstride];
      std::memcpy(row + s * in.seglen, src, in.seglen);
    }
  }
  counters_.dram_read_bytes += uint64_t(in.rows) * in.segs * in.seglen;
}

// Every row is written (the RTL has several rows' writes in flight). Device memory drops
// the bytes of a faulting access, so rows that meet an error range write only their
// other bytes, and the instruction then ends with BUS_ERROR.
ErrorCode GoldenModel::exec_whm(const Instr& in) {
  bool fault = false;
  for (int64_t r = 0; r < in.rows * in.groups; ++r) {
    const uint64_t base = in.addr + (r / in.rows) * in.gstride + (r % in.rows) * in.stride;
    const int8_t* row = ub_row(uint32_t(in.ub + r));
    if (on_write_) on_write_(base, uint64_t(in.len));
    for (int64_t i = 0; i < in.len; ++i) {
      if (bus_error_in(base + i, 1)) fault = true;
      else dram_[base + i] = static_cast<uint8_t>(row[i]);
    }
  }
  if (fault) return ErrorCode::BusError;
  counters_.dram_write_bytes += uint64_t(in.rows) * in.groups * in.len;
  return ErrorCode::None;
}

void GoldenModel::exec_rw(const Instr& in) {
  Tile t(size_t{n_} * n_, 0);
  for (int64_t k = 0; k < in.k; ++k)
    for (int64_t c = 0; c < in.n; ++c) {
      const uint64_t a = in.transpose ? in.addr + c * in.stride + k : in.addr + k * in.stride + c;
      t[k * n_ + c] = static_cast<int8_t>(dram_[a]);
    }
  wfifo_.push_back(std::move(t));
  counters_.weight_tiles++;
  counters_.dram_read_bytes += uint64_t(in.k) * in.n;
}

void GoldenModel::exec_mmc(const Instr& in) {
  if (in.sw) {
    active_ = std::move(wfifo_.front());
    wfifo_.pop_front();
    has_active_ = true;
  }
  std::vector<int32_t> out(n_);
  for (int64_t r = 0; r < in.rows; ++r) {
    const int8_t* x = ub_row(uint32_t(in.ub + r));
    std::fill(out.begin(), out.end(), 0);
    for (uint32_t k = 0; k < n_; ++k) {
      const int32_t xk = x[k];
      if (xk == 0) continue;
      const int8_t* w = &active_[size_t{k} * n_];
      for (uint32_t c = 0; c < n_; ++c) out[c] += xk * w[c];
    }
    int32_t* a = &acc_[size_t(in.acc + r) * n_];
    for (uint32_t c = 0; c < n_; ++c)
      a[c] = in.accumulate ? saturate32(int64_t{a[c]} + out[c]) : out[c];
  }
  counters_.macs += uint64_t(in.rows) * n_ * n_;
}

void GoldenModel::exec_act(const Instr& in) {
  const uint8_t* block = reinterpret_cast<const uint8_t*>(ub_row(uint32_t(in.params)));
  std::vector<LaneParams> lanes(n_);
  for (uint32_t i = 0; i < n_; ++i) lanes[i] = get_act_lane(block, n_, i);
  const int8_t zp = static_cast<int8_t>(in.zp);
  std::vector<int8_t> out(size_t(in.rows) * n_);
  for (int64_t r = 0; r < in.rows; ++r) {
    for (uint32_t i = 0; i < n_; ++i) {
      int8_t best = INT8_MIN;
      for (int64_t g = 0; g < in.pool; ++g) {
        const int32_t a = acc_row(uint32_t(in.acc + g * in.rows + r))[i];
        best = std::max(best, requantize(a, lanes[i], zp, in.relu != 0));
      }
      out[r * n_ + i] = best;
    }
  }
  std::memcpy(&ub_[size_t(in.ub) * n_], out.data(), out.size());
}

}  // namespace tessera
