// SPDX-License-Identifier: Apache-2.0
// Architectural state visible to the host: run state, error codes, STATUS, counters.
// The RTL's CSR block and the golden model both follow these definitions.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera {

enum class RunState : uint8_t { Idle = 0, Running = 1, Done = 2, Error = 3 };

// When one instruction has several errors, the smallest code is reported.
enum class ErrorCode : uint8_t {
  None = 0,
  Illegal = 1,    // reserved opcode, reserved bit set, or a field illegal for this configuration
  UbRange = 2,    // unified-buffer row range outside [0, ub_rows)
  AccRange = 3,   // accumulator row range outside [0, acc_rows)
  DramRange = 4,  // device-memory access (or instruction fetch) outside [0, dram_bytes)
  WeightFifo = 5, // rw with the FIFO full, or mmc needing a tile that is not there
  BusError = 6,   // device memory answered an access with an error response
  ActParam = 7,   // act parameter block holds a shift above 63
};
constexpr int kErrorCodeCount = 8;

const char* run_state_name(RunState s);
const char* error_name(ErrorCode e);
const char* error_description(ErrorCode e);

struct Status {
  RunState state = RunState::Idle;
  ErrorCode error = ErrorCode::None;
  uint32_t pc = 0;  // address of the last instruction fetched (the faulting one on error)
};

// The performance counters in CSR order (counter k at csr::kCounters + 8k): the one
// definition of their order, names and meaning (tpu-isa-gen writes the RTL's indices).
enum class CounterId : uint8_t {
  Cycles, Instructions, Macs, DramReadBytes, DramWriteBytes, WeightTiles,
  MatrixActive, WeightStall, WeightShift, RawStall, DmaWait,
};
constexpr int kCounterCount = 11;

struct CounterSpec {
  CounterId id;
  const char* name;  // as printed (Counters::items) and, upper-cased, TPU_CNT_<name>
  bool timed;        // counted only by timed backends (RTL, FPGA), not the golden model
  const char* doc;
};
constexpr std::array<CounterSpec, kCounterCount> kCounterTable = {{
    {CounterId::Cycles, "cycles", true, "cycles while running"},
    {CounterId::Instructions, "instructions", false, "instructions retired, including `halt`"},
    {CounterId::Macs, "macs", false, "multiply-accumulates: rows × N × N per `mmc`"},
    {CounterId::DramReadBytes, "dram_read_bytes", false, "bytes read by `rhm` and `rw` (not fetch)"},
    {CounterId::DramWriteBytes, "dram_write_bytes", false, "bytes written by `whm`"},
    {CounterId::WeightTiles, "weight_tiles", false, "weight tiles loaded by `rw`"},
    {CounterId::MatrixActive, "matrix_active", true, "cycles a row enters the array"},
    {CounterId::WeightStall, "weight_stall", true, "cycles a switch waits for `rw`"},
    {CounterId::WeightShift, "weight_shift", true, "cycles a switch waits for the shadow load"},
    {CounterId::RawStall, "raw_stall", true, "cycles issue is blocked by the interlocks"},
    {CounterId::DmaWait, "dma_wait", true, "cycles a DMA read waits for device memory"},
}};

constexpr bool counter_table_in_order() {
  for (int k = 0; k < kCounterCount; ++k)
    if (static_cast<int>(kCounterTable[k].id) != k) return false;
  return true;
}
static_assert(counter_table_in_order(), "kCounterTable lists the counters in CounterId order");

// Work counters. The model fills the first group; cycle-level counters exist only
// on timed backends (RTL, FPGA) and stay empty on the model.
struct Counters {
  uint64_t instructions = 0;       // retired, including halt
  uint64_t macs = 0;               // rows * N * N per mmc
  uint64_t dram_read_bytes = 0;    // data read by rhm and rw (not instruction fetch)
  uint64_t dram_write_bytes = 0;   // data written by whm
  uint64_t weight_tiles = 0;       // tiles loaded by rw
  std::optional<uint64_t> cycles, matrix_active, weight_stall, weight_shift, raw_stall, dma_wait;

  // Counter k (CounterId order); unset for a timed counter the backend does not count.
  std::optional<uint64_t> get(CounterId k) const;
  void set(CounterId k, uint64_t value);
  // name/value pairs, the model's counters first, then the timed ones present, for printing.
  std::vector<std::pair<std::string, uint64_t>> items() const;
};

}  // namespace tessera
