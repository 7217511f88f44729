// SPDX-License-Identifier: Apache-2.0
#include "util/file_io.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace tessera {

std::vector<uint8_t> read_file_bytes(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw FileError(path, "no such file");
  if (!std::filesystem::is_regular_file(status))
    throw FileError(path, "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw FileError(path, std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw FileError(path, "read error");
  return bytes;
}

std::string read_file_text(const std::string& path) {
  const std::vector<uint8_t> b = read_file_bytes(path);
  return std::string(b.begin(), b.end());
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw FileError(path, std::strerror(errno), "write");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw FileError(path, errno ? std::strerror(errno) : "write error", "write");
}

}  // namespace tessera
