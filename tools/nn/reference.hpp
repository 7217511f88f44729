// SPDX-License-Identifier: Apache-2.0
// Plain int8 inference of a QuantModel, written from the quantization scheme alone
// (not from the golden model or the compiler): sum of (x - zero point) * w plus bias
// (a padding position holds real 0 and adds nothing), requantized with long-double rounding, then ReLU clamp and max pooling.
#pragma once

#include <cstdint>
#include <vector>

#include "nn/quant_model.hpp"

namespace tessera::nn {

// Output of one layer for one input tensor (HWC int8).
std::vector<int8_t> reference_layer(const QuantLayer& L, const std::vector<int8_t>& x);
// The logits of one input.
std::vector<int8_t> reference_logits(const QuantModel& m, const std::vector<int8_t>& input);
int argmax_i8(const int8_t* v, int n);  // first index of the maximum

}  // namespace tessera::nn
