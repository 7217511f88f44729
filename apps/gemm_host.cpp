// SPDX-License-Identifier: Apache-2.0
// Host example: run firmware/examples/gemm64.s through the driver API and check
// C = round(A*B / 1024) (its default parameters) against a plain C++ loop.
#include <cmath>
#include <cstdio>
#include <random>

#include "driver/device.hpp"

using namespace tessera;

int main(int argc, char** argv) {
  if (argc != 4 || std::string(argv[1]) != "--config") {
    std::fprintf(stderr, "usage: gemm-host --config CONFIG.yaml GEMM64.img\n");
    return 2;
  }
  try {
    const Config cfg = load_config_file(argv[2]);
    DeviceOptions opts;
    opts.backend = BackendKind::Model;
    auto dev = Device::open(cfg, opts);
    dev->load(read_image_file(argv[3]), argv[3]);

    const int n = 64;
    std::mt19937 rng(2026);
    std::uniform_int_distribution<int> dist(-128, 127);
    std::vector<uint8_t> a(n * n), b(n * n);
    for (auto& v : a) v = static_cast<uint8_t>(dist(rng));
    for (auto& v : b) v = static_cast<uint8_t>(dist(rng));
    dev->write("a", a);
    dev->write("b", b);

    const RunResult r = dev->run();
    std::printf("%s: %s, %llu instructions, %llu MACs\n", dev->backend_name().c_str(),
                run_state_name(r.status.state), (unsigned long long)r.counters.instructions,
                (unsigned long long)r.counters.macs);
    if (!r.ok()) return 1;

    const std::vector<uint8_t> c = dev->read("c");
    int wrong = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        long dot = 0;
        for (int k = 0; k < n; ++k) dot += long(int8_t(a[i * n + k])) * int8_t(b[k * n + j]);
        const double want = std::fmin(127, std::fmax(-128, std::round(dot / 1024.0)));
        wrong += int8_t(c[i * n + j]) != int(want);
      }
    std::printf("C = round(A*B/1024), 64x64x64 int8: %d of %d outputs differ from the C++ reference\n",
                wrong, n * n);
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gemm-host: error: %s\n", e.what());
    return 1;
  }
}
