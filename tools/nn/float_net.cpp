// SPDX-License-Identifier: Apache-2.0
#include "nn/float_net.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "util/file_io.hpp"

namespace tessera::nn {
namespace {

// SplitMix64: the same numbers on every platform (std distributions are not).
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  size_t below(size_t n) { return size_t(next() % n); }

 private:
  uint64_t s_;
};

// One layer's forward pass, keeping what backprop needs.
struct LayerCache {
  std::vector<float> in, z, out;  // input, pre-activation (before ReLU/pool), output
  std::vector<int> pool_from;     // output element -> index into z it came from
};

void forward_layer(const FloatLayer& L, const std::vector<float>& x, LayerCache& c) {
  c.in = x;
  if (L.kind == LayerKind::Dense) {
    c.z.assign(L.out_c, 0.f);
    for (int n = 0; n < L.out_c; ++n) c.z[n] = L.b[n];
    for (int k = 0; k < L.k(); ++k) {
      const float xk = x[k];
      if (xk == 0.f) continue;
      const float* w = &L.w[size_t(k) * L.out_c];
      for (int n = 0; n < L.out_c; ++n) c.z[n] += xk * w[n];
    }
    c.out = c.z;
    if (L.relu)
      for (float& v : c.out) v = std::max(v, 0.f);
    return;
  }
  const Shape cs = L.conv_shape();
  c.z.assign(cs.size(), 0.f);
  for (int oy = 0; oy < cs.h; ++oy)
    for (int ox = 0; ox < cs.w; ++ox) {
      float* z = &c.z[size_t(oy * cs.w + ox) * L.out_c];
      for (int n = 0; n < L.out_c; ++n) z[n] = L.b[n];
      for (int ky = 0; ky < L.kh; ++ky)
        for (int kx = 0; kx < L.kw; ++kx)
          for (int ci = 0; ci < L.in.c; ++ci) {
            const int iy = L.in_y(oy, ky), ix = L.in_x(ox, kx);
            if (iy < 0 || iy >= L.in.h || ix < 0 || ix >= L.in.w) continue;  // padding
            const float xv = x[size_t((iy * L.in.w + ix) * L.in.c + ci)];
            const float* w = &L.w[size_t((ky * L.kw + kx) * L.in.c + ci) * L.out_c];
            for (int n = 0; n < L.out_c; ++n) z[n] += xv * w[n];
          }
    }
  std::vector<float> a = c.z;
  if (L.relu)
    for (float& v : a) v = std::max(v, 0.f);
  const Shape os = L.out_shape();
  c.out.assign(os.size(), 0.f);
  c.pool_from.assign(os.size(), 0);
  for (int py = 0; py < os.h; ++py)
    for (int px = 0; px < os.w; ++px)
      for (int n = 0; n < L.out_c; ++n) {
        int best = -1;
        for (int dy = 0; dy < L.pool; ++dy)
          for (int dx = 0; dx < L.pool; ++dx) {
            const int i = ((py * L.pool + dy) * cs.w + px * L.pool + dx) * L.out_c + n;
            if (best < 0 || a[i] > a[best]) best = i;
          }
        const int o = (py * os.w + px) * L.out_c + n;
        c.out[o] = a[best];
        c.pool_from[o] = best;
      }
}

// Gradients of one layer: accumulates dw, db; returns d(loss)/d(input).
std::vector<float> backward_layer(const FloatLayer& L, const LayerCache& c, const std::vector<float>& dout,
                                  std::vector<float>& dw, std::vector<float>& db) {
  std::vector<float> dz;
  if (L.kind == LayerKind::Dense) {
    dz = dout;
  } else {
    dz.assign(c.z.size(), 0.f);
    for (size_t o = 0; o < dout.size(); ++o) dz[c.pool_from[o]] += dout[o];
  }
  if (L.relu)
    for (size_t i = 0; i < dz.size(); ++i)
      if (c.z[i] <= 0.f) dz[i] = 0.f;
  std::vector<float> dx(c.in.size(), 0.f);
  if (L.kind == LayerKind::Dense) {
    for (int n = 0; n < L.out_c; ++n) db[n] += dz[n];
    for (int k = 0; k < L.k(); ++k) {
      const float* w = &L.w[size_t(k) * L.out_c];
      float* g = &dw[size_t(k) * L.out_c];
      float acc = 0.f;
      for (int n = 0; n < L.out_c; ++n) {
        g[n] += c.in[k] * dz[n];
        acc += w[n] * dz[n];
      }
      dx[k] = acc;
    }
    return dx;
  }
  const Shape cs = L.conv_shape();
  for (int oy = 0; oy < cs.h; ++oy)
    for (int ox = 0; ox < cs.w; ++ox) {
      const float* d = &dz[size_t(oy * cs.w + ox) * L.out_c];
      for (int n = 0; n < L.out_c; ++n) db[n] += d[n];
      for (int ky = 0; ky < L.kh; ++ky)
        for (int kx = 0; kx < L.kw; ++kx)
          for (int ci = 0; ci < L.in.c; ++ci) {
            const int iy = L.in_y(oy, ky), ix = L.in_x(ox, kx);
            if (iy < 0 || iy >= L.in.h || ix < 0 || ix >= L.in.w) continue;  // padding
            const size_t xi = size_t((iy * L.in.w + ix) * L.in.c + ci);
            const size_t wi = size_t((ky * L.kw + kx) * L.in.c + ci) * L.out_c;
            float acc = 0.f;
            for (int n = 0; n < L.out_c; ++n) {
              dw[wi + n] += c.in[xi] * d[n];
              acc += L.w[wi + n] * d[n];
            }
            dx[xi] += acc;
          }
    }
  return dx;
}

FloatLayer dense(int in, int out, bool relu) {
  FloatLayer L;
  static_cast<LayerGeometry&>(L) = dense_geometry(in, out, relu);
  return L;
}

}  // namespace

