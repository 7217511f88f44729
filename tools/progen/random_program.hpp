// SPDX-License-Identifier: Apache-2.0
// Constrained-random programs for differential testing (RTL against the golden model):
// legal programs with random shapes, addresses, strides, flags, activation settings and
// data; half of them over small windows of rows low in each memory, so that instructions
// of different units depend on each other often, a quarter over the same windows at the
// top of each memory, and a quarter over windows as large as the memories with long
// instructions and large strides (the corners: high addresses, counts and strides);
// optionally with one injected architectural error.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "isa/arch.hpp"
#include "isa/isa.hpp"
#include "model/golden_model.hpp"

namespace tessera {

struct RandomProgram {
  std::vector<uint8_t> dram;          // the whole initial device memory (program at 0)
  uint32_t entry = 0;
  std::vector<AddrRange> bus_errors;  // 64-byte aligned
  std::vector<Word> words;            // the program, including any illegal word
  ErrorCode injected = ErrorCode::None;
  std::string listing() const;        // one line per instruction, for failure reports
};

struct RandomProgramOptions {
  int instructions = 40;                 // before the final halt
  ErrorCode inject = ErrorCode::None;    // which error to plant (None: a legal program)
};

RandomProgram random_program(const Config& cfg, uint64_t seed, const RandomProgramOptions& opt = {});

}  // namespace tessera
