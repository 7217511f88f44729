// SPDX-License-Identifier: Apache-2.0
#include "board_sim.hpp"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <deque>
#include <stdexcept>

#include "Vboard_icebreaker.h"

namespace tessera::sim {

namespace {
constexpr int kBit = BoardSim::kClksPerBit;

// Serializes host bytes onto the board's RX pin: start bit, 8 data bits LSB first, stop.
class UartDriver {
 public:
  void push(uint8_t b) { queue_.push_back(b); }
  bool idle() const { return queue_.empty() && bit_ < 0; }
  bool line() {  // the level for this cycle
    if (bit_ < 0) {
      if (queue_.empty()) return true;
      frame_ = uint16_t(queue_.front()) << 1 | 0x200;  // start 0, data, stop 1
      queue_.pop_front();
      bit_ = 0;
      tick_ = 0;
    }
    const bool level = (frame_ >> bit_) & 1;
    if (++tick_ == kBit) {
      tick_ = 0;
      if (++bit_ == 10) bit_ = -1;
    }
    return level;
  }

 private:
  std::deque<uint8_t> queue_;
  uint16_t frame_ = 0;
  int bit_ = -1, tick_ = 0;
};

// Samples the board's TX pin in the middle of each bit; a complete byte comes out.
class UartReceiver {
 public:
  bool sample(bool level, uint8_t& out) {
    if (bit_ < 0) {
      if (!level) {  // start bit
        bit_ = 0;
        tick_ = kBit / 2;
      }
      return false;
    }
    if (--tick_ > 0) return false;
    tick_ = kBit;
    if (bit_ >= 1 && bit_ <= 8) shift_ = uint8_t(shift_ >> 1 | (level ? 0x80 : 0));
    if (++bit_ == 10) {  // the middle of the stop bit
      bit_ = -1;
      out = shift_;
      return true;
    }
    return false;
  }
  bool idle() const { return bit_ < 0; }

 private:
  int bit_ = -1, tick_ = 0;
  uint8_t shift_ = 0;
};
}  // namespace

struct BoardSim::Impl {
  Vboard_icebreaker top;
  UartDriver rx;
  UartReceiver tx;
};

BoardSim::BoardSim(const BoardSimOptions& opts) : impl_(std::make_unique<Impl>()), opts_(opts) {
  master_ = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master_ < 0 || grantpt(master_) != 0 || unlockpt(master_) != 0)
    throw std::runtime_error(std::string("cannot create a pseudo-terminal: ") + std::strerror(errno));
  port_ = ptsname(master_);
  termios t{};
  tcgetattr(master_, &t);
  cfmakeraw(&t);
  tcsetattr(master_, TCSANOW, &t);
  fcntl(master_, F_SETFL, fcntl(master_, F_GETFL) | O_NONBLOCK);
  auto& top = impl_->top;
  top.btn_ni = 1;
  top.uart_rx_i = 1;
  top.clk_i = 0;
  top.eval();
  // Through the power-on reset before the first byte can arrive: a start bit sent into
  // the reset would be lost and the frame misread.
  for (int i = 0; i < 64; ++i) {
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
  }
}

BoardSim::~BoardSim() {
  impl_->top.final();
  if (master_ >= 0) close(master_);
}

void BoardSim::run(double seconds) {
  auto& top = impl_->top;
  const auto start = std::chrono::steady_clock::now();
  uint64_t host_bytes = 0;
  std::string out;
  while (!stop_) {
    // Every few hundred cycles: the host's bytes in, the board's bytes out, the clock.
    if ((cycles_ & 255) == 0) {
      if (!out.empty()) {
        const ssize_t n = write(master_, out.data(), out.size());
        if (n > 0) out.erase(0, size_t(n));
      }
      uint8_t buf[256];
      ssize_t n;
      while ((n = read(master_, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; ++i) {
          ++host_bytes;
          if (opts_.drop_every && host_bytes % opts_.drop_every == 0) continue;
          uint8_t b = buf[i];
          if (opts_.corrupt_every && host_bytes % opts_.corrupt_every == 0) b ^= 0x10;
          impl_->rx.push(b);
          ++bytes_in_;
        }
      }
      // Nothing to do for the link and nothing written: rest a little instead of spinning.
      if (impl_->rx.idle() && impl_->tx.idle() && out.empty() && (cycles_ & 0x3ffff) == 0) {
        pollfd p{master_, POLLIN, 0};
        poll(&p, 1, 1);
      }
      if (seconds > 0 && (cycles_ & 0xffff) == 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
        break;
    }
    top.uart_rx_i = impl_->rx.line();
    top.clk_i = 1;
    top.eval();
    top.clk_i = 0;
    top.eval();
    ++cycles_;
    uint8_t byte;
    if (impl_->tx.sample(top.uart_tx_o, byte)) {
      out.push_back(char(byte));
      ++bytes_out_;
    }
  }
}

}  // namespace tessera::sim
