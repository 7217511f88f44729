// SPDX-License-Identifier: Apache-2.0
// The firmware examples, assembled from their files and run through the driver,
// against the plain C++ reference of the quantized layer.
#include <catch2/catch.hpp>

#include "asm/assembler.hpp"
#include "driver/device.hpp"
#include "layer_program.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

std::unique_ptr<Device> device_with(const std::string& firmware) {
  const Config cfg = load_config_file(source_path("configs/default.yaml"));
  const AsmResult r = assemble_file(source_path(firmware), cfg);
  INFO(r.diags.format());
  REQUIRE(r.image);
  auto dev = Device::open(cfg);
  dev->load(*r.image, firmware);
  return dev;
}

std::vector<uint8_t> bytes_of(const std::vector<int8_t>& v) { return {v.begin(), v.end()}; }

// Parameter blocks for consecutive 16-lane column tiles of a layer.
std::vector<uint8_t> params_for(const QuantLayer& L, int lanes) {
  std::vector<uint8_t> out;
  for (int j = 0; j < L.n; j += lanes) {
    const std::vector<int32_t> b(L.bias.begin() + j, L.bias.begin() + j + lanes);
    const std::vector<int32_t> m(L.mult.begin() + j, L.mult.begin() + j + lanes);
    const std::vector<uint8_t> s(L.shift.begin() + j, L.shift.begin() + j + lanes);
    const auto blk = param_block(lanes, b, m, s);
    out.insert(out.end(), blk.begin(), blk.end());
  }
  return out;
}

std::vector<int8_t> as_i8(const std::vector<uint8_t>& v) { return {v.begin(), v.end()}; }

}  // namespace

TEST_CASE("firmware gemm64: tiled 64x64x64 GEMM with its default parameters", "[firmware]") {
  auto dev = device_with("firmware/examples/gemm64.s");
  std::mt19937 rng(test_seed());
  QuantLayer L = random_layer(rng, 64, 64, 64);
  L.bias.assign(64, 0);
  L.mult.assign(64, 1 << 30);
  L.shift.assign(64, 40);
  L.zp = 0;
  L.relu = false;
  dev->write("a", bytes_of(L.a));
  dev->write("b", bytes_of(L.w));
  const RunResult r = dev->run();
  REQUIRE(r.ok());
  CHECK(as_i8(dev->read("c")) == L.reference());
  CHECK(r.counters.macs == 64u * 64u * 64u / 16u * 16u);  // 16 multiplies of 64 rows x N*N
}

TEST_CASE("firmware gemm64 with per-channel parameters from the host", "[firmware]") {
  auto dev = device_with("firmware/examples/gemm64.s");
  std::mt19937 rng(test_seed() + 1);
  QuantLayer L = random_layer(rng, 64, 64, 64);
  L.zp = 0;
  L.relu = false;
  // The program uses one parameter block for every column tile: same 16 lanes each time.
  for (int j = 16; j < 64; ++j) L.bias[j] = L.bias[j % 16], L.mult[j] = L.mult[j % 16], L.shift[j] = L.shift[j % 16];
  dev->write("a", bytes_of(L.a));
  dev->write("b", bytes_of(L.w));
  const std::vector<uint8_t> p = params_for(L, 16);
  dev->write("params", std::vector<uint8_t>(p.begin(), p.begin() + act_block_bytes(16)));
  REQUIRE(dev->run().ok());
  CHECK(as_i8(dev->read("c")) == L.reference());
}

TEST_CASE("firmware dense_relu: dense layer with bias, requantization and ReLU", "[firmware]") {
  auto dev = device_with("firmware/examples/dense_relu.s");
  std::mt19937 rng(test_seed() + 2);
  for (int trial = 0; trial < 3; ++trial) {
    QuantLayer L = random_layer(rng, 16, 64, 32);
    L.zp = -128;
    L.relu = true;
    dev->write("x", bytes_of(L.a));
    dev->write("w", bytes_of(L.w));
    dev->write("params", params_for(L, 16));
    REQUIRE(dev->run().ok());
    const std::vector<int8_t> got = as_i8(dev->read("y"));
    CHECK(got == L.reference());
    CHECK(std::count(got.begin(), got.end(), -128) > 0);  // ReLU really clamped something
    CHECK(std::count(got.begin(), got.end(), -128) < int(got.size()));
  }
}
