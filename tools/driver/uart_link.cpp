// SPDX-License-Identifier: Apache-2.0
#include "driver/uart_link.hpp"

#include <algorithm>
#include <sstream>

#include "driver/device.hpp"

namespace tessera {

using uart::Command;
using uart::Reply;
using LinkStatus = uart::Status;

UartLink::UartLink(std::unique_ptr<SerialPort> port, const LinkOptions& opts) : port_(std::move(port)), opts_(opts) {
  if (opts_.tries < 1 || opts_.timeout_ms < 1 || opts_.max_payload < 1 || opts_.max_payload > 0xffff)
    throw DriverError("link options: tries and timeout must be positive, max payload 1..65535");
}

UartLink::Outcome UartLink::read_reply(Command cmd, uint16_t len, Reply& reply) {
  std::vector<uint8_t> bytes;
  size_t want = 2;  // sync and status first; then we know how long the reply is
  while (true) {
    if (!port_->read(bytes, want, opts_.timeout_ms)) {
      ++stats_.timeouts;
      return Outcome::Timeout;
    }
    try {
      const size_t ok_bytes = uart::reply_payload_bytes(cmd, len);
      if (auto r = uart::parse_reply(bytes, ok_bytes)) {
        reply = *r;
        return Outcome::Reply;
      }
      want = 3 + (LinkStatus(bytes[1]) == LinkStatus::Ok ? ok_bytes : 0);
    } catch (const uart::ProtocolError&) {
      ++stats_.corrupt_replies;
      // Let the rest of the damaged reply arrive, then drop it.
      std::vector<uint8_t> rest;
      port_->read(rest, ~size_t{0} >> 1, 20);
      return Outcome::Corrupt;
    }
  }
}

std::optional<Reply> UartLink::transact(const std::vector<uint8_t>& frame, Command cmd, uint16_t len,
                                        const std::string& what, bool retry_unsure) {
  ++stats_.requests;
  std::string last = "no reply";
  for (int attempt = 0; attempt < opts_.tries; ++attempt) {
    if (attempt) ++stats_.retries;
    port_->discard_input();
    port_->write(frame);
    Reply r;
    const Outcome got = read_reply(cmd, len, r);
    if (got != Outcome::Reply) {
      if (!retry_unsure) return std::nullopt;
      last = got == Outcome::Timeout ? "no reply" : "a corrupted reply";
      continue;
    }
    if (r.status == LinkStatus::Ok) return r;
    if (r.status == LinkStatus::Checksum) {  // the request arrived damaged; nothing happened
      ++stats_.rejected_requests;
      last = "the board received the request corrupted";
      continue;
    }
    throw DriverError(what + ": the board answered '" + uart::status_name(r.status) + "'");
  }
  std::ostringstream msg;
  msg << what << ": " << last << " from the board on " << port_->path() << " after " << opts_.tries
      << " tries (" << opts_.timeout_ms << " ms each); is the bitstream loaded, and are the port and baud rate right?";
  throw DriverError(msg.str());
}

uint32_t UartLink::csr_read(uint8_t reg) {
  const Reply r = *transact(uart::csr_read_request(reg), Command::CsrRead, 0, "register read");
  return uint32_t(r.payload[0]) | uint32_t(r.payload[1]) << 8 | uint32_t(r.payload[2]) << 16 |
         uint32_t(r.payload[3]) << 24;
}

void UartLink::csr_write(uint8_t reg, uint32_t value) {
  transact(uart::csr_write_request(reg, value), Command::CsrWrite, 4, "register write");
}

bool UartLink::csr_write_once(uint8_t reg, uint32_t value) {
  return transact(uart::csr_write_request(reg, value), Command::CsrWrite, 4, "register write", false).has_value();
}

void UartLink::mem_read(uint32_t addr, uint8_t* out, size_t len) {
  for (size_t done = 0; done < len;) {
    const uint16_t n = uint16_t(std::min(opts_.max_payload, len - done));
    const Reply r = *transact(uart::mem_read_request(uint32_t(addr + done), n), Command::MemRead, n, "memory read");
    std::copy(r.payload.begin(), r.payload.end(), out + done);
    done += n;
  }
}

void UartLink::mem_write(uint32_t addr, const uint8_t* data, size_t len) {
  for (size_t done = 0; done < len;) {
    const size_t n = std::min(opts_.max_payload, len - done);
    transact(uart::mem_write_request(uint32_t(addr + done), std::vector<uint8_t>(data + done, data + done + n)),
             Command::MemWrite, uint16_t(n), "memory write");
    done += n;
  }
}

}  // namespace tessera
