// SPDX-License-Identifier: Apache-2.0
#include "driver/serial_port.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "driver/device.hpp"

namespace tessera {

namespace {
speed_t baud_constant(unsigned baud) {
  switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 3000000: return B3000000;
  }
  throw DriverError("unsupported baud rate " + std::to_string(baud) +
                    " (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600, 1000000, 3000000)");
}

std::string os_error(const std::string& what, const std::string& path) {
  return what + " " + path + ": " + std::strerror(errno);
}
}  // namespace

SerialPort::SerialPort(const std::string& path, unsigned baud) : path_(path) {
  const speed_t speed = baud_constant(baud);
  fd_ = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (fd_ < 0) throw DriverError(os_error("cannot open serial port", path));
  termios t{};
  if (tcgetattr(fd_, &t) != 0) {
    const std::string msg = os_error("not a serial port:", path);
    ::close(fd_);
    throw DriverError(msg);
  }
  cfmakeraw(&t);  // 8 data bits, no parity, no echo, no line editing
  t.c_cflag &= ~(CSTOPB | CRTSCTS);
  t.c_cflag |= CLOCAL | CREAD;
  t.c_cc[VMIN] = 0;
  t.c_cc[VTIME] = 0;
  cfsetispeed(&t, speed);
  cfsetospeed(&t, speed);
  if (tcsetattr(fd_, TCSANOW, &t) != 0) {
    const std::string msg = os_error("cannot configure serial port", path);
    ::close(fd_);
    throw DriverError(msg);
  }
  discard_input();
}

SerialPort::~SerialPort() {
  if (fd_ >= 0) ::close(fd_);
}

void SerialPort::write(const std::vector<uint8_t>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw DriverError(os_error("write to", path_));
    done += size_t(n);
  }
}

bool SerialPort::read(std::vector<uint8_t>& out, size_t want, int timeout_ms) {
  uint8_t buf[512];
  while (out.size() < want) {
    pollfd p{fd_, POLLIN, 0};
    const int r = ::poll(&p, 1, timeout_ms);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw DriverError(os_error("poll on", path_));
    if (r == 0) return false;
    if (p.revents & (POLLERR | POLLNVAL)) throw DriverError("serial port " + path_ + " failed");
    const ssize_t n = ::read(fd_, buf, std::min(sizeof buf, want - out.size()));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    // A pseudo-terminal whose other side is gone reads EIO or 0 (hang-up): no board.
    if (n <= 0) {
      if (p.revents & POLLHUP) return false;
      if (n < 0) throw DriverError(os_error("read from", path_));
      continue;
    }
    out.insert(out.end(), buf, buf + n);
  }
  return true;
}

void SerialPort::discard_input() { tcflush(fd_, TCIFLUSH); }

}  // namespace tessera
