// SPDX-License-Identifier: Apache-2.0
// Splits one source line into tokens with their columns.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera {

enum class TokKind { Ident, Number, String, Punct, End };

struct Token {
  TokKind kind = TokKind::End;
  std::string text;   // identifier, punctuation, or decoded string contents
  int64_t value = 0;  // numbers
  int col = 1;        // 1-based column of the first character
};

struct LexError {
  int col;
  std::string message;
};

// Comments start with ';', '#' or '//'. Throws LexError on a bad character,
// a malformed number or an unterminated string.
std::vector<Token> lex_line(const std::string& line);

}  // namespace tessera
