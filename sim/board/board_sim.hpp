// SPDX-License-Identifier: Apache-2.0
// The simulated board: the Verilated iCEBreaker top (rtl/ice40/tpu_icebreaker.v: host
// link, core, SPRAM model) with its UART pins wired to a pseudo-terminal, so the
// driver's UART backend talks to it exactly as to a board on /dev/ttyUSB1.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace tessera::sim {

struct BoardSimOptions {
  // Faults on the host-to-board direction, for the link's tests: every Nth byte gets a
  // bit flipped / is lost (0: never).
  uint64_t corrupt_every = 0;
  uint64_t drop_every = 0;
};

class BoardSim {
 public:
  explicit BoardSim(const BoardSimOptions& opts = {});
  ~BoardSim();
  BoardSim(const BoardSim&) = delete;
  BoardSim& operator=(const BoardSim&) = delete;

  // The pseudo-terminal's name (/dev/pts/N): give it to --port.
  const std::string& port() const { return port_; }
  // Clocks the board until stop() is called (from another thread) or `seconds` of wall
  // time pass (0: no limit).
  void run(double seconds = 0);
  void stop() { stop_ = true; }

  uint64_t cycles() const { return cycles_; }
  uint64_t bytes_in() const { return bytes_in_; }
  uint64_t bytes_out() const { return bytes_out_; }

  static constexpr int kClksPerBit = 8;  // the Verilated top's baud divider (CMake sets it)

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  BoardSimOptions opts_;
  std::string port_;
  int master_ = -1;
  std::atomic<bool> stop_{false};
  uint64_t cycles_ = 0, bytes_in_ = 0, bytes_out_ = 0;
};

}  // namespace tessera::sim
