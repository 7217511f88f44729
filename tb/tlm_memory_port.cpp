// SPDX-License-Identifier: Apache-2.0
#include "tlm_memory_port.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace tessera::tb {

TlmMemoryPort::TlmMemoryPort(sc_core::sc_module_name name, unsigned bus_bytes, sc_core::sc_time cycle)
    : sc_module(name), socket("socket"), bus_bytes_(bus_bytes), cycle_(cycle) {}

sim::MemAccessResult TlmMemoryPort::transport(tlm::tlm_command cmd, uint32_t addr, uint8_t* data,
                                              uint8_t* enable, unsigned len) {
  tlm::tlm_generic_payload tx;
  tx.set_command(cmd);
  tx.set_address(addr);
  tx.set_data_ptr(data);
  tx.set_data_length(len);
  tx.set_streaming_width(len);
  tx.set_byte_enable_ptr(enable);
  tx.set_byte_enable_length(enable ? len : 0);
  tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  socket->b_transport(tx, delay);

  sim::MemAccessResult r;
  const unsigned beats = std::max(1u, (len + bus_bytes_ - 1) / bus_bytes_);
  r.total_cycles = std::max(1u, unsigned(delay / cycle_ + 0.5));
  r.first_cycles = r.total_cycles > beats ? r.total_cycles - (beats - 1) : 1;
  switch (tx.get_response_status()) {
    case tlm::TLM_OK_RESPONSE: r.status = sim::MemStatus::Ok; break;
    case tlm::TLM_ADDRESS_ERROR_RESPONSE: r.status = sim::MemStatus::DecodeError; break;
    default: r.status = sim::MemStatus::SlaveError; break;
  }
  return r;
}

sim::MemAccessResult TlmMemoryPort::read(uint32_t addr, uint8_t* data, unsigned len) {
  return transport(tlm::TLM_READ_COMMAND, addr, data, nullptr, len);
}

sim::MemAccessResult TlmMemoryPort::write(uint32_t addr, const uint8_t* data, const uint8_t* enable,
                                          unsigned len) {
  // TLM marks enabled bytes with TLM_BYTE_ENABLED (0xff); the AXI side with any nonzero.
  enable_.resize(len);
  for (unsigned i = 0; i < len; ++i) enable_[i] = enable[i] ? TLM_BYTE_ENABLED : TLM_BYTE_DISABLED;
  return transport(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), enable_.data(), len);
}

void TlmMemoryPort::debug(tlm::tlm_command cmd, uint32_t addr, uint8_t* data, size_t len) {
  tlm::tlm_generic_payload tx;
  tx.set_command(cmd);
  tx.set_address(addr);
  tx.set_data_ptr(data);
  tx.set_data_length(unsigned(len));
  if (socket->transport_dbg(tx) != len)
    throw std::out_of_range("device memory access of " + std::to_string(len) + " bytes at " +
                            std::to_string(addr) + " is outside the memory");
}

void TlmMemoryPort::debug_write(uint32_t addr, const uint8_t* data, size_t len) {
  debug(tlm::TLM_WRITE_COMMAND, addr, const_cast<uint8_t*>(data), len);
}

void TlmMemoryPort::debug_read(uint32_t addr, uint8_t* data, size_t len) {
  debug(tlm::TLM_READ_COMMAND, addr, data, len);
}

}  // namespace tessera::tb
