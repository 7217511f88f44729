// SPDX-License-Identifier: Apache-2.0
// The handwritten-digits data set (firmware/data/digits/): 8x8 images, pixels 0..16,
// labels 0..9, and its fixed train/test split.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::nn {

class NnError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

constexpr int kDigitPixels = 64;

struct Digits {
  std::vector<std::array<uint8_t, kDigitPixels>> images;
  std::vector<int> labels;
  size_t size() const { return labels.size(); }
};

// Reads the CSV (64 pixels then the label per row); errors name file and line.
Digits load_digits_csv(const std::string& path);

struct DigitsSplit {
  Digits train, test;
};

// Row i is a test image when i % 5 == 0 (firmware/data/digits/README.md).
DigitsSplit split_digits(const Digits& all);

}  // namespace tessera::nn
