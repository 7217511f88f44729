// SPDX-License-Identifier: Apache-2.0
// What the simulation harnesses (the Verilator one here, the SystemC testbench) throw
// when a simulation itself fails: no CSR response, an AXI protocol violation, a wave
// file that cannot be written.
#pragma once

#include <stdexcept>

namespace tessera::sim {

class SimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace tessera::sim
