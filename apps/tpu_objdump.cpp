// SPDX-License-Identifier: Apache-2.0
// tpu-objdump: show a program image (listing), or print source that reassembles to it.
#include <cstdio>

#include "asm/disassembler.hpp"
#include "cli/cli_common.hpp"

using namespace tessera;

static const char* kUsage =
    "usage: tpu-objdump [--source] IMAGE.img\n"
    "  Prints the header, sections, symbols and disassembly; with --source, assembler\n"
    "  source that reassembles to the same image.\n";

int main(int argc, char** argv) {
  try {
    cli::Args args(argc, argv);
    bool source = false;
    std::string path;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.flag("--source")) {
        source = true;
        continue;
      }
      path = args.positional();
    }
    if (path.empty()) {
      std::fputs(kUsage, stderr);
      return 2;
    }
    const Image img = read_image_file(path);
    std::fputs((source ? disassemble_source(img) : disassemble_listing(img)).c_str(), stdout);
    return 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-objdump: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-objdump: error: %s\n", e.what());
  }
  return 1;
}
