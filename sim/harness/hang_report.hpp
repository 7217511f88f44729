// SPDX-License-Identifier: Apache-2.0
// The watchdog's report of a core that stopped making progress, from its debug port
// (dbg_unit_busy_o, dbg_queue_count_o, trace_pc_o); the same text for every harness.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

namespace tessera::sim {

inline std::string hang_report(uint64_t quiet_cycles, uint64_t cycle, uint32_t pc, uint32_t unit_busy,
                               uint32_t queue_counts, bool bus_idle) {
  static const char* units[] = {"dma-in", "matrix", "activation", "dma-out"};
  std::ostringstream r;
  r << "watchdog: no progress for " << quiet_cycles << " cycles at cycle " << cycle
    << ", last decoded pc 0x" << std::hex << pc << std::dec << "\n";
  for (int u = 0; u < 4; ++u)
    r << "  " << units[u] << ": " << (((unit_busy >> u) & 1) ? "busy" : "idle") << ", queue "
      << ((queue_counts >> (8 * u)) & 0xff) << "\n";
  r << "  bus: " << (bus_idle ? "idle" : "transfers outstanding") << "\n";
  return r.str();
}

}  // namespace tessera::sim
