// SPDX-License-Identifier: Apache-2.0
// Host driver API on the model backend: loading, symbol I/O, limits, errors.
#include <catch2/catch.hpp>

#include "driver/device.hpp"
#include "helpers.hpp"

using namespace tessera;
using namespace tessera::test;
using Catch::Matchers::Contains;

namespace {

Image copy_program(const Config& cfg) {
  // Copies 8 bytes from `in` to `out` through the unified buffer.
  Image img = make_image(cfg, {rhm(0, 2, 0x1000, 4, 4), whm(0, 2, 0x1008, 4, 4), halt()}, 0x1000,
                         std::vector<uint8_t>(16, 0));
  img.symbols = {{"in", 0x1000, 8}, {"out", 0x1008, 8}};
  return img;
}

}  // namespace

TEST_CASE("load, write a symbol, run, read a symbol", "[driver]") {
  const Config cfg = config_n(4);
  auto dev = Device::open(cfg);
  CHECK(dev->backend_name() == "model");
  dev->load(copy_program(cfg));
  dev->write("in", {1, 2, 3, 4, 5, 6, 7, 8});
  const RunResult r = dev->run();
  CHECK(r.ok());
  CHECK(r.status.state == RunState::Done);
  CHECK(r.counters.instructions == 3u);
  CHECK_FALSE(r.counters.cycles.has_value());  // the model has no clock
  CHECK(dev->read("out") == std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8});
  CHECK(dev->read_mem(0x1000, 3) == std::vector<uint8_t>{1, 2, 3});
  CHECK(dev->last_result()->ok());
}

TEST_CASE("empty sections, writes and reads reach no backend", "[driver]") {
  // (memcpy from an empty vector's null data() is undefined behaviour: UBSan's report)
  const Config cfg = config_n(4);
  auto dev = Device::open(cfg);
  Image img = copy_program(cfg);
  img.sections.push_back({SectionKind::Data, 0x2000, {}});
  img.symbols.push_back({"none", 0x2000, 0});
  dev->load(img);
  dev->write("none", {});
  dev->write_mem(0x1000, {});
  CHECK(dev->read("none").empty());
  CHECK(dev->read_mem(0x1000, 0).empty());
  CHECK(dev->run().ok());
}

TEST_CASE("driver errors are clear", "[driver]") {
  const Config cfg = config_n(4);
  auto dev = Device::open(cfg);
  CHECK_THROWS_WITH(dev->run(), "no image loaded");
  CHECK_THROWS_WITH(dev->read("in"), "no image loaded");
  dev->load(copy_program(cfg));
  CHECK_THROWS_WITH(dev->read("nope"), "no symbol 'nope' in the image (it has: in, out)");
  CHECK_THROWS_WITH(dev->write("in", std::vector<uint8_t>(9)), "'in' holds 8 bytes, got 9");
  CHECK_THROWS_WITH(dev->read_mem(cfg.dram_bytes - 2, 4), Contains("outside device memory"));
  CHECK_THROWS_WITH(dev->write_mem(cfg.dram_bytes, {1}), Contains("outside device memory"));
  CHECK_THROWS_WITH(Device::open(config_n(8))->load(copy_program(cfg), "p.img"),
                    Contains("p.img: image was built for another configuration"));
  CHECK_THROWS_WITH(parse_backend_name("fpga"), "unknown backend 'fpga' (available: model, rtl, systemc, uart)");
  Config bad = cfg;
  bad.array_size = 5;
  CHECK_THROWS_AS(Device::open(bad), ConfigError);
}

TEST_CASE("bus-error injection and run limits reach the backend", "[driver]") {
  const Config cfg = config_n(4);
  DeviceOptions opts;
  opts.bus_errors = {{0x1000, 0x1040}};
  auto dev = Device::open(cfg, opts);
  dev->load(copy_program(cfg));
  RunResult r = dev->run();
  CHECK_FALSE(r.ok());
  CHECK(r.status.error == ErrorCode::BusError);
  CHECK(r.status.pc == 0x0);  // the first rhm reads 0x1000
  for (const AddrRange bad : {AddrRange{0x1008, 0x1040}, AddrRange{0x1000, 0x1001}, AddrRange{0x1040, 0x1040}}) {
    DeviceOptions o;
    o.bus_errors = {bad};
    CHECK_THROWS_WITH(Device::open(cfg, o), Contains("must be non-empty with both ends multiples of 64 bytes"));
  }

  auto dev2 = Device::open(cfg);
  dev2->load(copy_program(cfg));
  r = dev2->run({2});
  CHECK(r.limit_reached);
  CHECK_FALSE(r.ok());
  r = dev2->run({3});
  CHECK(r.ok());  // each run restarts from the entry point
}
