// SPDX-License-Identifier: Apache-2.0
// tpu-cc's compiler: an int8 model (nn::QuantModel) to Tessera assembly for one core
// configuration. One program run classifies a batch of B inputs: the host writes B
// inputs to symbol `input` and reads B logit vectors from symbol `logits`.
//
// Lowering (docs/programming.md): dense layers tile K and the outputs onto the N x N
// array (accumulating over K tiles, the B batch rows streamed through each tile);
// conv2d reads its im2col rows straight from device memory with segmented `rhm`
// (one segment per kernel row), puts each pooling offset in its own accumulator
// plane and lets `act` take the maximum; requantization, bias (with the input zero
// point folded in) and ReLU are the `act` parameter blocks. Weight tiles are loaded
// up to the weight-FIFO depth ahead of the multiplies that use them.
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

struct CompileOptions {
  int batch = 0;  // inputs per run; 0: the largest that fits, at most 64
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
