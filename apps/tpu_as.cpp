// SPDX-License-Identifier: Apache-2.0
// tpu-as: assemble a source file into a program image.
#include <cstdio>

#include "asm/assembler.hpp"
#include "cli/cli_common.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: tpu-as [--config FILE] SOURCE.s -o IMAGE.img\n"
    "  Assembles SOURCE for the configuration (default: configs/default.yaml).\n"
    "  Errors are printed as file:line:col: error: message; the exit code is 1.\n";

int main(int argc, char** argv) {
  try {
    cli::Args args(argc, argv);
    std::string config_path, out, src;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.option("--config", config_path) || args.option("-o", out)) continue;
      if (!src.empty()) throw cli::CliError{"only one source file may be given"};
      src = args.positional();
    }
    if (src.empty() || out.empty()) {
      std::fputs(kUsage, stderr);
      return 2;
    }
    const Config cfg = cli::load_config_arg(config_path);
    AsmResult r = assemble_file(src, cfg);
    if (!r.image) {
      std::fputs(r.diags.format().c_str(), stderr);
      std::fprintf(stderr, "tpu-as: %zu error%s\n", r.diags.items().size(),
                   r.diags.items().size() == 1 ? "" : "s");
      return 1;
    }
    write_image_file(out, *r.image);
    return 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-as: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-as: error: %s\n", e.what());
  }
  return 1;
}
