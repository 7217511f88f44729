// SPDX-License-Identifier: Apache-2.0
// Convolutions (docs/programming.md, "How layers are lowered"). Pooling: each P x P
// pooling offset (dy, dx) is an accumulator plane of its own and `act` takes the
// maximum, so every way below computes, for each plane, the convolution at output
// positions (py*P + dy, px*P + dx).
#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "compiler/lowering.hpp"

namespace tessera::compiler::detail {

using nn::QuantLayer;

namespace {

// Cycles one device-memory span (a segment of a gathered row) and one short DMA
// instruction cost on the core (measured with make bench), for choosing a lowering.
constexpr double kSpanCycles = 2.0, kInstrCycles = 20.0, kFillRowCycles = 2.0;
constexpr int kLongMultiply = 128;  // rows of a multiply that hide a weight tile's load and the fixed costs
constexpr int kTailRows = 32;       // the shortest chunk of the last step's rows (each reloads its weight tiles)
constexpr int kPartRows = 96;       // with few tap groups: multiplies in parts of about four image rows' loads
constexpr int kChunkRows = 192;     // with few tap groups: rows of a chunk (its act and store beside the next)
constexpr size_t kToeplitzMaxBytes = 256 * 1024;  // weight data of a Toeplitz lowering (and a quarter of memory)

std::string where_of(size_t l) { return "layer " + std::to_string(l) + " (conv2d)"; }

// Geometry of the `taps` lowering: the padded input split into S x S phase planes
// (S = stride * pool), each Hq x Wq unified-buffer rows, so that every kernel tap of
// every pooling plane reads a contiguous run of rows. Accumulator row py*Wq + px is
// output (py, px) of an item; columns px >= PW are computed and discarded.
struct TapsGeometry {
  int S, Hq, Wq, HW, kxp, blocks, groups;  // groups: tap groups (kernel rows x column runs x channel blocks)
  TapsGeometry(const QuantLayer& L, int n) {
    S = L.stride * L.pool;
    Hq = ceil_div(L.in.h + L.pad_t + L.pad_b, S);
    Wq = ceil_div(L.in.w + L.pad_l + L.pad_r, S);
    if (S == 1 && L.pad_r > 0) {
      // The right padding of a row is the left padding of the next: a tap past the row's
      // end reads the next row's first columns (or an extra padding row at the end).
      Wq = L.in.w + std::max(L.pad_l, L.pad_r);
      Hq += 1;
    }
    HW = Hq * Wq;
    // Small channel counts: one row holds kxp horizontally adjacent pixels (a run of
    // kernel columns), read as one segment; needs no padding at the sides.
    const bool pack = L.pad_l == 0 && L.pad_r == 0 && 2 * L.in.c <= n && L.kw > 1;
    kxp = pack ? std::min(L.kw, n / L.in.c) : 1;
    blocks = pack ? 1 : ceil_div(L.in.c, n);  // channel blocks of N
    groups = L.kh * ceil_div(L.kw, kxp) * blocks;
  }
};

}  // namespace

// The `gathered` lowering, for few input channels: each unified-buffer row holds pieces of
// several kernel rows of one window, gathered by rhm's segments (which the DMA reads at a
// row per cycle up to gather_segs segments). The convolution is then a 1x1 convolution,
// with the same stride and pooling, over a virtual input whose pixel (y, x) is the window
// at (y, x) of the (padded) input, in `blocks` rows of N lanes; conv_taps does the rest.
struct Gather {
  struct Block {
    int ky0, segs, pos, seglen;  // kernel rows ky0 .. ky0+segs-1, bytes [pos, pos+seglen) of each
  };
  std::vector<Block> blocks;
  long pixel_bytes = 0, row_bytes = 0;  // between horizontally / vertically adjacent windows
  QuantLayer virt;                      // the 1x1 convolution over the windows
};

namespace {

// The fewest rows a window fits in, cutting each kernel row (kw*C bytes) into pieces of
// one length and stacking a piece's kernel rows as segments; nullopt if no better than
// `than` rows.
std::optional<Gather> gather_plan(const QuantLayer& L, int n, int max_segs, int than) {
  if (max_segs < 2 || L.padded()) return std::nullopt;
  const int C = L.in.c, run = L.kw * C;
  std::vector<Gather::Block> best;
  for (int len = std::min(n, run); len >= 1; --len) {
    std::vector<Gather::Block> blocks;
    for (int pos = 0; pos < run; pos += len) {
      const int seglen = std::min(len, run - pos), per = std::min({n / seglen, max_segs, L.kh});
      for (int ky0 = 0; ky0 < L.kh; ky0 += per) blocks.push_back({ky0, std::min(per, L.kh - ky0), pos, seglen});
    }
    if (best.empty() || blocks.size() < best.size()) best = blocks;
  }
  if (int(best.size()) >= than) return std::nullopt;
  Gather g;
  g.blocks = best;
  g.pixel_bytes = C, g.row_bytes = long(L.in.w) * C;
  QuantLayer& v = g.virt;
  v = L;
  v.in = {L.in.h - L.kh + 1, L.in.w - L.kw + 1, int(best.size()) * n};
  v.kh = v.kw = 1;
  const int OC = L.out_c;
  v.w.assign(size_t(v.in.c) * OC, 0);
  for (size_t t = 0; t < best.size(); ++t) {
    const Gather::Block& b = best[t];
    for (int k = 0; k < b.segs * b.seglen; ++k) {
      const int ky = b.ky0 + k / b.seglen, q = b.pos + k % b.seglen, kx = q / C, c = q % C;
      for (int oc = 0; oc < OC; ++oc)
        v.w[(t * n + k) * size_t(OC) + oc] = L.w[size_t((ky * L.kw + kx) * C + c) * OC + oc];
    }
  }
  return g;
}

}  // namespace

// The `toeplitz` lowering: the convolution as a dense layer from the whole input
// (H*W*C lanes) to the pooled outputs of each pooling plane (PH*PW*OUT lanes, in HWC
// order), keeping only the weight tiles that are not all zero.
struct ToeplitzPlan {
  int kin = 0, nout = 0, kt = 0, nt = 0;
  std::vector<std::vector<std::map<int, std::vector<int8_t>>>> tiles;  // [nt][plane]: K tile -> N x N tile
  std::vector<ActParams> params;                                       // per output tile
  size_t nonzero = 0;
  bool ok = true;  // false: the planes would need different folded biases (padding)
};

namespace {

ToeplitzPlan toeplitz_plan(const QuantLayer& L, int n, bool with_data) {
  ToeplitzPlan p;
  const nn::Shape os = L.out_shape();
  const int P = L.pool, planes = P * P, C = L.in.c, OC = L.out_c;
  p.kin = L.in.size(), p.nout = os.size(), p.kt = ceil_div(p.kin, n), p.nt = ceil_div(p.nout, n);
  p.tiles.assign(p.nt, std::vector<std::map<int, std::vector<int8_t>>>(planes));
  for (int t = 0; t < p.nt; ++t) {
    ActParams a{std::vector<int64_t>(n, 0), std::vector<int32_t>(n, 0), std::vector<uint8_t>(n, 0)};
    for (int g = 0; g < planes; ++g) {
      std::set<int> used;
      for (int lane = 0; lane < n && t * n + lane < p.nout; ++lane) {
        const int o = t * n + lane, oc = o % OC, pos = o / OC;
        const int oy = (pos / os.w) * P + g / P, ox = (pos % os.w) * P + g % P;
        int64_t colsum = 0;
        for (int ky = 0; ky < L.kh; ++ky)
          for (int kx = 0; kx < L.kw; ++kx) {
            const int iy = L.in_y(oy, ky), ix = L.in_x(ox, kx);
            if (iy < 0 || iy >= L.in.h || ix < 0 || ix >= L.in.w) continue;
            for (int c = 0; c < C; ++c) {
              const int k = (iy * L.in.w + ix) * C + c;
              const int8_t w = L.w[size_t((ky * L.kw + kx) * C + c) * OC + oc];
              colsum += w;
              if (with_data) {
                auto& tile = p.tiles[t][g][k / n];
                if (tile.empty()) tile.assign(size_t(n) * n, 0);
                tile[size_t(k % n) * n + lane] = w;
              } else {
                used.insert(k / n);
              }
            }
          }
        const int64_t bias = int64_t{L.bias[oc]} - int64_t{L.in_zp} * colsum;
        if (g > 0 && a.bias[lane] != bias) p.ok = false;
        a.bias[lane] = bias, a.multiplier[lane] = L.multiplier[oc], a.shift[lane] = L.shift[oc];
      }
      p.nonzero += with_data ? p.tiles[t][g].size() : used.size();
    }
    p.params.push_back(a);
  }
  return p;
}

}  // namespace

Tensor Lowering::conv(size_t l, const QuantLayer& L, const Tensor& x, const std::string& out_label) {
  const int P = L.pool, planes = P * P, C = L.in.c;
  if (planes > 16) throw CompileError(where_of(l) + ": pooling windows above 4x4 are not supported");
  const nn::Shape os = L.out_shape();
  const double B = b_, pos = double(planes) * os.h * os.w, nt = ceil_div(L.out_c, n_);
  // Estimated cycles of each lowering that applies (multiplies or gathers, whichever
  // is longer); below zero: does not apply.
  // With few channels, `taps` packs adjacent pixels into a row, which needs the side
  // padding in memory: it then works on a padded copy of the input (padded_copy).
  const bool copy = (L.pad_l || L.pad_r) && 2 * C <= n_ && L.kw > 1;
  std::optional<QuantLayer> unpadded;  // the layer on the padded copy
  if (copy) {
    unpadded = L;
    unpadded->in.h += L.pad_t + L.pad_b, unpadded->in.w += L.pad_l + L.pad_r;
    unpadded->pad_t = unpadded->pad_l = unpadded->pad_b = unpadded->pad_r = 0;
  }
  const TapsGeometry tg(copy ? *unpadded : L, n_);
  const double copy_cost = copy ? B * L.in.h * kInstrCycles * 2 : 0;
  const double taps = B * nt * tg.groups * planes * tg.HW + copy_cost;
  // (forced, it only has to exist; else it has to take fewer rows than taps)
  const std::optional<Gather> gather =
      gather_plan(copy ? *unpadded : L, n_, int(cfg_->gather_segs),
                  conv_strategy_ == ConvStrategy::gathered ? std::numeric_limits<int>::max() : tg.groups);
  double gathered = -1;
  if (gather) {
    const TapsGeometry gg(gather->virt, n_);
    gathered = B * nt * gg.groups * planes * gg.HW + copy_cost;
  }
  double im2col = -1;
  if (!L.padded() && L.kw * C <= n_) {
    const int per_tile = std::min(L.kh, n_ / (L.kw * C)), kt = ceil_div(L.kh, per_tile);
    im2col = B * std::max(nt * kt * pos, kt * pos * per_tile * kSpanCycles + kt * planes * os.h * kInstrCycles);
  }
  // (every output tile of every plane needs a weight tile at least: a large layer is
  // ruled out without planning it)
  const size_t toeplitz_max = std::min<size_t>(kToeplitzMaxBytes, cfg_->dram_bytes / 4);
  const bool toeplitz_small = size_t(ceil_div(os.size(), n_)) * planes * size_t(n_) * n_ <= toeplitz_max;
  ToeplitzPlan plan;
  if (toeplitz_small) plan = toeplitz_plan(L, n_, false);
  const double toeplitz = toeplitz_small && plan.ok && plan.nonzero * size_t(n_) * n_ <= toeplitz_max
                              ? B * double(plan.nonzero)
                              : -1;

  if (conv_strategy_ == ConvStrategy::im2col && im2col < 0)
    throw CompileError(where_of(l) + ": the im2col lowering needs no padding and a kernel row (kw * in_channels = " +
                       std::to_string(L.kw * C) + " bytes) no wider than the array (N = " + std::to_string(n_) + ")");
  if (conv_strategy_ == ConvStrategy::gathered && gathered < 0)
    throw CompileError(where_of(l) + ": the gathered lowering needs a core that gathers segments (gather_segs >= 2, this core: " +
                       std::to_string(cfg_->gather_segs) + ") and, with padding, few enough input channels (2 * " +
                       std::to_string(C) + " <= N = " + std::to_string(n_) + ") for a padded copy");
  if (conv_strategy_ == ConvStrategy::toeplitz && toeplitz < 0)
    throw CompileError(where_of(l) + ": the toeplitz lowering needs at most " + std::to_string(toeplitz_max) +
                       " bytes of weight tiles (this layer: " + std::to_string(plan.nonzero * size_t(n_) * n_) +
                       ") and, with padding and pooling, a zero input zero point");
  // The candidates, cheapest first; one that does not fit the core gives way to the next.
  std::vector<std::pair<double, ConvStrategy>> order;
  if (conv_strategy_ != ConvStrategy::automatic) {
    order.push_back({0, conv_strategy_});
  } else {
    order.push_back({taps, ConvStrategy::taps});
    if (gathered >= 0) order.push_back({gathered, ConvStrategy::gathered});
    if (im2col >= 0) order.push_back({im2col, ConvStrategy::im2col});
    if (toeplitz >= 0) order.push_back({toeplitz, ConvStrategy::toeplitz});
    std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  }
  std::string first_reason;
  for (const auto& [cost, how] : order) {
    const Lowering saved = *this;
    try {
      Tensor y;
      switch (how) {
        case ConvStrategy::im2col:
          strategies_.push_back("conv2d, im2col");
          y = conv_im2col(l, L, x, out_label);
          break;
        case ConvStrategy::gathered: {
          strategies_.push_back("conv2d, gathered (" + std::to_string(gather->blocks.size()) +
                                " rows of kernel-row segments per window" + (copy ? ", on a padded copy" : "") + ")");
          y = conv_taps(l, gather->virt, copy ? padded_copy(l, L, x) : x, out_label, &*gather);
          break;
        }
        case ConvStrategy::toeplitz:
          strategies_.push_back("conv2d, toeplitz (" + std::to_string(plan.nonzero) + " weight tiles)");
          y = conv_dense(l, L, x, toeplitz_plan(L, n_, true));
          break;
        default:
          strategies_.push_back("conv2d, taps (" + std::to_string(tg.groups) + " tap groups, phase planes of " +
                                std::to_string(tg.Hq) + "x" + std::to_string(tg.Wq) + " rows" +
                                (copy ? ", on a padded copy" : "") + ")");
          y = copy ? conv_taps(l, *unpadded, padded_copy(l, L, x), out_label) : conv_taps(l, L, x, out_label);
      }
      macs_ += uint64_t(b_) * uint64_t(pos) * uint64_t(L.k()) * uint64_t(L.out_c);
      return y;
    } catch (const DoesNotFit& e) {
      *this = saved;
      if (first_reason.empty()) first_reason = e.what;
    }
  }
  throw DoesNotFit{first_reason};
}

Tensor Lowering::conv_taps(size_t l, const QuantLayer& L, const Tensor& x_in, const std::string& out_label,
                           const Gather* gather) {
  const Tensor x = x_in.in_ub ? flatten(x_in, l) : x_in;
  const std::string what = where_of(l) + " at batch " + std::to_string(b_);
  const TapsGeometry g(L, n_);
  const int C = L.in.c, s = L.stride, P = L.pool, planes = P * P, OC = L.out_c, NT = ceil_div(OC, n_);
  const nn::Shape os = L.out_shape();
  const int PH = os.h, PW = os.w, S = g.S, Wq = g.Wq, HW = g.HW;
  // Bytes between adjacent pixels of the input, and between its rows (gathered: windows).
  const long pixel_bytes = gather ? gather->pixel_bytes : C, row_bytes = gather ? gather->row_bytes : long(L.in.w) * C;
  fits_field(long(S) * pixel_bytes, 65535, "the pixel stride of a phase plane");
  if (gather) fits_field(row_bytes, 65535, "the row stride of the gathered windows");

  // Tap groups: kernel row ky, columns kx0 .. kx0+nkx-1 (packed), channel block cb.
  struct Group {
    int ky, kx0, nkx, cb;
  };
  std::vector<Group> groups;
  for (int ky = 0; ky < L.kh; ++ky)
    for (int kx0 = 0; kx0 < L.kw; kx0 += g.kxp)
      for (int cb = 0; cb < g.blocks; ++cb) groups.push_back({ky, kx0, std::min(g.kxp, L.kw - kx0), cb});
  // Where pooling plane p's taps of group gr start in the padded input, and which of the
  // S x S phases that is.
  struct Offset {
    int ey, ex, phase;
  };
  auto offset = [&](int p, const Group& gr) {
    const int ey = (p / P) * s + gr.ky, ex = (p % P) * s + gr.kx0;
    return Offset{ey, ex, (ey % S) * S + ex % S};
  };
  // The phases some tap of some pooling plane reads.
  std::vector<int> phase(S * S, -1);
  int phases = 0;
  for (int p = 0; p < planes; ++p)
    for (const Group& gr : groups) {
      int& ph = phase[offset(p, gr).phase];
      if (ph < 0) ph = phases++;
    }

  std::vector<ActParams> blocks;
  for (int nt = 0; nt < NT; ++nt) blocks.push_back(layer_params(L, nt));
  const int params = load_params(blocks, where_of(l));
  // A gathered layer's windows take several rows per pixel: when the batch's planes do not
  // fit the unified buffer, two items' planes take turns, or one item's (an item per band,
  // so large images only); each row's load goes after the multiply of the item before
  // that reads the row.
  const int item_planes = phases * g.blocks * HW;
  int ring = b_;
  if (gather && b_ > 1 && HW >= 4 * kLongMultiply && !ub_room(item_planes * b_))
    ring = ub_room(2 * item_planes + 4 * HW) ? 2 : 1;  // (room left for the outputs)
  const int planes_ub = alloc_ub(item_planes * ring, what + ": the input planes");
  auto plane_base = [&](int ph, int cb) { return planes_ub + (ph * g.blocks + cb) * ring * HW; };
  auto item_at = [&](int b) { return (b % ring) * HW; };

  // Bands of output rows small enough for the accumulators: whole items when they fit
  // (one multiply per item, the items' rows one after the other), else rows of one item.
  struct Band {
    int b0, nb, y0, ny, rows;  // rows: of one item's multiply
  };
  auto item_rows = [&](int ny) { return (ny - 1) * Wq + PW; };
  std::vector<Band> bands;
  auto plan_bands = [&](int max_rows) {
    bands.clear();
    if (item_rows(PH) <= max_rows) {
      // several items per band, but no more than for long enough multiplies: the first
      // band's inputs are loaded before anything else can start
      const int nb = ring < b_ ? 1 : std::min({b_, max_rows / item_rows(PH), ceil_div(kLongMultiply, item_rows(PH))});
      for (int b0 = 0; b0 < b_; b0 += nb) bands.push_back({b0, std::min(nb, b_ - b0), 0, PH, item_rows(PH)});
    } else if (PW <= max_rows) {
      const int per = 1 + (max_rows - PW) / Wq, count = ceil_div(PH, per), ny = ceil_div(PH, count);
      for (int b = 0; b < b_; ++b)
        for (int y0 = 0; y0 < PH; y0 += ny)
          bands.push_back({b, 1, y0, std::min(ny, PH - y0), item_rows(std::min(ny, PH - y0))});
    }
    return !bands.empty();
  };
  // All output tiles of a band at once (each tile of weights right after the one before
  // it on the same input rows) when the accumulators hold them twice over with bands
  // still long: every loaded input row serves all output tiles as soon as it is there,
  // and consecutive multiplies never wait on each other's sums. Else one output tile
  // after the other.
  const int acc_rows = int(cfg_->acc_rows);
  const bool all_tiles = NT > 1 && plan_bands(acc_rows / (2 * planes * NT)) &&
                         bands.front().nb * bands.front().rows >= std::min(item_rows(PH), kLongMultiply);
  if (!all_tiles && !plan_bands(acc_rows / (2 * planes)) && !plan_bands(acc_rows / planes))
    throw DoesNotFit{what + ": one output row needs " + std::to_string(planes * PW) +
                     " accumulator rows, the core has " + std::to_string(acc_rows)};
  const int per_step = all_tiles ? NT : 1;  // output tiles multiplied together
  struct Step {
    int band, nt0;
  };
  std::vector<Step> steps;
  for (size_t bi = 0; bi < bands.size(); ++bi)
    for (int nt = 0; nt < NT; nt += per_step) steps.push_back({int(bi), nt});
  int max_rows = 0;  // of one band's accumulator plane
  for (const Band& band : bands) max_rows = std::max(max_rows, band.nb * band.rows);
  const int region = planes * max_rows;  // accumulator rows of one output tile
  const int bufs = steps.size() > 1 && 2 * per_step * region <= acc_rows ? 2 : 1;
  need_acc(bufs * per_step * region, what);
  const int slots = steps.size() > 1 && ub_room(2 * per_step * max_rows) ? 2 : 1;
  const int out_ub = alloc_ub(slots * per_step * max_rows, what + ": the output rows");

  // Weight tiles, stored once: [group][nt].
  const std::string label = "t" + std::to_string(l);
  std::vector<std::vector<size_t>> tile_at(groups.size(), std::vector<size_t>(NT));
  std::vector<int> klanes(groups.size());
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const Group& gr = groups[gi];
    klanes[gi] = g.kxp > 1 ? gr.nkx * C : std::min(n_, C - gr.cb * n_);
    for (int nt = 0; nt < NT; ++nt) {
      std::vector<int8_t> tile(size_t(n_) * n_, 0);
      for (int k = 0; k < klanes[gi]; ++k) {
        const int kx = g.kxp > 1 ? gr.kx0 + k / C : gr.kx0, c = g.kxp > 1 ? k % C : gr.cb * n_ + k;
        for (int j = 0; j < n_ && nt * n_ + j < OC; ++j)
          tile[size_t(k) * n_ + j] = L.w[size_t((gr.ky * L.kw + kx) * C + c) * OC + nt * n_ + j];
      }
      tile_at[gi][nt] = tile_data(label, tile);
    }
  }

