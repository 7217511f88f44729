// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the image loader (tpu-run, tpu-objdump, every backend's load). Each input
// is tried as it is and resealed (length and checksum made to match, so that mutations
// reach the tables). An image is refused with a message naming it, or it serializes back
// to itself, its listing prints, its source reassembles to it (or tpu-objdump --source
// refuses it as one no source makes), and the golden model runs it to a stop.
#include <cstdint>
#include <string>
#include <vector>

#include "asm/assembler.hpp"
#include "asm/disassembler.hpp"
#include "driver/device.hpp"
#include "fuzz_check.hpp"

using namespace tessera;

namespace {

void exercise(const std::vector<uint8_t>& b) {
  Image img;
  try {
    img = parse_image(b, "f.img");
  } catch (const ImageError& e) {
    FUZZ_CHECK(std::string(e.what()).rfind("f.img: ", 0) == 0, "a refusal names the image");
    return;
  }
  const std::vector<uint8_t> bytes = serialize_image(img);
  FUZZ_CHECK(serialize_image(parse_image(bytes, "again.img")) == bytes, "a parsed image serializes back to itself");
  FUZZ_CHECK(!disassemble_listing(img).empty(), "the listing says something");
  const std::optional<Config> built_for = config_from_summary(img.config_summary);
  if (built_for && built_for->fingerprint() == img.config_fingerprint) {
    try {
      const AsmResult again = assemble_source(disassemble_source(img), "d.s", ".", *built_for);
      FUZZ_CHECK(again.image && serialize_image(*again.image) == bytes, "the disassembled source reassembles to the image");
    } catch (const DisasmError& e) {  // (an image the assembler would not make: refused, not misprinted)
      FUZZ_CHECK(*e.what() != '\0', "a refusal says why");
    }
  }
  static const Config cfg;  // the built-in configuration (N = 16), which the seeds are built for
  const std::unique_ptr<Device> dev = Device::open(cfg);
  try {
    dev->load(img, "f.img");
  } catch (const DriverError& e) {  // (check_image_fits's ImageError, as the driver reports it)
    FUZZ_CHECK(std::string(e.what()).rfind("f.img: ", 0) == 0, "a refusal names the image");
    return;
  }
  RunLimits limits;
  limits.max_cycles = 20000;
  const RunResult r = dev->run(limits);
  FUZZ_CHECK(r.status.state != RunState::Idle, "a run ends done, in error or at the limit");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<uint8_t> b(data, data + size);
  exercise(b);
  reseal_image(b);
  exercise(b);
  return 0;
}
