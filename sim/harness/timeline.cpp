// SPDX-License-Identifier: Apache-2.0
#include "timeline.hpp"

#include <sstream>

#include "isa/isa.hpp"
#include "isa/legality.hpp"

namespace tessera::sim {

std::string instruction_text(const std::vector<uint8_t>& mem, uint32_t pc) {
  // (the core's pc of a tile of an rw or mmc carries the tile's index in its low bits)
  const uint32_t at = pc & ~(kInstrBytes - 1), tile = pc & (kInstrBytes - 1);
  if (uint64_t{at} + kInstrBytes > mem.size()) return "?";
  Instr in;
  if (decode(load_word(&mem[at]), in) != DecodeResult::Ok) return "(illegal)";
  if (in.tiles == 1) return format_instr(in);
  return format_instr(tile_of(in, tile)) + " (tile " + std::to_string(tile + 1) + " of " + std::to_string(in.tiles) + ")";
}

int unit_of_opcode(unsigned op) {
  switch (static_cast<Opcode>(op)) {
    case Opcode::RHM:
    case Opcode::RW: return 0;
    case Opcode::MMC: return 1;
    case Opcode::ACT: return 2;
    case Opcode::WHM: return 3;
    default: return -1;
  }
}

const char* unit_name(int unit) {
  static const char* names[] = {"DMA-in", "matrix", "activation", "DMA-out"};
  return unit >= 0 && unit < 4 ? names[unit] : "control";
}

void Timeline::observe(uint64_t cycle, bool issue, uint32_t pc, unsigned op, unsigned slot,
                       uint64_t retire_mask, const std::string& text) {
  // Retirements first: a slot freed this cycle may be taken again by this cycle's issue.
  for (unsigned s = 0; retire_mask >> s; ++s) {
    if (!((retire_mask >> s) & 1)) continue;
    auto it = slot_entry_.find(s);
    if (it == slot_entry_.end()) continue;
    entries_[it->second].retire = cycle;
    slot_entry_.erase(it);
  }
  if (!issue) return;
  TimelineEntry e{pc, op, unit_of_opcode(op), cycle, cycle, text};
  entries_.push_back(e);
  if (e.unit >= 0) slot_entry_[slot] = entries_.size() - 1;
}

std::vector<TimelineEntry> Timeline::in_flight() const {
  std::vector<TimelineEntry> out;
  for (const auto& [slot, i] : slot_entry_) out.push_back(entries_[i]);
  return out;
}

namespace {
std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o;
}
}  // namespace

std::string Timeline::chrome_json(const Counters& counters) const {
  // Times are cycles, written as microseconds (the format's unit): 1 us = 1 cycle.
  std::ostringstream j;
  j << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n";
  j << "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,\"args\":{\"name\":\"tessera core\"}}";
  for (int u = -1; u < 4; ++u)
    j << ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":" << u + 1
      << ",\"args\":{\"name\":\"" << unit_name(u) << "\"}}";
  uint64_t end = 0;
  for (const auto& e : entries_) {
    const uint64_t dur = e.retire > e.issue ? e.retire - e.issue : 1;
    end = std::max(end, e.issue + dur);
    j << ",\n{\"name\":\"" << json_escape(e.text) << "\",\"cat\":\"" << unit_name(e.unit)
      << "\",\"ph\":\"X\",\"pid\":0,\"tid\":" << e.unit + 1 << ",\"ts\":" << e.issue
      << ",\"dur\":" << dur << ",\"args\":{\"pc\":" << (e.pc & ~(kInstrBytes - 1)) << "}}";
  }
  for (const auto& [name, value] : counters.items())
    j << ",\n{\"name\":\"" << name << "\",\"ph\":\"C\",\"pid\":0,\"ts\":" << end
      << ",\"args\":{\"value\":" << value << "}}";
  j << "\n]}\n";
  return j.str();
}

}  // namespace tessera::sim
