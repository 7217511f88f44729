// SPDX-License-Identifier: Apache-2.0
// An AXI4 slave at pin level, cycle by cycle, in front of a MemoryTarget.
//
// A read burst is one target access when its address is accepted; its beats then leave
// spread over the access time the target reported (first beat after `first_cycles`,
// last after `total_cycles`), one per cycle at most. A write burst's beats are
// collected and written as one access after the last; the response follows after the
// access time. The target's bandwidth is shared: the bursts' transfers (the access time
// after the first bytes) follow one another, reads and writes each on their own
// channel, so that bursts in flight together still move at most `bandwidth` bytes a
// cycle. An error answer (SLVERR/DECERR) applies to every beat of a read burst
// and to the write response. The port can also stall at random (arready, awready,
// wready, rvalid, bvalid low) to shake the master's handshakes, and it records any
// protocol violation by the master.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "memory_target.hpp"

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

class AxiSlave {
 public:
  // Read bursts accepted and not yet answered before arready drops (a memory
  // controller's queue): enough to cover the latency with one-beat bursts.
  static constexpr size_t kMaxReads = 32;

  AxiSlave(MemoryTarget& target, unsigned bus_bytes, double random_stall, uint32_t seed);

  const AxiSlavePins& pins() const { return out_; }
  // The clock edge: complete this cycle's handshakes, then set next cycle's pins.
  void clock(const AxiMasterPins& in);
  void reset();
  void set_stalls(double random_stall, uint32_t seed) {
    stall_ = std::bernoulli_distribution(random_stall);
    rng_.seed(seed);
  }

  const std::vector<std::string>& violations() const { return violations_; }
  bool idle() const { return reads_.empty() && writes_.empty() && responses_.empty(); }
  uint64_t handshakes() const { return handshakes_; }
  uint64_t read_beats() const { return read_beats_; }  // bus words read, instruction fetch included

 private:
  struct ReadBurst {
    uint32_t base;
    unsigned beats, sent = 0;
    uint64_t start;     // the cycle its transfer begins: the first beat
    unsigned transfer;  // cycles of the transfer
    MemAccessResult access;
    std::vector<uint8_t> data;
    uint64_t ready_at(unsigned beat) const;
  };
  struct WriteBurst {
    uint32_t base;
    unsigned beats, got = 0;
    std::vector<uint8_t> data;
    std::vector<uint8_t> enable;
  };
  void violation(const std::string& what);
  void check_burst(const char* kind, uint32_t addr, unsigned len, unsigned size, unsigned burst);
  static unsigned resp(MemStatus s) { return s == MemStatus::Ok ? 0 : s == MemStatus::SlaveError ? 2 : 3; }

  MemoryTarget& target_;
  unsigned bus_bytes_;
  std::mt19937 rng_;
  std::bernoulli_distribution stall_;
  uint64_t now_ = 0, handshakes_ = 0, read_beats_ = 0;
  uint64_t read_free_ = 0, write_free_ = 0;  // when each channel's transfers are done
  std::deque<ReadBurst> reads_;
  std::deque<WriteBurst> writes_;
  std::deque<std::pair<uint64_t, MemStatus>> responses_;  // (due cycle, status)
  AxiSlavePins out_;
  std::vector<std::string> violations_;
};

}  // namespace tessera::sim
