// SPDX-License-Identifier: Apache-2.0
// FNV-1a 64-bit hash: the configuration fingerprint stored in program images.
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

inline uint64_t fnv1a64(const std::string& text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace tessera
