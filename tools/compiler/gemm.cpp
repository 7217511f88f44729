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
  // UB: params | A chunk as K tiles (twice, when double-buffered) | C chunk as column
  // tiles. Accumulators: 2 regions. Double-buffered A lets the next chunk's rows load
  // while this chunk multiplies; it is used when there are several chunks and each is
  // still long enough (4 N rows) to amortize a weight tile's load.
  const int ub_free = int(cfg.ub_rows) - params;
  const int cap = std::min({m, 1024, int(cfg.acc_rows) / 2});
  const int single = std::min(cap, ub_free / (kt_count + nt_count));
  const int twice = std::min(cap, ub_free / (2 * kt_count + nt_count));
  const bool dbuf = m > single && twice >= 4 * T;
  int chunk = dbuf ? twice : single;
  if (chunk < 1) throw CompileError("a GEMM with K = " + std::to_string(k) + " and N = " + std::to_string(n) +
                                    " does not fit the unified buffer");
  // Equal chunks: a short last chunk would load every weight tile for a few rows only.
  const int chunks = (m + chunk - 1) / chunk;
  chunk = (m + chunks - 1) / chunks;
  const int ub_a0 = params, ub_c = ub_a0 + (dbuf ? 2 : 1) * kt_count * chunk;
  auto ub_a = [&](int c) { return ub_a0 + (dbuf && c % 2 ? kt_count * chunk : 0); };
  std::vector<std::pair<std::string, int>> body;  // line, weight tile it switches to (-1: none)
  std::vector<std::string> tiles;
  auto emit = [&](const std::string& s, int tile = -1) { body.push_back({s, tile}); };
  auto load_a = [&](int c, int kt) {  // rows of chunk c, K tile kt, into its A buffer
    const int m0 = c * chunk, rows = std::min(chunk, m - m0);
    emit("rhm ub=" + std::to_string(ub_a(c) + kt * chunk) + ", rows=" + std::to_string(rows) + ", addr=a+" +
         std::to_string(long(m0) * k + kt * T) + ", stride=" + std::to_string(k) +
         ", seglen=" + std::to_string(std::min(T, k - kt * T)));
  };
  emit("rhm ub=0, rows=" + std::to_string(params) + ", addr=params, stride=" + std::to_string(T));
  std::vector<bool> first_loaded(kt_count, false);  // the first chunk's K tiles go just before their multiply
  for (int c = 0; c < chunks; ++c) {
    const int m0 = c * chunk, rows = std::min(chunk, m - m0);
    const bool ahead = dbuf && c + 1 < chunks;  // the next chunk loads during this one
    if (!dbuf && c > 0)
      for (int kt = 0; kt < kt_count; ++kt) load_a(c, kt);
    // A column tile's act and whm go after the next tile's multiplies: the array then
    // has queued work while the whm, which issue holds until the act has written its
    // rows, waits.
    std::vector<std::string> pending;
    auto flush = [&] {
      for (const auto& line : pending) emit(line);
      pending.clear();
    };
    for (int nt = 0; nt < nt_count; ++nt) {
      const int acc = (nt % 2) * chunk;
      for (int kt = 0; kt < kt_count; ++kt) {
        if (c == 0 && !first_loaded[kt]) load_a(0, kt), first_loaded[kt] = true;
        tiles.push_back("rw addr=b+" + std::to_string(long(kt) * T * n + nt * T) + ", stride=" + std::to_string(n) +
                        ", k=" + std::to_string(std::min(T, k - kt * T)) + ", n=" + std::to_string(std::min(T, n - nt * T)));
        emit("mmc ub=" + std::to_string(ub_a(c) + kt * chunk) + ", rows=" + std::to_string(rows) + ", acc=" +
                 std::to_string(acc) + ", switch" + (kt ? ", accumulate" : ""),
             int(tiles.size()) - 1);
        if (kt == kt_count - 1) {
          flush();
          if (ahead && nt < kt_count) load_a(c + 1, nt);  // one K tile of the next chunk per column tile
        }
      }
      pending.push_back("act acc=" + std::to_string(acc) + ", ub=" + std::to_string(ub_c + nt * chunk) + ", rows=" +
                        std::to_string(rows) + ", params=" + std::to_string(9 * nt));
      pending.push_back("whm ub=" + std::to_string(ub_c + nt * chunk) + ", rows=" + std::to_string(rows) +
                        ", addr=c+" + std::to_string(long(m0) * n + nt * T) + ", stride=" + std::to_string(n) +
                        ", len=" + std::to_string(std::min(T, n - nt * T)));
    }
    flush();
    if (ahead)
      for (int kt = nt_count; kt < kt_count; ++kt) load_a(c + 1, kt);
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
