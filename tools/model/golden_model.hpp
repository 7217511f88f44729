// SPDX-License-Identifier: Apache-2.0
// The golden model: a functional, bit-exact executor of the ISA. It defines what
// every instruction does, including every architectural error, and is the fast
// backend for software work.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "config/config.hpp"
#include "isa/arch.hpp"
#include "isa/isa.hpp"

namespace tessera {

struct AddrRange {
  uint32_t lo = 0, hi = 0;  // [lo, hi)
};

class GoldenModel {
 public:
  explicit GoldenModel(const Config& cfg);

  const Config& config() const { return cfg_; }
  std::vector<uint8_t>& dram() { return dram_; }
  const std::vector<uint8_t>& dram() const { return dram_; }

  // Device memory answers accesses inside these ranges with a bus error.
  void set_bus_errors(std::vector<AddrRange> ranges) { bus_errors_ = std::move(ranges); }

  // Called with each device-memory row a whm writes (status().pc is the whm), so a
  // scoreboard can name the instruction that last wrote a byte.
  using WriteObserver = std::function<void(uint64_t addr, uint64_t len)>;
  void set_write_observer(WriteObserver f) { on_write_ = std::move(f); }

  // Clears the unified buffer, accumulators, weight FIFO, status and counters
  // (device memory is kept) and points the PC at `entry`.
  void start(uint32_t entry);
  // Executes one instruction; returns false once the core has stopped.
  bool step();
  // Runs until HALT, an error, or `max_instructions` retired (0: no limit).
  Status run(uint64_t max_instructions);

  const Status& status() const { return status_; }
  const Counters& counters() const { return counters_; }
  const int8_t* ub_row(uint32_t row) const { return &ub_[size_t{row} * n_]; }
  const int32_t* acc_row(uint32_t row) const { return &acc_[size_t{row} * n_]; }

 private:
  using Tile = std::vector<int8_t>;  // N x N, [k * N + n]

  ErrorCode check(const Instr& in) const;
  ErrorCode check_act_params(const Instr& in) const;
  bool bus_error_in(uint64_t lo, uint64_t len) const;
  ErrorCode execute(const Instr& in);  // run-time errors found while executing
  void exec_rhm(const Instr& in);
  ErrorCode exec_whm(const Instr& in);
  void exec_rw(const Instr& in);
  void exec_mmc(const Instr& in);
  void exec_act(const Instr& in);
  void stop(RunState state, ErrorCode err);

  Config cfg_;
  uint32_t n_;
  std::vector<uint8_t> dram_;
  std::vector<int8_t> ub_;
  std::vector<int32_t> acc_;
  std::deque<Tile> wfifo_;
  Tile active_;
  bool has_active_ = false;
  std::vector<AddrRange> bus_errors_;
  WriteObserver on_write_;
  uint32_t next_pc_ = 0;
  Status status_;
  Counters counters_;
};

}  // namespace tessera
