// SPDX-License-Identifier: Apache-2.0
#include <cstdio>
#include <stdexcept>

#include "isa/isa.hpp"
#include "util/hex.hpp"

namespace tessera {

bool Instr::operator==(const Instr& o) const {
  return op == o.op && ub == o.ub && rows == o.rows && addr == o.addr && stride == o.stride &&
         segstride == o.segstride && seglen == o.seglen && segs == o.segs && len == o.len &&
         k == o.k && n == o.n && tiles == o.tiles && tstride == o.tstride &&
         ubstride == o.ubstride && accstride == o.accstride && groups == o.groups && gstride == o.gstride && acc == o.acc && params == o.params && zp == o.zp &&
         pool == o.pool && transpose == o.transpose && accumulate == o.accumulate && sw == o.sw &&
         relu == o.relu;
}

int64_t FieldSpec::min_value() const {
  if (kind == FieldKind::Signed) return -(int64_t{1} << (width - 1));
  return bias;
}

int64_t FieldSpec::max_value() const {
  if (kind == FieldKind::Signed) return (int64_t{1} << (width - 1)) - 1;
  return bias + (int64_t{1} << width) - 1;
}

std::optional<int64_t> FieldSpec::fixed_default() const {
  if (deflt == Zero) return 0;
  if (deflt == One) return 1;
  return std::nullopt;
}

const OpSpec* find_op(Opcode op) {
  for (const auto& s : isa_table())
    if (s.op == op) return &s;
  return nullptr;
}

const OpSpec* find_op(std::string_view mnemonic) {
  for (const auto& s : isa_table())
    if (mnemonic == s.mnemonic) return &s;
  return nullptr;
}

const FieldSpec* find_field(const OpSpec& spec, std::string_view name) {
  for (const auto& f : spec.fields)
    if (name == f.name) return &f;
  return nullptr;
}

static Word field_mask(unsigned lsb, unsigned width) {
  Word ones = (width >= 128) ? ~Word{0} : ((Word{1} << width) - 1);
  return ones << lsb;
}

Word reserved_mask(const OpSpec& spec) {
  Word used = field_mask(0, kOpcodeBits);
  for (const auto& f : spec.fields) used |= field_mask(f.lsb, f.width);
  return ~used;
}

uint64_t extract_bits(Word w, unsigned lsb, unsigned width) {
  return static_cast<uint64_t>((w >> lsb) & ((Word{1} << width) - 1));
}

Word encode(const Instr& in) {
  const OpSpec* spec = find_op(in.op);
  if (!spec) throw std::out_of_range("encode: unknown opcode");
  Word w = static_cast<Word>(static_cast<uint8_t>(in.op));
  for (const auto& f : spec->fields) {
    int64_t v = in.*(f.member);
    if (v < f.min_value() || v > f.max_value()) {
      throw std::out_of_range(std::string(spec->mnemonic) + ": " + f.name + "=" + std::to_string(v) + " outside " +
                              std::to_string(f.min_value()) + ".." + std::to_string(f.max_value()));
    }
    uint64_t raw = static_cast<uint64_t>(v - f.bias) & ((uint64_t{1} << f.width) - 1);
    w |= static_cast<Word>(raw) << f.lsb;
  }
  return w;
}

DecodeResult decode(Word w, Instr& out) {
  out = Instr{};
  const OpSpec* spec = find_op(static_cast<Opcode>(extract_bits(w, 0, kOpcodeBits)));
  if (!spec) return DecodeResult::ReservedOpcode;
  out.op = spec->op;
  for (const auto& f : spec->fields) {
    uint64_t raw = extract_bits(w, f.lsb, f.width);
    int64_t v = static_cast<int64_t>(raw);
    if (f.kind == FieldKind::Signed && (raw >> (f.width - 1)) != 0) v -= int64_t{1} << f.width;
    out.*(f.member) = v + f.bias;
  }
  return (w & reserved_mask(*spec)) != 0 ? DecodeResult::ReservedBits : DecodeResult::Ok;
}

Word load_word(const uint8_t* bytes) {
  Word w = 0;
  for (int i = kInstrBytes - 1; i >= 0; --i) w = (w << 8) | bytes[i];
  return w;
}

void store_word(Word w, uint8_t* bytes) {
  for (unsigned i = 0; i < kInstrBytes; ++i) bytes[i] = static_cast<uint8_t>(w >> (8 * i));
}

std::string word_hex(Word w) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(w >> 64),
                static_cast<unsigned long long>(w));
  return buf;
}

std::string format_instr(const Instr& in) {
  const OpSpec* spec = find_op(in.op);
  if (!spec) return "<illegal>";
  std::string s = spec->mnemonic;
  bool first = true;
  for (const auto& f : spec->fields) {
    int64_t v = in.*(f.member);
    if (!f.listed_at_default && f.fixed_default() == v) continue;
    std::string item;
    if (f.kind == FieldKind::Flag) {
      if (!v) continue;
      item = f.name;
    } else if (std::string_view(f.name) == "addr") {  // device addresses read best in hex
      item = std::string(f.name) + "=" + hex(static_cast<uint64_t>(v));
    } else {
      item = std::string(f.name) + "=" + std::to_string(v);
    }
    s += (first ? " " : ", ") + item;
    first = false;
  }
  return s;
}

}  // namespace tessera