  // Load the planes: each row of real pixels with one rhm; padding from a row of the
  // zero point (stride 0). Rows and columns past the padded input only feed discarded
  // outputs and are left as they are. Each load is tagged with the first step and tap
  // group that read it.
  const int G = int(groups.size());
  std::vector<int> reach(G, 0);  // plane rows past a band's last output row that group gi reads
  for (int gi = 0; gi < G; ++gi)
    for (int p = 0; p < planes; ++p) reach[gi] = std::max(reach[gi], offset(p, groups[gi]).ey / S);
  // does group gi read phase ph (of some pooling plane)?
  auto reads = [&](int gi, int ph) {
    for (int p = 0; p < planes; ++p)
      if (phase[offset(p, groups[gi]).phase] == ph) return true;
    return false;
  };
  auto due = [&](int b, int r, int cb, int ph) {
    for (size_t k = 0; k < steps.size(); ++k) {
      const Band& band = bands[steps[k].band];
      if (b < band.b0 || b >= band.b0 + band.nb) continue;
      for (int gi = 0; gi < G; ++gi)
        // (one row more than the band's last: a tap past a row's end reads the next row)
        if (groups[gi].cb == cb && (ph < 0 || reads(gi, ph)) && r <= band.y0 + band.ny + reach[gi])
          return int(k) * G + gi;
    }
    return int(steps.size()) * G - 1;
  };
  struct Load {
    int when;      // first step * G + group that reads it
    int ub0, ub1;  // the unified-buffer rows it writes (none: a padded copy's instruction)
    Line line;
  };
  std::vector<Load> loads;
  for (int b = 0; b < int(copies_.size()); ++b)  // an item's padded copy goes before its loads
    for (const Line& line : copies_[b]) loads.push_back({due(b, 0, 0, -1), 0, 0, line});
  copies_.clear();
  auto load = [&](int when, int ub, int rows, auto&& emit_rhm) {
    for (const Line& line : capture(emit_rhm)) loads.push_back({when, ub, ub + rows, line});
  };
  const std::string zp = L.padded() ? zero_point_row(L.in_zp) : "";
  const int Hp = L.in.h + L.pad_t + L.pad_b, seglen = g.kxp > 1 ? g.kxp * C : 0;
  for (int b = 0; b < b_; ++b)
    for (int py = 0; py < S; ++py)
      for (int px = 0; px < S; ++px) {
        if (phase[py * S + px] < 0) continue;
        for (int cb = 0; cb < g.blocks; ++cb) {
          const int ph = phase[py * S + px], base = plane_base(ph, cb) + item_at(b);
          // the plane's rows of real pixels: [ub row, count, input offset]; padding between
          struct Run {
            int at, rows;
            long offset;
          };
          std::vector<Run> runs;
          int rows_in_image = 0;
          for (int r = 0; r < g.Hq; ++r) {
            const int y = r * S + py - L.pad_t;
            if (r * S + py >= Hp && !(S == 1 && r < g.Hq)) break;  // (S = 1: the extra padding row)
            rows_in_image = r + 1;
            // real columns c0..c1: padded column c*S + px is input column x
            const int lo = L.pad_l - px, hi = L.pad_l + L.in.w - 1 - px;
            const int c0 = lo > 0 ? ceil_div(lo, S) : 0, c1 = hi < 0 ? -1 : std::min(Wq - 1, hi / S);
            if (y < 0 || y >= L.in.h || c0 > c1) continue;
            const long offset = long(b) * x.item_bytes + long(y) * row_bytes + (long(c0) * S + px - L.pad_l) * pixel_bytes +
                                (gather ? gather->blocks[cb].ky0 * row_bytes + gather->blocks[cb].pos : long(cb) * n_);
            if (!runs.empty() && runs.back().at + runs.back().rows == r * Wq + c0 &&
                runs.back().offset + long(runs.back().rows) * S * pixel_bytes == offset &&
                due(b, runs.back().at / Wq, cb, ph) == due(b, r, cb, ph))
              runs.back().rows += c1 - c0 + 1;  // continues the run before it in the UB and in memory
            else
              runs.push_back({r * Wq + c0, c1 - c0 + 1, offset});
          }
          // padding: one fill of the whole plane when that is cheaper than a fill per gap
          const int gaps = int(runs.size()) + 1;
          const bool whole = kFillRowCycles * rows_in_image * Wq < kInstrCycles * gaps;
          if (!zp.empty() && whole)
            load(due(b, 0, cb, ph), base, rows_in_image * Wq, [&] { rhm(base, rows_in_image * Wq, {zp}, 0, n_); });
          int pad_from = 0;
          auto fill = [&](int to) {
            if (!zp.empty() && !whole && to > pad_from)
              load(due(b, pad_from / Wq, cb, ph), base + pad_from, to - pad_from,
                   [&] { rhm(base + pad_from, to - pad_from, {zp}, 0, n_); });
          };
          for (const Run& run : runs) {
            fill(run.at);
            load(due(b, run.at / Wq, cb, ph), base + run.at, run.rows, [&] {
              const AsmAddr from{x.label, int64_t(run.offset)};
              if (gather)
                rhm(base + run.at, run.rows, from, long(S) * pixel_bytes, gather->blocks[cb].seglen, gather->blocks[cb].segs,
                    row_bytes);
              else
                rhm(base + run.at, run.rows, from, long(S) * C, seglen ? seglen : std::min(n_, C - cb * n_));
            });
            pad_from = run.at + run.rows;
          }
          fill(rows_in_image * Wq);
        }
      }
  std::stable_sort(loads.begin(), loads.end(), [](const Load& u, const Load& v) { return u.when < v.when; });