LayerGeometry dense_geometry(int in, int out, bool relu) {
  LayerGeometry g;
  g.kind = LayerKind::Dense;
  g.in = {1, 1, in};
  g.out_c = out;
  g.relu = relu;
  return g;
}

void LayerGeometry::pad_same() {
  auto split = [this](int size, int k, int& lo, int& hi) {
    const int out = (size + stride - 1) / stride, total = std::max(0, (out - 1) * stride + k - size);
    lo = total / 2, hi = total - lo;
  };
  split(in.h, kh, pad_t, pad_b);
  split(in.w, kw, pad_l, pad_r);
}

Shape LayerGeometry::out_shape() const {
  if (kind == LayerKind::Dense) return {1, 1, out_c};
  const Shape cs = conv_shape();
  return {cs.h / pool, cs.w / pool, out_c};
}

FloatNet digits_mlp() {
  FloatNet net;
  net.name = "digits_mlp";
  net.input = {8, 8, 1};
  net.layers = {dense(64, 64, true), dense(64, 10, false)};
  return net;
}

FloatNet digits_cnn() {
  FloatNet net;
  net.name = "digits_cnn";
  net.input = {8, 8, 1};
  FloatLayer conv;
  conv.kind = LayerKind::Conv2d;
  conv.in = {8, 8, 1};
  conv.out_c = 8;
  conv.kh = conv.kw = 3;
  conv.relu = true;
  conv.pool = 2;
  net.layers = {conv, dense(conv.out_shape().size(), 10, false)};
  return net;
}

std::vector<float> digit_input(const uint8_t* pixels, int count) {
  std::vector<float> x(count);
  for (int i = 0; i < count; ++i) x[i] = float(pixels[i]) / 16.f;
  return x;
}

std::vector<std::vector<float>> forward(const FloatNet& net, const std::vector<float>& x) {
  std::vector<std::vector<float>> outs;
  LayerCache c;
  const std::vector<float>* cur = &x;
  for (const FloatLayer& L : net.layers) {
    forward_layer(L, *cur, c);
    outs.push_back(c.out);
    cur = &outs.back();
  }
  return outs;
}

int argmax(const std::vector<float>& v) { return int(std::max_element(v.begin(), v.end()) - v.begin()); }

