// SPDX-License-Identifier: Apache-2.0
#include "image/image.hpp"

#include <algorithm>
#include <cstring>

#include "isa/isa.hpp"
#include "util/file_io.hpp"
#include "util/hex.hpp"

namespace tessera {
namespace {

constexpr size_t kHeaderBytes = 40;
constexpr size_t kTotalBytesAt = 36;  // the header's total-length field
constexpr size_t kCrcBytes = 4;

class Writer {
 public:
  void u16(uint16_t v) { put(v, 2); }
  void u32(uint32_t v) { put(v, 4); }
  void u64(uint64_t v) { put(v, 8); }
  void bytes(const void* p, size_t n) {
    const uint8_t* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  }
  void pad4() {
    while (out.size() % 4) out.push_back(0);
  }
  std::vector<uint8_t> out;

 private:
  void put(uint64_t v, int n) {
    for (int i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
};

// Bounds-checked little-endian reader: every read past `end` is a clear error.
class Reader {
 public:
  Reader(const std::vector<uint8_t>& b, size_t end, std::string name)
      : b_(b), end_(end), name_(std::move(name)) {}
  uint64_t get(int n, const char* what) {
    need(n, what);
    uint64_t v = 0;
    for (int i = 0; i < n; ++i) v |= uint64_t{b_[pos_ + i]} << (8 * i);
    pos_ += n;
    return v;
  }
  const uint8_t* take(size_t n, const char* what) {
    need(n, what);
    const uint8_t* p = b_.data() + pos_;
    pos_ += n;
    return p;
  }
  void align4(const char* what) { take((4 - pos_ % 4) % 4, what); }
  void seek(size_t p) { pos_ = p; }
  size_t pos() const { return pos_; }

 private:
  void need(size_t n, const char* what) {
    if (n > end_ || pos_ > end_ - n) {
      throw ImageError(name_ + ": corrupt image: " + what + " runs past the end of the image");
    }
  }
  const std::vector<uint8_t>& b_;
  size_t end_;
  std::string name_;
  size_t pos_ = 0;
};

}  // namespace

const Symbol* Image::find_symbol(const std::string& name) const {
  for (const auto& s : symbols)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<uint8_t> serialize_image(const Image& img) {
  Writer w;
  w.bytes(kImageMagic, sizeof kImageMagic);
  w.u16(kImageVersionMajor);
  w.u16(kImageVersionMinor);
  w.u32(kHeaderBytes);
  w.u64(img.config_fingerprint);
  w.u32(img.entry);
  w.u32(static_cast<uint32_t>(img.sections.size()));
  w.u32(static_cast<uint32_t>(img.symbols.size()));
  w.u32(0);  // total size, patched below
  w.u16(static_cast<uint16_t>(img.config_summary.size()));
  w.bytes(img.config_summary.data(), img.config_summary.size());
  w.pad4();
  for (const auto& s : img.sections) {
    w.u32(static_cast<uint32_t>(s.kind));
    w.u32(s.addr);
    w.u32(static_cast<uint32_t>(s.bytes.size()));
    w.bytes(s.bytes.data(), s.bytes.size());
    w.pad4();
  }
  for (const auto& s : img.symbols) {
    if (s.name.size() > kMaxSymbolName)  // (its 16-bit length would wrap: a corrupt image)
      throw ImageError("symbol name of " + std::to_string(s.name.size()) + " bytes (at most " +
                       std::to_string(kMaxSymbolName) + "): '" + s.name.substr(0, 32) + "...'");
    w.u32(s.addr);
    w.u32(s.size);
    w.u16(static_cast<uint16_t>(s.name.size()));
    w.bytes(s.name.data(), s.name.size());
    w.pad4();
  }
  w.u32(0);  // (the checksum)
  reseal_image(w.out);
  return w.out;
}

void reseal_image(std::vector<uint8_t>& b) {
  if (b.size() < kHeaderBytes + kCrcBytes) return;
  const uint32_t total = static_cast<uint32_t>(b.size());
  for (int i = 0; i < 4; ++i) b[kTotalBytesAt + i] = static_cast<uint8_t>(total >> (8 * i));
  const uint32_t c = crc32(b.data(), b.size() - kCrcBytes);
  for (size_t i = 0; i < kCrcBytes; ++i) b[b.size() - kCrcBytes + i] = static_cast<uint8_t>(c >> (8 * i));
}

Image parse_image(const std::vector<uint8_t>& b, const std::string& name) {
  const size_t min_size = kHeaderBytes + 4 + kCrcBytes;
  if (b.size() < sizeof kImageMagic || std::memcmp(b.data(), kImageMagic, sizeof kImageMagic)) {
    throw ImageError(name + ": not a Tessera program image (bad magic)");
  }
  if (b.size() < min_size) {
    throw ImageError(name + ": truncated image: " + std::to_string(b.size()) +
                     " bytes, smaller than the " + std::to_string(min_size) + "-byte minimum");
  }
  Reader hdr(b, b.size(), name);
  hdr.seek(sizeof kImageMagic);
  const uint32_t major = static_cast<uint32_t>(hdr.get(2, "header"));
  const uint32_t minor = static_cast<uint32_t>(hdr.get(2, "header"));
  if (major != kImageVersionMajor) {
    throw ImageError(name + ": unsupported image version " + std::to_string(major) + "." +
                     std::to_string(minor) + " (this tool reads version " +
                     std::to_string(kImageVersionMajor) + ".x)");
  }
  const uint32_t header_bytes = static_cast<uint32_t>(hdr.get(4, "header"));
  Image img;
  img.config_fingerprint = hdr.get(8, "header");
  img.entry = static_cast<uint32_t>(hdr.get(4, "header"));
  const uint32_t nsec = static_cast<uint32_t>(hdr.get(4, "header"));
  const uint32_t nsym = static_cast<uint32_t>(hdr.get(4, "header"));
  const uint32_t total = static_cast<uint32_t>(hdr.get(4, "header"));
  if (b.size() < total) {
    throw ImageError(name + ": truncated image: " + std::to_string(b.size()) +
                     " bytes, the header says " + std::to_string(total));
  }
  if (b.size() > total) {
    throw ImageError(name + ": corrupt image: " + std::to_string(b.size() - total) +
                     " unexpected bytes after the end the header gives (" + std::to_string(total) +
                     ")");
  }
  if (header_bytes != kHeaderBytes) {
    throw ImageError(name + ": corrupt image: header size " + std::to_string(header_bytes) +
                     ", expected " + std::to_string(kHeaderBytes));
  }
  const size_t body_end = b.size() - kCrcBytes;
  uint32_t stored = 0;
  for (int i = 0; i < 4; ++i) stored |= uint32_t{b[body_end + i]} << (8 * i);
  const uint32_t computed = crc32(b.data(), body_end);
  if (stored != computed) {
    throw ImageError(name + ": checksum mismatch (stored " + hex(stored, 8) + ", computed " +
                     hex(computed, 8) + "): the image is corrupt");
  }

  Reader r(b, body_end, name);
  r.seek(kHeaderBytes);
  const size_t slen = r.get(2, "configuration summary");
  const uint8_t* s = r.take(slen, "configuration summary");
  img.config_summary.assign(reinterpret_cast<const char*>(s), slen);
  r.align4("configuration summary");
  for (uint32_t i = 0; i < nsec; ++i) {
    Section sec;
    const uint32_t kind = static_cast<uint32_t>(r.get(4, "section table"));
    if (kind != 1 && kind != 2) {
      throw ImageError(name + ": corrupt image: section " + std::to_string(i) + " has unknown kind " +
                       std::to_string(kind));
    }
    sec.kind = static_cast<SectionKind>(kind);
    sec.addr = static_cast<uint32_t>(r.get(4, "section table"));
    const size_t size = r.get(4, "section table");
    const uint8_t* p = r.take(size, "a section");
    sec.bytes.assign(p, p + size);
    r.align4("a section");
    img.sections.push_back(std::move(sec));
  }
  for (uint32_t i = 0; i < nsym; ++i) {
    Symbol sym;
    sym.addr = static_cast<uint32_t>(r.get(4, "symbol table"));
    sym.size = static_cast<uint32_t>(r.get(4, "symbol table"));
    const size_t n = r.get(2, "symbol table");
    if (n > kMaxSymbolName)  // (what no tool writes: serialize_image refuses it too)
      throw ImageError(name + ": corrupt image: symbol " + std::to_string(i) + "'s name is " + std::to_string(n) +
                       " bytes, at most " + std::to_string(kMaxSymbolName));
    const uint8_t* p = r.take(n, "a symbol name");
    sym.name.assign(reinterpret_cast<const char*>(p), n);
    r.align4("a symbol name");
    img.symbols.push_back(std::move(sym));
  }
  if (r.pos() != body_end) {
    throw ImageError(name + ": corrupt image: " + std::to_string(body_end - r.pos()) +
                     " bytes left over after the symbol table");
  }
  return img;
}

Image read_image_file(const std::string& path) {
  try {
    return parse_image(read_file_bytes(path), path);
  } catch (const FileError& e) {
    throw ImageError(path + ": cannot open image file (" + e.reason() + ")");
  }
}

void write_image_file(const std::string& path, const Image& img) {
  const std::vector<uint8_t> bytes = serialize_image(img);
  try {
    write_file(path, std::string(bytes.begin(), bytes.end()));
  } catch (const FileError& e) {
    throw ImageError(e.what());
  }
}

void check_image_fits(const Image& img, const Config& cfg, const std::string& name) {
  if (img.config_fingerprint != cfg.fingerprint()) {
    throw ImageError(name + ": image was built for another configuration (" + img.config_summary +
                     "), the device is " + cfg.summary());
  }
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  bool entry_in_text = false;
  for (const auto& s : img.sections) {
    const uint64_t end = uint64_t{s.addr} + s.bytes.size();
    if (end > cfg.dram_bytes) {
      throw ImageError(name + ": section at " + hex(s.addr, 8) + " (" +
                       std::to_string(s.bytes.size()) + " bytes) does not fit in device memory (" +
                       std::to_string(cfg.dram_bytes) + " bytes)");
    }
    if (s.kind == SectionKind::Text && img.entry >= s.addr && img.entry < end) entry_in_text = true;
    spans.emplace_back(s.addr, end);
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].first < spans[i - 1].second) {
      throw ImageError(name + ": sections overlap at " +
                       hex(static_cast<uint32_t>(spans[i].first), 8));
    }
  }
  if (img.entry % kInstrBytes != 0 || !entry_in_text) {
    throw ImageError(name + ": entry point " + hex(img.entry, 8) +
                     " is not an aligned address inside a text section");
  }
  for (const auto& sym : img.symbols) {
    if (uint64_t{sym.addr} + sym.size > cfg.dram_bytes) {
      throw ImageError(name + ": symbol '" + sym.name + "' lies outside device memory");
    }
  }
}

}  // namespace tessera
