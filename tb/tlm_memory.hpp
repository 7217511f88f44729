// SPDX-License-Identifier: Apache-2.0
// Device memory as a TLM-2.0 target (loosely timed, blocking transport). Each access
// is annotated with the time it takes: the latency to the first byte plus the bytes
// at the configured bandwidth, which accesses share: an access's bytes move after the
// previous access's in the same direction (reads and writes each have their own). Chosen address ranges answer with an error response:
// TLM_GENERIC_ERROR_RESPONSE (the AXI adapter's SLVERR) or TLM_ADDRESS_ERROR_RESPONSE
// (DECERR); an access past the end of memory is an address error too. The debug
// transport reads and writes the bytes without time, for the host's loads.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <vector>

#include "model/golden_model.hpp"  // AddrRange

namespace tessera::tb {

struct ErrorRange {
  AddrRange range;
  tlm::tlm_response_status response = tlm::TLM_GENERIC_ERROR_RESPONSE;
};

class TlmMemory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TlmMemory> socket;

  TlmMemory(sc_core::sc_module_name name, uint32_t bytes, sc_core::sc_time cycle);

  std::vector<uint8_t>& bytes() { return mem_; }
  void set_timing(unsigned latency_cycles, unsigned bytes_per_cycle);
  void set_error_ranges(std::vector<ErrorRange> ranges) { errors_ = std::move(ranges); }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned transport_dbg(tlm::tlm_generic_payload& tx);
  tlm::tlm_response_status error_at(uint64_t addr) const;

  std::vector<uint8_t> mem_;
  sc_core::sc_time cycle_;
  unsigned latency_ = 10, bandwidth_ = 16;
  sc_core::sc_time read_free_ = sc_core::SC_ZERO_TIME, write_free_ = sc_core::SC_ZERO_TIME;  // channels busy until
  std::vector<ErrorRange> errors_;
};

}  // namespace tessera::tb
