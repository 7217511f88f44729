// SPDX-License-Identifier: Apache-2.0
// tpu-cc: compiles an int8 model description (YAML) to Tessera assembly.
#include <cstdio>

#include "cli/cli_common.hpp"
#include "compiler/compiler.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: tpu-cc MODEL.yaml -o PROG.s [--config FILE] [--batch B] [--conv auto|taps|gathered|im2col|toeplitz]\n"
    "  Compiles the model for the configuration (default configs/default.yaml). One run\n"
    "  of the program classifies B inputs (default: the largest batch that fits, at most 256):\n"
    "  write them to symbol `input`, read the int8 logits from symbol `logits`. --conv picks\n"
    "  how every convolution is lowered (default: the cheapest that applies; docs/programming.md).\n";

int main(int argc, char** argv) {
  try {
    cli::Args args(argc, argv);
    std::string model_path, out_path, config_path, value;
    compiler::CompileOptions opt;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.option("-o", out_path) || args.option("--config", config_path)) continue;
      if (args.option("--batch", value)) {
        const uint64_t batch = cli::parse_number(value, "--batch");
        if (batch < 1 || batch > 65536) throw cli::CliError{"--batch must be 1..65536, got " + value};
        opt.batch = int(batch);
        continue;
      }
      if (args.option("--conv", value)) {
        if (value == "auto") opt.conv = compiler::ConvStrategy::automatic;
        else if (value == "taps") opt.conv = compiler::ConvStrategy::taps;
        else if (value == "gathered") opt.conv = compiler::ConvStrategy::gathered;
        else if (value == "im2col") opt.conv = compiler::ConvStrategy::im2col;
        else if (value == "toeplitz") opt.conv = compiler::ConvStrategy::toeplitz;
        else throw cli::CliError{"--conv is auto, taps, gathered, im2col or toeplitz, not '" + value + "'"};
        continue;
      }
      if (!model_path.empty()) throw cli::CliError{"more than one model given\n" + std::string(kUsage)};
      model_path = args.positional();
    }
    if (model_path.empty() || out_path.empty()) throw cli::CliError{std::string("missing arguments\n") + kUsage};
    const Config cfg = cli::load_config_arg(config_path);
    const nn::QuantModel model = nn::load_model(model_path);
    compiler::CompiledModel c;
    try {
      c = compiler::compile_model(model, cfg, opt);
    } catch (const compiler::CompileError& e) {
      throw cli::CliError{model_path + ": " + e.what()};  // (the model's file: its layers are named inside)
    }
    cli::write_file_bytes(out_path, std::vector<uint8_t>(c.assembly.begin(), c.assembly.end()));
    std::printf("tpu-cc: %s -> %s: batch %d, %d input bytes and %d logits per item\n", model_path.c_str(),
                out_path.c_str(), c.batch, c.input_bytes, c.output_bytes);
    return 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-cc: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-cc: error: %s\n", e.what());
  }
  return 1;
}
