// SPDX-License-Identifier: Apache-2.0
#include "asm/disassembler.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>

#include "asm/assembler.hpp"
#include "isa/isa.hpp"
#include "isa/legality.hpp"
#include "util/hex.hpp"

namespace tessera {
namespace {

// Labels by address, each printed once. In source, a label goes into a section (or an
// empty segment, [addr, addr]) only with the size the assembler would give it there: up
// to the next label further on in the section, or its end (so size 0 at the end). That
// is what tells a data label from a text label at the same address.
struct Span {
  uint64_t begin, end;
};
class Labels {
 public:
  explicit Labels(const Image& img) {
    for (const auto& s : img.symbols) by_addr_.emplace(s.addr, &s);
  }
  void print(std::string& out, uint32_t addr, std::optional<Span> in = std::nullopt) {
    uint64_t size = 0;
    if (in) {
      const auto next = by_addr_.upper_bound(addr);
      size = (next != by_addr_.end() && next->first <= in->end ? next->first : in->end) - addr;
    }
    auto range = by_addr_.equal_range(addr);
    for (auto it = range.first; it != range.second; ++it) {
      const Symbol& s = *it->second;
      if ((in && s.size != size) || printed_.count(s.name)) continue;
      printed_.insert(s.name);
      out += s.name + ":\n";
    }
  }
  bool any_at(uint32_t addr) const { return by_addr_.count(addr) != 0; }
  const Symbol* first_unprinted() const {
    for (const auto& [addr, s] : by_addr_)
      if (!printed_.count(s->name)) return s;
    return nullptr;
  }

 private:
  std::multimap<uint32_t, const Symbol*> by_addr_;
  std::set<std::string> printed_;
};

// Where two images first differ, in words.
std::string first_difference(const Image& want, const Image& got) {
  if (want.entry != got.entry) return "the entry point " + hex(want.entry, 8) + " becomes " + hex(got.entry, 8);
  for (size_t i = 0; i < std::max(want.sections.size(), got.sections.size()); ++i) {
    if (i >= want.sections.size() || i >= got.sections.size()) return "the number of sections differs";
    const Section &a = want.sections[i], &b = got.sections[i];
    if (a.kind != b.kind || a.addr != b.addr || a.bytes != b.bytes)
      return "section " + std::to_string(i) + " at " + hex(a.addr, 8) + " (" + std::to_string(a.bytes.size()) +
             " bytes) becomes one at " + hex(b.addr, 8) + " (" + std::to_string(b.bytes.size()) + " bytes)";
  }
  for (size_t i = 0; i < std::max(want.symbols.size(), got.symbols.size()); ++i) {
    if (i >= want.symbols.size() || i >= got.symbols.size()) return "the number of symbols differs";
    const Symbol &a = want.symbols[i], &b = got.symbols[i];
    if (a.name != b.name || a.addr != b.addr || a.size != b.size)
      return "symbol " + std::to_string(i) + " '" + a.name.substr(0, 64) + "' at " + hex(a.addr, 8) + " (size " +
             std::to_string(a.size) + ") becomes '" + b.name.substr(0, 64) + "' at " + hex(b.addr, 8) + " (size " +
             std::to_string(b.size) + ")";
  }
  return "the headers differ";
}

void check_reassembles(const std::string& source, const Image& img, const Config& cfg) {
  const AsmResult back = assemble_source(source, "disassembly", ".", cfg);
  if (!back.image)
    throw DisasmError("the image cannot be written as source: its disassembly does not assemble (" +
                      back.diags.items().front().format() + ")");
  if (serialize_image(*back.image) != serialize_image(img))
    throw DisasmError("the image cannot be written as source that reassembles to it (not one the assembler made?): " +
                      first_difference(img, *back.image));
}

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
  // Labels in a segment with no bytes (the assembler keeps them; the image has no
  // section there): the empty text segment's at the entry point, the data segment's after.
  const auto has = [&](SectionKind k) {
    return std::any_of(img.sections.begin(), img.sections.end(), [&](const Section& s) { return s.kind == k; });
  };
  if (!has(SectionKind::Text)) {
    out += ".text " + hex(img.entry, 8) + "\n";
    labels.print(out, img.entry, Span{img.entry, img.entry});
  }
  for (const auto& s : img.sections) {
    const bool text = s.kind == SectionKind::Text;
    const Span span{s.addr, uint64_t{s.addr} + s.bytes.size()};
    out += std::string(text ? ".text " : ".data ") + hex(s.addr, 8) + "\n";
    size_t off = 0;
    while (off < s.bytes.size()) {
      const uint32_t addr = s.addr + static_cast<uint32_t>(off);
      labels.print(out, addr, span);
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
    labels.print(out, s.addr + static_cast<uint32_t>(s.bytes.size()), span);
  }
  if (!has(SectionKind::Data))
    if (const Symbol* orphan = labels.first_unprinted()) {
      out += ".data " + hex(orphan->addr, 8) + "\n";
      labels.print(out, orphan->addr, Span{orphan->addr, orphan->addr});
    }
  if (cfg && cfg->fingerprint() == img.config_fingerprint) check_reassembles(out, img, *cfg);
  return out;
}

}  // namespace tessera