  // The instruction stream, in chunks of multiplies: one per step, the last step in
  // several. The core issues in order into 4-deep unit queues, and an instruction that
  // reads what one of another unit still writes waits at issue, holding up everything
  // behind it. So a chunk's acts go after the next chunk's first multiplies (they wait
  // for the chunk's last multiply while the queued ones keep the array busy) and its
  // stores over the second half of the next chunk (they wait for the acts). The first
  // step's loads come just before the tap group that needs them; every later step's
  // loads are spread between the multiplies of the step before it.
  struct Chunk {
    int k, t0, t1, r0, r1;  // step; its output tiles [t0, t1) and rows [r0, r1) of the band
    bool tile_major;        // tile after tile (else tap group after tap group, over the tiles)
  };
  // Few multiplies per input row (few tap groups and tiles, no pooling), as a gathered
  // convolution has: the loads are as long as the multiplies, and a step's act and store
  // as long as a good part of them.
  const bool few = planes == 1 && G * per_step <= 4;
  std::vector<Chunk> chunks;
  for (size_t k = 0; k < steps.size(); ++k) {
    const Band& band = bands[steps[k].band];
    const int t0 = steps[k].nt0, t1 = std::min(NT, t0 + per_step), R = band.nb * band.rows;
    // (few: a step in chunks of rows, each chunk's act and store beside the next chunk's
    // multiplies; with pooling an act takes its planes whole)
    if (k + 1 < steps.size()) {
      // (a step of several tap groups or tiles whole: each chunk reloads every weight tile,
      // and with chaining its act and store follow the last multiply row by row anyway)
      const int pieces = few && G * per_step == 1 ? std::max(1, R / kChunkRows) : 1;
      for (int p = 0; p < pieces; ++p)
        chunks.push_back({int(k), t0, t1, R * p / pieces, R * (p + 1) / pieces, false});
      continue;
    }
    // The last step: only its own multiplies can hide its acts and stores. Tile after
    // tile, and the last tile's rows in halves, quarters, ..., so that only a short act
    // and store follow the last multiply.
    for (int t = t0; t + 1 < t1; ++t) chunks.push_back({int(k), t, t + 1, 0, R, true});
    int r0 = 0;
    for (; few && R - r0 >= 3 * kChunkRows; r0 += kChunkRows)
      chunks.push_back({int(k), t1 - 1, t1, r0, r0 + kChunkRows, true});
    for (; planes == 1 && R - r0 >= 2 * kTailRows; r0 += (R - r0) / 2)
      chunks.push_back({int(k), t1 - 1, t1, r0, r0 + (R - r0) / 2, true});
    chunks.push_back({int(k), t1 - 1, t1, r0, R, true});
  }
  auto acc_of = [&](int k, int nt) { return ((k % bufs) * per_step + nt - steps[k].nt0) * region; };
  auto out_of = [&](int k, int nt) { return out_ub + ((k % slots) * per_step + nt - steps[k].nt0) * max_rows; };
  // The stores of rows [r0, r1) of a band's output tile: one whm per run of rows that
  // continues in the unified buffer and in memory (whole items when Wq = PW).
  auto store_rows = [&](const Band& band, int nt, int out, int r0, int r1) {
    struct Run {
      int ub, rows;
      long at;
    };
    std::vector<Run> runs;
    for (int j = 0; j < band.nb; ++j)
      for (int py = band.y0; py < band.y0 + band.ny; ++py) {
        const int row0 = j * band.rows + (py - band.y0) * Wq, a = std::max(r0, row0), e = std::min(r1, row0 + PW);
        if (a >= e) continue;
        const long at = (long(band.b0 + j) * PH * PW + long(py) * PW + (a - row0)) * OC + nt * n_;
        if (!runs.empty() && runs.back().ub + runs.back().rows == a && runs.back().at + long(runs.back().rows) * OC == at)
          runs.back().rows += e - a;
        else
          runs.push_back({a, e - a, at});
      }
    for (const Run& run : runs)
      whm(out + run.ub, run.rows, {out_label, int64_t(run.at)}, OC, std::min(n_, OC - nt * n_));
  };

