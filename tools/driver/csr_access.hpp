// SPDX-License-Identifier: Apache-2.0
// The core's register map (rtl/tpu_csr.v) and what a host does with it after a run,
// written once for every harness and for the UART backend: `read` is any callable
// uint32_t(uint8_t address) that performs a register read.
#pragma once

#include <cstdint>
#include <string>

#include "config/config.hpp"
#include "driver/device.hpp"

namespace tessera::sim {

// CSR map (rtl/tpu_csr.v) and counter order (rtl/tpu_controller.v).
namespace csr {
constexpr uint8_t kId = 0x00, kVersion = 0x04, kConfig0 = 0x08, kConfig1 = 0x0c, kConfig2 = 0x10,
                  kConfig3 = 0x14, kControl = 0x20, kEntry = 0x24, kStatus = 0x28, kPc = 0x2c,
                  kIrq = 0x30, kCounters = 0x40;
constexpr uint32_t kStart = 1, kSoftReset = 2, kIrqEnable = 4;
enum Counter { Cycles, Instructions, Macs, ReadBytes, WriteBytes, Tiles, MatrixActive,
               WeightStall, WeightShift, RawStall, DmaWait, kCount };
}  // namespace csr

class SimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class Read>
uint64_t read_counter(Read&& read, int k) {
  const uint64_t lo = read(uint8_t(csr::kCounters + 8 * k));
  const uint64_t hi = read(uint8_t(csr::kCounters + 8 * k + 4));
  return hi << 32 | lo;
}

// STATUS, PC and every performance counter into res.
template <class Read>
void read_run_state(Read&& read, RunResult& res) {
  const uint32_t status = read(csr::kStatus);
  res.status.state = static_cast<RunState>(status & 3);
  res.status.error = static_cast<ErrorCode>((status >> 8) & 0xf);
  res.status.pc = read(csr::kPc);
  Counters& c = res.counters;
  c.instructions = read_counter(read, csr::Instructions);
  c.macs = read_counter(read, csr::Macs);
  c.dram_read_bytes = read_counter(read, csr::ReadBytes);
  c.dram_write_bytes = read_counter(read, csr::WriteBytes);
  c.weight_tiles = read_counter(read, csr::Tiles);
  c.cycles = read_counter(read, csr::Cycles);
  c.matrix_active = read_counter(read, csr::MatrixActive);
  c.weight_stall = read_counter(read, csr::WeightStall);
  c.weight_shift = read_counter(read, csr::WeightShift);
  c.raw_stall = read_counter(read, csr::RawStall);
  c.dma_wait = read_counter(read, csr::DmaWait);
}

// Throws SimError unless the core's configuration registers describe cfg.
template <class Read>
void check_core_config(Read&& read, const Config& cfg) {
  const uint32_t c0 = read(csr::kConfig0);
  const uint32_t n = c0 & 0xff, depth = (c0 >> 8) & 0xff, width = c0 >> 16;
  const uint32_t ub = read(csr::kConfig1), acc = read(csr::kConfig2), dram = read(csr::kConfig3);
  if (n != cfg.array_size || depth != cfg.wfifo_depth || width != cfg.dma_width || ub != cfg.ub_rows ||
      acc != cfg.acc_rows || dram != cfg.dram_bytes)
    throw SimError("the Verilated core (N=" + std::to_string(n) + " ub_rows=" + std::to_string(ub) +
                   " acc_rows=" + std::to_string(acc) + " wfifo_depth=" + std::to_string(depth) +
                   " dma_width=" + std::to_string(width) + " dram_bytes=" + std::to_string(dram) +
                   ") does not match the configuration " + cfg.summary());
}

}  // namespace tessera::sim
