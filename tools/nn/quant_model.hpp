// SPDX-License-Identifier: Apache-2.0
// An int8 network in the TFLite scheme: activations asymmetric int8 (scale, zero
// point) per tensor, weights symmetric int8 per output channel, int32 bias at scale
// in_scale * weight_scale[n], requantization by an int32 multiplier and a right shift
// per output channel (docs/isa.md, "Numerics"). Stored as a YAML description plus one
// weight file (int8) and one bias file (int32 little-endian) per layer.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nn/float_net.hpp"

namespace tessera::nn {

struct QuantLayer : LayerGeometry {
  std::vector<int8_t> w;          // [K][out_c]
  std::vector<int32_t> bias;      // [out_c]
  std::vector<int32_t> multiplier;
  std::vector<uint8_t> shift;     // real scale of channel n: multiplier[n] / 2^shift[n]
  std::vector<float> weight_scales;
  float in_scale = 1, out_scale = 1;
  int in_zp = 0, out_zp = 0;
};

struct QuantModel {
  std::string name;
  Shape input;
  float input_scale = 1;  // real input = input_scale * (q - input_zp)
  int input_zp = 0;
  std::vector<QuantLayer> layers;
  int classes() const { return layers.back().out_shape().size(); }
};

// Writes DIR/NAME.yaml and the layer files next to it.
void save_model(const QuantModel& m, const std::string& dir);
// A model's shapes: each dimension and channel count at most kMaxModelDim, a tensor at
// most kMaxModelElements values (far beyond any device memory).
constexpr int kMaxModelDim = 65536;
constexpr int64_t kMaxModelElements = int64_t{1} << 24;

// Reads and checks a model (shapes chained and within the limits above, files complete,
// parameters in range); errors name the file and the layer. A layer's file names are
// relative to the model's directory unless absolute.
QuantModel load_model(const std::string& yaml_path);

// The same from the model's text (`path` names it in errors); each layer file (its name
// as the model writes it) comes from `read_layer_file`, which is also told the size the
// layer needs (for readers that make data up, such as the fuzz target; the size is
// checked after reading all the same).
using LayerFileReader = std::function<std::vector<uint8_t>(const std::string& file, size_t expected_bytes)>;
QuantModel parse_model(const std::string& text, const std::string& path, const LayerFileReader& read_layer_file);

// M = real_scale as multiplier / 2^shift with multiplier in [2^30, 2^31).
void quantize_multiplier(double real_scale, int32_t& multiplier, uint8_t& shift);

}  // namespace tessera::nn
