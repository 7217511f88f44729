// SPDX-License-Identifier: Apache-2.0
#include "isa/arch.hpp"

namespace tessera {

const char* run_state_name(RunState s) {
  switch (s) {
    case RunState::Idle: return "IDLE";
    case RunState::Running: return "RUNNING";
    case RunState::Done: return "DONE";
    case RunState::Error: return "ERROR";
  }
  return "?";
}

const char* error_name(ErrorCode e) {
  switch (e) {
    case ErrorCode::None: return "NONE";
    case ErrorCode::Illegal: return "ILLEGAL";
    case ErrorCode::UbRange: return "UB_RANGE";
    case ErrorCode::AccRange: return "ACC_RANGE";
    case ErrorCode::DramRange: return "DRAM_RANGE";
    case ErrorCode::WeightFifo: return "WEIGHT_FIFO";
    case ErrorCode::BusError: return "BUS_ERROR";
    case ErrorCode::ActParam: return "ACT_PARAM";
  }
  return "?";
}

const char* error_description(ErrorCode e) {
  switch (e) {
    case ErrorCode::None: return "no error";
    case ErrorCode::Illegal: return "illegal instruction";
    case ErrorCode::UbRange: return "unified-buffer address out of range";
    case ErrorCode::AccRange: return "accumulator address out of range";
    case ErrorCode::DramRange: return "device-memory address out of range";
    case ErrorCode::WeightFifo: return "weight FIFO overflow or no weight tile";
    case ErrorCode::BusError: return "device-memory bus error";
    case ErrorCode::ActParam: return "activation parameter out of range";
  }
  return "?";
}

std::optional<uint64_t> Counters::get(CounterId k) const {
  switch (k) {
    case CounterId::Cycles: return cycles;
    case CounterId::Instructions: return instructions;
    case CounterId::Macs: return macs;
    case CounterId::DramReadBytes: return dram_read_bytes;
    case CounterId::DramWriteBytes: return dram_write_bytes;
    case CounterId::WeightTiles: return weight_tiles;
    case CounterId::MatrixActive: return matrix_active;
    case CounterId::WeightStall: return weight_stall;
    case CounterId::WeightShift: return weight_shift;
    case CounterId::RawStall: return raw_stall;
    case CounterId::DmaWait: return dma_wait;
  }
  return std::nullopt;
}

void Counters::set(CounterId k, uint64_t value) {
  switch (k) {
    case CounterId::Cycles: cycles = value; return;
    case CounterId::Instructions: instructions = value; return;
    case CounterId::Macs: macs = value; return;
    case CounterId::DramReadBytes: dram_read_bytes = value; return;
    case CounterId::DramWriteBytes: dram_write_bytes = value; return;
    case CounterId::WeightTiles: weight_tiles = value; return;
    case CounterId::MatrixActive: matrix_active = value; return;
    case CounterId::WeightStall: weight_stall = value; return;
    case CounterId::WeightShift: weight_shift = value; return;
    case CounterId::RawStall: raw_stall = value; return;
    case CounterId::DmaWait: dma_wait = value; return;
  }
}

std::vector<std::pair<std::string, uint64_t>> Counters::items() const {
  std::vector<std::pair<std::string, uint64_t>> v;
  for (bool timed : {false, true})
    for (const auto& c : kCounterTable)
      if (c.timed == timed)
        if (const auto value = get(c.id)) v.emplace_back(c.name, *value);
  return v;
}

}  // namespace tessera
