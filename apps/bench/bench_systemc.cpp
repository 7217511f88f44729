// SPDX-License-Identifier: Apache-2.0
// SystemC first: verilated.h then sees it and does not declare its own sc_time_stamp().
#include "Vtb_core_n16.h"
#include "testbench.hpp"
// (the header of this file pulls in the plain harness)
#include "bench_systemc.hpp"

#include <cstdlib>

namespace tessera::bench {

Measured run_systemc_n16(const Config& cfg, const std::vector<uint8_t>& dram, uint32_t entry, const sim::MemTiming& t) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  static auto* bench = new tb::Testbench<Vtb_core_n16>("bench", cfg);
  tb::MemorySettings ms;
  ms.latency = t.latency;
  ms.bandwidth = t.bandwidth;
  bench->set_memory(ms);
  bench->reset();
  bench->write_mem(0, dram.data(), dram.size());
  Measured m;
  const auto t0 = std::chrono::steady_clock::now();
  m.result = bench->run(entry, 0, 1000000);
  m.seconds = since(t0);
  m.own_cycles = bench->monitored_cycles();
  return m;
}

}  // namespace tessera::bench