void train(FloatNet& net, const Digits& data, const TrainOptions& opt) {
  Rng rng(opt.seed);
  for (FloatLayer& L : net.layers) {  // He-uniform initialization, zero bias
    const double bound = std::sqrt(6.0 / L.k());
    L.w.resize(size_t(L.k()) * L.out_c);
    for (float& w : L.w) w = float((2 * rng.uniform() - 1) * bound);
    L.b.assign(L.out_c, 0.f);
  }
  const size_t nl = net.layers.size();
  std::vector<std::vector<float>> vw(nl), vb(nl), gw(nl), gb(nl);
  for (size_t l = 0; l < nl; ++l) {
    vw[l].assign(net.layers[l].w.size(), 0.f);
    vb[l].assign(net.layers[l].b.size(), 0.f);
  }
  std::vector<size_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<LayerCache> caches(nl);
  for (int epoch = 0; epoch < opt.epochs; ++epoch) {
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    for (size_t start = 0; start < order.size(); start += size_t(opt.batch)) {
      const size_t end = std::min(order.size(), start + size_t(opt.batch));
      for (size_t l = 0; l < nl; ++l) {
        gw[l].assign(vw[l].size(), 0.f);
        gb[l].assign(vb[l].size(), 0.f);
      }
      for (size_t s = start; s < end; ++s) {
        const size_t idx = order[s];
        std::vector<float> x = digit_input(data.images[idx].data(), kDigitPixels);
        for (size_t l = 0; l < nl; ++l) {
          forward_layer(net.layers[l], x, caches[l]);
          x = caches[l].out;
        }
        // softmax cross-entropy gradient: p - onehot
        const float mx = *std::max_element(x.begin(), x.end());
        double sum = 0;
        for (float& v : x) sum += (v = std::exp(v - mx));
        for (float& v : x) v = float(v / sum);
        x[data.labels[idx]] -= 1.f;
        for (size_t l = nl; l-- > 0;) x = backward_layer(net.layers[l], caches[l], x, gw[l], gb[l]);
      }
      const float scale = opt.learning_rate / float(end - start);
      for (size_t l = 0; l < nl; ++l) {
        FloatLayer& L = net.layers[l];
        for (size_t i = 0; i < L.w.size(); ++i) L.w[i] += (vw[l][i] = opt.momentum * vw[l][i] - scale * gw[l][i]);
        for (size_t i = 0; i < L.b.size(); ++i) L.b[i] += (vb[l][i] = opt.momentum * vb[l][i] - scale * gb[l][i]);
      }
    }
  }
}

double accuracy(const FloatNet& net, const Digits& data) {
  size_t right = 0;
  for (size_t i = 0; i < data.size(); ++i)
    right += argmax(forward(net, digit_input(data.images[i].data(), kDigitPixels)).back()) == data.labels[i];
  return double(right) / double(data.size());
}

void save_float_params(const FloatNet& net, const std::string& path) {
  std::string bytes;
  for (const FloatLayer& L : net.layers) {
    bytes.append(reinterpret_cast<const char*>(L.w.data()), L.w.size() * sizeof(float));
    bytes.append(reinterpret_cast<const char*>(L.b.data()), L.b.size() * sizeof(float));
  }
  try {
    write_file(path, bytes);
  } catch (const FileError& e) {
    throw NnError(e.what());
  }
}

void load_float_params(FloatNet& net, const std::string& path) {
  std::vector<uint8_t> bytes;
  try {
    bytes = read_file_bytes(path);
  } catch (const FileError& e) {
    throw NnError(e.what());
  }
  size_t want = 0;
  for (const FloatLayer& L : net.layers) want += (size_t(L.k()) * L.out_c + L.out_c) * sizeof(float);
  if (bytes.size() != want)
    throw NnError(path + ": " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(want) + " for " + net.name);
  size_t at = 0;
  for (FloatLayer& L : net.layers) {
    L.w.resize(size_t(L.k()) * L.out_c);
    L.b.resize(size_t(L.out_c));
    std::memcpy(L.w.data(), bytes.data() + at, L.w.size() * sizeof(float));
    at += L.w.size() * sizeof(float);
    std::memcpy(L.b.data(), bytes.data() + at, L.b.size() * sizeof(float));
    at += L.b.size() * sizeof(float);
  }
}

}  // namespace tessera::nn
