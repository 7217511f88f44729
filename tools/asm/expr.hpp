// SPDX-License-Identifier: Apache-2.0
// Integer expressions: literals, symbols, unary - ~ +, * / %, + -, << >>, &, ^, |, ().
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "asm/lexer.hpp"

namespace tessera {

struct ExprError {
  int col;
  std::string message;
};

// Returns the value of a symbol, or nullopt if it is undefined. May itself throw
// ExprError (e.g. "a label cannot be used here").
using SymbolLookup = std::function<std::optional<int64_t>(const Token& name)>;

// Nesting (parentheses and unary operators) deeper than this is an error.
constexpr int kMaxExprDepth = 256;

// Parses one expression starting at toks[pos]; advances pos past it.
int64_t eval_expr(const std::vector<Token>& toks, size_t& pos, const SymbolLookup& lookup);

}  // namespace tessera
