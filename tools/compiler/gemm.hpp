// SPDX-License-Identifier: Apache-2.0
// A tiled int8 GEMM program of any size for any configuration (benchmarks, tests):
// C[M][N] = requant(A[M][K] * B[K][N]), all row-major int8 at symbols a, b and c, with
// one activation parameter block per column tile of C at symbol `params`. M is
// processed in chunks that fit the unified buffer and the accumulators; within a
// chunk every column tile accumulates its K tiles, weight loads run up to the
// weight-FIFO depth ahead, and accumulator regions alternate between column tiles.
#pragma once

#include <cstdint>
#include <string>

#include "config/config.hpp"

namespace tessera::compiler {

struct GemmProgram {
  std::string assembly;
  int chunk_rows = 0;  // rows of A per chunk
  uint64_t macs = 0;   // M * K * N
};

// Throws CompileError when even a chunk of one row does not fit.
GemmProgram gemm_program(const Config& cfg, int m, int k, int n, int32_t multiplier = 1 << 30, int shift = 40);

}  // namespace tessera::compiler
