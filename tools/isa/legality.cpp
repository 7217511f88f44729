// SPDX-License-Identifier: Apache-2.0
#include "isa/legality.hpp"

#include "util/hex.hpp"

namespace tessera {
namespace {

std::string range_text(uint64_t first, uint64_t count) {
  return "[" + std::to_string(first) + ", " + std::to_string(first + count) + ")";
}

// End (exclusive) of `count` blocks of `len` bytes spaced `stride` apart from `base`.
uint64_t span_end(uint64_t base, uint64_t count, uint64_t stride, uint64_t len) {
  return base + (count - 1) * stride + len;
}

class Checker {
 public:
  explicit Checker(const Config& cfg) : cfg_(cfg) {}

  bool lanes(const char* what, int64_t v, Legality& out) const {
    if (static_cast<uint64_t>(v) <= cfg_.array_size) return true;
    out = {ErrorCode::Illegal, std::string(what) + "=" + std::to_string(v) +
                                   " exceeds the array size N=" + std::to_string(cfg_.array_size)};
    return false;
  }
  bool ub(const char* what, uint64_t first, uint64_t count, Legality& out) const {
    if (first + count <= cfg_.ub_rows) return true;
    out = {ErrorCode::UbRange, std::string(what) + " unified-buffer rows " +
                                   range_text(first, count) + " are outside [0, " +
                                   std::to_string(cfg_.ub_rows) + ")"};
    return false;
  }
  bool acc(uint64_t first, uint64_t count, Legality& out) const {
    if (first + count <= cfg_.acc_rows) return true;
    out = {ErrorCode::AccRange, "accumulator rows " + range_text(first, count) +
                                    " are outside [0, " + std::to_string(cfg_.acc_rows) + ")"};
    return false;
  }
  bool dram(uint64_t first, uint64_t end, Legality& out) const {
    if (end <= cfg_.dram_bytes) return true;
    out = {ErrorCode::DramRange, "device-memory bytes [" + hex(first) + ", " + hex(end) +
                                     ") reach past the end of device memory (" + hex(cfg_.dram_bytes) +
                                     ")"};
    return false;
  }

 private:
  const Config& cfg_;
};

}  // namespace

Instr tile_of(const Instr& in, int64_t t) {
  Instr one = in;
  one.tiles = 1;
  one.tstride = one.ubstride = one.accstride = 0;
  if (in.op == Opcode::RW) one.addr += t * in.tstride;
  if (in.op == Opcode::MMC) one.ub += t * in.ubstride, one.acc += t * in.accstride;
  return one;
}

MemRows rw_memory_rows(const Instr& in) {
  return in.transpose ? MemRows{in.n, in.k} : MemRows{in.k, in.n};
}

Legality check_static(const Instr& in, const Config& cfg) {
  Legality out;
  const Checker c(cfg);
  switch (in.op) {
    case Opcode::RHM: {
      if (!c.lanes("seglen", in.seglen, out) || !c.lanes("segs", in.segs, out) ||
          !c.lanes("seglen*segs", in.seglen * in.segs, out))
        return out;
      if (!c.ub("destination", in.ub, in.rows, out)) return out;
      const uint64_t last_row = in.addr + uint64_t(in.rows - 1) * in.stride;
      c.dram(in.addr, span_end(last_row, in.segs, in.segstride, in.seglen), out);
      return out;
    }
    case Opcode::WHM: {  // (every group's bytes: the last group's are the furthest)
      if (!c.lanes("len", in.len, out) || !c.ub("source", in.ub, uint64_t(in.rows) * in.groups, out)) return out;
      const uint64_t last_group = in.addr + uint64_t(in.groups - 1) * uint64_t(in.gstride);
      c.dram(in.addr, span_end(last_group, in.rows, in.stride, in.len), out);
      return out;
    }
    case Opcode::RW: {
      if (!c.lanes("k", in.k, out) || !c.lanes("n", in.n, out)) return out;
      const MemRows m = rw_memory_rows(in);
      const uint64_t last_tile = in.addr + uint64_t(in.tiles - 1) * uint64_t(in.tstride);
      c.dram(in.addr, span_end(last_tile, m.rows, in.stride, m.len), out);
      return out;
    }
    case Opcode::MMC: {  // (every tile's rows: the last tile's are the furthest)
      const uint64_t more = uint64_t(in.tiles - 1);
      if (c.ub("input", in.ub, more * in.ubstride + in.rows, out)) c.acc(in.acc, more * in.accstride + in.rows, out);
      return out;
    }
    case Opcode::ACT:
      if (c.ub("output", in.ub, in.rows, out) && c.ub("parameter", in.params, kActParamRows, out))
        c.acc(in.acc, uint64_t(in.rows) * in.pool, out);
      return out;
    case Opcode::NOP:
    case Opcode::HALT:
    case Opcode::SYNC:
      return out;
  }
  return {ErrorCode::Illegal, "unknown opcode"};
}

}  // namespace tessera
