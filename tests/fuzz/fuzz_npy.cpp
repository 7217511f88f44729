// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the .npy reader (the assembler's .npy directive, tpu-run's --in). A file
// is refused with NpyError or read into an array that writes back to an equal one.
#include <cstdint>
#include <vector>

#include "fuzz_check.hpp"
#include "util/npy.hpp"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  NpyArray a;
  try {
    a = parse_npy(std::vector<uint8_t>(data, data + size));
  } catch (const NpyError& e) {
    FUZZ_CHECK(*e.what() != '\0', "a refusal says why");
    return 0;
  }
  FUZZ_CHECK(!a.descr.empty(), "an array has a type");
  const NpyArray b = parse_npy(serialize_npy(a));
  FUZZ_CHECK(b.descr == a.descr && b.shape == a.shape && b.data == a.data, "an array writes back to itself");
  return 0;
}
