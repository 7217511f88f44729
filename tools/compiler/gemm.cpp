// SPDX-License-Identifier: Apache-2.0
#include "compiler/gemm.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "compiler/compiler.hpp"

namespace tessera::compiler {

GemmProgram gemm_program(const Config& cfg, int m, int k, int n, int32_t multiplier, int shift) {
  const int T = int(cfg.array_size), kt_count = (k + T - 1) / T, nt_count = (n + T - 1) / T;
  if (m < 1 || k < 1 || n < 1) throw CompileError("GEMM dimensions must be positive");
  if (k > 65535 || n > 65535) throw CompileError("GEMM row strides above 65535 bytes");
  const int params = 9 * nt_count;
  // UB: params | A chunk as K tiles | C chunk as column tiles. Accumulators: 2 regions.
  int chunk = std::min({m, 1024, int(cfg.acc_rows) / 2, (int(cfg.ub_rows) - params) / (kt_count + nt_count)});
  if (chunk < 1) throw CompileError("a GEMM with K = " + std::to_string(k) + " and N = " + std::to_string(n) +
                                    " does not fit the unified buffer");
  // Equal chunks: a short last chunk would load every weight tile for a few rows only.
  const int chunks = (m + chunk - 1) / chunk;
  chunk = (m + chunks - 1) / chunks;
  const int ub_a = params, ub_c = ub_a + kt_count * chunk;
  std::vector<std::pair<std::string, int>> body;  // line, weight tile it switches to (-1: none)
  std::vector<std::string> tiles;
  auto emit = [&](const std::string& s, int tile = -1) { body.push_back({s, tile}); };
  emit("rhm ub=0, rows=" + std::to_string(params) + ", addr=params, stride=" + std::to_string(T));
  for (int m0 = 0; m0 < m; m0 += chunk) {
    const int rows = std::min(chunk, m - m0);
    for (int kt = 0; kt < kt_count; ++kt)
      emit("rhm ub=" + std::to_string(ub_a + kt * chunk) + ", rows=" + std::to_string(rows) + ", addr=a+" +
           std::to_string(long(m0) * k + kt * T) + ", stride=" + std::to_string(k) +
           ", seglen=" + std::to_string(std::min(T, k - kt * T)));
    for (int nt = 0; nt < nt_count; ++nt) {
      const int acc = (nt % 2) * chunk;
      for (int kt = 0; kt < kt_count; ++kt) {
        tiles.push_back("rw addr=b+" + std::to_string(long(kt) * T * n + nt * T) + ", stride=" + std::to_string(n) +
                        ", k=" + std::to_string(std::min(T, k - kt * T)) + ", n=" + std::to_string(std::min(T, n - nt * T)));
        emit("mmc ub=" + std::to_string(ub_a + kt * chunk) + ", rows=" + std::to_string(rows) + ", acc=" +
                 std::to_string(acc) + ", switch" + (kt ? ", accumulate" : ""),
             int(tiles.size()) - 1);
      }
      emit("act acc=" + std::to_string(acc) + ", ub=" + std::to_string(ub_c + nt * chunk) + ", rows=" +
           std::to_string(rows) + ", params=" + std::to_string(9 * nt));
      emit("whm ub=" + std::to_string(ub_c + nt * chunk) + ", rows=" + std::to_string(rows) + ", addr=c+" +
           std::to_string(long(m0) * n + nt * T) + ", stride=" + std::to_string(n) +
           ", len=" + std::to_string(std::min(T, n - nt * T)));
    }
  }
  emit("halt");

  std::ostringstream s;
  s << "; GEMM " << m << "x" << k << "x" << n << " for " << cfg.summary() << " (tpu-bench)\n.text\n";
  size_t next_rw = 0;
  for (const auto& [line, tile] : body) {
    if (tile >= 0)
      while (next_rw < tiles.size() && int(next_rw) <= tile + int(cfg.wfifo_depth) - 1) s << "  " << tiles[next_rw++] << "\n";
    s << "  " << line << "\n";
  }
  s << ".data\n  .align 64\na:\n  .space " << long(m) * k << "\n  .align 64\nb:\n  .space " << long(k) * n
    << "\n  .align 64\nc:\n  .space " << long(m) * n << "\n  .align 64\nparams:\n";
  for (int nt = 0; nt < nt_count; ++nt) {
    s << "  .space " << 4 * T << "\n";  // bias 0
    for (int i = 0; i < T; ++i) s << "  .word " << multiplier << "\n";
    s << "  .space " << T << ", " << shift << "\n";
  }
  GemmProgram g;
  g.assembly = s.str();
  g.chunk_rows = chunk;
  g.macs = uint64_t(m) * k * n;
  return g;
}

}  // namespace tessera::compiler
