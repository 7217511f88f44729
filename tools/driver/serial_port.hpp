// SPDX-License-Identifier: Apache-2.0
// A serial port (a USB UART, or a pseudo-terminal standing in for one): raw 8N1 bytes
// with a read timeout. POSIX termios.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

class SerialPort {
 public:
  // Throws DriverError when the port cannot be opened or configured.
  SerialPort(const std::string& path, unsigned baud);
  ~SerialPort();
  SerialPort(const SerialPort&) = delete;
  SerialPort& operator=(const SerialPort&) = delete;

  const std::string& path() const { return path_; }
  void write(const std::vector<uint8_t>& bytes);
  // Appends bytes to `out` until it holds `want` bytes or no byte arrives for
  // timeout_ms; returns false on the timeout.
  bool read(std::vector<uint8_t>& out, size_t want, int timeout_ms);
  void discard_input();  // drops whatever has arrived and not been read

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace tessera
