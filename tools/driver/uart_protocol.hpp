// SPDX-License-Identifier: Apache-2.0
// The board's host-link protocol (rtl/tpu_uart_bridge.v): framed requests and replies
// with a checksum, as bytes. Used by the host side and by the bridge's tests.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace tessera::uart {

enum class Command : uint8_t { CsrRead = 1, CsrWrite = 2, MemRead = 3, MemWrite = 4 };
enum class Status : uint8_t { Ok = 0, Checksum = 1, UnknownCommand = 2, Range = 3, Bus = 4 };

constexpr uint8_t kRequestSync = 0x5a, kReplySync = 0xa5;

class ProtocolError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// 0x5A, cmd, addr (LE), len (LE), payload, sum (all bytes after the sync add to 0).
std::vector<uint8_t> encode_request(uint8_t cmd, uint32_t addr, uint16_t len, const std::vector<uint8_t>& payload);
std::vector<uint8_t> csr_read_request(uint8_t reg);
std::vector<uint8_t> csr_write_request(uint8_t reg, uint32_t value);
std::vector<uint8_t> mem_read_request(uint32_t addr, uint16_t len);
std::vector<uint8_t> mem_write_request(uint32_t addr, const std::vector<uint8_t>& data);

struct Reply {
  Status status = Status::Ok;
  std::vector<uint8_t> payload;
};

// The payload length of a successful reply to `cmd` with length field `len`.
size_t reply_payload_bytes(Command cmd, uint16_t len);

// A reply from the start of `bytes`: nullopt while incomplete; ProtocolError for a bad
// sync byte or checksum. An error status carries no payload.
std::optional<Reply> parse_reply(const std::vector<uint8_t>& bytes, size_t ok_payload_bytes);

const char* status_name(Status s);

}  // namespace tessera::uart
