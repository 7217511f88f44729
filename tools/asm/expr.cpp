// SPDX-License-Identifier: Apache-2.0
#include "asm/expr.hpp"

namespace tessera {
namespace {

class Parser {
 public:
  Parser(const std::vector<Token>& t, size_t& pos, const SymbolLookup& lookup)
      : t_(t), pos_(pos), lookup_(lookup) {}

  // Binary levels from loosest to tightest.
  int64_t parse(int level = 0) {
    static const std::vector<std::vector<std::string>> levels = {
        {"|"}, {"^"}, {"&"}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"}};
    if (level == static_cast<int>(levels.size())) return unary();
    int64_t lhs = parse(level + 1);
    while (peek().kind == TokKind::Punct) {
      const Token op = peek();
      bool match = false;
      for (const auto& o : levels[level]) match |= (op.text == o);
      if (!match) break;
      ++pos_;
      const int64_t rhs = parse(level + 1);
      lhs = apply(op, lhs, rhs);
    }
    return lhs;
  }

 private:
  const Token& peek() const { return t_[pos_ < t_.size() ? pos_ : t_.size() - 1]; }

  // Each nesting (a parenthesis or a unary operator) is counted: bounded, so that hostile
  // input gets an error rather than a stack overflow.
  void nest(const Token& tok) {
    if (++depth_ > kMaxExprDepth)
      throw ExprError{tok.col, "expression nested deeper than " + std::to_string(kMaxExprDepth) +
                                   " levels (parentheses and unary operators)"};
  }

  int64_t unary() {
    const Token tok = peek();
    if (tok.kind == TokKind::Punct && (tok.text == "-" || tok.text == "~" || tok.text == "+")) {
      nest(tok);
      ++pos_;
      const int64_t v = unary();
      --depth_;
      if (tok.text == "-") {
        if (v == INT64_MIN) throw ExprError{tok.col, "integer overflow in expression"};
        return -v;
      }
      return tok.text == "~" ? ~v : v;
    }
    return primary();
  }

  int64_t primary() {
    const Token tok = peek();
    if (tok.kind == TokKind::Number) {
      ++pos_;
      return tok.value;
    }
    if (tok.kind == TokKind::Ident) {
      ++pos_;
      const auto v = lookup_(tok);
      if (!v) throw ExprError{tok.col, "undefined symbol '" + tok.text + "'"};
      return *v;
    }
    if (tok.kind == TokKind::Punct && tok.text == "(") {
      nest(tok);
      ++pos_;
      const int64_t v = parse();
      if (peek().kind != TokKind::Punct || peek().text != ")")
        throw ExprError{peek().col, "expected ')'"};
      ++pos_;
      --depth_;
      return v;
    }
    if (tok.kind == TokKind::End) throw ExprError{tok.col, "expected an expression"};
    throw ExprError{tok.col, "expected an expression, found '" + tok.text + "'"};
  }

  int64_t apply(const Token& op, int64_t a, int64_t b) {
    int64_t r = 0;
    const std::string& o = op.text;
    if (o == "+" || o == "-" || o == "*") {
      const bool ovf = o == "+"   ? __builtin_add_overflow(a, b, &r)
                       : o == "-" ? __builtin_sub_overflow(a, b, &r)
                                  : __builtin_mul_overflow(a, b, &r);
      if (ovf) throw ExprError{op.col, "integer overflow in expression"};
      return r;
    }
    if (o == "/" || o == "%") {
      if (b == 0) throw ExprError{op.col, "division by zero"};
      if (a == INT64_MIN && b == -1) throw ExprError{op.col, "integer overflow in expression"};
      return o == "/" ? a / b : a % b;
    }
    if (o == "<<" || o == ">>") {
      if (b < 0 || b > 63) throw ExprError{op.col, "shift count " + std::to_string(b) + " is out of range [0, 63]"};
      if (o == ">>") return a >> b;
      const int64_t r2 = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
      if ((r2 >> b) != a) throw ExprError{op.col, "integer overflow in expression"};  // bits shifted out
      return r2;
    }
    if (o == "&") return a & b;
    if (o == "|") return a | b;
    return a ^ b;
  }

  const std::vector<Token>& t_;
  size_t& pos_;
  const SymbolLookup& lookup_;
  int depth_ = 0;
};

}  // namespace

int64_t eval_expr(const std::vector<Token>& toks, size_t& pos, const SymbolLookup& lookup) {
  Parser p(toks, pos, lookup);
  return p.parse();
}

}  // namespace tessera
