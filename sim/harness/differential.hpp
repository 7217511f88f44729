// SPDX-License-Identifier: Apache-2.0
// Differential run on the plain harness: the same device memory image on the Verilated
// core and on the golden model, compared by the scoreboard.
#pragma once

#include <string>
#include <vector>

#include "core_sim.hpp"
#include "scoreboard.hpp"

namespace tessera::sim {

struct DiffResult {
  bool match = false;
  std::string report;  // the first mismatch, or a one-line summary
  RunResult rtl;
  Status model;
  Counters model_counters;
};

template <class V>
DiffResult differential_run_on(CoreSim<V>& sim, const Config& cfg, const DiffInput& in,
                               uint64_t max_cycles = 5000000);

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
                               uint64_t max_cycles) {
  const Expected want = run_model(cfg, in);
  sim.memory().bytes() = in.dram;
  sim.memory().set_bus_errors(in.bus_errors);
  DiffResult d;
  d.rtl = sim.run(in.entry, max_cycles);
  d.model = want.status;
  d.model_counters = want.counters;
  const Comparison c = compare_run(want, d.rtl, sim.memory().bytes(), sim.hang(), max_cycles);
  d.match = c.match;
  d.report = c.report;
  return d;
}

}  // namespace tessera::sim
