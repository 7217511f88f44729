// SPDX-License-Identifier: Apache-2.0
// Post-training quantization: calibrate every layer's output range on training data,
// then quantize weights per channel and biases to int32 (the TFLite scheme).
#pragma once

#include "nn/quant_model.hpp"

namespace tessera::nn {

// The digits input is pixels 0..16 at scale 1/16, zero point 0: the int8 input is the
// pixel value itself.
QuantModel quantize(const FloatNet& net, const Digits& calibration);

// The int8 input of one image.
std::vector<int8_t> quantize_digit(const QuantModel& m, const uint8_t* pixels);

}  // namespace tessera::nn
