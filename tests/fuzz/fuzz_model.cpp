// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the model loader and the compiler (tpu-cc). The input is a model's YAML;
// its layer files are made up here at the size each layer asks for (weights from a hash
// of the file name, biases small), so that mutated shapes still reach the compiler. A
// model is refused with a message naming it, or compiles to a program that assembles
// and, run on the golden model, gives the int8 reference's logits byte for byte; and
// what compiles at batch 1 also compiles with the batch left to the compiler.
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "asm/assembler.hpp"
#include "compiler/compiler.hpp"
#include "driver/device.hpp"
#include "fuzz_check.hpp"
#include "nn/reference.hpp"
#include "util/fnv.hpp"

using namespace tessera;

namespace {

constexpr size_t kMaxLayerFile = size_t{1} << 22;  // larger layers are refused (as a missing file)
constexpr uint64_t kMaxRunMacs = uint64_t{1} << 22;  // larger programs compile but do not run

std::vector<uint8_t> make_layer_file(const std::string& file, size_t expected) {
  if (expected > kMaxLayerFile) throw nn::NnError(file + ": cannot open");
  std::mt19937 rng{static_cast<uint32_t>(fnv1a64(file))};
  std::vector<uint8_t> b(expected);
  const bool bias = file.find("bias") != std::string::npos && expected % 4 == 0;
  for (size_t i = 0; i < expected; i += bias ? 4 : 1) {
    if (!bias) {
      b[i] = uint8_t(rng());
      continue;
    }
    const int32_t v = int32_t(rng() % 65536) - 32768;
    for (int k = 0; k < 4; ++k) b[i + k] = uint8_t(uint32_t(v) >> (8 * k));
  }
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  nn::QuantModel m;
  try {
    m = nn::parse_model(text, "m.yaml", make_layer_file);
  } catch (const nn::NnError& e) {
    FUZZ_CHECK(std::string(e.what()).rfind("m.yaml", 0) == 0, "a refused model is named");
    return 0;
  }
  static const Config cfg;  // the built-in configuration (N = 16)
  compiler::CompiledModel c;
  compiler::CompileOptions opt;
  opt.batch = 1;
  try {
    c = compiler::compile_model(m, cfg, opt);
  } catch (const compiler::CompileError& e) {
    FUZZ_CHECK(*e.what() != '\0', "a refusal says why");
    return 0;
  }
  // What compiles one input at a time compiles without a batch given (the search for
  // the largest batch steps down past every limit a batch can hit).
  if (size % 8 == 0) {  // (the search compiles up to ten times: on some inputs only)
    try {
      FUZZ_CHECK(compiler::compile_model(m, cfg).batch >= 1, "the batch search finds a batch");
    } catch (const compiler::CompileError& e) {
      std::fprintf(stderr, "%s\n", e.what());
      FUZZ_CHECK(false, "a model that compiles at batch 1 compiles without --batch");
    }
  }
  const AsmResult a = assemble_source(c.assembly, "m.s", ".", cfg);
  if (!a.image) std::fprintf(stderr, "%s", a.diags.format().c_str());
  FUZZ_CHECK(a.image, "the compiler's program assembles");
  if (c.macs > kMaxRunMacs) return 0;
  const std::unique_ptr<Device> dev = Device::open(cfg);
  dev->load(*a.image);
  std::mt19937 rng{static_cast<uint32_t>(size)};
  std::vector<uint8_t> input(size_t(c.batch) * c.input_bytes);
  for (auto& v : input) v = uint8_t(rng());
  dev->write("input", input);
  FUZZ_CHECK(dev->run().ok(), "the compiled program runs to its end");
  const std::vector<uint8_t> logits = dev->read("logits");
  for (int b = 0; b < c.batch; ++b) {
    const std::vector<int8_t> x(input.begin() + b * c.input_bytes, input.begin() + (b + 1) * c.input_bytes);
    const std::vector<int8_t> want = nn::reference_logits(m, x);
    FUZZ_CHECK(want.size() == size_t(c.output_bytes), "the program's logits are the model's");
    FUZZ_CHECK(std::memcmp(want.data(), &logits[size_t(b) * c.output_bytes], want.size()) == 0,
               "the golden model's logits equal the reference's");
  }
  return 0;
}
