// SPDX-License-Identifier: Apache-2.0
// tpu-train: trains the digits MLP and CNN in float on the training split, quantizes
// them to int8 (calibrated on the training split) and writes the model artefacts.
// The defaults reproduce the committed firmware/models/ bit for bit.
#include <cstdio>
#include <filesystem>

#include "cli/cli_common.hpp"
#include "nn/quantize.hpp"
#include "nn/reference.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: tpu-train [--data digits.csv] [--out DIR] [--seed N]\n"
    "  Defaults: --data firmware/data/digits/digits.csv --out firmware/models --seed 2026\n";

static double int8_accuracy(const nn::QuantModel& q, const nn::Digits& d) {
  size_t right = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    const auto logits = nn::reference_logits(q, nn::quantize_digit(q, d.images[i].data()));
    right += nn::argmax_i8(logits.data(), int(logits.size())) == d.labels[i];
  }
  return double(right) / double(d.size());
}

int main(int argc, char** argv) {
  try {
    cli::Args args(argc, argv);
    std::string data = "firmware/data/digits/digits.csv", out = "firmware/models", value;
    uint64_t seed = 2026;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.option("--data", data) || args.option("--out", out)) continue;
      if (args.option("--seed", value)) {
        seed = cli::parse_number(value, "--seed");
        continue;
      }
      throw cli::CliError{"unexpected argument '" + args.positional() + "'\n" + kUsage};
    }
    std::filesystem::create_directories(out);
    const nn::DigitsSplit split = nn::split_digits(nn::load_digits_csv(data));
    std::printf("digits: %zu training images, %zu test images, seed %llu\n", split.train.size(),
                split.test.size(), static_cast<unsigned long long>(seed));
    for (nn::FloatNet net : {nn::digits_mlp(), nn::digits_cnn()}) {
      nn::TrainOptions opt;
      opt.seed = seed;
      nn::train(net, split.train, opt);
      const nn::QuantModel q = nn::quantize(net, split.train);
      nn::save_model(q, out);
      nn::save_float_params(net, out + "/" + net.name + ".float.bin");
      std::printf("%-11s float test accuracy %.2f%%, int8 test accuracy %.2f%% -> %s/%s.yaml\n", net.name.c_str(),
                  100 * nn::accuracy(net, split.test), 100 * int8_accuracy(q, split.test), out.c_str(),
                  net.name.c_str());
    }
    return 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-train: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-train: error: %s\n", e.what());
  }
  return 1;
}
