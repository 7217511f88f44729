// SPDX-License-Identifier: Apache-2.0
// tpu-cc's compiler: random int8 models (dense layers, convolutions with and without
// pooling, shapes that are not multiples of N) compiled for N = 4 and N = 16, run on
// the golden model, compared item by item with the plain reference implementation
// (tools/nn/reference.cpp, written without the golden model or the compiler); and the
// errors for models that do not fit or are malformed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "asm/assembler.hpp"
#include "compiler/compiler.hpp"
#include "compiler/gemm.hpp"
#include "driver/device.hpp"
#include "helpers.hpp"
#include "nn/reference.hpp"
#include "nn/synthetic.hpp"
#include "reference.hpp"

using namespace tessera;
using nn::LayerKind;
using nn::QuantLayer;
using nn::QuantModel;

namespace {

// A random convolution: valid or padded (some "same"), stride 1 to 3, kernel rows
// narrower or wider than N, channels from 1 to past 2N (several channel blocks).
QuantLayer random_conv(uint32_t n, std::mt19937& rng, int in_zp) {
  auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  QuantLayer c;
  c.kind = LayerKind::Conv2d;
  c.in = {r(3, 9), r(3, 9), r(0, 2) ? r(1, 3) : r(1, int(2 * n + 3))};
  c.kh = r(1, std::min(5, c.in.h));
  c.kw = r(1, std::min(5, c.in.w));
  c.stride = r(0, 2) ? 1 : r(2, 3);
  switch (r(0, 2)) {
    case 0: break;
    case 1: c.pad_same(); break;
    default: c.pad_t = r(0, c.kh - 1), c.pad_l = r(0, c.kw - 1), c.pad_b = r(0, c.kh - 1), c.pad_r = r(0, c.kw - 1);
  }
  c.out_c = r(1, 20);
  c.relu = r(0, 1);
  const nn::Shape cs = c.conv_shape();
  c.pool = std::min(cs.h, cs.w) >= 2 ? r(1, 2) : 1;
  nn::randomize_layer(c, in_zp, rng);
  return c;
}

QuantModel random_model(uint32_t n, std::mt19937& rng, bool with_conv) {
  QuantModel m;
  m.name = "random";
  auto r = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  m.input_zp = r(-20, 20);
  int zp = m.input_zp;
  nn::Shape cur;
  if (with_conv) {
    const QuantLayer c = random_conv(n, rng, zp);
    zp = c.out_zp;
    m.input = c.in;
    cur = c.out_shape();
    m.layers.push_back(c);
  } else {
    m.input = {1, 1, r(1, 70)};
    cur = m.input;
  }
  for (int l = r(1, 2); l > 0; --l) {
    QuantLayer d = nn::dense_layer(cur.size(), l == 1 ? r(1, 12) : r(1, 40), l > 1 && r(0, 1));
    nn::randomize_layer(d, zp, rng);
    zp = d.out_zp;
    cur = d.out_shape();
    m.layers.push_back(d);
  }
  return m;
}

// Compiles, runs one batch of random inputs on the golden model and checks every
// item's logits against the reference.
void check_model(const QuantModel& m, const Config& cfg, int batch, std::mt19937& rng,
                 compiler::ConvStrategy conv = compiler::ConvStrategy::automatic) {
  compiler::CompileOptions opt;
  opt.batch = batch;
  opt.conv = conv;
  compiler::CompiledModel c;
  try {
    c = compiler::compile_model(m, cfg, opt);
  } catch (const compiler::CompileError& e) {  // a large layer: let the compiler choose
    INFO(e.what());
    REQUIRE(std::string(e.what()).find("does not fit") != std::string::npos);
    opt.batch = 0;
    c = compiler::compile_model(m, cfg, opt);
  }
  const AsmResult a = assemble_source(c.assembly, "random.s", ".", cfg);
  INFO(a.diags.format());
  REQUIRE(a.image);
  for (const Symbol& sym : a.image->symbols)  // a host takes the batch from these sizes (digits-host)
    if (sym.name == "input" || sym.name == "logits")
      CHECK(sym.size / uint32_t(sym.name == "input" ? c.input_bytes : c.output_bytes) == uint32_t(c.batch));
  auto dev = Device::open(cfg);
  dev->load(*a.image);
  std::vector<uint8_t> input(size_t(c.batch) * c.input_bytes);
  for (auto& v : input) v = uint8_t(rng());
  dev->write("input", input);
  REQUIRE(dev->run().ok());
  const std::vector<uint8_t> logits = dev->read("logits");
  for (int b = 0; b < c.batch; ++b) {
    const std::vector<int8_t> x(input.begin() + b * c.input_bytes, input.begin() + (b + 1) * c.input_bytes);
    const std::vector<int8_t> want = nn::reference_logits(m, x);
    REQUIRE(want.size() == size_t(c.output_bytes));
    INFO("item " << b << " of " << c.batch);
    CHECK(std::memcmp(want.data(), &logits[size_t(b) * c.output_bytes], want.size()) == 0);
  }
}

}  // namespace

