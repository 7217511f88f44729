// SPDX-License-Identifier: Apache-2.0
#include "driver/uart_protocol.hpp"

namespace tessera::uart {

std::vector<uint8_t> encode_request(uint8_t cmd, uint32_t addr, uint16_t len, const std::vector<uint8_t>& payload) {
  std::vector<uint8_t> f = {kRequestSync, cmd};
  for (int s = 0; s < 32; s += 8) f.push_back(uint8_t(addr >> s));
  f.push_back(uint8_t(len));
  f.push_back(uint8_t(len >> 8));
  f.insert(f.end(), payload.begin(), payload.end());
  uint8_t sum = 0;
  for (size_t i = 1; i < f.size(); ++i) sum = uint8_t(sum + f[i]);
  f.push_back(uint8_t(-sum));
  return f;
}

std::vector<uint8_t> csr_read_request(uint8_t reg) { return encode_request(uint8_t(Command::CsrRead), reg, 0, {}); }

std::vector<uint8_t> csr_write_request(uint8_t reg, uint32_t value) {
  return encode_request(uint8_t(Command::CsrWrite), reg, 4,
                        {uint8_t(value), uint8_t(value >> 8), uint8_t(value >> 16), uint8_t(value >> 24)});
}

std::vector<uint8_t> mem_read_request(uint32_t addr, uint16_t len) {
  return encode_request(uint8_t(Command::MemRead), addr, len, {});
}

std::vector<uint8_t> mem_write_request(uint32_t addr, const std::vector<uint8_t>& data) {
  if (data.empty() || data.size() > 0xffff) throw ProtocolError("a memory write carries 1..65535 bytes");
  return encode_request(uint8_t(Command::MemWrite), addr, uint16_t(data.size()), data);
}

size_t reply_payload_bytes(Command cmd, uint16_t len) {
  return cmd == Command::CsrRead ? 4 : cmd == Command::MemRead ? len : 0;
}

std::optional<Reply> parse_reply(const std::vector<uint8_t>& bytes, size_t ok_payload_bytes) {
  if (bytes.empty()) return std::nullopt;
  if (bytes[0] != kReplySync) throw ProtocolError("reply does not start with 0xa5");
  if (bytes.size() < 2) return std::nullopt;
  Reply r;
  r.status = Status(bytes[1]);
  const size_t payload = r.status == Status::Ok ? ok_payload_bytes : 0;
  if (bytes.size() < 3 + payload) return std::nullopt;
  uint8_t sum = 0;
  for (size_t i = 1; i < 3 + payload; ++i) sum = uint8_t(sum + bytes[i]);
  if (sum != 0) throw ProtocolError("reply checksum mismatch");
  r.payload.assign(bytes.begin() + 2, bytes.begin() + 2 + long(payload));
  return r;
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Ok: return "OK";
    case Status::Checksum: return "checksum error";
    case Status::UnknownCommand: return "unknown command";
    case Status::Range: return "address or length out of range";
    case Status::Bus: return "bus error";
  }
  return "unknown status";
}

}  // namespace tessera::uart
