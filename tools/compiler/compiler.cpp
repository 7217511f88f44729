// SPDX-License-Identifier: Apache-2.0
#include "compiler/compiler.hpp"

#include <algorithm>
#include <sstream>

namespace tessera::compiler {
namespace {

using nn::LayerKind;
using nn::QuantLayer;
using nn::QuantModel;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// The batch does not fit the core's memories (the message says which and by how much).
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

class Lowering {
 public:
  Lowering(const QuantModel& m, const Config& cfg, int batch)
      : m_(m), cfg_(cfg), n_(int(cfg.array_size)), b_(batch) {}

  CompiledModel run() {
    int blocks = 0;
    for (const QuantLayer& L : m_.layers) blocks += ceil_div(L.out_c, n_);
    params_rows_ = 9 * blocks;
    need_ub(params_rows_, "the activation parameter blocks");
    emit("rhm ub=0, rows=" + std::to_string(params_rows_) + ", addr=params, stride=" + std::to_string(n_));
    Tensor x{false, "input", m_.input.size(), 0};
    for (size_t l = 0; l < m_.layers.size(); ++l) {
      const bool last = l + 1 == m_.layers.size();
      const QuantLayer& L = m_.layers[l];
      cursor_ = params_rows_;
      if (x.in_ub) cursor_ = std::max(cursor_, x.ub + ceil_div(x.item_bytes, n_) * b_);
      if (L.kind == LayerKind::Dense) {
        x = dense(l, L, x);
        if (last) store(x.ub, b_, L.out_c, "logits");
      } else {
        if (x.in_ub) x = flatten(x, l);
        x = conv(l, L, x, last ? "logits" : "scratch" + std::to_string(l));
      }
    }
    emit("halt");
    CompiledModel out;
    out.batch = b_;
    out.input_bytes = m_.input.size();
    out.output_bytes = m_.layers.back().out_shape().size();
    out.macs = macs_;
    out.assembly = assemble_text();
    return out;
  }

 private:
  struct Line {
    std::string text;
    int tile = -1;  // an `mmc switch` that makes weight tile `tile` active
  };

  void emit(const std::string& s, int tile = -1) { body_.push_back({s, tile}); }
  void need_ub(int rows, const std::string& what) {
    if (rows > int(cfg_.ub_rows))
      throw DoesNotFit{what + ": " + std::to_string(rows) + " unified-buffer rows needed, the core has " +
                       std::to_string(cfg_.ub_rows)};
  }
  int alloc_ub(int rows, const std::string& what) {
    const int at = cursor_;
    cursor_ += rows;
    need_ub(cursor_, what);
    return at;
  }
  static void check_field(long v, long max, const std::string& what) {
    if (v > max) throw CompileError(what + " is " + std::to_string(v) + ", above the ISA's limit of " + std::to_string(max));
  }
  // Accumulator rows for groups of `rows`; two buffers when there are several output
  // tiles and room, so that `act` of one overlaps the multiplies of the next.
  int acc_buffers(int rows, int tiles, const std::string& what) {
    if (rows > int(cfg_.acc_rows))
      throw DoesNotFit{what + ": " + std::to_string(rows) + " accumulator rows needed, the core has " +
                       std::to_string(cfg_.acc_rows)};
    return tiles > 1 && 2 * rows <= int(cfg_.acc_rows) ? 2 : 1;
  }

  // Parameter block of output tile nt of layer l: bias with the input zero point
  // folded in (sum (x - zp) w = sum x w - zp * sum w), multiplier, shift.
  int param_block(const QuantLayer& L, int nt) {
    const int index = int(param_data_.size() / (9 * size_t(n_)));
    std::vector<uint8_t> blk(9 * size_t(n_), 0);
    for (int i = 0; i < n_ && nt * n_ + i < L.out_c; ++i) {
      const int c = nt * n_ + i;
      int64_t colsum = 0;
      for (int k = 0; k < L.k(); ++k) colsum += L.w[size_t(k) * L.out_c + c];
      const int64_t bias = int64_t{L.bias[c]} - int64_t{L.in_zp} * colsum;
      if (bias < INT32_MIN || bias > INT32_MAX) throw CompileError("a folded bias does not fit int32");
      for (int s = 0; s < 4; ++s) {
        blk[4 * size_t(i) + s] = uint8_t(uint64_t(bias) >> (8 * s));
        blk[4 * size_t(n_) + 4 * size_t(i) + s] = uint8_t(uint32_t(L.multiplier[c]) >> (8 * s));
      }
      blk[8 * size_t(n_) + i] = L.shift[c];
    }
    param_data_.insert(param_data_.end(), blk.begin(), blk.end());
    return 9 * index;
  }

  int weight_tile(size_t l, const QuantLayer& L, int k0, int kcount, int nt) {
    std::ostringstream s;
    s << "rw addr=w" << l << "+" << (size_t(k0) * L.out_c + size_t(nt) * n_) << ", stride=" << L.out_c
      << ", k=" << kcount << ", n=" << std::min(n_, L.out_c - nt * n_);
    tiles_.push_back(s.str());
    return int(tiles_.size()) - 1;
  }

