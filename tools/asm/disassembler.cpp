// SPDX-License-Identifier: Apache-2.0
#include "asm/disassembler.hpp"

#include <cstdio>
#include <map>
#include <set>

#include "isa/isa.hpp"
#include "isa/legality.hpp"
#include "util/hex.hpp"

namespace tessera {
namespace {

// Labels by address, each printed once: where it is in a section or, at a section's end
// (source only), with size 0 (where the assembler puts a label after a segment's last
// content).
class Labels {
 public:
  explicit Labels(const Image& img) {
    for (const auto& s : img.symbols) by_addr_.emplace(s.addr, &s);
  }
  void print(std::string& out, uint32_t addr, bool section_end = false) {
    auto range = by_addr_.equal_range(addr);
    for (auto it = range.first; it != range.second; ++it) {
      const Symbol& s = *it->second;
      if ((section_end && s.size != 0) || !printed_.insert(s.name).second) continue;
      out += s.name + ":\n";
    }
  }
  bool any_at(uint32_t addr) const { return by_addr_.count(addr) != 0; }

 private:
  std::multimap<uint32_t, const Symbol*> by_addr_;
  std::set<std::string> printed_;
};

// Text words that do not decode are written as .word so the source still reassembles.
std::string word_as_source(Word w) {
  std::string s = ".word ";
  for (int i = 0; i < 4; ++i) s += (i ? ", " : "") + hex(static_cast<uint32_t>(w >> (32 * i)), 8);
  return s;
}

}  // namespace

std::string disassemble_listing(const Image& img) {
  std::string out;
  out += "image: entry " + hex(img.entry, 8) + ", built for " + img.config_summary + "\n";
  out += "fingerprint: " + hex(img.config_fingerprint, 16) + "\n\nsections:\n";
  for (const auto& s : img.sections)
    out += std::string("  ") + (s.kind == SectionKind::Text ? ".text" : ".data") + "  " +
           hex(s.addr, 8) + "  " + std::to_string(s.bytes.size()) + " bytes\n";
  out += "\nsymbols:\n";
  for (const auto& s : img.symbols)
    out += "  " + hex(s.addr, 8) + "  " + std::to_string(s.size) + "  " + s.name + "\n";
  Labels labels(img);
  for (const auto& s : img.sections) {
    if (s.kind != SectionKind::Text) continue;
    out += "\ndisassembly of .text at " + hex(s.addr, 8) + ":\n";
    for (size_t off = 0; off + kInstrBytes <= s.bytes.size(); off += kInstrBytes) {
      const uint32_t addr = s.addr + static_cast<uint32_t>(off);
      labels.print(out, addr);
      const Word w = load_word(&s.bytes[off]);
      Instr in;
      const DecodeResult r = decode(w, in);
      const std::string text = r == DecodeResult::Ok ? format_instr(in)
                               : r == DecodeResult::ReservedOpcode ? "<illegal: reserved opcode>"
                                                                   : "<illegal: reserved bits set>";
      out += "  " + hex(addr, 8) + ":  " + word_hex(w) + "  " + text + "\n";
    }
  }
  return out;
}

std::string disassemble_source(const Image& img) {
  std::string out = "; disassembled from an image built for " + img.config_summary + "\n";
  Labels labels(img);
  // The configuration the image was built for: an instruction the assembler would refuse
  // there (a range outside a buffer, lanes beyond N) is written as .word too.
  const std::optional<Config> cfg = config_from_summary(img.config_summary);
  auto assembles = [&](const Instr& in) { return !cfg || check_static(in, *cfg).code == ErrorCode::None; };
  for (const auto& s : img.sections) {
    const bool text = s.kind == SectionKind::Text;
    out += std::string(text ? ".text " : ".data ") + hex(s.addr, 8) + "\n";
    size_t off = 0;
    while (off < s.bytes.size()) {
      const uint32_t addr = s.addr + static_cast<uint32_t>(off);
      labels.print(out, addr);
      if (text && off + kInstrBytes <= s.bytes.size()) {
        const Word w = load_word(&s.bytes[off]);
        Instr in;
        out += "  " + (decode(w, in) == DecodeResult::Ok && assembles(in) ? format_instr(in) : word_as_source(w));
        out += "\n";
        off += kInstrBytes;
        continue;
      }
      // Data: up to 16 bytes a line, never running across a label.
      out += "  .byte ";
      const size_t start = off;
      do {
        out += (off > start ? ", " : "") + std::to_string(s.bytes[off]);
        ++off;
      } while (off < s.bytes.size() && off - start < 16 && !labels.any_at(s.addr + uint32_t(off)));
      out += "\n";
    }
    labels.print(out, s.addr + static_cast<uint32_t>(s.bytes.size()), true);
  }
  return out;
}

}  // namespace tessera