  // Every chunk's multiplies; a multiply's rows in two halves when nothing else would
  // separate it from the multiply that accumulates onto it next, and (few) in parts of a
  // few image rows' loads, so that each part starts as soon as its own loads are in.
  struct Multiply {
    int gi, ub, rows, acc, tile;
    bool sw;
  };
  std::vector<std::vector<Multiply>> chunk_mm(chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    const Band& band = bands[steps[c.k].band];
    std::vector<Multiply>& mm = chunk_mm[i];
    const int halves = !c.tile_major && (c.t1 - c.t0) * planes * band.nb == 1 && band.rows >= 64 ? 2 : 1;
    auto multiplies_of = [&](int gi, int nt) {
      const Group& gr = groups[gi];
      const int tile = rw_tile(label, tile_at[gi][nt], klanes[gi], std::min(n_, OC - nt * n_));
      bool first = true;
      for (int p = 0; p < planes; ++p) {
        const Offset o = offset(p, gr);
        for (int j = 0; j < band.nb; ++j) {
          const int a = std::max(c.r0 - j * band.rows, 0), e = std::min(c.r1 - j * band.rows, band.rows);
          const int parts = few ? std::max(halves, ceil_div(e - a, kPartRows)) : halves;
          for (int part = 0; part < parts && a < e; ++part) {
            const int r0 = a + (e - a) * part / parts, r1 = a + (e - a) * (part + 1) / parts;
            const int ub = plane_base(phase[o.phase], gr.cb) + item_at(band.b0 + j) + (band.y0 + o.ey / S) * Wq +
                           o.ex / S + r0;
            mm.push_back({gi, ub, r1 - r0, acc_of(c.k, nt) + (p * band.nb + j) * band.rows + r0, tile, first});
            first = false;
          }
        }
      }
    };
    if (c.tile_major) {
      for (int nt = c.t0; nt < c.t1; ++nt)
        for (int gi = 0; gi < G; ++gi) multiplies_of(gi, nt);
    } else {
      for (int gi = 0; gi < G; ++gi)
        for (int nt = c.t0; nt < c.t1; ++nt) multiplies_of(gi, nt);
    }
  }

