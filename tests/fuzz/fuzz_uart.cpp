// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the host's decoder of the board's UART replies. The first three bytes
// choose the request (command, length field); the rest arrives from the "board" one
// byte at a time, as the link reads it. The decoder waits, refuses (ProtocolError) or
// returns one reply whose payload is as long as the request's answer, and more bytes
// after a complete reply never change it.
#include <cstdint>
#include <optional>
#include <vector>

#include "driver/uart_protocol.hpp"
#include "fuzz_check.hpp"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const auto cmd = uart::Command(1 + data[0] % 4);
  const uint16_t len = uint16_t(data[1] | data[2] << 8);
  const size_t ok_bytes = uart::reply_payload_bytes(cmd, len);
  std::vector<uint8_t> stream;
  std::optional<uart::Reply> first;
  for (size_t i = 3; i < size; ++i) {
    stream.push_back(data[i]);
    std::optional<uart::Reply> r;
    try {
      r = uart::parse_reply(stream, ok_bytes);
    } catch (const uart::ProtocolError& e) {
      FUZZ_CHECK(!first, "bytes after a complete reply do not make it corrupt");
      FUZZ_CHECK(*e.what() != '\0', "a refusal says why");
      return 0;
    }
    if (first) {
      FUZZ_CHECK(r && r->status == first->status && r->payload == first->payload, "a complete reply stays the same");
      continue;
    }
    if (!r) continue;
    first = r;
    FUZZ_CHECK(r->payload.size() == (r->status == uart::Status::Ok ? ok_bytes : 0), "the payload has the answer's length");
    FUZZ_CHECK(uart::status_name(r->status) != nullptr, "a status has a name");
  }
  return 0;
}
