// SPDX-License-Identifier: Apache-2.0
// The AXI adapter's view of a TLM-2.0 target: a MemoryTarget (whole-burst accesses,
// sim/harness/memory_target.hpp) that sends each access as one generic payload
// through an initiator socket and turns the annotated delay into cycles. The delay is
// the time until the last byte; the first beat is due one bus beat per cycle before
// it (exact while the memory delivers at least a bus width per cycle).
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <vector>

#include "memory_target.hpp"

namespace tessera::tb {

class TlmMemoryPort : public sc_core::sc_module, public sim::MemoryTarget {
 public:
  tlm_utils::simple_initiator_socket<TlmMemoryPort> socket;

  TlmMemoryPort(sc_core::sc_module_name name, unsigned bus_bytes, sc_core::sc_time cycle);

  sim::MemAccessResult read(uint32_t addr, uint8_t* data, unsigned len) override;
  sim::MemAccessResult write(uint32_t addr, const uint8_t* data, const uint8_t* enable,
                             unsigned len) override;

  // Host access without time (TLM debug transport).
  void debug_write(uint32_t addr, const uint8_t* data, size_t len);
  void debug_read(uint32_t addr, uint8_t* data, size_t len);

 private:
  sim::MemAccessResult transport(tlm::tlm_command cmd, uint32_t addr, uint8_t* data,
                                 uint8_t* enable, unsigned len);
  void debug(tlm::tlm_command cmd, uint32_t addr, uint8_t* data, size_t len);

  unsigned bus_bytes_;
  sc_core::sc_time cycle_;
  std::vector<uint8_t> enable_;
};

}  // namespace tessera::tb
