// SPDX-License-Identifier: Apache-2.0
#include "driver/model_backend.hpp"

#include <cstring>

namespace tessera {

ModelBackend::ModelBackend(const Config& cfg, std::vector<AddrRange> bus_errors) : model_(cfg) {
  model_.set_bus_errors(std::move(bus_errors));
}

void ModelBackend::write_mem(uint32_t addr, const uint8_t* data, size_t len) {
  std::memcpy(model_.dram().data() + addr, data, len);
}

void ModelBackend::read_mem(uint32_t addr, uint8_t* data, size_t len) {
  std::memcpy(data, model_.dram().data() + addr, len);
}

RunResult ModelBackend::run(uint32_t entry, const RunLimits& limits) {
  model_.start(entry);
  RunResult r;
  r.status = model_.run(limits.max_cycles);
  r.counters = model_.counters();
  r.limit_reached = r.status.state == RunState::Running;
  return r;
}

}  // namespace tessera
