// SPDX-License-Identifier: Apache-2.0
// tpu-isa-gen: print the Verilog ISA header, the markdown encoding tables or the CSR map.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "isa/isa_gen.hpp"

int main(int argc, char** argv) {
  const std::string what = argc == 2 ? argv[1] : "";
  std::string text;
  if (what == "--verilog") {
    text = tessera::generate_verilog_header();
  } else if (what == "--markdown") {
    text = tessera::generate_markdown_tables();
  } else if (what == "--csr-markdown") {
    text = tessera::generate_csr_markdown();
  } else {
    std::fprintf(stderr, "usage: tpu-isa-gen --verilog | --markdown | --csr-markdown\n");
    return 2;
  }
  // (a generated file cut short by a full disk must not look generated)
  if (std::fputs(text.c_str(), stdout) < 0 || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "tpu-isa-gen: error: cannot write the standard output (%s)\n", std::strerror(errno));
    return 1;
  }
  return 0;
}