  void act(int acc, int ub, int rows, int params, const QuantLayer& L, int pool) {
    std::ostringstream s;
    s << "act acc=" << acc << ", ub=" << ub << ", rows=" << rows << ", params=" << params << ", zp=" << L.out_zp;
    if (pool > 1) s << ", pool=" << pool;
    if (L.relu) s << ", relu";
    emit(s.str());
  }

  // Column tiles of `rows` rows each (row r of every tile belongs to item r / rows-per-item)
  // to device memory at label, `width` bytes per row.
  void store(int ub, int rows, int width, const std::string& label) {
    check_field(width, 65535, "a row stride in device memory");
    for (int t = 0; t < ceil_div(width, n_); ++t)
      emit("whm ub=" + std::to_string(ub + t * rows) + ", rows=" + std::to_string(rows) + ", addr=" + label + "+" +
           std::to_string(t * n_) + ", stride=" + std::to_string(width) + ", len=" + std::to_string(std::min(n_, width - t * n_)));
    dram_.push_back({label, size_t(b_) * size_t(rows / b_) * size_t(width)});
  }

  Tensor flatten(const Tensor& x, size_t l) {
    const std::string label = "flat" + std::to_string(l);
    store(x.ub, b_, x.item_bytes, label);
    return {false, label, x.item_bytes, 0};
  }

  Tensor dense(size_t l, const QuantLayer& L, const Tensor& x) {
    const int kt_count = ceil_div(L.k(), n_), nt_count = ceil_div(L.out_c, n_);
    const std::string what = "layer " + std::to_string(l) + " (dense) at batch " + std::to_string(b_);
    check_field(b_, 65536, "the batch");
    int in_ub = x.ub;
    if (!x.in_ub) {
      check_field(x.item_bytes, 65535, "the input row stride");
      in_ub = alloc_ub(kt_count * b_, what);
      for (int kt = 0; kt < kt_count; ++kt)
        emit("rhm ub=" + std::to_string(in_ub + kt * b_) + ", rows=" + std::to_string(b_) + ", addr=" + x.label + "+" +
             std::to_string(kt * n_) + ", stride=" + std::to_string(x.item_bytes) +
             ", seglen=" + std::to_string(std::min(n_, L.k() - kt * n_)));
    }
    const int out_ub = alloc_ub(nt_count * b_, what);
    const int bufs = acc_buffers(b_, nt_count, what);
    for (int nt = 0; nt < nt_count; ++nt) {
      const int acc = (nt % bufs) * b_;
      const int params = param_block(L, nt);
      for (int kt = 0; kt < kt_count; ++kt) {
        const int tile = weight_tile(l, L, kt * n_, std::min(n_, L.k() - kt * n_), nt);
        emit("mmc ub=" + std::to_string(in_ub + kt * b_) + ", rows=" + std::to_string(b_) + ", acc=" +
                 std::to_string(acc) + ", switch" + (kt ? ", accumulate" : ""),
             tile);
      }
      act(acc, out_ub + nt * b_, b_, params, L, 1);
    }
    macs_ += uint64_t(b_) * L.k() * L.out_c;
    weights_.push_back(L.w);
    return {true, "", L.out_c, out_ub};
  }

  Tensor conv(size_t l, const QuantLayer& L, const Tensor& x, const std::string& out_label) {
    const std::string what = "layer " + std::to_string(l) + " (conv2d) at batch " + std::to_string(b_);
    const int C = L.in.c, W = L.in.w, P = L.pool, planes = P * P;
    const nn::Shape os = L.out_shape();
    const int row_bytes = L.kw * C;  // one kernel row of one window: a segment
    if (row_bytes > n_)
      throw CompileError("layer " + std::to_string(l) + ": a kernel row (kw * in_channels = " + std::to_string(row_bytes) +
                         " bytes) is wider than the array (N = " + std::to_string(n_) + ")");
    if (planes > 16) throw CompileError("layer " + std::to_string(l) + ": pooling windows above 4x4 are not supported");
    check_field(long(W) * C, 65535, "the image row stride");
    check_field(x.item_bytes, 65535, "the image stride");
    const int per_tile = std::min(L.kh, n_ / row_bytes);  // kernel rows per K tile
    const int kt_count = ceil_div(L.kh, per_tile), nt_count = ceil_div(L.out_c, n_);
    const int R = b_ * os.h * os.w;  // output rows: item-major, then position
    check_field(long(planes) * R, 65536, "the rows of one multiply");
    const int im2col = alloc_ub(kt_count * planes * R, what);
    for (int kt = 0; kt < kt_count; ++kt) {
      const int ky0 = kt * per_tile, nky = std::min(per_tile, L.kh - ky0);
      for (int b = 0; b < b_; ++b)
        for (int g = 0; g < planes; ++g)
          for (int py = 0; py < os.h; ++py) {
            const int dy = g / P, dx = g % P;
            const long addr = long(b) * x.item_bytes + (long(py * P + dy + ky0) * W + dx) * C;
            std::string s = "rhm ub=" + std::to_string(im2col + kt * planes * R + g * R + (b * os.h + py) * os.w) +
                            ", rows=" + std::to_string(os.w) + ", addr=" + x.label + "+" + std::to_string(addr) +
                            ", stride=" + std::to_string(P * C) + ", seglen=" + std::to_string(row_bytes);
            if (nky > 1) s += ", segs=" + std::to_string(nky) + ", segstride=" + std::to_string(W * C);
            emit(s);
          }
    }
    const int out_ub = alloc_ub(nt_count * R, what);
    const int bufs = acc_buffers(planes * R, nt_count, what);
    for (int nt = 0; nt < nt_count; ++nt) {
      const int acc = (nt % bufs) * planes * R;
      const int params = param_block(L, nt);
      for (int kt = 0; kt < kt_count; ++kt) {
        const int ky0 = kt * per_tile, nky = std::min(per_tile, L.kh - ky0);
        const int tile = weight_tile(l, L, ky0 * row_bytes, nky * row_bytes, nt);
        emit("mmc ub=" + std::to_string(im2col + kt * planes * R) + ", rows=" + std::to_string(planes * R) +
                 ", acc=" + std::to_string(acc) + ", switch" + (kt ? ", accumulate" : ""),
             tile);
      }
      act(acc, out_ub + nt * R, R, params, L, planes);
    }
    store(out_ub, R, L.out_c, out_label);
    macs_ += uint64_t(planes) * R * L.k() * L.out_c;
    weights_.push_back(L.w);
    return {false, out_label, os.size(), 0};
  }

