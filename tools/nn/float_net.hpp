// SPDX-License-Identifier: Apache-2.0
// Small float networks and their training: dense and 2-D convolution layers (HWC
// tensors; any stride, zero padding on each side), each with optional ReLU; a
// convolution may end in P x P max pooling (stride P). Training is plain minibatch SGD with momentum on
// softmax cross-entropy, deterministic for a seed (own generator, fixed order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nn/dataset.hpp"

namespace tessera::nn {

struct Shape {
  int h = 1, w = 1, c = 1;
  int size() const { return h * w * c; }
};

enum class LayerKind { Dense, Conv2d };

// What a layer computes, apart from its numbers (shared by float and int8 layers).
struct LayerGeometry {
  LayerKind kind = LayerKind::Dense;
  Shape in;            // dense: {1, 1, features}
  int out_c = 0;       // output features / channels
  int kh = 1, kw = 1;  // convolution kernel
  bool relu = false;
  int pool = 1;        // convolution: max pooling window and stride (1: none)
  int stride = 1;      // convolution stride, both directions
  int pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;  // padding rows/columns (real value 0)

  int k() const { return kind == LayerKind::Dense ? in.size() : kh * kw * in.c; }
  Shape conv_shape() const {  // before pooling
    return {(in.h + pad_t + pad_b - kh) / stride + 1, (in.w + pad_l + pad_r - kw) / stride + 1, out_c};
  }
  Shape out_shape() const;
  bool padded() const { return pad_t || pad_l || pad_b || pad_r; }
  // Input row / column that kernel row ky / column kx of output row oy / column ox
  // reads; outside 0..in.h-1 / 0..in.w-1 it is padding.
  int in_y(int oy, int ky) const { return oy * stride + ky - pad_t; }
  int in_x(int ox, int kx) const { return ox * stride + kx - pad_l; }
  // "same" padding (output = ceil(input / stride), the extra row/column at the bottom/right).
  void pad_same();
};

// A dense layer's geometry: `in` features to `out`.
LayerGeometry dense_geometry(int in, int out, bool relu);

struct FloatLayer : LayerGeometry {
  std::vector<float> w;  // [K][out_c], K index (ky*kw + kx)*in.c + ci for convolutions
  std::vector<float> b;  // [out_c]
};

struct FloatNet {
  std::string name;
  Shape input;
  std::vector<FloatLayer> layers;
  int classes() const { return layers.back().out_shape().size(); }
};

// The two digits networks: 64-64-10 MLP; conv 3x3x8 + ReLU + 2x2 max pool, dense 72-10.
FloatNet digits_mlp();
FloatNet digits_cnn();

// Pixels 0..16 to the network's input (pixel / 16).
std::vector<float> digit_input(const uint8_t* pixels, int count);

// Each layer's output (after ReLU and pooling); the last is the logits.
std::vector<std::vector<float>> forward(const FloatNet& net, const std::vector<float>& x);
int argmax(const std::vector<float>& v);

struct TrainOptions {
  uint64_t seed = 1;
  int epochs = 40;
  int batch = 16;
  float learning_rate = 0.03f;
  float momentum = 0.9f;
};

// Initializes the weights from the seed and trains on `data`.
void train(FloatNet& net, const Digits& data, const TrainOptions& opt);
double accuracy(const FloatNet& net, const Digits& data);

// The float parameters (each layer's w then b, float32 little-endian) of a network
// whose architecture the caller has built.
void save_float_params(const FloatNet& net, const std::string& path);
void load_float_params(FloatNet& net, const std::string& path);

}  // namespace tessera::nn
