// SPDX-License-Identifier: Apache-2.0
#include "asm/lexer.hpp"

#include <cctype>

#include "util/shown.hpp"

namespace tessera {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

int digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

}  // namespace

std::vector<Token> lex_line(const std::string& s) {
  std::vector<Token> out;
  size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    const int col = static_cast<int>(i) + 1;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == ';' || c == '#' || (c == '/' && i + 1 < s.size() && s[i + 1] == '/')) {
      break;
    } else if (ident_start(c)) {
      size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back({TokKind::Ident, s.substr(i, j - i), 0, col});
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int base = 10;
      size_t j = i;
      if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X')) base = 16, j += 2;
      else if (c == '0' && i + 1 < s.size() && (s[i + 1] == 'b' || s[i + 1] == 'B')) base = 2, j += 2;
      const size_t digits_start = j;
      uint64_t v = 0;
      while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) {
        if (s[j] == '_') { ++j; continue; }
        const int d = digit_value(s[j]);
        if (d >= base) throw LexError{col, "invalid digit '" + std::string(1, s[j]) + "' in number"};
        if (v > (uint64_t{INT64_MAX} - d) / base) throw LexError{col, "number is too large"};
        v = v * base + d;
        ++j;
      }
      if (j == digits_start) throw LexError{col, "number has no digits"};
      out.push_back({TokKind::Number, s.substr(i, j - i), static_cast<int64_t>(v), col});
      i = j;
    } else if (c == '"') {
      std::string text;
      size_t j = i + 1;
      bool closed = false;
      while (j < s.size()) {
        if (s[j] == '"') { closed = true; ++j; break; }
        if (s[j] == '\\' && j + 1 < s.size()) {
          const char e = s[j + 1];
          text += (e == 'n') ? '\n' : (e == 't') ? '\t' : e;
          j += 2;
          continue;
        }
        text += s[j++];
      }
      if (!closed) throw LexError{col, "unterminated string"};
      out.push_back({TokKind::String, text, 0, col});
      i = j;
    } else if ((c == '<' || c == '>') && i + 1 < s.size() && s[i + 1] == c) {
      out.push_back({TokKind::Punct, s.substr(i, 2), 0, col});
      i += 2;
    } else if (std::string(",=:()+-*/%&|^~").find(c) != std::string::npos) {
      out.push_back({TokKind::Punct, std::string(1, c), 0, col});
      ++i;
    } else {
      throw LexError{col, "unexpected character '" + shown(std::string(1, c)) + "'"};
    }
  }
  out.push_back({TokKind::End, "", 0, static_cast<int>(s.size()) + 1});
  return out;
}

}  // namespace tessera