  static void bytes_lines(std::ostringstream& s, const uint8_t* p, size_t n, bool is_signed) {
    for (size_t i = 0; i < n; i += 32) {
      s << "        .byte ";
      for (size_t j = i; j < std::min(n, i + 32); ++j)
        s << (j > i ? "," : "") << (is_signed ? int(int8_t(p[j])) : int(p[j]));
      s << "\n";
    }
  }

  std::string assemble_text() {
    std::ostringstream s;
    s << "; " << m_.name << " compiled by tpu-cc for " << cfg_.summary() << "\n"
      << "; batch " << b_ << ": write " << b_ << " x " << m_.input.size() << " input bytes (HWC int8) to `input`,\n"
      << "; read " << b_ << " x " << m_.classes() << " int8 logits from `logits`.\n\n.text\n";
    const int depth = int(cfg_.wfifo_depth);
    size_t next_rw = 0, instructions = 0;
    for (const Line& line : body_) {
      if (line.tile >= 0)  // keep the weight FIFO full ahead of the multiplies
        while (next_rw < tiles_.size() && int(next_rw) <= line.tile + depth - 1) {
          s << "        " << tiles_[next_rw++] << "\n";
          ++instructions;
        }
      s << "        " << line.text << "\n";
      ++instructions;
    }
    s << "\n.data\n";
    uint64_t data_bytes = 0;
    auto space = [&](const std::string& label, size_t bytes) {
      s << "        .align 64\n" << label << ":\n        .space " << bytes << "\n";
      data_bytes += (bytes + 63) / 64 * 64;
    };
    space("input", size_t(b_) * m_.input.size());
    for (const auto& d : dram_)
      if (d.first != "logits") space(d.first, d.second);
    space("logits", size_t(b_) * m_.classes());
    s << "        .align 64\nparams:\n";
    bytes_lines(s, param_data_.data(), param_data_.size(), false);
    data_bytes += param_data_.size();
    for (size_t l = 0; l < weights_.size(); ++l) {
      s << "        .align 64\nw" << l << ":\n";
      bytes_lines(s, reinterpret_cast<const uint8_t*>(weights_[l].data()), weights_[l].size(), true);
      data_bytes += (weights_[l].size() + 63) / 64 * 64;
    }
    const uint64_t total = (instructions * 16 + 63) / 64 * 64 + data_bytes;
    if (total > cfg_.dram_bytes)
      throw DoesNotFit{"the program and its data need " + std::to_string(total) + " bytes of device memory, the core has " +
                       std::to_string(cfg_.dram_bytes)};
    return s.str();
  }

  const QuantModel& m_;
  const Config& cfg_;
  int n_, b_;
  int params_rows_ = 0, cursor_ = 0;
  uint64_t macs_ = 0;
  std::vector<Line> body_;
  std::vector<std::string> tiles_;
  std::vector<uint8_t> param_data_;
  std::vector<std::vector<int8_t>> weights_;
  std::vector<std::pair<std::string, size_t>> dram_;  // device-memory buffers: label, bytes
};

}  // namespace

CompiledModel compile_model(const QuantModel& model, const Config& cfg, const CompileOptions& opt) {
  if (model.layers.empty()) throw CompileError(model.name + ": the model has no layers");
  if (opt.batch < 0) throw CompileError("the batch must be positive");
  const int first = opt.batch > 0 ? opt.batch : 64;
  std::string why;
  for (int b = first; b >= (opt.batch > 0 ? first : 1); --b) {
    try {
      return Lowering(model, cfg, b).run();
    } catch (const DoesNotFit& e) {
      why = e.what;
    }
  }
  throw CompileError(model.name + " does not fit the core (" + cfg.summary() + "): " + why);
}

}  // namespace tessera::compiler
