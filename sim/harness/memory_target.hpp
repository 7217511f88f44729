// SPDX-License-Identifier: Apache-2.0
// Device memory as the AXI slave ports see it: whole-burst accesses that report how
// long they take. DeviceMemory is the plain implementation (the bytes, latency,
// bandwidth, error ranges); the SystemC testbench puts a TLM-2.0 target behind the
// same interface.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "model/golden_model.hpp"  // AddrRange

namespace tessera::sim {

enum class MemStatus { Ok, SlaveError, DecodeError };

struct MemAccessResult {
  MemStatus status = MemStatus::Ok;
  unsigned first_cycles = 1;  // cycles until the first bytes are available
  unsigned total_cycles = 1;  // cycles until the whole access has been transferred
};

class MemoryTarget {
 public:
  virtual ~MemoryTarget() = default;
  // Reads len bytes at addr into data. On SlaveError the data are zero.
  virtual MemAccessResult read(uint32_t addr, uint8_t* data, unsigned len) = 0;
  // Writes the bytes whose enable byte is nonzero. Bytes inside an error range are dropped and
  // the result is SlaveError; the others are written.
  virtual MemAccessResult write(uint32_t addr, const uint8_t* data, const uint8_t* enable,
                                unsigned len) = 0;
};

struct MemTiming {
  unsigned latency = 10;    // cycles from an access to its first data
  unsigned bandwidth = 16;  // bytes per cycle
  double random_stall = 0;  // probability of a random not-ready/not-valid handshake cycle
  uint32_t seed = 1;
};

// A random timing for differential tests: latency 1-30 cycles, bandwidth from the bus
// width down to an eighth of it, random handshake stalls one time in three.
MemTiming random_mem_timing(std::mt19937& rng, unsigned bus_bytes);

class DeviceMemory : public MemoryTarget {
 public:
  DeviceMemory(uint32_t bytes, const MemTiming& timing) : mem_(bytes, 0), timing_(timing) {}
  std::vector<uint8_t>& bytes() { return mem_; }
  const std::vector<uint8_t>& bytes() const { return mem_; }
  void set_bus_errors(std::vector<AddrRange> ranges) { errors_ = std::move(ranges); }
  const MemTiming& timing() const { return timing_; }
  void set_timing(const MemTiming& t) { timing_ = t; }

  MemAccessResult read(uint32_t addr, uint8_t* data, unsigned len) override;
  MemAccessResult write(uint32_t addr, const uint8_t* data, const uint8_t* enable,
                        unsigned len) override;

 private:
  bool in_error(uint64_t addr) const;
  MemAccessResult timing_for(unsigned len) const;

  std::vector<uint8_t> mem_;
  MemTiming timing_;
  std::vector<AddrRange> errors_;
};

}  // namespace tessera::sim
