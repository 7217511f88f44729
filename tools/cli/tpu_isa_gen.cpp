// SPDX-License-Identifier: Apache-2.0
// tpu-isa-gen: print the Verilog ISA header or the markdown encoding tables.
#include <cstdio>
#include <cstring>

#include "isa/isa_gen.hpp"

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--verilog") == 0) {
    std::fputs(tessera::generate_verilog_header().c_str(), stdout);
    return 0;
  }
  if (argc == 2 && std::strcmp(argv[1], "--markdown") == 0) {
    std::fputs(tessera::generate_markdown_tables().c_str(), stdout);
    return 0;
  }
  std::fprintf(stderr, "usage: tpu-isa-gen --verilog | --markdown\n");
  return 2;
}
