// SPDX-License-Identifier: Apache-2.0
// A tiled int8 GEMM program of any size for any configuration (benchmarks, tests):
// C[M][N] = requant(A[M][K] * B[K][N]), all row-major int8 at symbols a, b and c, with
// one activation parameter block per column tile of C at symbol `params`. M is
// processed in chunks that fit the unified buffer and the accumulators; within a
// chunk, column tiles go in groups that fit half the accumulators (the halves
// alternate): K tile 0 of every column tile of the group, then each column tile's
// other K tiles in turn, so that one A tile starts them all and column tiles finish
// one by one. Weight loads run up to the weight-FIFO depth ahead.
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
