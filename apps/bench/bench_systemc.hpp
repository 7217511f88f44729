// SPDX-License-Identifier: Apache-2.0
// The same measurement on the SystemC testbench (N = 16 core), in its own translation
// unit. One testbench per process: the first call elaborates it, later calls reuse it.
#pragma once

#include "bench_runs.hpp"

namespace tessera::bench {

Measured run_systemc_n16(const Config& cfg, const std::vector<uint8_t>& dram, uint32_t entry, const sim::MemTiming& t);

}  // namespace tessera::bench