  // Where the loads go. The core issues in order into 4-deep unit queues, so a load goes
  // before the first multiply that reads it but not so early that a multiply waits at
  // issue behind loads it does not need. A padded copy's instructions go with the first
  // load after them, so before every load that reads the copy.
  //  - few: in the order they are read, each as early as the multiply before it hides it
  //    (no more load rows between two multiplies than twice the first's rows, but always
  //    one: a long load, such as a padded copy's, must not hold back the loads after it);
  //  - else: the first step's loads just before their first reader, and every later
  //    step's loads spread evenly over the multiplies of the step before it.
  std::vector<size_t> need(loads.size(), SIZE_MAX);  // the first multiply (global index) that reads it
  std::vector<size_t> after(loads.size(), 0);        // (ring) the first it may go before: past the old item's readers
  std::vector<size_t> at(loads.size(), 0);           // (else) the multiply it goes before
  // each step's first chunk: its first multiply (global index) and how many it has
  std::vector<size_t> first(steps.size(), 0), length(steps.size(), 0);
  for (size_t i = 0, g = 0; i < chunks.size(); g += chunk_mm[i].size(), ++i)
    if (i == 0 || chunks[i - 1].k != chunks[i].k) first[size_t(chunks[i].k)] = g, length[size_t(chunks[i].k)] = chunk_mm[i].size();
  {
    std::vector<std::pair<int, int>> ranges;  // every multiply's UB rows, in order
    for (const auto& mm : chunk_mm)
      for (const Multiply& m : mm) ranges.push_back({m.ub, m.ub + m.rows});
    auto overlaps = [&](size_t g, const Load& ld) { return ranges[g].first < ld.ub1 && ld.ub0 < ranges[g].second; };
    for (size_t f = loads.size(); f-- > 0;) {
      // (no multiply of an earlier step reads it: with a ring, those read the item before)
      const size_t from = first[std::min(steps.size() - 1, size_t(loads[f].when / G))];
      for (size_t g = from; g < ranges.size() && loads[f].ub1 > loads[f].ub0; ++g)
        if (overlaps(g, loads[f])) {
          need[f] = g;
          break;
        }
      for (size_t g = 0; g < from && ring < b_; ++g)
        if (overlaps(g, loads[f])) after[f] = g + 2;  // (a multiply later: a load waits at issue for the reader)
      if (loads[f].ub1 == loads[f].ub0 && f + 1 < loads.size()) need[f] = std::min(need[f], need[f + 1]);
    }
    if (few) {  // in the order they are read, a padded copy an item ahead
      const size_t lead = ranges.size() / size_t(b_);
      for (size_t f = 0; f < loads.size(); ++f)
        if (loads[f].ub1 == loads[f].ub0 && need[f] != SIZE_MAX) need[f] = need[f] > lead ? need[f] - lead : 0;
      std::vector<size_t> order(loads.size());
      for (size_t f = 0; f < order.size(); ++f) order[f] = f;
      std::stable_sort(order.begin(), order.end(), [&](size_t u, size_t v) { return need[u] < need[v]; });
      std::vector<Load> sorted;
      std::vector<size_t> sorted_need, sorted_after;
      for (size_t f : order) sorted.push_back(loads[f]), sorted_need.push_back(need[f]), sorted_after.push_back(after[f]);
      loads = std::move(sorted), need = std::move(sorted_need), after = std::move(sorted_after);
    } else {
      // spread over step k's first chunk: (k = 0) the first step's loads past its first
      // tap group, and the loads of step k + 1
      auto spread_step = [&](const Load& ld) {
        const size_t k = size_t(ld.when / G);
        return k == 0 ? 0 : k - 1;
      };
      std::vector<size_t> count(steps.size(), 0), index(loads.size());
      for (size_t f = 0; f < loads.size(); ++f)
        if (loads[f].when > 0) index[f] = count[spread_step(loads[f])]++;
      size_t upper = SIZE_MAX;
      for (size_t f = loads.size(); f-- > 0;) at[f] = upper = std::min(upper, need[f]);  // never after a reader
      size_t before = 0;
      for (size_t f = 0; f < loads.size(); ++f) {
        size_t want = 0;
        if (loads[f].when > 0) {
          const size_t k = spread_step(loads[f]), M = std::max<size_t>(length[k], 1);
          want = first[k] + ((index[f] + 1) * M + count[k] - 1) / count[k];
        }
        at[f] = before = std::min(std::max({want, before, after[f]}), at[f]);
      }
    }
  }
  size_t next_load = 0, global = 0;
  int room = 0, used = 0;  // rows of the multiply before, and of the loads since
  auto loads_before = [&](size_t g) {
    for (; !few && next_load < loads.size() && at[next_load] <= g; ++next_load) body_.push_back(loads[next_load].line);
    while (few && next_load < loads.size()) {
      const Load& ld = loads[next_load];
      // (a padded copy's rhm: the rows it loads; its whm: only a place in the queue)
      const int rows = ld.ub1 > ld.ub0 ? ld.ub1 - ld.ub0 : std::max(ld.line.load_rows, 1);
      if ((need[next_load] > g && used > 0 && used + rows > room) || after[next_load] > g) break;
      body_.push_back(ld.line);
      used += rows, ++next_load;
    }
  };
  // The acts of a chunk wait at issue for its last multiply, and its stores for the acts,
  // each holding up everything behind it: a chunk's acts go after the next chunk's first
  // multiplies (which write other accumulators: the same step, or two buffers), and its
  // stores once the multiplies after the acts have taken as many rows as the acts
  // (about their time); the loads the next multiply reads go before either.
  std::vector<Line> acts;  // of the chunk before
  int acts_k = 0;          // (their step)
  struct Stores {
    std::vector<Line> lines;
    long ready;  // multiply rows (cumulative) after which its act is done
    int k;       // the step whose output rows it reads
  };
  std::vector<Stores> stores;  // waiting for their acts, oldest first
  long rows_so_far = 0, act_rows = 0;
  // (the acts of step k overwrite the output slot of step k - slots: its stores go first)
  auto stores_of_slot = [&](int k) {
    auto older = [&](const Stores& st) { return st.k != k && st.k % slots == k % slots; };
    while (std::any_of(stores.begin(), stores.end(), older)) {
      body_.insert(body_.end(), stores.front().lines.begin(), stores.front().lines.end());
      stores.erase(stores.begin());
    }
  };
  auto store_ready = [&] {
    while (!stores.empty() && stores.front().ready <= rows_so_far) {
      if (few) loads_before(global + 1);
      body_.insert(body_.end(), stores.front().lines.begin(), stores.front().lines.end());
      stores.erase(stores.begin());
    }
  };
  for (size_t i = 0; i < chunks.size(); ++i) {
    const Chunk& c = chunks[i];
    const bool step_start = i == 0 || chunks[i - 1].k != c.k;
    const std::vector<Multiply>& mm = chunk_mm[i];
    const size_t M = mm.size();
    const size_t act_at = step_start && bufs == 1 ? 0 : std::min<size_t>(4, M);
    auto flush_acts = [&] {
      if (acts.empty()) return;
      if (few) loads_before(global + 1);
      stores_of_slot(acts_k);
      body_.insert(body_.end(), acts.begin(), acts.end());
      acts.clear();
      stores.back().ready = rows_so_far + act_rows;
    };
    if (act_at == 0) flush_acts();
    for (size_t m = 0; m < M; ++m, ++global) {
      loads_before(global);
      mmc(mm[m].ub, mm[m].rows, mm[m].acc, mm[m].sw, mm[m].gi > 0, mm[m].tile);
      room = 2 * mm[m].rows, used = 0, rows_so_far += mm[m].rows;
      if (m + 1 == act_at) flush_acts();
      if (few) {
        store_ready();
      } else {
        // (the loads before the next multiply go before the stores, which wait for acts)
        loads_before(global + 1);
        const size_t store_from = std::max(act_at, M / 2);
        if (m + 1 > store_from && !stores.empty()) {
          auto& st = stores.front().lines;
          const size_t upto = st.size() * (m + 1 - store_from) / (M - store_from);
          body_.insert(body_.end(), st.begin(), st.begin() + long(upto));
          st.erase(st.begin(), st.begin() + long(upto));
        }
      }
    }
    while (!few && !stores.empty()) {
      body_.insert(body_.end(), stores.front().lines.begin(), stores.front().lines.end());
      stores.erase(stores.begin());
    }
    acts_k = c.k;
    acts = capture([&] {
      for (int nt = c.t0; nt < c.t1; ++nt)
        act(acc_of(c.k, nt) + c.r0, out_of(c.k, nt) + c.r0, c.r1 - c.r0, act_block_row(params, nt), L,
            planes);
    });
    act_rows = long(c.t1 - c.t0) * (c.r1 - c.r0) * planes;
    const Band& band = bands[steps[c.k].band];
    stores.push_back({capture([&] {
                        for (int nt = c.t0; nt < c.t1; ++nt) store_rows(band, nt, out_of(c.k, nt), c.r0, c.r1);
                      }),
                      LONG_MAX, c.k});
  }
  loads_before(SIZE_MAX);  // (rows no multiply reads)
  stores_of_slot(acts_k);
  body_.insert(body_.end(), acts.begin(), acts.end());
  for (const Stores& st : stores) body_.insert(body_.end(), st.lines.begin(), st.lines.end());
  scratch(out_label, size_t(b_) * os.size());
  return {false, out_label, os.size(), 0};
}