TEST_CASE("compiled dense models match the reference on N = 4 and N = 16", "[compiler]") {
  std::mt19937 rng(test::test_seed());
  for (uint32_t n : {4u, 16u}) {
    const Config cfg = test::config_n(n);
    for (int i = 0; i < 12; ++i) {
      const QuantModel m = random_model(n, rng, false);
      INFO("N=" << n << " model " << i << ": input " << m.input.size() << ", outputs " << m.layers[0].out_c);
      check_model(m, cfg, 1 + int(rng() % 9), rng);
    }
  }
}

TEST_CASE("compiled convolutions (padding, stride, pooling, any width) match the reference", "[compiler]") {
  std::mt19937 rng(test::test_seed() + 1);
  using compiler::ConvStrategy;
  int ran[5] = {0, 0, 0, 0, 0};
  for (uint32_t n : {4u, 16u}) {
    const Config cfg = test::config_n(n);
    for (int i = 0; i < 16; ++i) {
      const QuantModel m = random_model(n, rng, true);
      const QuantLayer& c = m.layers[0];
      // every lowering that applies to this layer, and the compiler's own choice
      for (ConvStrategy how : {ConvStrategy::automatic, ConvStrategy::taps, ConvStrategy::gathered, ConvStrategy::im2col,
                               ConvStrategy::toeplitz}) {
        INFO("N=" << n << " conv " << c.in.h << "x" << c.in.w << "x" << c.in.c << " kernel " << c.kh << "x" << c.kw
                  << " stride " << c.stride << " pad " << c.pad_t << "," << c.pad_l << "," << c.pad_b << ","
                  << c.pad_r << " -> " << c.out_c << " pool " << c.pool << ", lowering " << int(how));
        try {
          compiler::CompileOptions probe;
          probe.conv = how;
          compiler::compile_model(m, cfg, probe);
        } catch (const compiler::CompileError& e) {
          INFO(e.what());
          REQUIRE(how != ConvStrategy::automatic);
          REQUIRE(how != ConvStrategy::taps);  // the general lowering takes every layer
          const std::string what = e.what();
          CHECK((what.find("lowering needs") != std::string::npos || what.find("does not fit") != std::string::npos));
          continue;
        }
        check_model(m, cfg, 1 + int(rng() % 4), rng, how);
        ++ran[int(how)];
      }
    }
  }
  CHECK(ran[int(ConvStrategy::gathered)] > 0);
  CHECK(ran[int(ConvStrategy::im2col)] > 0);
  CHECK(ran[int(ConvStrategy::toeplitz)] > 0);
}

TEST_CASE("convolutions that need several output bands and items per multiply", "[compiler]") {
  // A small accumulator file splits an image into bands of rows; a large one takes several
  // items in one multiply. Both, padded and strided, against the reference.
  std::mt19937 rng(test::test_seed() + 3);
  for (uint32_t acc_rows : {64u, 2048u}) {
    Config cfg = test::config_n(4);
    cfg.acc_rows = acc_rows;
    QuantModel m;
    m.name = "bands";
    m.input_zp = 5;
    QuantLayer c;
    c.kind = LayerKind::Conv2d;
    c.in = {12, 11, 6};
    c.kh = c.kw = 3;
    c.stride = acc_rows == 64 ? 1 : 2;
    c.pad_same();
    c.out_c = 7;
    c.relu = true;
    nn::randomize_layer(c, m.input_zp, rng);
    m.input = c.in;
    m.layers.push_back(c);
    INFO("acc_rows " << acc_rows);
    check_model(m, cfg, 3, rng, compiler::ConvStrategy::taps);
  }
}

