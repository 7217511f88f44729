// SPDX-License-Identifier: Apache-2.0
// Differential run: the same device memory image on the Verilated core and on the golden
// model, compared for run state, error code, PC, instruction count (and, for complete
// runs, the work counters) and every byte of device memory.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "core_sim.hpp"
#include "model/golden_model.hpp"
#include "util/hex.hpp"

namespace tessera::sim {

struct DiffInput {
  std::vector<uint8_t> dram;  // initial device memory (dram_bytes)
  uint32_t entry = 0;
  std::vector<AddrRange> bus_errors;
};

struct DiffResult {
  bool match = false;
  std::string report;  // the first mismatch, or a one-line summary
  RunResult rtl;
  Status model;
  Counters model_counters;
};

template <class V>
DiffResult differential_run(const Config& cfg, const DiffInput& in, const SimOptions& opt,
                            uint64_t max_cycles = 5000000, const std::string& wave_path = "") {
  CoreSim<V> sim(cfg, opt);
  if (!wave_path.empty()) sim.enable_wave(wave_path);
  return differential_run_on(sim, cfg, in, max_cycles);
}

// The same on an existing simulator, restarted from reset (keeps its coverage counters).
template <class V>
DiffResult differential_run_on(CoreSim<V>& sim, const Config& cfg, const DiffInput& in,
                               uint64_t max_cycles = 5000000) {
  DiffResult d;
  GoldenModel model(cfg);
  model.dram() = in.dram;
  model.set_bus_errors(in.bus_errors);
  model.start(in.entry);
  d.model = model.run(0);
  d.model_counters = model.counters();

  sim.memory().bytes() = in.dram;
  sim.memory().set_bus_errors(in.bus_errors);
  d.rtl = sim.run(in.entry, max_cycles);

  std::ostringstream r;
  auto status_text = [](const Status& s) {
    return std::string(run_state_name(s.state)) + "/" + error_name(s.error) + " at pc " + hex(s.pc);
  };
  if (sim.hang()) {
    r << *sim.hang();
  } else if (d.rtl.limit_reached) {
    r << "RTL still running after " << max_cycles << " cycles";
  } else if (d.rtl.status.state != d.model.state || d.rtl.status.error != d.model.error ||
             d.rtl.status.pc != d.model.pc) {
    r << "status: RTL " << status_text(d.rtl.status) << ", model " << status_text(d.model);
  } else if (d.rtl.counters.instructions != d.model_counters.instructions) {
    r << "instructions: RTL " << d.rtl.counters.instructions << ", model "
      << d.model_counters.instructions;
  } else if (d.model.state == RunState::Done &&
             (d.rtl.counters.macs != d.model_counters.macs ||
              d.rtl.counters.dram_read_bytes != d.model_counters.dram_read_bytes ||
              d.rtl.counters.dram_write_bytes != d.model_counters.dram_write_bytes ||
              d.rtl.counters.weight_tiles != d.model_counters.weight_tiles)) {
    r << "counters: RTL macs/read/written/tiles " << d.rtl.counters.macs << "/"
      << d.rtl.counters.dram_read_bytes << "/" << d.rtl.counters.dram_write_bytes << "/"
      << d.rtl.counters.weight_tiles << ", model " << d.model_counters.macs << "/"
      << d.model_counters.dram_read_bytes << "/" << d.model_counters.dram_write_bytes << "/"
      << d.model_counters.weight_tiles;
  } else {
    const auto& a = sim.memory().bytes();
    const auto& b = model.dram();
    const auto diff = std::mismatch(a.begin(), a.end(), b.begin());
    if (diff.first != a.end()) {
      const size_t at = size_t(diff.first - a.begin());
      r << "device memory at " << hex(uint32_t(at)) << ": RTL " << hex(*diff.first, 2) << ", model "
        << hex(*diff.second, 2);
    } else {
      d.match = true;
      r << "match: " << status_text(d.model) << ", " << d.model_counters.instructions
        << " instructions, " << *d.rtl.counters.cycles << " cycles";
    }
  }
  d.report = r.str();
  return d;
}

}  // namespace tessera::sim
