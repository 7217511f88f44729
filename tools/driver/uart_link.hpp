// SPDX-License-Identifier: Apache-2.0
// The host end of a board's UART link (docs/fpga.md): register and memory access as
// framed requests, each retried when its reply times out or arrives corrupted, or when
// the board reports that the request arrived corrupted.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "driver/serial_port.hpp"
#include "driver/uart_protocol.hpp"

namespace tessera {

struct LinkOptions {
  int timeout_ms = 500;  // per reply; longer than the board's frame timeout (0.1 s)
  int tries = 4;         // attempts per request
  size_t max_payload = 256;  // the bridge's MaxPayload
};

struct LinkStats {
  uint64_t requests = 0, retries = 0, timeouts = 0, corrupt_replies = 0, rejected_requests = 0;
};

class UartLink {
 public:
  UartLink(std::unique_ptr<SerialPort> port, const LinkOptions& opts);

  uint32_t csr_read(uint8_t reg);
  void csr_write(uint8_t reg, uint32_t value);
  // For a write that must not happen twice (starting a run): retried only while the
  // board reports it arrived corrupted. False when it is unknown whether it happened
  // (no reply, or a corrupted reply); the caller then looks at the board's state.
  bool csr_write_once(uint8_t reg, uint32_t value);
  void mem_read(uint32_t addr, uint8_t* out, size_t len);  // in max_payload pieces
  void mem_write(uint32_t addr, const uint8_t* data, size_t len);

  const LinkStats& stats() const { return stats_; }
  const LinkOptions& options() const { return opts_; }
  const std::string& port_name() const { return port_->path(); }

 private:
  // The reply, or nullopt when !retry_unsure and the outcome is unknown.
  std::optional<uart::Reply> transact(const std::vector<uint8_t>& frame, uart::Command cmd, uint16_t len,
                                      const std::string& what, bool retry_unsure = true);
  enum class Outcome { Reply, Timeout, Corrupt };
  Outcome read_reply(uart::Command cmd, uint16_t len, uart::Reply& reply);

  std::unique_ptr<SerialPort> port_;
  LinkOptions opts_;
  LinkStats stats_;
};

}  // namespace tessera
