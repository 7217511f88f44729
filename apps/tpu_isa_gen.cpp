// SPDX-License-Identifier: Apache-2.0
// tpu-isa-gen: print the Verilog ISA header, the markdown encoding tables or the CSR map.
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
  if (argc == 2 && std::strcmp(argv[1], "--csr-markdown") == 0) {
    std::fputs(tessera::generate_csr_markdown().c_str(), stdout);
    return 0;
  }
  std::fprintf(stderr, "usage: tpu-isa-gen --verilog | --markdown | --csr-markdown\n");
  return 2;
}
