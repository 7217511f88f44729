// SPDX-License-Identifier: Apache-2.0
#include "util/npy.hpp"

#include <cstring>
#include <cctype>

namespace tessera {
namespace {

const char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

size_t item_size(const std::string& d) {
  static const char* const one[] = {"|i1", "|u1", "i1", "u1", "<i1", "<u1"};
  static const char* const two[] = {"<i2", "<u2"};
  static const char* const four[] = {"<i4", "<u4"};
  for (auto s : one)
    if (d == s) return 1;
  for (auto s : two)
    if (d == s) return 2;
  for (auto s : four)
    if (d == s) return 4;
  return 0;
}

// The text after "'key':" in the header dictionary, with leading spaces removed.
std::string header_value(const std::string& header, const std::string& key) {
  const size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) return "";
  size_t i = header.find(':', k);
  if (i == std::string::npos) return "";
  ++i;
  while (i < header.size() && header[i] == ' ') ++i;
  if (i < header.size() && header[i] == '\'') {
    const size_t close = header.find('\'', i + 1);
    return close == std::string::npos ? "" : header.substr(i, close - i + 1);
  }
  if (i < header.size() && header[i] == '(') {
    const size_t close = header.find(')', i);
    return close == std::string::npos ? "" : header.substr(i, close - i + 1);
  }
  return header.substr(i);
}

}  // namespace

NpyArray parse_npy(const std::vector<uint8_t>& b) {
  if (b.size() < kMagicLen + 4 || std::memcmp(b.data(), kMagic, kMagicLen) != 0)
    throw NpyError("not a .npy file (bad magic)");
  const unsigned major = b[6];
  size_t hlen = 0, hstart = 0;
  if (major == 1) {
    hlen = b[8] | (size_t{b[9]} << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) throw NpyError("truncated .npy header");
    hlen = b[8] | (size_t{b[9]} << 8) | (size_t{b[10]} << 16) | (size_t{b[11]} << 24);
    hstart = 12;
  } else {
    throw NpyError("unsupported .npy version " + std::to_string(major));
  }
  if (hlen > b.size() - hstart) throw NpyError("truncated .npy header");
  const std::string header(reinterpret_cast<const char*>(&b[hstart]), hlen);

  NpyArray a;
  const std::string descr = header_value(header, "descr");
  if (descr.size() < 2 || descr.front() != '\'' || descr.back() != '\'')
    throw NpyError(".npy header has no 'descr'");
  a.descr = descr.substr(1, descr.size() - 2);
  const size_t isz = item_size(a.descr);
  if (isz == 0)
    throw NpyError("unsupported .npy dtype '" + a.descr +
                   "' (use int8, uint8, int16, uint16, int32 or uint32, little-endian)");
  const std::string order = header_value(header, "fortran_order");
  if (order.compare(0, 4, "True") == 0) throw NpyError("Fortran-order .npy arrays are not supported");
  if (order.compare(0, 5, "False") != 0) throw NpyError(".npy header has no 'fortran_order'");
  const std::string shape = header_value(header, "shape");
  if (shape.empty() || shape.front() != '(') throw NpyError(".npy header has no 'shape'");
  uint64_t count = 1;
  size_t i = 1;
  while (i < shape.size() && shape[i] != ')') {
    if (!std::isdigit(static_cast<unsigned char>(shape[i]))) {
      ++i;  // separators and spaces
      continue;
    }
    uint64_t d = 0;
    while (i < shape.size() && std::isdigit(static_cast<unsigned char>(shape[i]))) {
      d = d * 10 + (shape[i++] - '0');
      if (d > (uint64_t{1} << 40)) throw NpyError(".npy array is too large");
    }
    a.shape.push_back(d);
    if (d != 0 && count > (uint64_t{1} << 40) / d) throw NpyError(".npy array is too large");
    count *= d;
  }
  if (i >= shape.size()) throw NpyError(".npy header has a malformed 'shape'");
  const size_t data_start = hstart + hlen;
  const uint64_t want = count * isz;
  if (b.size() - data_start != want)
    throw NpyError(".npy data is " + std::to_string(b.size() - data_start) +
                   " bytes, the header's shape needs " + std::to_string(want));
  a.data.assign(b.begin() + static_cast<std::ptrdiff_t>(data_start), b.end());
  return a;
}

std::vector<uint8_t> serialize_npy(const NpyArray& a) {
  std::string shape;  // "(3, 4)", or "(3,)" for one dimension
  for (size_t i = 0; i < a.shape.size(); ++i) shape += (i ? ", " : "") + std::to_string(a.shape[i]);
  if (a.shape.size() == 1) shape += ",";
  std::string header =
      "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': (" + shape + "), }";
  while ((kMagicLen + 4 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
  out.push_back(1);
  out.push_back(0);
  out.push_back(static_cast<uint8_t>(header.size()));
  out.push_back(static_cast<uint8_t>(header.size() >> 8));
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

}  // namespace tessera
