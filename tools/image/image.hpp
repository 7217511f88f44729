// SPDX-License-Identifier: Apache-2.0
// The program image: versioned, checksummed container of sections and symbols
// (format in docs/image-format.md).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "isa/csr_map.hpp"

namespace tessera {

constexpr char kImageMagic[8] = {'T', 'E', 'S', 'S', 'I', 'M', 'G', '\0'};
// The image format's version is the core's VERSION register (the ISA's and the format's).
constexpr uint16_t kImageVersionMajor = csr::kVersionMajor;
constexpr uint16_t kImageVersionMinor = csr::kVersionMinor;

enum class SectionKind : uint32_t { Text = 1, Data = 2 };

struct Section {
  SectionKind kind = SectionKind::Data;
  uint32_t addr = 0;
  std::vector<uint8_t> bytes;
};

// A symbol name's length is 16 bits in the image; tools keep names far shorter.
constexpr size_t kMaxSymbolName = 1024;

struct Symbol {
  std::string name;  // at most kMaxSymbolName bytes
  uint32_t addr = 0;
  uint32_t size = 0;
};

struct Image {
  uint64_t config_fingerprint = 0;
  std::string config_summary;  // human-readable form of the configuration it was built for
  uint32_t entry = 0;
  std::vector<Section> sections;
  std::vector<Symbol> symbols;

  const Symbol* find_symbol(const std::string& name) const;
};

class ImageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::vector<uint8_t> serialize_image(const Image& img);
// Rejects bad magic, unknown version, truncation, trailing bytes, checksum mismatch and
// malformed tables, each with its own message prefixed by `name`.
Image parse_image(const std::vector<uint8_t>& bytes, const std::string& name);
// Sets a serialized image's total-length field and checksum to match its bytes as they
// are (for tests and fuzzers that edit images and want the tables parsed).
void reseal_image(std::vector<uint8_t>& bytes);
Image read_image_file(const std::string& path);
void write_image_file(const std::string& path, const Image& img);

// Rejects an image built for another configuration, or whose sections or entry point
// do not fit the device's memory.
void check_image_fits(const Image& img, const Config& cfg, const std::string& name);

uint32_t crc32(const uint8_t* data, size_t len);

}  // namespace tessera
