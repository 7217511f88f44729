// SPDX-License-Identifier: Apache-2.0
#include "compiler/gemm.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "compiler/compiler.hpp"
#include "isa/act_block.hpp"
#include "isa/asm_text.hpp"

namespace tessera::compiler {

namespace {

// The program body in issue order. Each weight tile is loaded by its own `rw`, placed
// as late as the weight FIFO allows: every tile up to depth - 1 ahead of the multiply
// that switches to it (the FIFO never holds more than its depth).
class GemmBody {
 public:
  explicit GemmBody(int depth) : depth_(depth) {}
  void line(const AsmInstr& x) { body_.push_back({asm_text(x), -1}); }
  int tile(const AsmInstr& rw) {
    tiles_.push_back(asm_text(rw));
    return int(tiles_.size()) - 1;
  }
  void mmc(const AsmInstr& x, int switch_to = -1) {
    body_.push_back({asm_text(x), switch_to < 0 ? -1 : switch_to + depth_ - 1});
  }
  // Loads the weight tiles up to this one now (so the DMA brings them before what follows).
  void load_now(int tile) { body_.push_back({"", tile}); }

  std::string text() const {
    std::ostringstream s;
    size_t next = 0;
    for (const Entry& e : body_) {
      while (next < tiles_.size() && int(next) <= e.load_through) s << "  " << tiles_[next++] << "\n";
      if (!e.line.empty()) s << "  " << e.line << "\n";
    }
    return s.str();
  }

