// SPDX-License-Identifier: Apache-2.0
// The compiler's lowering of one model at one batch size (internal to tessera_compiler):
// the unified-buffer and accumulator allocation, the instruction list, the weight tiles
// and parameter blocks, and the device-memory data of the program. compiler.cpp has the
// dense layers and the assembly text, conv.cpp the convolutions (docs/programming.md,
// "How layers are lowered").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "compiler/compiler.hpp"
#include "isa/act_block.hpp"
#include "isa/asm_text.hpp"

namespace tessera::compiler::detail {

inline int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The batch does not fit the core (its memories or an ISA field that grows with the
// batch); the message says which and by how much. The batch search tries a smaller one.
struct DoesNotFit {
  std::string what;
};

// A tensor between layers: B items in device memory (HWC bytes each, at `label`), or
// in the unified buffer as column tiles (tile t of item b at row ub + t*B + b).
struct Tensor {
  bool in_ub = false;
  std::string label;
  int item_bytes = 0;
  int ub = 0;
};

// Output channel c's bias with the layer's input zero point folded in:
// sum (x - zp) w + bias = sum x w + (bias - zp * sum w).
int64_t folded_bias(const nn::QuantLayer& L, int c);

// Per-lane parameters of one `act` block (N lanes; lanes past the layer's outputs are 0).
struct ActParams {
  std::vector<int64_t> bias;  // with the input zero point folded in
  std::vector<int32_t> multiplier;
  std::vector<uint8_t> shift;
};

// The unified-buffer row of parameter block k, the blocks loaded from row `first` on.
inline int act_block_row(int first, int k) { return first + int(kActParamRows) * k; }

struct ToeplitzPlan;  // conv.cpp
struct Gather;        // conv.cpp

class Lowering {
 public:
  Lowering(const nn::QuantModel& m, const Config& cfg, int batch, ConvStrategy conv)
      : m_(&m), cfg_(&cfg), n_(int(cfg.array_size)), b_(batch), conv_strategy_(conv) {}
  CompiledModel run();

 private:
  struct Line {
    std::string text;
    int tile = -1;      // an `mmc switch` that makes weight tile `tile` active
    int load_rows = 0;  // the unified-buffer rows an `rhm` writes (to space a padded copy's lines)
  };

  // compiler.cpp: allocation, instructions, data
  void emit(const AsmInstr& x, int tile = -1) { body_.push_back({asm_text(x), tile}); }
  void need_ub(int rows, const std::string& what) const;
  int alloc_ub(int rows, const std::string& what);
  bool ub_room(int rows) const { return low_ + rows <= low_end_ || cursor_ + rows <= int(cfg_->ub_rows); }
  void need_acc(int rows, const std::string& what) const;
  static void check_field(long v, long max, const std::string& what);
  void fits_field(long v, long max, const std::string& what) const;  // DoesNotFit
  int acc_buffers(int rows, int tiles, const std::string& what) const;
  ActParams layer_params(const nn::QuantLayer& L, int nt) const;
  int load_params(const std::vector<ActParams>& blocks, const std::string& where);  // UB row of block 0
  int weight_tile(size_t l, const nn::QuantLayer& L, int k0, int kcount, int nt);  // the tile's index
  size_t tile_data(const std::string& label, const std::vector<int8_t>& tile);  // byte offset at label
  int rw_tile(const std::string& label, size_t offset, int kcount, int ncount);  // the tile's index
  std::string zero_point_row(int zp);
  void rhm(int ub, int rows, const AsmAddr& addr, long stride, int seglen, int segs = 1, long segstride = 0);
  // (tiles > 1: one instruction for that many multiplies, tile t on rows ub + t * ubstride
  // into acc + t * accstride, each with its own switch)
  void mmc(int ub, int rows, int acc, bool sw, bool accumulate, int tile, int tiles = 1, int ubstride = 0,
           int accstride = 0);
  void act(int acc, int ub, int rows, int params, const nn::QuantLayer& L, int pool);
  // (groups > 1: that many groups of `rows` rows, group g from UB row ub + g * rows to
  // addr + g * gstride)
  void whm(int ub, int rows, const AsmAddr& addr, long stride, int len, int groups = 1, long gstride = 0);
  void store(int ub, int rows, int width, const std::string& label);
  std::string scratch(const std::string& label, size_t bytes, int fill = 0);
  Tensor flatten(const Tensor& x, size_t l);
  int input_tiles(const Tensor& x, int kt_count, int k, const std::string& what);
  void load_input_tile(int kt);
  // (out_label: the last layer's, which may store its output tiles as they are done)
  Tensor dense(size_t l, const nn::QuantLayer& L, const Tensor& x, const std::string& out_label);
  // the lines that emit_lines() appends to the body, taken out of it
  template <typename F>
  std::vector<Line> capture(F&& emit_lines) {
    const size_t before = body_.size();
    emit_lines();
    std::vector<Line> out(body_.begin() + long(before), body_.end());
    body_.resize(before);
    return out;
  }
  std::string assemble_text();

  // conv.cpp: the three ways to lower a convolution, chosen by their cost
  Tensor conv(size_t l, const nn::QuantLayer& L, const Tensor& x, const std::string& out_label);
  Tensor conv_taps(size_t l, const nn::QuantLayer& L, const Tensor& x, const std::string& out_label,
                   const Gather* gather = nullptr);
  Tensor conv_im2col(size_t l, const nn::QuantLayer& L, const Tensor& x, const std::string& out_label);
  Tensor conv_dense(size_t l, const nn::QuantLayer& L, const Tensor& x, const ToeplitzPlan& plan);
  Tensor padded_copy(size_t l, const nn::QuantLayer& L, const Tensor& x);

  const nn::QuantModel* m_;  // pointers, so that a lowering can be saved and restored (conv.cpp)
  const Config* cfg_;
  int n_, b_;
  ConvStrategy conv_strategy_;
  int cursor_ = 0;           // next free UB row above the layer's input (when that is in the UB)
  int low_ = 0, low_end_ = 0;  // the free rows below that input
  uint64_t macs_ = 0;
  std::vector<Line> body_;
  std::vector<Line> input_loads_;
  std::vector<std::vector<Line>> copies_;  // per item: a padded copy's instructions (conv.cpp)  // the layer's input K tiles not yet loaded (input_tiles)
  struct TileLoad {
    std::string text;  // an rw
    int first, count;  // the tiles it loads (indices in program order)
  };
  std::vector<TileLoad> tiles_;
  int add_tiles(const AsmInstr& rw);  // the first tile's index
  std::vector<uint8_t> param_data_;
  std::vector<std::pair<std::string, std::vector<int8_t>>> blobs_;  // weight data: label, bytes
  struct Buffer {
    std::string label;
    size_t bytes;
    int fill;  // the byte it starts as
  };
  std::vector<Buffer> dram_;                                        // device-memory buffers
  std::map<int, std::string> zp_rows_;                              // zero point -> label of N such bytes
  std::vector<std::string> strategies_;                             // per layer, for the listing
};

}  // namespace tessera::compiler::detail
