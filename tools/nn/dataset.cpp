// SPDX-License-Identifier: Apache-2.0
#include "nn/dataset.hpp"

#include <fstream>
#include <sstream>

namespace tessera::nn {

Digits load_digits_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw NnError(path + ": cannot open the digits data");
  Digits d;
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (line.empty()) continue;
    std::istringstream s(line);
    std::array<uint8_t, kDigitPixels> img{};
    std::string field;
    int col = 0, label = -1;
    while (std::getline(s, field, ',')) {
      int v = -1;
      try {
        size_t used = 0;
        v = std::stoi(field, &used);
        if (used != field.size() && field.substr(used) != "\r") v = -1;
      } catch (const std::exception&) {
      }
      if (col < kDigitPixels) {
        if (v < 0 || v > 16) throw NnError(path + ":" + std::to_string(lineno) + ": pixel " + std::to_string(col) + " is not 0..16");
        img[col] = uint8_t(v);
      } else if (col == kDigitPixels) {
        if (v < 0 || v > 9) throw NnError(path + ":" + std::to_string(lineno) + ": label is not 0..9");
        label = v;
      }
      ++col;
    }
    if (col != kDigitPixels + 1)
      throw NnError(path + ":" + std::to_string(lineno) + ": expected 65 fields, found " + std::to_string(col));
    d.images.push_back(img);
    d.labels.push_back(label);
  }
  if (d.size() == 0) throw NnError(path + ": no images");
  return d;
}

DigitsSplit split_digits(const Digits& all) {
  DigitsSplit s;
  for (size_t i = 0; i < all.size(); ++i) {
    Digits& to = i % 5 == 0 ? s.test : s.train;
    to.images.push_back(all.images[i]);
    to.labels.push_back(all.labels[i]);
  }
  return s;
}

}  // namespace tessera::nn
