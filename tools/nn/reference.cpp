// SPDX-License-Identifier: Apache-2.0
#include "nn/reference.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::nn {
namespace {

int8_t requant(int64_t acc, int32_t mult, int shift, int zp, bool relu) {
  long double x = std::fmin(2147483647.0L, std::fmax(-2147483648.0L, static_cast<long double>(acc)));
  long double y = std::round(std::ldexp(x * mult, -shift)) + zp;  // ties away from zero
  y = std::fmin(127.0L, std::fmax(relu ? zp : -128, y));
  return static_cast<int8_t>(y);
}

}  // namespace

std::vector<int8_t> reference_layer(const QuantLayer& L, const std::vector<int8_t>& x) {
  auto out_at = [&](const std::vector<int64_t>& patch_x, int n) {  // patch_x: K inputs minus zero point
    int64_t acc = L.bias[n];
    for (size_t k = 0; k < patch_x.size(); ++k) acc += patch_x[k] * L.w[k * size_t(L.out_c) + n];
    return requant(acc, L.multiplier[n], L.shift[n], L.out_zp, L.relu);
  };
  if (L.kind == LayerKind::Dense) {
    std::vector<int64_t> xs(x.begin(), x.end());
    for (auto& v : xs) v -= L.in_zp;
    std::vector<int8_t> y(L.out_c);
    for (int n = 0; n < L.out_c; ++n) y[n] = out_at(xs, n);
    return y;
  }
  const Shape cs = L.conv_shape(), os = L.out_shape();
  std::vector<int8_t> conv(size_t(cs.size()));
  std::vector<int64_t> patch;
  for (int oy = 0; oy < cs.h; ++oy)
    for (int ox = 0; ox < cs.w; ++ox) {
      patch.clear();
      for (int ky = 0; ky < L.kh; ++ky)
        for (int kx = 0; kx < L.kw; ++kx)
          for (int c = 0; c < L.in.c; ++c) {
            const int iy = oy * L.stride + ky - L.pad_t, ix = ox * L.stride + kx - L.pad_l;  // written out, not shared
            const bool pad = iy < 0 || iy >= L.in.h || ix < 0 || ix >= L.in.w;  // real 0: q = zero point
            patch.push_back(pad ? 0 : x[size_t((iy * L.in.w + ix) * L.in.c + c)] - L.in_zp);
          }
      for (int n = 0; n < L.out_c; ++n) conv[size_t((oy * cs.w + ox) * L.out_c + n)] = out_at(patch, n);
    }
  std::vector<int8_t> y(size_t(os.size()), -128);
  for (int py = 0; py < os.h; ++py)
    for (int px = 0; px < os.w; ++px)
      for (int n = 0; n < L.out_c; ++n) {
        int8_t& o = y[size_t((py * os.w + px) * L.out_c + n)];
        for (int dy = 0; dy < L.pool; ++dy)
          for (int dx = 0; dx < L.pool; ++dx)
            o = std::max(o, conv[size_t(((py * L.pool + dy) * cs.w + px * L.pool + dx) * L.out_c + n)]);
      }
  return y;
}

std::vector<int8_t> reference_logits(const QuantModel& m, const std::vector<int8_t>& input) {
  std::vector<int8_t> x = input;
  for (const QuantLayer& L : m.layers) x = reference_layer(L, x);
  return x;
}

int argmax_i8(const int8_t* v, int n) { return int(std::max_element(v, v + n) - v); }

}  // namespace tessera::nn
