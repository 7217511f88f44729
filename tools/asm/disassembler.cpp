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

// Labels by address, each printed once.
class Labels {
 public:
  explicit Labels(const std::vector<const Symbol*>& symbols) {
    for (const Symbol* s : symbols) by_addr_.emplace(s->addr, s);
  }
  explicit Labels(const Image& img) : Labels(pointers(img.symbols)) {}
  void print(std::string& out, uint32_t addr) {
    auto range = by_addr_.equal_range(addr);
    for (auto it = range.first; it != range.second; ++it)
      if (printed_.insert(it->second->name).second) out += it->second->name + ":\n";
  }
  bool any_at(uint32_t addr) const { return by_addr_.count(addr) != 0; }
  bool any_inside(uint64_t begin, uint64_t end) const {  // strictly between the two
    const auto next = by_addr_.upper_bound(uint32_t(begin));
    return next != by_addr_.end() && next->first > begin && next->first < end;
  }
  static std::vector<const Symbol*> pointers(const std::vector<Symbol>& symbols) {
    std::vector<const Symbol*> p;
    for (const Symbol& s : symbols) p.push_back(&s);
    return p;
  }

 private:
  std::multimap<uint32_t, const Symbol*> by_addr_;
  std::set<std::string> printed_;
};

// A segment as source writes it: its section (none when it has no bytes), the addresses
// its labels may take, and its labels.
struct SourceSegment {
  const Section* section = nullptr;
  uint64_t begin = 0, end = 0;
  std::vector<const Symbol*> labels;
};

// Whether labels (in table order) are what the assembler writes for a segment spanning
// [begin, end]: by address, each sized to the next label further on or the end.
bool labels_fit(const std::vector<const Symbol*>& labels, uint64_t begin, uint64_t end) {
  for (size_t i = 0; i < labels.size(); ++i) {
    const uint64_t a = labels[i]->addr;
    if (a < begin || a > end || (i > 0 && a < labels[i - 1]->addr)) return false;
    size_t next = i + 1;
    while (next < labels.size() && labels[next]->addr == a) ++next;
    if (labels[i]->size != (next < labels.size() ? labels[next]->addr : end) - a) return false;
  }
  return true;
}

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

// Empty when `source` assembles to exactly `img`; otherwise what differs.
std::string reassembly_mismatch(const std::string& source, const Image& img, const Config& cfg) {
  const AsmResult back = assemble_source(source, "disassembly", ".", cfg);
  if (!back.image) return "its disassembly does not assemble (" + back.diags.items().front().format() + ")";
  if (serialize_image(*back.image) != serialize_image(img)) return first_difference(img, *back.image);
  return "";
}

// Text words that do not decode are written as .word so the source still reassembles.
std::string word_as_source(Word w) {
  std::string s = ".word ";
  for (int i = 0; i < 4; ++i) s += (i ? ", " : "") + hex(static_cast<uint32_t>(w >> (32 * i)), 8);
  return s;
}

std::string segment_source(const SourceSegment& seg, bool text, uint32_t addr, const std::optional<Config>& cfg) {
  auto assembles = [&](const Instr& in) { return !cfg || check_static(in, *cfg).code == ErrorCode::None; };
  std::string out = std::string(text ? ".text " : ".data ") + hex(addr, 8) + "\n";
  Labels labels(seg.labels);
  const std::vector<uint8_t> none;
  const std::vector<uint8_t>& bytes = seg.section ? seg.section->bytes : none;
  size_t off = 0;
  while (off < bytes.size()) {
    labels.print(out, addr + static_cast<uint32_t>(off));
    // An instruction: a whole aligned word in the text with no label inside it.
    if (text && off % kInstrBytes == 0 && off + kInstrBytes <= bytes.size() &&
        !labels.any_inside(addr + uint64_t(off), addr + uint64_t(off) + kInstrBytes)) {
      const Word w = load_word(&bytes[off]);
      Instr in;
      out += "  " + (decode(w, in) == DecodeResult::Ok && assembles(in) ? format_instr(in) : word_as_source(w));
      out += "\n";
      off += kInstrBytes;
      continue;
    }
    // Data: up to 16 bytes a line, never running across a label (nor, in the text,
    // across a word boundary, where an instruction may start).
    out += "  .byte ";
    const size_t start = off;
    do {
      out += (off > start ? ", " : "") + std::to_string(bytes[off]);
      ++off;
    } while (off < bytes.size() && off - start < 16 && !labels.any_at(addr + uint32_t(off)) &&
             !(text && off % kInstrBytes == 0));
    out += "\n";
  }
  labels.print(out, addr + static_cast<uint32_t>(bytes.size()));
  return out;
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
  const std::string header = "; disassembled from an image built for " + img.config_summary + "\n";
  // The configuration the image was built for: an instruction the assembler would refuse
  // there (a range outside a buffer, lanes beyond N) is written as .word too.
  const std::optional<Config> cfg = config_from_summary(img.config_summary);
  SourceSegment text, data;
  for (const Section& s : img.sections) {
    SourceSegment& seg = s.kind == SectionKind::Text ? text : data;
    if (seg.section) throw DisasmError("the image cannot be written as source: it has two sections of one kind");
    seg.section = &s;
    seg.begin = s.addr, seg.end = uint64_t{s.addr} + s.bytes.size();
  }
  if (!text.section) text.begin = text.end = img.entry;  // (an empty text segment: its labels at the entry)
  // The symbol table lists the text segment's labels, then the data segment's: try each
  // split that fits both, the first that reassembles to the image wins.
  const std::vector<const Symbol*> all = Labels::pointers(img.symbols);
  std::string why = "its symbol table is not one the assembler writes (text labels, then data labels, each by "
                    "address and sized to the next)";
  for (size_t k = 0; k <= all.size(); ++k) {
    text.labels.assign(all.begin(), all.begin() + k);
    data.labels.assign(all.begin() + k, all.end());
    if (!data.section && !data.labels.empty()) data.begin = data.end = data.labels[0]->addr;
    if (!labels_fit(text.labels, text.begin, text.end) || !labels_fit(data.labels, data.begin, data.end)) continue;
    std::string out = header + segment_source(text, true, uint32_t(text.begin), cfg);
    if (data.section || !data.labels.empty()) out += segment_source(data, false, uint32_t(data.begin), cfg);
    if (!cfg || cfg->fingerprint() != img.config_fingerprint) return out;  // (nothing to check it against)
    const std::string mismatch = reassembly_mismatch(out, img, *cfg);
    if (mismatch.empty()) return out;
    why = mismatch;
  }
  throw DisasmError("the image cannot be written as source that reassembles to it (not one the assembler made?): " + why);
}

}  // namespace tessera
