// SPDX-License-Identifier: Apache-2.0
#include "compiler/compiler.hpp"

#include <algorithm>
#include <sstream>

#include "compiler/lowering.hpp"

namespace tessera::compiler {
namespace detail {

using nn::LayerKind;
using nn::QuantLayer;

CompiledModel Lowering::run() {
  Tensor x{false, "input", m_->input.size(), 0};
  for (size_t l = 0; l < m_->layers.size(); ++l) {
    const bool last = l + 1 == m_->layers.size();
    const QuantLayer& L = m_->layers[l];
    cursor_ = x.in_ub ? x.ub + ceil_div(x.item_bytes, n_) * b_ : 0;
    low_ = 0, low_end_ = x.in_ub ? x.ub : 0;
    if (L.kind == LayerKind::Dense) {
      x = dense(l, L, x, last ? "logits" : "");
    } else {
      x = conv(l, L, x, last ? "logits" : "scratch" + std::to_string(l));
    }
    if (last && x.in_ub) store(x.ub, b_, x.item_bytes, "logits");
  }
  emit(asm_plain(Opcode::HALT));
  CompiledModel out;
  out.batch = b_;
  out.input_bytes = m_->input.size();
  out.output_bytes = m_->layers.back().out_shape().size();
  out.macs = macs_;
  out.assembly = assemble_text();
  return out;
}

void Lowering::need_ub(int rows, const std::string& what) const {
  if (rows > int(cfg_->ub_rows))
    throw DoesNotFit{what + ": " + std::to_string(rows) + " unified-buffer rows needed, the core has " +
                     std::to_string(cfg_->ub_rows)};
}

int Lowering::alloc_ub(int rows, const std::string& what) {
  if (low_ + rows <= low_end_) {
    low_ += rows;
    return low_ - rows;
  }
  const int at = cursor_;
  cursor_ += rows;
  need_ub(cursor_, what);
  return at;
}

void Lowering::need_acc(int rows, const std::string& what) const {
  if (rows > int(cfg_->acc_rows))
    throw DoesNotFit{what + ": " + std::to_string(rows) + " accumulator rows needed, the core has " +
                     std::to_string(cfg_->acc_rows)};
}

void Lowering::check_field(long v, long max, const std::string& what) {
  if (v > max) throw CompileError(what + " is " + std::to_string(v) + ", above the ISA's limit of " + std::to_string(max));
}

void Lowering::fits_field(long v, long max, const std::string& what) const {
  if (v > max)
    throw DoesNotFit{what + " is " + std::to_string(v) + ", above the ISA's limit of " + std::to_string(max)};
}

// Accumulator rows for groups of `rows`; two buffers when there are several groups and
// room, so that `act` of one overlaps the multiplies of the next.
int Lowering::acc_buffers(int rows, int tiles, const std::string& what) const {
  need_acc(rows, what);
  return tiles > 1 && 2 * rows <= int(cfg_->acc_rows) ? 2 : 1;
}

// Output tile nt of layer L: bias with the input zero point folded in
// (sum (x - zp) w = sum x w - zp * sum w), multiplier, shift.
int64_t folded_bias(const QuantLayer& L, int c) {
  int64_t colsum = 0;
  for (int k = 0; k < L.k(); ++k) colsum += L.w[size_t(k) * L.out_c + c];
  return int64_t{L.bias[c]} - int64_t{L.in_zp} * colsum;
}

ActParams Lowering::layer_params(const QuantLayer& L, int nt) const {
  ActParams p{std::vector<int64_t>(n_, 0), std::vector<int32_t>(n_, 0), std::vector<uint8_t>(n_, 0)};
  for (int i = 0; i < n_ && nt * n_ + i < L.out_c; ++i) {
    const int c = nt * n_ + i;
    p.bias[i] = folded_bias(L, c);
    p.multiplier[i] = L.multiplier[c];
    p.shift[i] = L.shift[c];
  }
  return p;
}

// Appends the blocks to the parameter data and loads them into the unified buffer.
int Lowering::load_params(const std::vector<ActParams>& blocks, const std::string& where) {
  const int rows = int(kActParamRows) * int(blocks.size());
  const int ub = alloc_ub(rows, where + ": the activation parameter blocks");
  const size_t offset = param_data_.size();
  for (size_t b = 0; b < blocks.size(); ++b) {
    std::vector<uint8_t> blk(act_block_bytes(uint32_t(n_)), 0);
    for (int i = 0; i < n_; ++i) {
      const int64_t bias = blocks[b].bias[i];
      if (bias < INT32_MIN || bias > INT32_MAX)
        throw CompileError(where + ", output block " + std::to_string(b) + " lane " + std::to_string(i) +
                           ": the bias with the input zero point folded in (" + std::to_string(bias) +
                           ") does not fit int32");
      put_act_lane(blk.data(), uint32_t(n_), uint32_t(i),
                   ActLane{int32_t(bias), blocks[b].multiplier[i], blocks[b].shift[i]});
    }
    param_data_.insert(param_data_.end(), blk.begin(), blk.end());
  }
  rhm(ub, rows, {"params", int64_t(offset)}, n_, n_);
  return ub;
}

int Lowering::add_tiles(const AsmInstr& rw) {
  const int first = tiles_.empty() ? 0 : tiles_.back().first + tiles_.back().count;
  tiles_.push_back({asm_text(rw), first, int(rw.in.tiles)});
  return first;
}

int Lowering::weight_tile(size_t l, const QuantLayer& L, int k0, int kcount, int nt) {
  return add_tiles(asm_rw({"w" + std::to_string(l), int64_t(k0) * L.out_c + int64_t(nt) * n_}, L.out_c, kcount,
                          std::min(n_, L.out_c - nt * n_)));
}

// An N x N tile (row k, column n) stored once in the weight data at `label`.
size_t Lowering::tile_data(const std::string& label, const std::vector<int8_t>& tile) {
  auto it = std::find_if(blobs_.begin(), blobs_.end(), [&](const auto& b) { return b.first == label; });
  if (it == blobs_.end()) it = blobs_.insert(blobs_.end(), {label, {}});
  const size_t at = it->second.size();
  it->second.insert(it->second.end(), tile.begin(), tile.end());
  return at;
}

int Lowering::rw_tile(const std::string& label, size_t offset, int kcount, int ncount) {
  return add_tiles(asm_rw({label, int64_t(offset)}, n_, kcount, ncount));
}

// A device-memory row of N bytes equal to zp: the source of padding rows (rhm stride 0).
std::string Lowering::zero_point_row(int zp) {
  auto it = zp_rows_.find(zp);
  if (it == zp_rows_.end()) it = zp_rows_.insert({zp, "pad" + std::to_string(zp_rows_.size())}).first;
  return it->second;
}

void Lowering::rhm(int ub, int rows, const AsmAddr& addr, long stride, int seglen, int segs, long segstride) {
  fits_field(rows, 65536, "the rows of one rhm");
  check_field(stride, 65535, "an rhm row stride");
  check_field(segstride, 65535, "an rhm segment stride");
  AsmInstr x = asm_rhm(ub, rows, addr, stride, seglen);
  x.in.segs = segs, x.in.segstride = segstride;
  emit(x);
  body_.back().load_rows = rows;
}

void Lowering::mmc(int ub, int rows, int acc, bool sw, bool accumulate, int tile, int tiles, int ubstride,
                   int accstride) {
  fits_field(rows, 65536, "the rows of one multiply");
  AsmInstr x = asm_mmc(ub, rows, acc, sw, accumulate);
  x.in.tiles = tiles, x.in.ubstride = ubstride, x.in.accstride = accstride;
  emit(x, sw ? tile : -1);
}

void Lowering::act(int acc, int ub, int rows, int params, const QuantLayer& L, int pool) {
  fits_field(rows, 65536, "the rows of one act");
  AsmInstr x = asm_act(acc, ub, rows, params, L.out_zp, L.relu);
  x.in.pool = pool;
  emit(x);
}

void Lowering::whm(int ub, int rows, const AsmAddr& addr, long stride, int len, int groups, long gstride) {
  fits_field(rows, 65536, "the rows of one whm");
  check_field(stride, 65535, "a row stride in device memory");
  check_field(groups, 64, "the groups of one whm");
  check_field(gstride, 65535, "a group stride in device memory");
  AsmInstr x = asm_whm(ub, rows, addr, stride, len);
  x.in.groups = groups, x.in.gstride = gstride;
  emit(x);
}

// Column tiles of `rows` rows each (row r of every tile belongs to item r / rows-per-item)
// to device memory at label, `width` bytes per row.
void Lowering::store(int ub, int rows, int width, const std::string& label) {
  for (int t = 0; t < ceil_div(width, n_); ++t)
    whm(ub + t * rows, rows, {label, t * n_}, width, std::min(n_, width - t * n_));
  scratch(label, size_t(rows) * size_t(width));
}

// A device-memory buffer of the program (in its data section); a few spare bytes at
// the end, since a gather may read past a tensor's last byte for rows it discards.
std::string Lowering::scratch(const std::string& label, size_t bytes, int fill) {
  dram_.push_back({label, bytes, fill});
  return label;
}

Tensor Lowering::flatten(const Tensor& x, size_t l) {
  const std::string label = "flat" + std::to_string(l);
  store(x.ub, b_, x.item_bytes, label);
  return {false, label, x.item_bytes, 0};
}

Tensor Lowering::dense(size_t l, const QuantLayer& L, const Tensor& x, const std::string& out_label) {
  const int kt_count = ceil_div(L.k(), n_), nt_count = ceil_div(L.out_c, n_);
  const std::string what = "layer " + std::to_string(l) + " (dense) at batch " + std::to_string(b_);
  strategies_.push_back("dense");
  std::vector<ActParams> blocks;
  for (int nt = 0; nt < nt_count; ++nt) blocks.push_back(layer_params(L, nt));
  int params = 0;
  std::vector<Line> param_load = capture([&] { params = load_params(blocks, "layer " + std::to_string(l)); });
  const int in_ub = input_tiles(x, kt_count, L.k(), what);
  const int out_ub = alloc_ub(nt_count * b_, what);
  auto tile = [&](int kt, int nt) { return weight_tile(l, L, kt * n_, std::min(n_, L.k() - kt * n_), nt); };
  Tensor out{true, "", L.out_c, out_ub};  // (or stored, below)
  auto flush = [&](std::vector<Line>& lines) {
    body_.insert(body_.end(), lines.begin(), lines.end());
    lines.clear();
  };
  if (nt_count > 1 && nt_count * b_ <= int(cfg_->acc_rows)) {
    // Every output tile's sums in the accumulators at once. Output tiles of the same
    // width go in groups of half the weight FIFO: one rw and one mmc of several tiles
    // per K tile, so instructions take little of the bus, and the next K tile's rw
    // goes before this one's mmc (assemble_text keeps the FIFO full), so the weights
    // load a group ahead. A group runs through every K tile before the next starts, so
    // that its acts (and, in the last layer, its stores) run beside the next group's
    // multiplies: they go a few K tiles into it (an act waits at issue for its
    // multiplies and holds up everything behind it; a store waits for its acts). The
    // next K tile of inputs loads behind the first multiply of this one, not in front
    // of its own (an mmc waiting for its rows at issue holds up everything behind it).
    const int group = std::max(1, std::min(int(cfg_->wfifo_depth) / 2, 16)), full = L.out_c / n_;
    std::vector<Line> acts, stores;  // of the group before
    auto finish = [&](int nt0, int g) {
      acts = capture([&] {
        for (int nt = nt0; nt < nt0 + g; ++nt)
          act(nt * b_, out_ub + nt * b_, b_, act_block_row(params, nt), L, 1);
      });
      if (!out_label.empty())
        stores = capture([&] {
          for (int nt = nt0; nt < nt0 + g; ++nt)
            whm(out_ub + nt * b_, b_, {out_label, nt * n_}, L.out_c, std::min(n_, L.out_c - nt * n_));
        });
    };
    // The weights as whole N x N tiles, a group's side by side: an rw reads one span.
    const std::string label = "wt" + std::to_string(l);
    auto tiles = [&](int kt, int nt, int g) {
      const int k = std::min(n_, L.k() - kt * n_), n = std::min(n_, L.out_c - nt * n_);
      size_t at = 0;
      for (int t = 0; t < g; ++t) {
        std::vector<int8_t> tile(size_t(n_) * size_t(n_), 0);
        for (int r = 0; r < k; ++r)
          for (int c = 0; c < n; ++c) tile[size_t(r * n_ + c)] = L.w[size_t(kt * n_ + r) * size_t(L.out_c) + size_t((nt + t) * n_ + c)];
        const size_t here = tile_data(label, tile);
        if (t == 0) at = here;
      }
      AsmInstr rw = asm_rw({label, int64_t(at)}, n_, k, n);
      if (g > 1) rw.in.tiles = g, rw.in.tstride = n_ * n_;
      return add_tiles(rw);
    };
    load_input_tile(0);
    for (int nt = 0; nt < nt_count;) {
      const int g = nt < full ? std::min(group, full - nt) : 1;
      for (int kt = 0; kt < kt_count; ++kt) {
        const int first = tiles(kt, nt, g);
        mmc(in_ub + kt * b_, b_, nt * b_, true, kt > 0, first, g, 0, b_);
        load_input_tile(kt + 1);
        if (kt == 0) flush(param_load);  // (needed by the first act only)
        if (kt == std::min(2, kt_count - 1)) flush(acts);
        if (kt == std::min(5, kt_count - 1)) flush(stores);
      }
      finish(nt, g);
      nt += g;
    }
    // The last group's act and store tile by tile: a whm waits for every act issued
    // before it (its fence), so each store follows only its own act.
    for (size_t i = 0; i < acts.size(); ++i) {
      body_.push_back(acts[i]);
      if (i < stores.size()) body_.push_back(stores[i]);
    }
    if (!out_label.empty()) {
      scratch(out_label, size_t(b_) * size_t(L.out_c));
      out = {false, out_label, L.out_c, 0};
    }
  } else {
    flush(param_load);
    const int bufs = acc_buffers(b_, nt_count, what);
    for (int nt = 0; nt < nt_count; ++nt) {
      const int acc = (nt % bufs) * b_;
      load_input_tile(0);
      for (int kt = 0; kt < kt_count; ++kt) {
        mmc(in_ub + kt * b_, b_, acc, true, kt > 0, tile(kt, nt));
        load_input_tile(kt + 1);
      }
      act(acc, out_ub + nt * b_, b_, act_block_row(params, nt), L, 1);
    }
    std::vector<int8_t> w(L.w.begin(), L.w.end());
    blobs_.push_back({"w" + std::to_string(l), w});
  }
  macs_ += uint64_t(b_) * L.k() * L.out_c;
  return out;
}

// The unified-buffer rows of a layer's input as K tiles of B rows (tile kt of item b at
// row + kt*B + b): where they are when the layer before left them there, else rows to
// load from device memory, each tile just before its first multiply (load_input_tile).
int Lowering::input_tiles(const Tensor& x, int kt_count, int k, const std::string& what) {
  input_loads_.clear();
  if (x.in_ub) return x.ub;
  check_field(x.item_bytes, 65535, "the input row stride");
  const int ub = alloc_ub(kt_count * b_, what);
  for (int kt = 0; kt < kt_count; ++kt) {
    const size_t before = body_.size();
    rhm(ub + kt * b_, b_, {x.label, kt * n_}, x.item_bytes, std::min(n_, k - kt * n_));
    input_loads_.push_back(body_.back());
    body_.resize(before);
  }
  return ub;
}

void Lowering::load_input_tile(int kt) {
  if (size_t(kt) < input_loads_.size() && !input_loads_[kt].text.empty()) {
    body_.push_back(input_loads_[kt]);
    input_loads_[kt].text.clear();
  }
}

std::string Lowering::assemble_text() {
  std::ostringstream s;
  s << "; " << m_->name << " compiled by tpu-cc for " << cfg_->summary() << "\n"
    << "; batch " << b_ << ": write " << b_ << " x " << m_->input.size() << " input bytes (HWC int8) to `input`,\n"
    << "; read " << b_ << " x " << m_->classes() << " int8 logits from `logits`.\n";
  for (size_t l = 0; l < strategies_.size(); ++l) s << "; layer " << l << ": " << strategies_[l] << "\n";
  s << "\n.text\n";
  const int depth = int(cfg_->wfifo_depth);
  size_t next_rw = 0, instructions = 0;
  for (const Line& line : body_) {
    if (line.tile >= 0)  // keep the weight FIFO full ahead of the multiplies
      while (next_rw < tiles_.size() && tiles_[next_rw].first + tiles_[next_rw].count <= line.tile + depth) {
        s << "        " << tiles_[next_rw++].text << "\n";
        ++instructions;
      }
    s << "        " << line.text << "\n";
    ++instructions;
  }
  s << "\n.data\n";
  uint64_t data_bytes = 0;
  // A gather may read a little past a tensor (conv.cpp): the program's own buffers get
  // spare bytes. `input` and `logits` have their exact sizes, which a host reads as the
  // batch: a label `..._end` after each keeps the alignment padding out of the symbol.
  const size_t spare = size_t(4 * n_);
  auto space = [&](const std::string& label, size_t bytes, int fill) {
    s << "        .align 64\n" << label << ":\n        .space " << bytes;
    if (fill) s << ", " << fill;
    s << "\n";
    if (label == "input" || label == "logits") s << label << "_end:\n";
    data_bytes += (bytes + 63) / 64 * 64;
  };
  space("input", size_t(b_) * m_->input.size(), 0);
  std::vector<std::string> seen{"input"};
  for (const Buffer& d : dram_)
    if (d.label != "logits" && std::find(seen.begin(), seen.end(), d.label) == seen.end()) {
      space(d.label, d.bytes + spare, d.fill & 0xff);
      seen.push_back(d.label);
    }
  space("logits", size_t(b_) * m_->classes(), 0);
  for (const auto& z : zp_rows_) space(z.second, size_t(n_), z.first & 0xff);
  s << "        .align 64\nparams:\n";
  for (size_t i = 0; i < param_data_.size(); i += 32) {
    s << "        .byte ";
    for (size_t j = i; j < std::min(param_data_.size(), i + 32); ++j) s << (j > i ? "," : "") << int(param_data_[j]);
    s << "\n";
  }
  data_bytes += param_data_.size();
  for (const auto& blob : blobs_) {
    s << "        .align 64\n" << blob.first << ":\n";
    for (size_t i = 0; i < blob.second.size(); i += 32) {
      s << "        .byte ";
      for (size_t j = i; j < std::min(blob.second.size(), i + 32); ++j) s << (j > i ? "," : "") << int(blob.second[j]);
      s << "\n";
    }
    data_bytes += (blob.second.size() + 63) / 64 * 64;
  }
  const uint64_t total = (instructions * 16 + 63) / 64 * 64 + data_bytes;
  if (total > cfg_->dram_bytes)
    throw DoesNotFit{"the program and its data need " + std::to_string(total) + " bytes of device memory, the core has " +
                     std::to_string(cfg_->dram_bytes)};
  return s.str();
}

}  // namespace detail

namespace {

constexpr int kMaxBatch = 256;  // the batch search's upper end

// The core adds an int32 bias per output channel; the input zero point is folded into it
// (layer_params), which must still fit.
void check_folded_biases(const nn::QuantModel& model) {
  for (size_t l = 0; l < model.layers.size(); ++l) {
    const nn::QuantLayer& L = model.layers[l];
    for (int c = 0; c < L.out_c; ++c) {
      const int64_t folded = detail::folded_bias(L, c);
      if (folded < INT32_MIN || folded > INT32_MAX)
        throw CompileError("layer " + std::to_string(l) + (L.kind == nn::LayerKind::Dense ? " (dense)" : " (conv2d)") +
                           ", output channel " + std::to_string(c) + ": the bias " + std::to_string(L.bias[c]) +
                           " with the input zero point " + std::to_string(L.in_zp) + " folded in is " +
                           std::to_string(folded) + ", outside int32 (the core adds an int32 bias)");
    }
  }
}

}  // namespace

CompiledModel compile_model(const nn::QuantModel& model, const Config& cfg, const CompileOptions& opt) {
  if (model.layers.empty()) throw CompileError(model.name + ": the model has no layers");
  check_folded_biases(model);
  if (opt.batch < 0) throw CompileError("the batch must be positive");
  auto fail = [&](const std::string& why) {
    return CompileError(model.name + " does not fit the core (" + cfg.summary() + "): " + why);
  };
  if (opt.batch > 0) {
    try {
      return detail::Lowering(model, cfg, opt.batch, opt.conv).run();
    } catch (const detail::DoesNotFit& e) {
      throw fail(e.what);
    }
  }
  // The largest batch that fits (what fits at a batch also fits at any smaller one).
  std::string why;
  auto attempt = [&](int b, CompiledModel& out) {
    try {
      out = detail::Lowering(model, cfg, b, opt.conv).run();
      return true;
    } catch (const detail::DoesNotFit& e) {
      why = e.what;
      return false;
    }
  };
  CompiledModel best;
  if (attempt(kMaxBatch, best)) return best;
  if (!attempt(1, best)) throw fail(why);
  int lo = 1, hi = kMaxBatch;  // lo fits, hi does not
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    CompiledModel c;
    if (attempt(mid, c))
      lo = mid, best = std::move(c);
    else
      hi = mid;
  }
  return best;
}

}  // namespace tessera::compiler
