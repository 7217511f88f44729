// SPDX-License-Identifier: Apache-2.0
// Lays a QuantLayer out in device memory and tiles it onto the N x N array by hand:
// the programs the model tests run. (The compiler does this job for real models.)
#pragma once

#include <algorithm>

#include "helpers.hpp"
#include "reference.hpp"

namespace tessera::test {

struct LayerProgram {
  Image image;
  uint32_t out_addr = 0;
};

inline LayerProgram tile_layer(const Config& cfg, const QuantLayer& L) {
  const int T = static_cast<int>(cfg.array_size);
  const int kt = (L.k + T - 1) / T, nt = (L.n + T - 1) / T;
  // device memory: A | W | parameter blocks | C
  const uint32_t base = 0x4000, a_addr = base;
  const uint32_t w_addr = a_addr + L.m * L.k, p_addr = w_addr + L.k * L.n;
  const uint32_t c_addr = p_addr + nt * uint32_t(act_block_bytes(T));
  std::vector<uint8_t> data(c_addr + L.m * L.n - base, 0);
  std::copy(L.a.begin(), L.a.end(), data.begin());
  std::copy(L.w.begin(), L.w.end(), data.begin() + (w_addr - base));
  for (int j = 0; j < nt; ++j) {
    std::vector<int32_t> b(T, 0), m(T, 0);
    std::vector<uint8_t> s(T, 0);
    for (int i = 0; i < T && j * T + i < L.n; ++i)
      b[i] = L.bias[j * T + i], m[i] = L.mult[j * T + i], s[i] = L.shift[j * T + i];
    const auto blk = param_block(T, b, m, s);
    std::copy(blk.begin(), blk.end(), data.begin() + (p_addr - base) + j * act_block_bytes(T));
  }
  // unified buffer: A's K tiles | parameter blocks | C's column tiles
  const int ub_a = 0, ub_p = kt * L.m, ub_c = ub_p + int(kActParamRows) * nt;
  std::vector<Instr> prog;
  prog.push_back(rhm(ub_p, int(kActParamRows) * nt, p_addr, T, T));
  for (int t = 0; t < kt; ++t)
    prog.push_back(rhm(ub_a + t * L.m, L.m, a_addr + t * T, L.k, std::min(T, L.k - t * T)));
  for (int j = 0; j < nt; ++j) {
    for (int t = 0; t < kt; ++t) {
      prog.push_back(rw(w_addr + t * T * L.n + j * T, L.n, std::min(T, L.k - t * T),
                        std::min(T, L.n - j * T)));
      prog.push_back(mmc(ub_a + t * L.m, L.m, j * L.m, true, t > 0));
    }
    prog.push_back(act(j * L.m, ub_c + j * L.m, L.m, ub_p + int(kActParamRows) * j, L.zp, L.relu));
    prog.push_back(whm(ub_c + j * L.m, L.m, c_addr + j * T, L.n, std::min(T, L.n - j * T)));
  }
  prog.push_back(halt());
  return {make_image(cfg, prog, base, data), c_addr};
}

inline QuantLayer random_layer(std::mt19937& rng, int m, int k, int n) {
  QuantLayer L{m, k, n, {}, {}, {}, {}, {}, 0, false};
  std::uniform_int_distribution<int> i8(-128, 127), zp(-20, 20), coin(0, 1);
  std::uniform_int_distribution<int32_t> bias(-5000, 5000), mult(1 << 29, (1u << 31) - 1);
  std::uniform_int_distribution<int> shift(36, 44);
  for (int i = 0; i < m * k; ++i) L.a.push_back(static_cast<int8_t>(i8(rng)));
  for (int i = 0; i < k * n; ++i) L.w.push_back(static_cast<int8_t>(i8(rng)));
  for (int i = 0; i < n; ++i) {
    L.bias.push_back(bias(rng));
    L.mult.push_back(mult(rng));
    L.shift.push_back(static_cast<uint8_t>(shift(rng)));
  }
  L.zp = zp(rng);
  L.relu = coin(rng);
  return L;
}

}  // namespace tessera::test
