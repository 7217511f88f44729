// SPDX-License-Identifier: Apache-2.0
// Reading and writing whole files with clear errors (a directory or unreadable path is
// refused; a write that fails is an error, never a silent short file).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera {

// what(): "PATH: cannot open (REASON)" (or write); reason() alone lets callers phrase their own.
class FileError : public std::runtime_error {
 public:
  FileError(const std::string& path, const std::string& reason, const char* verb = "open")
      : std::runtime_error(path + ": cannot " + verb + " (" + reason + ")"), reason_(reason) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

// Throws FileError when PATH is not a readable regular file.
std::vector<uint8_t> read_file_bytes(const std::string& path);
std::string read_file_text(const std::string& path);
// Replaces PATH with BYTES; throws FileError ("PATH: cannot write (REASON)") when any
// of it did not reach the file (a full disk shows only when the buffer is flushed).
void write_file(const std::string& path, const std::string& bytes);

}  // namespace tessera
