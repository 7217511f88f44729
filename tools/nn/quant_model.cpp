// SPDX-License-Identifier: Apache-2.0
#include "nn/quant_model.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <functional>

#include "util/file_io.hpp"

namespace tessera::nn {
namespace {

using Fail = std::function<NnError(const std::string&)>;

template <typename T> const char* kind_of();
template <> const char* kind_of<int>() { return "an integer"; }
template <> const char* kind_of<float>() { return "a number"; }
template <> const char* kind_of<bool>() { return "true or false"; }
template <> const char* kind_of<std::string>() { return "text"; }
template <> const char* kind_of<std::vector<int>>() { return "a list of integers"; }
template <> const char* kind_of<std::vector<float>>() { return "a list of numbers"; }

std::string at(const YAML::Node& v) {
  return "line " + std::to_string(v.Mark().line + 1) + ", column " + std::to_string(v.Mark().column + 1) + ": ";
}

// MAP[KEY], which must be there (a map when asked for one): errors in the loader's words.
YAML::Node need(const YAML::Node& map, const std::string& key, const Fail& fail, bool want_map = false) {
  const YAML::Node v = map.IsMap() ? map[key] : YAML::Node();
  if (!v) throw fail("missing '" + key + "'");
  if (want_map && !v.IsMap()) throw fail(at(v) + "'" + key + "' must be a map {key: value, ...}");
  return v;
}

// MAP[KEY] as T: missing, or not a T, is an error naming the key and its place.
template <typename T>
T field(const YAML::Node& map, const std::string& key, const Fail& fail) {
  const YAML::Node v = need(map, key, fail);
  try {
    return v.as<T>();
  } catch (const YAML::Exception&) {
    throw fail(at(v) + "'" + key + "' must be " + kind_of<T>());
  }
}

std::string layer_file(const std::string& name, size_t i, const char* what) {
  return name + ".l" + std::to_string(i) + "." + what + ".bin";
}

void write_bytes(const std::string& path, const void* data, size_t n) {
  try {
    write_file(path, std::string(static_cast<const char*>(data), n));
  } catch (const FileError& e) {
    throw NnError(e.what());
  }
}

const char* kind_name(LayerKind k) { return k == LayerKind::Dense ? "dense" : "conv2d"; }

}  // namespace

void quantize_multiplier(double real_scale, int32_t& multiplier, uint8_t& shift) {
  if (!(real_scale > 0) || real_scale >= 1.0)
    throw NnError("requantization scale " + std::to_string(real_scale) + " is outside (0, 1)");
  int exp = 0;
  const double mant = std::frexp(real_scale, &exp);  // real_scale = mant * 2^exp, mant in [0.5, 1)
  int64_t m = std::llround(mant * double(int64_t{1} << 31));
  if (m == (int64_t{1} << 31)) m /= 2, ++exp;
  if (31 - exp > 63) throw NnError("requantization scale " + std::to_string(real_scale) + " is too small");
  multiplier = int32_t(m);
  shift = uint8_t(31 - exp);
}

void save_model(const QuantModel& m, const std::string& dir) {
  YAML::Emitter y;
  y << YAML::Comment("Tessera int8 model (docs/programming.md); written by tpu-train") << YAML::BeginMap;
  y << YAML::Key << "name" << YAML::Value << m.name;
  y << YAML::Key << "input" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "height" << YAML::Value
    << m.input.h << YAML::Key << "width" << YAML::Value << m.input.w << YAML::Key << "channels" << YAML::Value
    << m.input.c << YAML::Key << "scale" << YAML::Value << m.input_scale << YAML::Key << "zero_point"
    << YAML::Value << m.input_zp << YAML::EndMap;
  y << YAML::Key << "layers" << YAML::Value << YAML::BeginSeq;
  for (size_t i = 0; i < m.layers.size(); ++i) {
    const QuantLayer& L = m.layers[i];
    y << YAML::BeginMap << YAML::Key << "type" << YAML::Value << kind_name(L.kind);
    if (L.kind == LayerKind::Dense) {
      y << YAML::Key << "in" << YAML::Value << L.in.size() << YAML::Key << "out" << YAML::Value << L.out_c;
    } else {
      y << YAML::Key << "in_shape" << YAML::Value << YAML::Flow << std::vector<int>{L.in.h, L.in.w, L.in.c};
      y << YAML::Key << "kernel" << YAML::Value << YAML::Flow << std::vector<int>{L.kh, L.kw};
      y << YAML::Key << "out_channels" << YAML::Value << L.out_c << YAML::Key << "pool" << YAML::Value << L.pool;
      if (L.stride != 1) y << YAML::Key << "stride" << YAML::Value << L.stride;
      if (L.padded())
        y << YAML::Key << "padding" << YAML::Value << YAML::Flow << std::vector<int>{L.pad_t, L.pad_l, L.pad_b, L.pad_r};
    }
    y << YAML::Key << "relu" << YAML::Value << L.relu;
    y << YAML::Key << "weights" << YAML::Value << layer_file(m.name, i, "weights");
    y << YAML::Key << "bias" << YAML::Value << layer_file(m.name, i, "bias");
    y << YAML::Key << "weight_scales" << YAML::Value << YAML::Flow << L.weight_scales;
    std::vector<int> shifts(L.shift.begin(), L.shift.end());
    y << YAML::Key << "multiplier" << YAML::Value << YAML::Flow << L.multiplier;
    y << YAML::Key << "shift" << YAML::Value << YAML::Flow << shifts;
    y << YAML::Key << "input_quant" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "scale"
      << YAML::Value << L.in_scale << YAML::Key << "zero_point" << YAML::Value << L.in_zp << YAML::EndMap;
    y << YAML::Key << "output_quant" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "scale"
      << YAML::Value << L.out_scale << YAML::Key << "zero_point" << YAML::Value << L.out_zp << YAML::EndMap;
    y << YAML::EndMap;
    write_bytes(dir + "/" + layer_file(m.name, i, "weights"), L.w.data(), L.w.size());
    std::vector<uint8_t> b;
    for (int32_t v : L.bias)
      for (int s = 0; s < 32; s += 8) b.push_back(uint8_t(uint32_t(v) >> s));
    write_bytes(dir + "/" + layer_file(m.name, i, "bias"), b.data(), b.size());
  }
  y << YAML::EndSeq << YAML::EndMap;
  const std::string text = std::string(y.c_str()) + "\n";
  write_bytes(dir + "/" + m.name + ".yaml", text.data(), text.size());
}

QuantModel load_model(const std::string& path) {
  const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/'));
  std::string text;
  try {
    text = read_file_text(path);
  } catch (const FileError& e) {
    throw NnError(path + ": cannot open the model (" + e.reason() + ")");
  }
  return parse_model(text, path, [&](const std::string& file, size_t) {
    try {
      return read_file_bytes(!file.empty() && file[0] == '/' ? file : dir + "/" + file);  // (relative: to the model)
    } catch (const FileError& e) {
      throw NnError(e.what());
    }
  });
}

QuantModel parse_model(const std::string& text, const std::string& path, const LayerFileReader& read_layer_file) {
  QuantModel m;
  std::string where = path;
  auto fail = [&](const std::string& what) -> NnError { return NnError(where + ": " + what); };
  try {
    const YAML::Node root = YAML::Load(text);
    if (!root.IsMap()) throw fail("a model is a map with name, input and layers (docs/programming.md)");
    m.name = field<std::string>(root, "name", fail);
    const YAML::Node in = need(root, "input", fail, true);
    // Every shape within limits as it is read, so that the sizes computed from it (h * w * c,
    // kh * kw * c, weights) fit their integers.
    auto shape = [&](const char* what, int h, int w, int c) {
      if (h < 1 || w < 1 || c < 1 || h > kMaxModelDim || w > kMaxModelDim || c > kMaxModelDim ||
          int64_t{h} * w * c > kMaxModelElements)
        throw fail(std::string(what) + " [" + std::to_string(h) + ", " + std::to_string(w) + ", " + std::to_string(c) +
                   "] must be positive, each at most " + std::to_string(kMaxModelDim) + " and at most " +
                   std::to_string(kMaxModelElements) + " values in all");
      return Shape{h, w, c};
    };
    m.input = shape("input shape", field<int>(in, "height", fail), field<int>(in, "width", fail), field<int>(in, "channels", fail));
    m.input_scale = field<float>(in, "scale", fail);
    m.input_zp = field<int>(in, "zero_point", fail);
    const YAML::Node layers = root["layers"];
    if (!layers || !layers.IsSequence() || layers.size() == 0) throw fail("'layers' must be a non-empty list");
    Shape cur = m.input;
    for (size_t i = 0; i < layers.size(); ++i) {
      where = path + ": layer " + std::to_string(i);
      const YAML::Node n = layers[i];
      if (!n.IsMap()) throw fail(at(n) + "a layer is a map {type: ..., ...}");
      QuantLayer L;
      const std::string type = field<std::string>(n, "type", fail);
      if (type == "dense") {
        L.kind = LayerKind::Dense;
        L.in = shape("input size", 1, 1, field<int>(n, "in", fail));
        L.out_c = field<int>(n, "out", fail);
        if (L.in.size() != cur.size())
          throw fail("takes " + std::to_string(L.in.size()) + " inputs but the layer before gives " + std::to_string(cur.size()));
      } else if (type == "conv2d") {
        L.kind = LayerKind::Conv2d;
        const auto s = field<std::vector<int>>(n, "in_shape", fail);
        const auto k = field<std::vector<int>>(n, "kernel", fail);
        if (s.size() != 3 || k.size() != 2) throw fail("in_shape is [h, w, c] and kernel is [kh, kw]");
        L.in = shape("in_shape", s[0], s[1], s[2]);
        L.kh = k[0], L.kw = k[1];
        L.out_c = field<int>(n, "out_channels", fail);
        L.pool = n["pool"] ? field<int>(n, "pool", fail) : 1;
        L.stride = n["stride"] ? field<int>(n, "stride", fail) : 1;
        if (L.in.h != cur.h || L.in.w != cur.w || L.in.c != cur.c)
          throw fail("input shape does not match the output of the layer before");
        if (L.kh < 1 || L.kw < 1 || L.in.h < 1 || L.in.w < 1 || L.in.c < 1 || L.kh > 64 || L.kw > 64)
          throw fail("kernel sizes must be 1..64 and the input shape positive");
        if (L.stride < 1 || L.stride > 64) throw fail("stride must be 1..64");
        if (const YAML::Node p = n["padding"]) {
          if (p.IsScalar() && p.as<std::string>() == "same") {
            L.pad_same();
          } else if (p.IsScalar() && p.as<std::string>() == "valid") {
          } else if (p.IsSequence() && p.size() == 4) {
            const auto v = field<std::vector<int>>(n, "padding", fail);
            L.pad_t = v[0], L.pad_l = v[1], L.pad_b = v[2], L.pad_r = v[3];
          } else {
            throw fail("padding is 'same', 'valid' or [top, left, bottom, right]");
          }
          if (L.pad_t < 0 || L.pad_l < 0 || L.pad_b < 0 || L.pad_r < 0 || L.pad_t >= L.kh || L.pad_b >= L.kh ||
              L.pad_l >= L.kw || L.pad_r >= L.kw)
            throw fail("each padding must be 0..kernel size - 1");
        }
        if (L.kh > L.in.h + L.pad_t + L.pad_b || L.kw > L.in.w + L.pad_l + L.pad_r)
          throw fail("kernel does not fit the (padded) input");
        if (L.pool < 1 || L.pool > 16 || L.conv_shape().h < L.pool || L.conv_shape().w < L.pool)
          throw fail("pool must be 1..16 and fit the convolution output");
      } else {
        throw fail("unsupported layer type '" + type + "' (supported: dense, conv2d)");
      }
      if (L.out_c < 1 || L.out_c > kMaxModelDim)
        throw fail("needs 1.." + std::to_string(kMaxModelDim) + " outputs, got " + std::to_string(L.out_c));
      L.relu = field<bool>(n, "relu", fail);
      auto layer_file = [&](const char* key, size_t expected) {
        try {
          return read_layer_file(field<std::string>(n, key, fail), expected);
        } catch (const NnError& e) {
          throw fail(e.what());
        }
      };
      const std::vector<uint8_t> w = layer_file("weights", size_t(L.k()) * L.out_c);
      const std::vector<uint8_t> b = layer_file("bias", size_t(L.out_c) * 4);
      if (w.size() != size_t(L.k()) * L.out_c)
        throw fail("weight file has " + std::to_string(w.size()) + " bytes, expected " + std::to_string(size_t(L.k()) * L.out_c));
      if (b.size() != size_t(L.out_c) * 4)
        throw fail("bias file has " + std::to_string(b.size()) + " bytes, expected " + std::to_string(L.out_c * 4));
      L.w.assign(w.begin(), w.end());
      for (int c = 0; c < L.out_c; ++c)
        L.bias.push_back(int32_t(uint32_t(b[4 * c]) | uint32_t(b[4 * c + 1]) << 8 | uint32_t(b[4 * c + 2]) << 16 |
                                 uint32_t(b[4 * c + 3]) << 24));
      L.multiplier = field<std::vector<int>>(n, "multiplier", fail);
      const auto shifts = field<std::vector<int>>(n, "shift", fail);
      L.weight_scales = field<std::vector<float>>(n, "weight_scales", fail);
      if (L.multiplier.size() != size_t(L.out_c) || shifts.size() != size_t(L.out_c))
        throw fail("multiplier and shift need one entry per output channel");
      for (int s : shifts) {
        if (s < 0 || s > 63) throw fail("shift " + std::to_string(s) + " is outside 0..63");
        L.shift.push_back(uint8_t(s));
      }
      for (int32_t v : L.multiplier)
        if (v <= 0) throw fail("multipliers must be positive");
      L.in_scale = field<float>(need(n, "input_quant", fail, true), "scale", fail);
      L.in_zp = field<int>(need(n, "input_quant", fail, true), "zero_point", fail);
      L.out_scale = field<float>(need(n, "output_quant", fail, true), "scale", fail);
      L.out_zp = field<int>(need(n, "output_quant", fail, true), "zero_point", fail);
      if (L.in_zp < -128 || L.in_zp > 127 || L.out_zp < -128 || L.out_zp > 127)
        throw fail("zero points must be int8");
      const int prev_zp = i == 0 ? m.input_zp : m.layers.back().out_zp;
      if (L.in_zp != prev_zp) throw fail("input zero point differs from the output zero point before it");
      cur = L.out_shape();
      m.layers.push_back(std::move(L));
    }
  } catch (const YAML::Exception& e) {  // (the text is not YAML: the field errors are above)
    throw NnError(path + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                  ": invalid YAML: " + e.msg);
  }
  return m;
}

}  // namespace tessera::nn
