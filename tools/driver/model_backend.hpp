// SPDX-License-Identifier: Apache-2.0
// The golden model as a driver backend.
#pragma once

#include "driver/device.hpp"
#include "model/golden_model.hpp"

namespace tessera {

class ModelBackend : public Backend {
 public:
  ModelBackend(const Config& cfg, std::vector<AddrRange> bus_errors);
  std::string name() const override { return "model"; }
  void write_mem(uint32_t addr, const uint8_t* data, size_t len) override;
  void read_mem(uint32_t addr, uint8_t* data, size_t len) override;
  RunResult run(uint32_t entry, const RunLimits& limits) override;
  const GoldenModel& model() const { return model_; }

 private:
  GoldenModel model_;
};

}  // namespace tessera
