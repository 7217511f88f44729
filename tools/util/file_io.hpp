// SPDX-License-Identifier: Apache-2.0
// Reading whole files with clear errors (a directory or unreadable path is refused).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera {

// what(): "PATH: cannot open (REASON)"; reason() alone lets callers phrase their own.
class FileError : public std::runtime_error {
 public:
  FileError(const std::string& path, const std::string& reason)
      : std::runtime_error(path + ": cannot open (" + reason + ")"), reason_(reason) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// Throws FileError when PATH is not a readable regular file.
std::vector<uint8_t> read_file_bytes(const std::string& path);
std::string read_file_text(const std::string& path);

}  // namespace tessera
