// SPDX-License-Identifier: Apache-2.0
// What a host does with the core's registers (isa/csr_map.hpp) after a run, written once
// for every harness and for the UART backend: `read` is any callable uint32_t(uint8_t
// address) that performs a register read.
#pragma once

#include <cstdint>
#include <string>

#include "config/config.hpp"
#include "driver/device.hpp"
#include "isa/csr_map.hpp"

namespace tessera {

template <class Read>
uint64_t read_counter(Read&& read, CounterId k) {
  const uint8_t at = uint8_t(csr::kCounters + 8 * static_cast<int>(k));
  const uint64_t lo = read(at);  // latches the high word
  const uint64_t hi = read(uint8_t(at + 4));
  return hi << 32 | lo;
}

// STATUS, PC and every performance counter into res.
template <class Read>
void read_run_state(Read&& read, RunResult& res) {
  const uint32_t status = read(csr::kStatus);
  res.status.state = static_cast<RunState>((status >> csr::kStatusStateLsb) & 3);
  res.status.error = static_cast<ErrorCode>((status >> csr::kStatusErrorLsb) & 0xf);
  res.status.pc = read(csr::kPc);
  for (const auto& c : kCounterTable) res.counters.set(c.id, read_counter(read, c.id));
}

// Throws DriverError unless the core's configuration registers describe cfg.
template <class Read>
void check_core_config(Read&& read, const Config& cfg) {
  const uint32_t c0 = read(csr::kConfig0);
  const uint32_t n = (c0 >> csr::kConfig0ArraySizeLsb) & 0xff;
  const uint32_t depth = (c0 >> csr::kConfig0WfifoDepthLsb) & 0xff;
  const uint32_t width = (c0 >> csr::kConfig0DmaWidthLsb) & 0xffff;
  const uint32_t ub = read(csr::kConfig1), acc = read(csr::kConfig2), dram = read(csr::kConfig3);
  if (n != cfg.array_size || depth != cfg.wfifo_depth || width != cfg.dma_width || ub != cfg.ub_rows ||
      acc != cfg.acc_rows || dram != cfg.dram_bytes)
    throw DriverError("the core's configuration registers (N=" + std::to_string(n) + " ub_rows=" + std::to_string(ub) +
                   " acc_rows=" + std::to_string(acc) + " wfifo_depth=" + std::to_string(depth) +
                   " dma_width=" + std::to_string(width) + " dram_bytes=" + std::to_string(dram) +
                   ") do not match the configuration " + cfg.summary());
}

}  // namespace tessera
