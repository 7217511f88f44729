// SPDX-License-Identifier: Apache-2.0
#include "tlm_memory.hpp"

#include <algorithm>
#include <cstring>

namespace tessera::tb {

TlmMemory::TlmMemory(sc_core::sc_module_name name, uint32_t bytes, sc_core::sc_time cycle)
    : sc_module(name), socket("socket"), mem_(bytes, 0), cycle_(cycle) {
  socket.register_b_transport(this, &TlmMemory::b_transport);
  socket.register_transport_dbg(this, &TlmMemory::transport_dbg);
}

void TlmMemory::set_timing(unsigned latency_cycles, unsigned bytes_per_cycle) {
  latency_ = std::max(1u, latency_cycles);
  bandwidth_ = std::max(1u, bytes_per_cycle);
}

tlm::tlm_response_status TlmMemory::error_at(uint64_t addr) const {
  for (const ErrorRange& e : errors_)
    if (addr >= e.range.lo && addr < e.range.hi) return e.response;
  return tlm::TLM_OK_RESPONSE;
}

void TlmMemory::b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
  const uint64_t addr = tx.get_address();
  const unsigned len = tx.get_data_length();
  uint8_t* data = tx.get_data_ptr();
  const uint8_t* enable = tx.get_byte_enable_ptr();
  const unsigned enable_len = tx.get_byte_enable_length();
  // the bytes move once the first are there and the channel's previous access is done
  sc_core::sc_time& free = tx.is_read() ? read_free_ : write_free_;
  const sc_core::sc_time now = sc_core::sc_time_stamp() + delay;
  const sc_core::sc_time start = std::max(now + cycle_ * double(latency_), free);
  free = start + cycle_ * double((len + bandwidth_ - 1) / bandwidth_);
  delay = free - cycle_ - sc_core::sc_time_stamp();
  if (addr + len > mem_.size()) {
    tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  tlm::tlm_response_status status = tlm::TLM_OK_RESPONSE;
  for (unsigned i = 0; i < len; ++i) {
    const tlm::tlm_response_status e = error_at(addr + i);
    if (e != tlm::TLM_OK_RESPONSE) {
      // DECERR wins over SLVERR when a burst touches both kinds.
      if (status != tlm::TLM_ADDRESS_ERROR_RESPONSE) status = e;
      continue;
    }
    if (tx.is_read()) {
      data[i] = mem_[addr + i];
    } else if (!enable || enable[i % enable_len] == TLM_BYTE_ENABLED) {
      mem_[addr + i] = data[i];
    }
  }
  if (status != tlm::TLM_OK_RESPONSE && tx.is_read()) std::memset(data, 0, len);
  tx.set_response_status(status);
}

unsigned TlmMemory::transport_dbg(tlm::tlm_generic_payload& tx) {
  const uint64_t addr = tx.get_address();
  if (addr >= mem_.size()) return 0;
  const unsigned len = unsigned(std::min<uint64_t>(tx.get_data_length(), mem_.size() - addr));
  if (tx.is_read()) std::memcpy(tx.get_data_ptr(), &mem_[addr], len);
  else std::memcpy(&mem_[addr], tx.get_data_ptr(), len);
  tx.set_response_status(tlm::TLM_OK_RESPONSE);
  return len;
}

}  // namespace tessera::tb
