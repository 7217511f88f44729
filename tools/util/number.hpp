// SPDX-License-Identifier: Apache-2.0
// A non-negative integer as a user writes it in a file or on the command line.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace tessera {

// Decimal, 0x hexadecimal or 0 octal (as stoull reads them), starting with a digit (no
// white space or sign, which stoull would skip or take) and nothing after it.
inline std::optional<uint64_t> parse_unsigned(const std::string& text) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return std::nullopt;
  try {
    size_t used = 0;
    const uint64_t v = std::stoull(text, &used, 0);
    if (used == text.size()) return v;
  } catch (const std::exception&) {  // (out of range)
  }
  return std::nullopt;
}

}  // namespace tessera
