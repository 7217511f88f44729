// SPDX-License-Identifier: Apache-2.0
// One program image on the plain C++ harness (CoreSim), measured: the core's counters,
// the harness's own cycle count and the wall time of the run alone. (The SystemC
// testbench is in bench_systemc.cpp: SystemC and plain Verilated headers do not mix in
// one translation unit.)
#pragma once

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core_sim.hpp"
#include "image/image.hpp"
#include "scoreboard.hpp"

namespace tessera::bench {

struct Measured {
  RunResult result;
  uint64_t own_cycles = 0;  // the simulator's count from the START write to the interrupt
  double seconds = 0;       // wall time of the run
  bool match = true;        // device memory, status and counters equal the golden model's
  uint64_t bus_read_bytes = 0;  // bus words read (instruction fetch included) times the bus width
  std::string report;
};

inline std::vector<uint8_t> memory_with(const Config& cfg, const Image& img, uint32_t seed) {
  std::vector<uint8_t> dram(cfg.dram_bytes);
  uint32_t x = seed * 2654435761u + 1;
  for (auto& b : dram) b = uint8_t((x = x * 1664525u + 1013904223u) >> 24);  // inputs and weights
  for (const Section& s : img.sections) std::copy(s.bytes.begin(), s.bytes.end(), dram.begin() + s.addr);
  return dram;
}

inline double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The plain harness; checked against the golden model when `check` is set.
template <class V>
Measured run_plain(const Config& cfg, const std::vector<uint8_t>& dram, uint32_t entry, const sim::MemTiming& t,
                   bool check) {
  sim::SimOptions o;
  o.timing = t;
  o.watchdog_cycles = 1000000;
  sim::CoreSim<V> s(cfg, o);
  s.memory().bytes() = dram;
  for (uint32_t i = 0; i < std::max(cfg.ub_rows, cfg.acc_rows) + 8; ++i) s.step();  // the scrub after reset
  Measured m;
  const uint64_t c0 = s.cycle(), beats0 = s.port().read_beats();
  const auto t0 = std::chrono::steady_clock::now();
  m.result = s.run(entry);
  m.seconds = since(t0);
  m.own_cycles = s.cycle() - c0;
  m.bus_read_bytes = (s.port().read_beats() - beats0) * (cfg.dma_width / 8);
  if (check) {
    const sim::Comparison c = sim::compare_run(sim::run_model(cfg, {dram, entry, {}}), m.result, s.memory().bytes(),
                                               s.hang(), 0);
    m.match = c.match;
    m.report = c.report;
  }
  return m;
}

}  // namespace tessera::bench
