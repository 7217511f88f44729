// SPDX-License-Identifier: Apache-2.0
#include "memory_target.hpp"

#include <algorithm>

namespace tessera::sim {

MemTiming random_mem_timing(std::mt19937& rng, unsigned bus_bytes) {
  MemTiming t;
  t.latency = 1 + rng() % 30;
  t.bandwidth = std::max(1u, bus_bytes >> (rng() % 4));
  t.random_stall = rng() % 3 == 0 ? 0.3 : 0.0;
  t.seed = rng();
  return t;
}

bool DeviceMemory::in_error(uint64_t addr) const {
  return std::any_of(errors_.begin(), errors_.end(),
                     [&](const AddrRange& r) { return addr >= r.lo && addr < r.hi; });
}

MemAccessResult DeviceMemory::timing_for(unsigned len) const {
  MemAccessResult r;
  const unsigned bw = std::max(1u, timing_.bandwidth);
  r.first_cycles = std::max(1u, timing_.latency);
  r.total_cycles = r.first_cycles + (len + bw - 1) / bw - 1;
  return r;
}

MemAccessResult DeviceMemory::read(uint32_t addr, uint8_t* data, unsigned len) {
  MemAccessResult r = timing_for(len);
  if (uint64_t{addr} + len > mem_.size()) {
    r.status = MemStatus::DecodeError;
    std::fill(data, data + len, 0);
    return r;
  }
  for (unsigned i = 0; i < len; ++i) {
    if (in_error(uint64_t{addr} + i)) r.status = MemStatus::SlaveError;
    data[i] = mem_[addr + i];
  }
  if (r.status != MemStatus::Ok) std::fill(data, data + len, 0);
  return r;
}

MemAccessResult DeviceMemory::write(uint32_t addr, const uint8_t* data, const uint8_t* enable,
                                    unsigned len) {
  MemAccessResult r = timing_for(len);
  if (uint64_t{addr} + len > mem_.size()) {
    r.status = MemStatus::DecodeError;
    return r;
  }
  for (unsigned i = 0; i < len; ++i) {
    if (!enable[i]) continue;
    if (in_error(uint64_t{addr} + i)) r.status = MemStatus::SlaveError;
    else mem_[addr + i] = data[i];
  }
  return r;
}

}  // namespace tessera::sim
