// SPDX-License-Identifier: Apache-2.0
#include "nn/quantize.hpp"

#include <algorithm>
#include <cmath>

namespace tessera::nn {
namespace {

// Asymmetric int8 for the range [lo, hi] (always containing 0).
void choose_quant(float lo, float hi, float& scale, int& zp) {
  lo = std::min(lo, 0.f);
  hi = std::max(hi, 0.f);
  scale = (hi - lo) / 255.f;
  if (scale == 0.f) scale = 1.f;
  zp = int(std::lround(-128.0 - double(lo) / scale));
  zp = std::clamp(zp, -128, 127);
}

}  // namespace

QuantModel quantize(const FloatNet& net, const Digits& calibration) {
  QuantModel m;
  m.name = net.name;
  m.input = net.input;
  m.input_scale = 1.f / 16.f;
  m.input_zp = 0;
  const size_t nl = net.layers.size();
  std::vector<float> lo(nl, 0.f), hi(nl, 0.f);
  for (size_t i = 0; i < calibration.size(); ++i) {
    const auto outs = forward(net, digit_input(calibration.images[i].data(), kDigitPixels));
    for (size_t l = 0; l < nl; ++l)
      for (float v : outs[l]) lo[l] = std::min(lo[l], v), hi[l] = std::max(hi[l], v);
  }
  float in_scale = m.input_scale;
  int in_zp = m.input_zp;
  for (size_t l = 0; l < nl; ++l) {
    const FloatLayer& F = net.layers[l];
    QuantLayer Q;
    static_cast<LayerGeometry&>(Q) = F;
    Q.in_scale = in_scale;
    Q.in_zp = in_zp;
    choose_quant(lo[l], hi[l], Q.out_scale, Q.out_zp);
    Q.w.resize(F.w.size());
    for (int n = 0; n < F.out_c; ++n) {
      float mx = 0.f;
      for (int k = 0; k < F.k(); ++k) mx = std::max(mx, std::fabs(F.w[size_t(k) * F.out_c + n]));
      const float ws = mx > 0.f ? mx / 127.f : 1.f;
      Q.weight_scales.push_back(ws);
      for (int k = 0; k < F.k(); ++k) {
        const size_t i = size_t(k) * F.out_c + n;
        Q.w[i] = int8_t(std::clamp<long>(std::lround(F.w[i] / ws), -127, 127));
      }
      Q.bias.push_back(int32_t(std::lround(double(F.b[n]) / (double(in_scale) * ws))));
      int32_t mult = 0;
      uint8_t sh = 0;
      quantize_multiplier(double(in_scale) * ws / Q.out_scale, mult, sh);
      Q.multiplier.push_back(mult);
      Q.shift.push_back(sh);
    }
    in_scale = Q.out_scale;
    in_zp = Q.out_zp;
    m.layers.push_back(std::move(Q));
  }
  return m;
}

std::vector<int8_t> quantize_digit(const QuantModel& m, const uint8_t* pixels) {
  std::vector<int8_t> q(size_t(m.input.size()));
  for (size_t i = 0; i < q.size(); ++i) {
    const long v = std::lround(pixels[i] / 16.0 / m.input_scale) + m.input_zp;
    q[i] = int8_t(std::clamp<long>(v, -128, 127));
  }
  return q;
}

}  // namespace tessera::nn
