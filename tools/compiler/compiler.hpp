// SPDX-License-Identifier: Apache-2.0
// tpu-cc's compiler: an int8 model (nn::QuantModel) to Tessera assembly for one core
// configuration. One program run classifies a batch of B inputs: the host writes B
// inputs to symbol `input` and reads B logit vectors from symbol `logits`.
//
// Lowering (docs/programming.md): dense layers tile K and the outputs onto the N x N
// array (accumulating over K tiles, the B batch rows streamed through each tile);
// convolutions one of four ways (ConvStrategy), each pooling offset in its own
// accumulator plane so that `act` takes the maximum; requantization, bias (with the
// input zero point folded in) and ReLU are the `act` parameter blocks. Weight tiles are
// loaded up to the weight-FIFO depth ahead of the multiplies that use them.
#pragma once

#include <stdexcept>
#include <string>

#include "config/config.hpp"
#include "nn/quant_model.hpp"

namespace tessera::compiler {

class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How a convolution is lowered (docs/programming.md): `taps` multiplies the input,
// held once in the unified buffer, by one weight tile per kernel tap (or packed taps) and
// channel block; `im2col` gathers each output position's window from device memory;
// `toeplitz` makes a small convolution one dense layer over the whole input. `automatic`
// takes the cheapest that applies.
enum class ConvStrategy { automatic, taps, gathered, im2col, toeplitz };

struct CompileOptions {
  int batch = 0;  // inputs per run; 0: the largest that fits, at most 256
  ConvStrategy conv = ConvStrategy::automatic;
};

struct CompiledModel {
  std::string assembly;
  int batch = 0;
  int input_bytes = 0;   // per input (HWC int8)
  int output_bytes = 0;  // per input: the logits
  uint64_t macs = 0;     // useful multiply-accumulates per run (for utilization)
};

CompiledModel compile_model(const nn::QuantModel& model, const Config& cfg, const CompileOptions& opt = {});

}  // namespace tessera::compiler