TEST_CASE("padded copies of few-channel images: N-byte rows with grouped whm, or a whm per image row", "[compiler]") {
  // The copy goes through the unified buffer in rows of N bytes; when an image row is a
  // whole number of them, one rhm and one whm of a group per image row (up to 64 groups)
  // per item, else an rhm and one or two whm per image row. Against the reference.
  std::mt19937 rng(test::test_seed() + 5);
  struct Case {
    uint32_t n;
    int h, w, c;
    bool grouped;
  };
  for (const Case& k : {Case{16, 5, 16, 3, true}, Case{16, 66, 16, 1, true}, Case{16, 4, 7, 3, false},
                        Case{4, 5, 6, 2, true}, Case{4, 3, 5, 2, false}}) {
    Config cfg = test::config_n(k.n);
    cfg.ub_rows = 8192, cfg.acc_rows = 2048;  // (the 66-row image's windows)
    QuantModel m;
    m.name = "copy";
    m.input_zp = -7;
    QuantLayer c;
    c.kind = LayerKind::Conv2d;
    c.in = {k.h, k.w, k.c};
    c.kh = c.kw = 3;
    c.pad_same();
    c.out_c = 5;
    c.relu = true;
    nn::randomize_layer(c, m.input_zp, rng);
    m.input = c.in;
    m.layers.push_back(c);
    INFO("N=" << k.n << " image " << k.h << "x" << k.w << "x" << k.c);
    compiler::CompileOptions opt;
    opt.batch = 3;
    opt.conv = compiler::ConvStrategy::gathered;
    const std::string assembly = compiler::compile_model(m, cfg, opt).assembly;
    CHECK(assembly.find("on a padded copy") != std::string::npos);
    CHECK((assembly.find("groups=") != std::string::npos) == k.grouped);
    check_model(m, cfg, 3, rng, compiler::ConvStrategy::gathered);
  }
}

TEST_CASE("a convolution's stores read an output slot before a later item's acts overwrite it", "[compiler]") {
  // Few multiplies per item (1x1, four tiles): the stores of item b wait for their acts
  // while item b + 2's acts reuse its output rows. A random case once found this.
  std::mt19937 rng(test::test_seed() + 5);
  QuantModel m;
  m.name = "slots";
  m.input_zp = -10;
  QuantLayer c;
  c.kind = LayerKind::Conv2d;
  c.in = {6, 8, 2};
  c.kh = c.kw = 1;
  c.out_c = 16;
  c.relu = true;
  nn::randomize_layer(c, m.input_zp, rng);
  m.input = c.in;
  m.layers.push_back(c);
  for (int batch : {3, 4, 5})
    for (auto how : {compiler::ConvStrategy::taps, compiler::ConvStrategy::gathered}) {
      INFO("batch " << batch << ", lowering " << int(how));
      check_model(m, test::config_n(4), batch, rng, how);
    }
}

TEST_CASE("the compiler picks the largest batch that fits and says why a model does not", "[compiler]") {
  std::mt19937 rng(7);
  QuantModel m;
  m.name = "wide";
  m.input = {1, 1, 300};
  QuantLayer d = nn::dense_layer(300, 200, false);
  nn::randomize_layer(d, 0, rng);
  m.layers.push_back(d);
  const Config cfg = test::config_n(4);
  const compiler::CompiledModel c = compiler::compile_model(m, cfg);
  CHECK(c.batch >= 1);
  CHECK(c.batch <= 256);
  compiler::CompileOptions opt;
  opt.batch = c.batch + 1;
  if (c.batch < 256) CHECK_THROWS_WITH(compiler::compile_model(m, cfg, opt), Catch::Contains("does not fit"));

  QuantModel huge = m;
  huge.input = {1, 1, 4000};
  huge.layers[0] = nn::dense_layer(4000, 4000, false);
  nn::randomize_layer(huge.layers[0], 0, rng);
  CHECK_THROWS_WITH(compiler::compile_model(huge, cfg),
                    Catch::Contains("wide does not fit the core") && Catch::Contains("unified-buffer rows"));

  QuantModel conv;
  conv.name = "wideconv";
  QuantLayer k;
  k.kind = LayerKind::Conv2d;
  k.in = {6, 6, 3};
  k.kh = k.kw = 3;  // a kernel row is 9 bytes: wider than N = 4
  k.out_c = 2;
  nn::randomize_layer(k, 0, rng);
  conv.input = k.in;
  conv.layers.push_back(k);
  CHECK(compiler::compile_model(conv, cfg).batch >= 1);  // taps or toeplitz take it
  opt.batch = 1;
  opt.conv = compiler::ConvStrategy::im2col;
  CHECK_THROWS_WITH(compiler::compile_model(conv, cfg, opt),
                    Catch::Contains("layer 0 (conv2d)") && Catch::Contains("no wider than the array (N = 4)"));
}

