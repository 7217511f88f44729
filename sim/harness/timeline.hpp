// SPDX-License-Identifier: Apache-2.0
// The instruction timeline: for every instruction, the cycle it left decode and the
// cycle it retired, by unit; written as Chrome trace-event JSON (one track per unit,
// one slice per instruction, the counters as counter tracks) that Perfetto and
// chrome://tracing open.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "isa/arch.hpp"

namespace tessera::sim {

struct TimelineEntry {
  uint32_t pc = 0;
  unsigned op = 0;
  int unit = -1;          // 0 DMA-in, 1 matrix, 2 activation, 3 DMA-out, -1 control (nop/sync/halt)
  uint64_t issue = 0;     // cycle it left decode
  uint64_t retire = 0;    // cycle it retired (== issue for control instructions)
  std::string text;       // disassembly
};

class Timeline {
 public:
  // Called once per cycle with the core's trace port.
  void observe(uint64_t cycle, bool issue, uint32_t pc, unsigned op, unsigned slot,
               uint64_t retire_mask, const std::string& text);
  const std::vector<TimelineEntry>& entries() const { return entries_; }
  // Instructions issued but not retired (for hang reports).
  std::vector<TimelineEntry> in_flight() const;
  std::string chrome_json(const Counters& counters) const;

 private:
  std::vector<TimelineEntry> entries_;
  std::map<unsigned, size_t> slot_entry_;  // scoreboard slot -> entry in flight
};

int unit_of_opcode(unsigned op);
// The disassembly of the instruction at pc in device memory: "?" past its end,
// "(illegal)" for a word that does not decode.
std::string instruction_text(const std::vector<uint8_t>& mem, uint32_t pc);
const char* unit_name(int unit);

}  // namespace tessera::sim
