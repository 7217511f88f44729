// SPDX-License-Identifier: Apache-2.0
#include "nn/synthetic.hpp"

#include <cmath>

namespace tessera::nn {

QuantLayer dense_layer(int in, int out, bool relu) {
  QuantLayer L;
  static_cast<LayerGeometry&>(L) = dense_geometry(in, out, relu);
  return L;
}

QuantLayer conv_layer(int h, int w, int c, int k, int out_c, int stride, bool same, bool relu) {
  QuantLayer L;
  L.kind = LayerKind::Conv2d;
  L.in = {h, w, c};
  L.kh = L.kw = k;
  L.out_c = out_c;
  L.stride = stride;
  L.relu = relu;
  if (same) L.pad_same();
  return L;
}

void randomize_layer(QuantLayer& L, int in_zp, std::mt19937& rng) {
  std::uniform_int_distribution<int> w8(-127, 127), zp(-128, 40), bias(-3000, 3000);
  L.w.resize(size_t(L.k()) * L.out_c);
  for (auto& v : L.w) v = int8_t(w8(rng));
  L.in_zp = in_zp;
  L.out_zp = zp(rng);
  // the standard deviation of a sum of K products of uniform int8 values
  const double spread = 128.0 / std::sqrt(3.0) * 127.0 / std::sqrt(3.0) * std::sqrt(double(L.k()));
  L.bias.clear(), L.multiplier.clear(), L.shift.clear();
  for (int c = 0; c < L.out_c; ++c) {
    L.bias.push_back(bias(rng));
    int32_t m;
    uint8_t s;
    quantize_multiplier(60.0 / spread * std::uniform_real_distribution<double>(0.5, 2.0)(rng), m, s);
    L.multiplier.push_back(m);
    L.shift.push_back(s);
  }
}

QuantModel single_layer_model(const std::string& name, const QuantLayer& L) {
  QuantModel m;
  m.name = name;
  m.input = L.in;
  m.input_zp = L.in_zp;
  m.layers = {L};
  return m;
}

}  // namespace tessera::nn
