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

std::vector<std::pair<std::string, uint64_t>> Counters::items() const {
  std::vector<std::pair<std::string, uint64_t>> v = {
      {"instructions", instructions},         {"macs", macs},
      {"dram_read_bytes", dram_read_bytes},   {"dram_write_bytes", dram_write_bytes},
      {"weight_tiles", weight_tiles}};
  const std::pair<const char*, const std::optional<uint64_t>*> timed[] = {
      {"cycles", &cycles},           {"matrix_active", &matrix_active},
      {"weight_stall", &weight_stall}, {"weight_shift", &weight_shift},
      {"raw_stall", &raw_stall},     {"dma_wait", &dma_wait}};
  for (const auto& t : timed)
    if (t.second->has_value()) v.emplace_back(t.first, **t.second);
  return v;
}

}  // namespace tessera
