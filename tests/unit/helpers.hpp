// SPDX-License-Identifier: Apache-2.0
// Test helpers: configurations, programs built straight from Instr values, seeds.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "image/image.hpp"
#include "isa/act_block.hpp"
#include "isa/isa.hpp"
#include "test_seed.hpp"

namespace tessera::test {

inline Config config_n(uint32_t n) {
  Config c;
  c.array_size = n;
  c.ub_rows = 1024;
  c.acc_rows = 512;
  c.wfifo_depth = 4;
  c.dma_width = 32;
  c.dram_bytes = 1u << 18;
  c.source = "test";
  return c;
}

inline std::string source_path(const std::string& rel) {
  return std::string(TESSERA_SOURCE_DIR) + "/" + rel;
}

// An image whose text is `program` at address 0 and whose data sits at `data_addr`.
inline Image make_image(const Config& cfg, const std::vector<Instr>& program, uint32_t data_addr = 0,
                        const std::vector<uint8_t>& data = {}) {
  Image img;
  img.config_fingerprint = cfg.fingerprint();
  img.config_summary = cfg.summary();
  Section text{SectionKind::Text, 0, std::vector<uint8_t>(program.size() * kInstrBytes)};
  for (size_t i = 0; i < program.size(); ++i) store_word(encode(program[i]), &text.bytes[i * kInstrBytes]);
  img.sections.push_back(text);
  if (!data.empty()) img.sections.push_back({SectionKind::Data, data_addr, data});
  return img;
}

inline Instr op(Opcode o) {
  Instr in;
  in.op = o;
  return in;
}
inline Instr halt() { return op(Opcode::HALT); }
inline Instr rhm(int64_t ub, int64_t rows, int64_t addr, int64_t stride, int64_t seglen,
                 int64_t segs = 1, int64_t segstride = 0) {
  Instr in = op(Opcode::RHM);
  in.ub = ub, in.rows = rows, in.addr = addr, in.stride = stride, in.seglen = seglen, in.segs = segs,
  in.segstride = segstride;
  return in;
}
inline Instr whm(int64_t ub, int64_t rows, int64_t addr, int64_t stride, int64_t len) {
  Instr in = op(Opcode::WHM);
  in.ub = ub, in.rows = rows, in.addr = addr, in.stride = stride, in.len = len;
  return in;
}
// a whm of `groups` groups of `rows` rows, group g at addr + g * gstride
inline Instr whm_groups(int64_t ub, int64_t rows, int64_t addr, int64_t stride, int64_t len, int64_t groups,
                        int64_t gstride) {
  Instr in = whm(ub, rows, addr, stride, len);
  in.groups = groups, in.gstride = gstride;
  return in;
}
inline Instr rw(int64_t addr, int64_t stride, int64_t k, int64_t n, bool transpose = false) {
  Instr in = op(Opcode::RW);
  in.addr = addr, in.stride = stride, in.k = k, in.n = n, in.transpose = transpose;
  return in;
}
inline Instr mmc(int64_t ub, int64_t rows, int64_t acc, bool sw, bool accumulate) {
  Instr in = op(Opcode::MMC);
  in.ub = ub, in.rows = rows, in.acc = acc, in.sw = sw, in.accumulate = accumulate;
  return in;
}
inline Instr act(int64_t acc, int64_t ub, int64_t rows, int64_t params, int64_t zp = 0,
                 bool relu = false, int64_t pool = 1) {
  Instr in = op(Opcode::ACT);
  in.acc = acc, in.ub = ub, in.rows = rows, in.params = params, in.zp = zp, in.relu = relu,
  in.pool = pool;
  return in;
}

// The activation parameter block for N lanes (docs/isa.md).
inline std::vector<uint8_t> param_block(uint32_t n, const std::vector<int32_t>& bias,
                                        const std::vector<int32_t>& mult,
                                        const std::vector<uint8_t>& shift) {
  std::vector<uint8_t> b(act_block_bytes(n), 0);
  for (uint32_t i = 0; i < n; ++i) put_act_lane(b.data(), n, i, ActLane{bias[i], mult[i], shift[i]});
  return b;
}

}  // namespace tessera::test
