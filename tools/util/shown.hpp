// SPDX-License-Identifier: Apache-2.0
// User text quoted in a message: one line, printable, not too long (a key or name from a
// hostile file may hold newlines, control bytes or megabytes).
#pragma once

#include <string>

namespace tessera {

inline std::string shown(const std::string& text, size_t max_chars = 64) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < text.size() && i < max_chars; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) out += char(c);
    else out += std::string("\\x") + kHex[c >> 4] + kHex[c & 15];
  }
  if (text.size() > max_chars) out += "...";
  return out;
}

}  // namespace tessera