TEST_CASE("malformed model files give errors naming the file and the layer", "[compiler]") {
  const auto dir = std::filesystem::temp_directory_path() / ("tessera_model_" + std::to_string(test::test_seed()));
  std::filesystem::create_directories(dir);
  const std::string yaml = (dir / "m.yaml").string();
  auto write = [](const std::string& path, const std::string& text) { std::ofstream(path) << text; };
  write((dir / "w.bin").string(), std::string(12, '\0'));
  write((dir / "b.bin").string(), std::string(8, '\0'));
  const std::string head = "name: m\ninput: {height: 1, width: 1, channels: 6, scale: 1, zero_point: 0}\nlayers:\n";
  const std::string good =
      "  - {type: dense, in: 6, out: 2, relu: false, weights: w.bin, bias: b.bin, weight_scales: [1, 1],\n"
      "     multiplier: [1073741824, 1073741824], shift: [31, 31], input_quant: {scale: 1, zero_point: 0},\n"
      "     output_quant: {scale: 1, zero_point: 0}}\n";
  write(yaml, head + good);
  CHECK(nn::load_model(yaml).layers.size() == 1);

  auto expect = [&](std::string layer, const std::string& message) {
    write(yaml, head + layer);
    CHECK_THROWS_WITH(nn::load_model(yaml), Catch::Contains(yaml + ": layer 0") && Catch::Contains(message));
  };
  // the good layer with its first `from` replaced by `to`
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    return s.replace(s.find(from), from.size(), to);
  };
  expect(edited("dense", "lstm"), "unsupported layer type 'lstm'");
  expect(edited("in: 6", "in: 5"), "takes 5 inputs but the layer before gives 6");
  expect(edited("out: 2", "out: 3"), "weight file has 12 bytes, expected 18");
  expect(edited("[31, 31]", "[31, 64]"), "shift 64 is outside 0..63");
  expect(edited("b.bin", "nope.bin"), "nope.bin: cannot open (no such file)");
  expect(edited("b.bin", "."), "/.: cannot open (not a regular file)");  // (was a raw basic_filebuf error)
  // convolutions: stride and padding
  const std::string conv =
      "  - {type: conv2d, in_shape: [1, 1, 6], kernel: [1, 1], out_channels: 2, relu: false, weights: w.bin,\n"
      "     bias: b.bin, weight_scales: [1, 1], multiplier: [1073741824, 1073741824], shift: [31, 31],\n"
      "     input_quant: {scale: 1, zero_point: 0}, output_quant: {scale: 1, zero_point: 0}, STRIDE PADDING}\n";
  auto conv_with = [&](const std::string& stride, const std::string& padding) {
    std::string c = conv;
    c.replace(c.find("STRIDE"), 6, stride);
    c.replace(c.find("PADDING"), 7, padding);
    return c;
  };
  write(yaml, head + conv_with("stride: 2,", "padding: same"));
  CHECK(nn::load_model(yaml).layers[0].stride == 2);
  expect(conv_with("stride: 0,", "padding: valid"), "stride must be 1..64");
  expect(conv_with("stride: 1,", "padding: [1, 1]"), "padding is 'same', 'valid' or [top, left, bottom, right]");
  expect(conv_with("stride: 1,", "padding: wide"), "padding is 'same', 'valid' or [top, left, bottom, right]");
  expect(conv_with("stride: 1,", "padding: [1, 0, 0, 0]"), "each padding must be 0..kernel size - 1");
  expect(conv_with("stride: 1,", "padding: [0, 0, -1, 0]"), "each padding must be 0..kernel size - 1");
  write(yaml, "name: m\nlayers: []\n");
  CHECK_THROWS_WITH(nn::load_model(yaml), Catch::Contains("missing 'input'"));
  // shapes whose sizes would overflow (h * w * c in an int: UBSan's report before the limits)
  expect(conv_with("stride: 1,", "padding: valid").replace(conv.find("[1, 1, 6]"), 9, "[1000000000, 1000000000, 1000]"),
         "in_shape [1000000000, 1000000000, 1000] must be positive, each at most 65536 and at most 16777216 values in all");
  write(yaml, "name: m\ninput: {height: 65536, width: 65536, channels: 1, scale: 1, zero_point: 0}\nlayers:\n" + good);
  CHECK_THROWS_WITH(nn::load_model(yaml), Catch::Contains(yaml + ": input shape [65536, 65536, 1] must be positive"));
  expect(edited("out: 2", "out: 2000000000"), "needs 1..65536 outputs, got 2000000000");
  // the loader's own words, with the value's place, not yaml-cpp's text
  expect(edited("out: 2", "out: two"), "line 4, column 31: 'out' must be an integer");
  expect(edited("relu: false, ", ""), "missing 'relu'");
  expect(edited("input_quant: {scale: 1, zero_point: 0}", "input_quant: 1"),
         "'input_quant' must be a map {key: value, ...}");
  write(yaml, head + "  - 5\n");
  CHECK_THROWS_WITH(nn::load_model(yaml), Catch::Contains(yaml + ": layer 0: line 4, column 5: a layer is a map"));
  write(yaml, "name: m\ninput: {height: 1\n");
  CHECK_THROWS_WITH(nn::load_model(yaml), Catch::StartsWith(yaml + ":3:1: invalid YAML: "));
  CHECK_THROWS_WITH(nn::load_model(dir.string()), dir.string() + ": cannot open the model (not a regular file)");
  // a folded bias outside int32 names the layer and channel (before: a block and lane, no file)
  write((dir / "b.bin").string(), std::string("\x00\x00\x00\x00\xf0\xff\xff\x7f", 8));  // channel 1: 2^31 - 16
  write((dir / "w.bin").string(), std::string(12, '\x01'));
  std::string head5 = head;
  head5.replace(head5.find("zero_point: 0}"), 14, "zero_point: -5}");
  write(yaml, head5 + edited("zero_point: 0}", "zero_point: -5}"));
  {
    const nn::QuantModel m = nn::load_model(yaml);
    CHECK_THROWS_WITH(compiler::compile_model(m, test::config_n(4)),
                      "layer 0 (dense), output channel 1: the bias 2147483632 with the input zero point -5 folded in "
                      "is 2147483662, outside int32 (the core adds an int32 bias)");
  }
  write((dir / "w.bin").string(), std::string(12, '\0'));
  write((dir / "b.bin").string(), std::string(8, '\0'));
  // an absolute weight path is used as it is, not joined to the model's directory
  write(yaml, head + edited("w.bin", (dir / "w.bin").string()));
  CHECK(nn::load_model(yaml).layers.size() == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("stride and padding survive saving and loading a model", "[compiler]") {
  std::mt19937 rng(test::test_seed() + 4);
  QuantLayer c = nn::conv_layer(7, 6, 3, 3, 5, 2, false, true);
  c.pad_t = 2, c.pad_l = 0, c.pad_b = 1, c.pad_r = 2;
  nn::randomize_layer(c, 3, rng);
  const QuantModel m = nn::single_layer_model("padded", c);
  const auto dir = std::filesystem::temp_directory_path() / ("tessera_padded_" + std::to_string(test::test_seed()));
  std::filesystem::create_directories(dir);
  nn::save_model(m, dir.string());
  const QuantLayer back = nn::load_model((dir / "padded.yaml").string()).layers[0];
  CHECK(back.stride == 2);
  CHECK((back.pad_t == 2 && back.pad_l == 0 && back.pad_b == 1 && back.pad_r == 2));
  CHECK(back.out_shape().h == c.out_shape().h);
  CHECK(back.out_shape().w == c.out_shape().w);
  CHECK(back.w == c.w);
  std::filesystem::remove_all(dir);
}

TEST_CASE("the GEMM generator computes requant(A*B) for any size", "[compiler][gemm]") {
  std::mt19937 rng(test::test_seed() + 2);
  for (uint32_t n : {4u, 16u}) {
    Config cfg = test::config_n(n);
    cfg.ub_rows = 256;  // small, so that M is split into several chunks
    for (int i = 0; i < 4; ++i) {
      const int m = 1 + int(rng() % 70), k = 1 + int(rng() % 40), cols = 1 + int(rng() % 40);
      const compiler::GemmProgram g = compiler::gemm_program(cfg, m, k, cols, 1 << 30, 38);
      const AsmResult a = assemble_source(g.assembly, "gemm.s", ".", cfg);
      INFO("N=" << n << " " << m << "x" << k << "x" << cols << "\n" << a.diags.format());
      REQUIRE(a.image);
      auto dev = Device::open(cfg);
      dev->load(*a.image);
      std::vector<uint8_t> A(size_t(m) * k), B(size_t(k) * cols);
      for (auto& v : A) v = uint8_t(rng());
      for (auto& v : B) v = uint8_t(rng());
      dev->write("a", A);
      dev->write("b", B);
      REQUIRE(dev->run().ok());
      const std::vector<uint8_t> C = dev->read("c");
      for (int r = 0; r < m; ++r)
        for (int c = 0; c < cols; ++c) {
          int64_t dot = 0;
          for (int t = 0; t < k; ++t) dot += int64_t(int8_t(A[size_t(r) * k + t])) * int8_t(B[size_t(t) * cols + c]);
          REQUIRE(int8_t(C[size_t(r) * cols + c]) == test::ref_requant(dot, 0, 1 << 30, 38, 0, false));
        }
    }
  }
}
