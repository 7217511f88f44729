// SPDX-License-Identifier: Apache-2.0
// A plain reference for quantized layers, written from docs/isa.md without the
// golden model's code: long-double rounding instead of integer shifts.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::test {

inline int8_t ref_requant(int64_t acc, int64_t bias, int64_t mult, int shift, int zp, bool relu) {
  long double x = static_cast<long double>(acc) + bias;
  x = std::fmin(2147483647.0L, std::fmax(-2147483648.0L, x));
  // |x * mult| < 2^62 and long double has a 64-bit mantissa: this is exact.
  const long double scaled = std::ldexp(x * static_cast<long double>(mult), -shift);
  long double y = std::round(scaled) + zp;  // std::round: ties away from zero
  const long double lo = relu ? zp : -128;
  y = std::fmin(127.0L, std::fmax(lo, y));
  return static_cast<int8_t>(y);
}

// out[m][n] = requant(sum_k a[m][k] * w[k][n] + bias[n]) for row-major int8 a (M x K), w (K x N).
struct QuantLayer {
  int m, k, n;
  std::vector<int8_t> a, w;
  std::vector<int32_t> bias, mult;
  std::vector<uint8_t> shift;
  int zp = 0;
  bool relu = false;

  std::vector<int8_t> reference() const {
    std::vector<int8_t> out(size_t(m) * n);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        int64_t dot = 0;
        for (int t = 0; t < k; ++t) dot += int64_t(a[size_t(i) * k + t]) * w[size_t(t) * n + j];
        out[size_t(i) * n + j] = ref_requant(dot, bias[j], mult[j], shift[j], zp, relu);
      }
    return out;
  }
};

}  // namespace tessera::test