Tensor Lowering::conv_im2col(size_t l, const QuantLayer& L, const Tensor& x_in, const std::string& out_label) {
  const Tensor x = x_in.in_ub ? flatten(x_in, l) : x_in;
  const std::string what = where_of(l) + " at batch " + std::to_string(b_);
  const int C = L.in.c, W = L.in.w, P = L.pool, planes = P * P, s = L.stride;
  const nn::Shape os = L.out_shape();
  const int row_bytes = L.kw * C;  // one kernel row of one window: a segment
  check_field(long(W) * C, 65535, "the image row stride");
  const int per_tile = std::min(L.kh, n_ / row_bytes);  // kernel rows per K tile
  const int kt_count = ceil_div(L.kh, per_tile), nt_count = ceil_div(L.out_c, n_);
  const int R = b_ * os.h * os.w;  // output rows: item-major, then position
  fits_field(long(planes) * R, 65536, "the rows of one multiply");
  std::vector<ActParams> blocks;
  for (int nt = 0; nt < nt_count; ++nt) blocks.push_back(layer_params(L, nt));
  const int params = load_params(blocks, where_of(l));
  const int im2col = alloc_ub(kt_count * planes * R, what);
  for (int kt = 0; kt < kt_count; ++kt) {
    const int ky0 = kt * per_tile, nky = std::min(per_tile, L.kh - ky0);
    for (int b = 0; b < b_; ++b)
      for (int g = 0; g < planes; ++g)
        for (int py = 0; py < os.h; ++py) {
          const int dy = g / P, dx = g % P, iy = (py * P + dy) * s + ky0;
          const long addr = long(b) * x.item_bytes + (long(iy) * W + dx * s) * C;
          rhm(im2col + kt * planes * R + g * R + (b * os.h + py) * os.w, os.w, {x.label, int64_t(addr)},
              long(P) * s * C, row_bytes, nky, long(W) * C);
        }
  }
  const int out_ub = alloc_ub(nt_count * R, what);
  const int bufs = acc_buffers(planes * R, nt_count, what);
  for (int nt = 0; nt < nt_count; ++nt) {
    const int acc = (nt % bufs) * planes * R;
    for (int kt = 0; kt < kt_count; ++kt) {
      const int ky0 = kt * per_tile, nky = std::min(per_tile, L.kh - ky0);
      mmc(im2col + kt * planes * R, planes * R, acc, true, kt > 0,
          weight_tile(l, L, ky0 * row_bytes, nky * row_bytes, nt));
    }
    act(acc, out_ub + nt * R, R, act_block_row(params, nt), L, planes);
  }
  store(out_ub, R, L.out_c, out_label);
  std::vector<int8_t> w(L.w.begin(), L.w.end());
  blobs_.push_back({"w" + std::to_string(l), w});
  return {false, out_label, os.size(), 0};
}

