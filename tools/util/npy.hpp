// SPDX-License-Identifier: Apache-2.0
// Minimal NumPy .npy reader/writer for the integer arrays programs load (weights, inputs).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera {

struct NpyArray {
  std::string descr;            // e.g. "|i1", "<i4"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;    // raw little-endian element bytes, C order
};

class NpyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Accepts versions 1-3, C order, dtypes int8/uint8/int16/uint16/int32/uint32 (little-endian).
NpyArray parse_npy(const std::vector<uint8_t>& bytes);
std::vector<uint8_t> serialize_npy(const NpyArray& a);

}  // namespace tessera
