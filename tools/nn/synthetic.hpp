// SPDX-License-Identifier: Apache-2.0
// Synthetic int8 layers for tests and benchmarks: a layer's geometry from a few numbers,
// and random parameters whose requantization spreads the outputs over the int8 range
// instead of saturating them.
#pragma once

#include <random>

#include "nn/quant_model.hpp"

namespace tessera::nn {

QuantLayer dense_layer(int in, int out, bool relu);
// A convolution on an h x w x c input; `same`: "same" padding, else valid.
QuantLayer conv_layer(int h, int w, int c, int k, int out_c, int stride, bool same, bool relu);

// Random weights, bias, per-channel scales and output zero point; the input zero point
// is in_zp.
void randomize_layer(QuantLayer& L, int in_zp, std::mt19937& rng);

// A model of the one layer, its input the layer's own.
QuantModel single_layer_model(const std::string& name, const QuantLayer& L);

}  // namespace tessera::nn