// The input with its padding in device memory (the zero point), for `taps` with packed
// pixels: each image row through the unified buffer (a small ring of rows) to its place.
// The instructions, per item, go to copies_: conv_taps puts each item's before its loads.
Tensor Lowering::padded_copy(size_t l, const QuantLayer& L, const Tensor& x_in) {
  const Tensor x = x_in.in_ub ? flatten(x_in, l) : x_in;
  const int C = L.in.c, H = L.in.h, Wp = L.in.w + L.pad_l + L.pad_r;
  const long row = long(L.in.w) * C, item = long(H + L.pad_t + L.pad_b) * Wp * C;
  const int full = int(row / n_), rest = int(row % n_), urows = full + (rest ? 1 : 0);
  const std::string label = scratch("padded" + std::to_string(l), size_t(b_) * size_t(item), L.in_zp);
  copies_.assign(b_, {});
  // The scratch starts as the zero point, so only the image is copied: through the unified
  // buffer, whose write port the convolution's own loads keep busy, so in as few rows as
  // possible. Either
  //  - rows of N bytes: each image row in ceil(W*C / N) rows; when those are whole rows,
  //    the item in one rhm and out in one whm of a group per image row, else an rhm and
  //    a whm or two per image row; or
  //  - when the side padding is u = pad_l + pad_r pixels, u divides the width and u pixels
  //    fit a row: rows of u pixels, each image row's W/u rows followed by one of the zero
  //    point (the right padding of the row and the left padding of the next), out with a
  //    single whm of constant stride per item (fewer instructions, more rows).
  const int u = L.pad_l + L.pad_r, per_row = u > 0 && L.in.w % u == 0 ? L.in.w / u + 1 : 0;
  auto emit_item = [&](int b, auto&& body) {
    const size_t before = body_.size();
    body();
    copies_[b].insert(copies_[b].end(), body_.begin() + long(before), body_.end());  // conv_taps places them
    body_.resize(before);
  };
  if (per_row && u * C <= n_ && per_row <= urows && ub_room(H * per_row)) {
    const int rows = H * per_row, piece = u * C;
    const int pieces = alloc_ub(rows, where_of(l) + ": the rows of its padded copy");
    for (int b = 0; b < b_; ++b)
      emit_item(b, [&] {
        if (b == 0) rhm(pieces, rows, {zero_point_row(L.in_zp)}, 0, piece);  // the padding rows, once
        for (int y = 0; y < H; ++y)
          rhm(pieces + y * per_row, per_row - 1, {x.label, int64_t(long(b) * x.item_bytes + y * row)}, piece,
              piece);
        // (not the last padding row: the scratch starts as the zero point)
        whm(pieces, rows - 1, {label, int64_t(long(b) * item + (long(L.pad_t) * Wp + L.pad_l) * C)}, piece,
            piece);
      });
    return {false, label, int(item), 0};
  }
  // rows of N bytes, staged an item at a time in two item slots when they fit (an item's
  // load does not wait for the stores of the item before), else in a ring of image rows
  const int ring = ub_room(2 * H * urows) ? 2 * H : ub_room(H * urows) ? H : std::min(b_ * H, 8);
  const int stage = alloc_ub(ring * urows, where_of(l) + ": the rows of its padded copy");
  // whole rows of N bytes: an item in one rhm, out in whm of up to 64 groups (image rows)
  const long gstride = long(Wp) * C;
  const bool whole = rest == 0 && ring % H == 0 && gstride <= 65535;
  for (int b = 0; b < b_; ++b)
    emit_item(b, [&] {
      const int ub0 = stage + ((b * H) % ring) * urows;
      const long to0 = long(b) * item + (long(L.pad_t) * Wp + L.pad_l) * C;
      if (whole) {
        rhm(ub0, H * urows, {x.label, int64_t(long(b) * x.item_bytes)}, n_, n_);
        for (int y0 = 0; y0 < H; y0 += 64)
          whm(ub0 + y0 * urows, urows, {label, int64_t(to0 + y0 * gstride)}, n_, n_, std::min(64, H - y0),
              gstride);
        return;
      }
      for (int y = 0; y < H; ++y) {
        const int ub = stage + ((b * H + y) % ring) * urows;
        rhm(ub, urows, {x.label, int64_t(long(b) * x.item_bytes + y * row)}, n_, n_);
        const long to = long(b) * item + (long(y + L.pad_t) * Wp + L.pad_l) * C;
        if (full) whm(ub, full, {label, int64_t(to)}, n_, n_);
        if (rest) whm(ub + full, 1, {label, int64_t(to + long(full) * n_)}, n_, rest);
      }
    });
  return {false, label, int(item), 0};
}

