// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the assembler. Any source ends in an image or in diagnostics that point
// into it; an image survives serialization, and its disassembled source reassembles to
// the same bytes (tpu-objdump --source's promise).
#include <algorithm>
#include <cstdint>
#include <string>

#include "asm/assembler.hpp"
#include "asm/disassembler.hpp"
#include "fuzz_check.hpp"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Config cfg;  // the built-in configuration (N = 16)
  const std::string src(reinterpret_cast<const char*>(data), size);
  const AsmResult r = assemble_source(src, "f.s", TESSERA_FUZZ_DATA_DIR, cfg);
  if (!r.image) {
    FUZZ_CHECK(!r.diags.empty(), "a refused source has a diagnostic");
    const size_t lines = size_t(std::count(src.begin(), src.end(), '\n')) + 1;
    for (const auto& d : r.diags.items()) {
      FUZZ_CHECK(d.loc.file == "f.s", "a diagnostic names the file");
      FUZZ_CHECK(d.loc.line >= 1 && size_t(d.loc.line) <= lines, "a diagnostic's line is in the file");
      FUZZ_CHECK(d.loc.col >= 1, "a diagnostic has a column");
      FUZZ_CHECK(!d.message.empty(), "a diagnostic says something");
    }
    return 0;
  }
  FUZZ_CHECK(r.diags.empty(), "an assembled source has no diagnostics");
  const std::vector<uint8_t> bytes = serialize_image(*r.image);
  FUZZ_CHECK(serialize_image(parse_image(bytes, "f.img")) == bytes, "the image parses back to itself");
  const std::string listing = disassemble_listing(*r.image);
  FUZZ_CHECK(!listing.empty(), "the listing says something");
  const AsmResult again = assemble_source(disassemble_source(*r.image), "d.s", TESSERA_FUZZ_DATA_DIR, cfg);
  FUZZ_CHECK(again.image && serialize_image(*again.image) == bytes, "the disassembled source reassembles to the image");
  return 0;
}
