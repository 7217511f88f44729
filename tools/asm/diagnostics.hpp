// SPDX-License-Identifier: Apache-2.0
// Compiler-style diagnostics: "file:line:col: error: message", all of them kept.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

namespace tessera {

struct SourceLoc {
  std::string file;
  int line = 0;
  int col = 0;
};

struct Diagnostic {
  SourceLoc loc;
  std::string message;
  std::string format() const {
    return loc.file + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) +
           ": error: " + message;
  }
};

class Diagnostics {
 public:
  void error(const SourceLoc& loc, std::string message) {
    items_.push_back({loc, std::move(message)});
  }
  // In source order, however the passes found them.
  void sort() {
    std::stable_sort(items_.begin(), items_.end(), [](const Diagnostic& a, const Diagnostic& b) {
      return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
    });
  }
  bool empty() const { return items_.empty(); }
  const std::vector<Diagnostic>& items() const { return items_; }
  std::string format() const {
    std::string s;
    for (const auto& d : items_) s += d.format() + "\n";
    return s;
  }

 private:
  std::vector<Diagnostic> items_;
};

}  // namespace tessera