Tensor Lowering::conv_dense(size_t l, const QuantLayer& L, const Tensor& x, const ToeplitzPlan& plan) {
  const std::string what = where_of(l) + " at batch " + std::to_string(b_);
  const int planes = L.pool * L.pool;
  const int params = load_params(plan.params, where_of(l));
  const int in_ub = input_tiles(x, plan.kt, plan.kin, what);
  const int out_ub = alloc_ub(plan.nt * b_, what);
  const int bufs = acc_buffers(planes * b_, plan.nt, what);
  const std::string label = "t" + std::to_string(l);
  for (int t = 0; t < plan.nt; ++t) {
    const int acc = (t % bufs) * planes * b_;
    // the planes' chains of K tiles side by side, so that a multiply does not wait on
    // the sums of the one before it
    std::vector<std::vector<std::pair<int, const std::vector<int8_t>*>>> chains(planes);
    size_t longest = 0;
    for (int g = 0; g < planes; ++g) {
      for (const auto& [kt, tile] : plan.tiles[t][g]) chains[g].push_back({kt, &tile});
      longest = std::max(longest, chains[g].size());
    }
    for (size_t i = 0; i < longest; ++i)
      for (int g = 0; g < planes; ++g) {
        if (i >= chains[g].size()) continue;
        const int kt = chains[g][i].first, k = std::min(n_, plan.kin - kt * n_), n = std::min(n_, plan.nout - t * n_);
        load_input_tile(kt);
        mmc(in_ub + kt * b_, b_, acc + g * b_, true, i > 0, rw_tile(label, tile_data(label, *chains[g][i].second), k, n));
      }
    act(acc, out_ub + t * b_, b_, act_block_row(params, t), L, planes);
  }
  return {true, "", plan.nout, out_ub};
}

}  // namespace tessera::compiler::detail
