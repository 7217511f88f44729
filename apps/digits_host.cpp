// SPDX-License-Identifier: Apache-2.0
// Host example: classify the digits test split with a program built by tpu-cc and
// tpu-as (see docs/programming.md), through the driver API, on any backend.
//   digits-host CONFIG.yaml MODEL.yaml PROG.img [model|rtl]
#include <cstdio>
#include <cstring>

#include "driver/device.hpp"
#include "nn/quantize.hpp"
#include "nn/reference.hpp"
#include "rtl_backend.hpp"

using namespace tessera;

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: digits-host CONFIG.yaml MODEL.yaml PROG.img [model|rtl]\n");
    return 2;
  }
  try {
    sim::register_rtl_backend();
    DeviceOptions opts;
    opts.backend = parse_backend_name(argc > 4 ? argv[4] : "model");
    auto dev = Device::open(load_config_file(argv[1]), opts);
    dev->load(read_image_file(argv[3]), argv[3]);
    const nn::QuantModel model = nn::load_model(argv[2]);
    const nn::Digits test = nn::split_digits(nn::load_digits_csv("firmware/data/digits/digits.csv")).test;

    const size_t in_bytes = size_t(model.input.size()), classes = size_t(model.classes());
    const size_t batch = dev->symbol("input").size / in_bytes;  // the batch tpu-cc chose
    size_t right = 0;
    for (size_t first = 0; first < test.size(); first += batch) {
      const size_t count = std::min(batch, test.size() - first);
      std::vector<uint8_t> input(batch * in_bytes, 0);
      for (size_t i = 0; i < count; ++i) {
        const std::vector<int8_t> x = nn::quantize_digit(model, test.images[first + i].data());
        std::memcpy(&input[i * in_bytes], x.data(), in_bytes);
      }
      dev->write("input", input);
      if (!dev->run().ok()) throw DriverError("the run did not end with HALT");
      const std::vector<uint8_t> logits = dev->read("logits");
      for (size_t i = 0; i < count; ++i)
        right += nn::argmax_i8(reinterpret_cast<const int8_t*>(&logits[i * classes]), int(classes)) ==
                 test.labels[first + i];
    }
    std::printf("%s on %s: %zu of %zu test digits right (%.2f%%)\n", model.name.c_str(), dev->backend_name().c_str(),
                right, test.size(), 100.0 * right / test.size());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "digits-host: error: %s\n", e.what());
    return 1;
  }
}
