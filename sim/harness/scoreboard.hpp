// SPDX-License-Identifier: Apache-2.0
// The scoreboard: what the golden model says one image does, and the comparison of a
// timed run (plain harness or SystemC testbench) against it — run state, error code,
// PC, instruction count, work counters and every byte of device memory. The first
// mismatch is reported with the address, both values and the instruction that last
// wrote that byte in the model's run.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "driver/device.hpp"
#include "model/golden_model.hpp"

namespace tessera::sim {

struct DiffInput {
  std::vector<uint8_t> dram;  // initial device memory (dram_bytes)
  uint32_t entry = 0;
  std::vector<AddrRange> bus_errors;
};

struct Expected {
  Status status;
  Counters counters;
  std::vector<uint8_t> dram;
  struct Write {
    uint32_t pc;
    uint64_t addr, len;
  };
  std::vector<Write> writes;  // every row a whm wrote, in program order

  // "pc 0x... (whm ...)" of the last instruction that wrote addr, or a note that no
  // instruction did (the byte comes from the loaded image).
  std::string last_writer(uint32_t addr) const;
};

// Runs the image on the golden model.
Expected run_model(const Config& cfg, const DiffInput& in);

struct Comparison {
  bool match = false;
  std::string report;  // the first mismatch, or a one-line summary of the match
};

// hang: the watchdog's report if the timed run hung; max_cycles: the limit it ran under.
Comparison compare_run(const Expected& want, const RunResult& got, const std::vector<uint8_t>& got_dram,
                       const std::optional<std::string>& hang, uint64_t max_cycles);

}  // namespace tessera::sim