 private:
  struct Entry {
    std::string line;      // empty: only loads
    int load_through = -1; // the weight tiles up to this one go before the line
  };
  int depth_;
  std::vector<Entry> body_;
  std::vector<std::string> tiles_;
};

}  // namespace

GemmProgram gemm_program(const Config& cfg, int m, int k, int n, int32_t multiplier, int shift) {
  const int T = int(cfg.array_size), kt_count = (k + T - 1) / T, nt_count = (n + T - 1) / T;
  if (m < 1 || k < 1 || n < 1) throw CompileError("GEMM dimensions must be positive");
  if (k > 65535 || n > 65535) throw CompileError("GEMM row strides above 65535 bytes");
  if (shift < 0 || shift > 63) throw CompileError("GEMM requantization shift " + std::to_string(shift) + " outside 0..63");
  const int params = int(kActParamRows) * nt_count;
  // UB: params | A chunk as K tiles (twice, when double-buffered) | C chunk as column
  // tiles. Double-buffered A lets the next chunk's rows load while this chunk
  // multiplies; it is used when there are several chunks and each is still long enough
  // (4 N rows) to amortize a weight tile's load.
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
  // Column tiles go in groups whose accumulators fit half the accumulator rows; the
  // groups alternate halves, so one group's last act overlaps the next group's
  // multiplies.
  const int group = std::max(1, std::min(nt_count, int(cfg.acc_rows) / (2 * chunk)));
  const int groups = (nt_count + group - 1) / group;
  const int ub_a0 = params, ub_c = ub_a0 + (dbuf ? 2 : 1) * kt_count * chunk;
  auto ub_a = [&](int c) { return ub_a0 + (dbuf && c % 2 ? kt_count * chunk : 0); };

  // Weights run at most 4 tiles ahead, even with a deeper FIFO: the DMA-in queue holds
  // 4 instructions, and a fifth rw would hold up issue of the multiplies behind it.
  const int lookahead = std::min(int(cfg.wfifo_depth), 4);
  GemmBody body(lookahead);
  auto load_a = [&](int c, int kt, int r0, int rows) {  // rows [r0, r0 + rows) of chunk c, K tile kt
    const long m0 = long(c) * chunk + r0;
    body.line(asm_rhm(ub_a(c) + kt * chunk + r0, rows, {"a", m0 * k + kt * T}, k, std::min(T, k - kt * T)));
  };
  auto weight = [&](int kt, int nt) {
    return body.tile(asm_rw({"b", long(kt) * T * n + nt * T}, n, std::min(T, k - kt * T), std::min(T, n - nt * T)));
  };
  auto mmc_line = [&](int c, int kt, int r0, int rows, int acc, bool sw) {
    return asm_mmc(ub_a(c) + kt * chunk + r0, rows, acc + r0, sw, kt > 0);
  };
  auto mmc = [&](int c, int kt, int rows, int acc, bool sw, int tile) {  // all rows of chunk c
    body.mmc(mmc_line(c, kt, 0, rows, acc, sw), sw ? tile : -1);
  };
  // The parameter blocks load once the first A tiles are on their way, before the
  // first act.
  bool params_loaded = false;
  auto load_params = [&] {
    if (!params_loaded) body.line(asm_rhm(0, params, {"params"}, T, T));
    params_loaded = true;
  };
  // A column tile's act and whm follow its last multiply in the program: they issue at
  // once and work row by row behind it (chaining), so they hold up nothing behind them.
  auto finish = [&](int c, int nt, int acc, int rows) {  // act and whm of chunk c, column tile nt
    const long m0 = long(c) * chunk;
    const int ub = ub_c + nt * chunk;
    load_params();
    body.line(asm_act(acc, ub, rows, int(kActParamRows) * nt, 0, false));
    body.line(asm_whm(ub, rows, {"c", m0 * n + nt * T}, n, std::min(T, n - nt * T)));
  };

  // The first multiply starts on the first N rows of A: its weight tile and those rows
  // load first, the rest of the tile's rows follow piece by piece.
  const int first_rows = std::min(m, chunk);
  const int lead = first_rows >= 4 * T ? T : first_rows;
  int seq = 0;  // groups so far: their accumulator half
  for (int c = 0; c < chunks; ++c) {
    const int rows = std::min(chunk, m - c * chunk);
    const bool ahead = dbuf && c + 1 < chunks;  // the next chunk loads during this one
    if (!dbuf && c > 0)
      for (int kt = 0; kt < kt_count; ++kt) load_a(c, kt, 0, rows);
    int next_load = 0;  // the next chunk's K tiles, one after each column tile
    auto load_ahead = [&] {
      if (ahead && next_load < kt_count) load_a(c + 1, next_load++, 0, std::min(chunk, m - (c + 1) * chunk));
    };
    for (int g = 0; g < groups; ++g, ++seq) {
      const int nt0 = g * group, nt1 = std::min(nt_count, nt0 + group);
      auto acc_of = [&](int nt) { return ((seq % 2) * group + nt - nt0) * chunk; };
      // Wave 0: K tile 0 of every column tile of the group, one A tile for all.
      for (int nt = nt0; nt < nt1; ++nt) {
        const int w = weight(0, nt);
        if (c == 0 && g == 0 && nt == nt0) {
          // Only the first weight tile goes before these rows; the next ones after them.
          // All the loads before the multiplies: issue holds a multiply until its rows
          // are in, and would hold the next load behind it.
          body.load_now(w);
          for (int r0 = 0; r0 < rows; r0 += lead) load_a(0, 0, r0, std::min(lead, rows - r0));
          body.load_now(w + lookahead - 1);
          for (int r0 = 0; r0 < rows; r0 += lead)
            body.mmc(mmc_line(0, 0, r0, std::min(lead, rows - r0), acc_of(nt), r0 == 0));
        } else {
          mmc(c, 0, rows, acc_of(nt), true, w);
        }
        if (kt_count == 1) {
          load_ahead();
          finish(c, nt, acc_of(nt), rows);
        }
      }
      if (c == 0 && g == 0) {
        for (int kt = 1; kt < kt_count; ++kt) load_a(0, kt, 0, rows);
        load_params();
      }
      if (kt_count == 1) continue;
      // Then each column tile's other K tiles in turn. (The last column tile needs no
      // splitting into shorter pieces: its act and whm follow the last multiply row by
      // row, chained, docs/architecture.md.)
      for (int nt = nt0; nt < nt1; ++nt) {
        for (int kt = 1; kt < kt_count; ++kt) mmc(c, kt, rows, acc_of(nt), true, weight(kt, nt));
        load_ahead();
        finish(c, nt, acc_of(nt), rows);
      }
    }
    while (ahead && next_load < kt_count) load_ahead();
  }
  body.line(asm_plain(Opcode::HALT));

  std::ostringstream s;
  s << "; GEMM " << m << "x" << k << "x" << n << " for " << cfg.summary() << " (tpu-bench)\n.text\n"
    << body.text();
  s << ".data\n  .align 64\na:\n  .space " << long(m) * k << "\n  .align 64\nb:\n  .space " << long(k) * n
    << "\n  .align 64\nc:\n  .space " << long(m) * n << "\n  .align 64\nparams:\n";
  std::vector<uint8_t> block(act_block_bytes(uint32_t(T)));  // bias 0, the multiplier and shift
  for (int i = 0; i < T; ++i)
    put_act_lane(block.data(), uint32_t(T), uint32_t(i), ActLane{0, multiplier, uint8_t(shift)});
  for (int nt = 0; nt < nt_count; ++nt)
    for (size_t row = 0; row < kActParamRows; ++row) {
      s << "  .byte ";
      for (int i = 0; i < T; ++i) s << (i ? ", " : "") << int(block[row * size_t(T) + size_t(i)]);
      s << "\n";
    }
  GemmProgram g;
  g.assembly = s.str();
  g.chunk_rows = chunk;
  g.macs = uint64_t(m) * k * n;
  return g;
}

}  // namespace tessera::compiler
