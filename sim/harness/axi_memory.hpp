// SPDX-License-Identifier: Apache-2.0
// Device memory behind an AXI4 slave, cycle by cycle, for the Verilator harnesses.
//
// Reads: an accepted burst's data starts `latency` cycles later; beats then leave at
// `bandwidth` bytes per cycle on average (one beat per cycle at most). Writes: the
// response follows the last beat by `latency` cycles. Beats whose address lies in an
// error range answer SLVERR; their write bytes are dropped and their read data is zero.
// Optionally the slave also stalls at random (arready/awready/wready/rvalid low), to
// shake the master's handshakes.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "model/golden_model.hpp"  // AddrRange

namespace tessera::sim {

// The master's outputs, sampled at a clock edge.
struct AxiMasterPins {
  bool arvalid = false;
  uint32_t araddr = 0;
  unsigned arlen = 0, arsize = 0, arburst = 1;
  bool rready = false;
  bool awvalid = false;
  uint32_t awaddr = 0;
  unsigned awlen = 0, awsize = 0, awburst = 1;
  bool wvalid = false;
  std::vector<uint8_t> wdata;
  uint64_t wstrb = 0;
  bool wlast = false;
  bool bready = false;
};

// The slave's outputs, stable through a cycle.
struct AxiSlavePins {
  bool arready = false;
  bool rvalid = false;
  std::vector<uint8_t> rdata;
  unsigned rresp = 0;
  bool rlast = false;
  bool awready = false;
  bool wready = false;
  bool bvalid = false;
  unsigned bresp = 0;
};

struct MemTiming {
  unsigned latency = 10;    // cycles from address to first data / from last write beat to response
  unsigned bandwidth = 16;  // bytes per cycle
  double random_stall = 0;  // probability of a random not-ready/not-valid cycle
  uint32_t seed = 1;
};

class AxiMemory {
 public:
  AxiMemory(uint32_t bytes, unsigned bus_bytes, const MemTiming& timing);

  std::vector<uint8_t>& bytes() { return mem_; }
  const std::vector<uint8_t>& bytes() const { return mem_; }
  void set_bus_errors(std::vector<AddrRange> ranges) { errors_ = std::move(ranges); }

  const AxiSlavePins& pins() const { return out_; }
  // The clock edge: complete the handshakes of this cycle, then set next cycle's pins.
  void clock(const AxiMasterPins& in);
  void reset();

  // Protocol violations by the master seen so far (empty when all is well).
  const std::vector<std::string>& violations() const { return violations_; }
  bool idle() const { return reads_.empty() && writes_.empty() && responses_.empty(); }

 private:
  struct Burst {
    uint32_t addr;
    unsigned beats, sent = 0;
    uint64_t ready_at;
    bool error = false;
  };
  bool in_error(uint32_t addr, unsigned len) const;
  void violation(const std::string& what);
  void next_read_pins();

  std::vector<uint8_t> mem_;
  unsigned bus_bytes_;
  MemTiming timing_;
  std::vector<AddrRange> errors_;
  std::mt19937 rng_;
  std::bernoulli_distribution stall_;
  uint64_t now_ = 0;
  double credit_ = 0;  // read bandwidth tokens, in bytes
  std::deque<Burst> reads_, writes_;
  std::deque<std::pair<uint64_t, bool>> responses_;  // (due cycle, error)
  AxiSlavePins out_;
  std::vector<std::string> violations_;
};

}  // namespace tessera::sim
