// SPDX-License-Identifier: Apache-2.0
// "0x..." formatting for addresses and values in messages and listings.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace tessera {

// Lower-case hex with a 0x prefix, zero-padded to at least min_digits digits.
inline std::string hex(uint64_t v, int min_digits = 0) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llx", min_digits, static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace tessera
