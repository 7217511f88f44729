// SPDX-License-Identifier: Apache-2.0
// The instruction set as data: one table of opcodes and bit fields from which the
// encoder, decoder, assembler, disassembler, golden model and Verilog header all come.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

constexpr unsigned kInstrBytes = 16;  // every instruction is 128 bits, little-endian
constexpr unsigned kInstrBits = 128;
constexpr unsigned kOpcodeBits = 4;   // bits [3:0]

using Word = unsigned __int128;

enum class Opcode : uint8_t { NOP = 0, HALT = 1, SYNC = 2, RHM = 3, WHM = 4, RW = 5, MMC = 6, ACT = 7 };

// A decoded instruction. Fields an opcode does not have stay zero.
struct Instr {
  Opcode op = Opcode::NOP;
  int64_t ub = 0, rows = 0, addr = 0, stride = 0, segstride = 0, seglen = 0, segs = 0, len = 0;
  int64_t k = 0, n = 0, acc = 0, params = 0, zp = 0, pool = 0;
  int64_t transpose = 0, accumulate = 0, sw = 0, relu = 0;  // flags: 0 or 1
  // rw and mmc repeat over `tiles` tiles (docs/isa.md): tile t at addr + t*tstride
  // (rw), ub + t*ubstride and acc + t*accstride (mmc). One tile for every other opcode.
  int64_t tiles = 1, tstride = 0, ubstride = 0, accstride = 0;
  // whm writes `groups` groups of `rows` consecutive UB rows: group g at addr + g*gstride.
  // One group for every other opcode.
  int64_t groups = 1, gstride = 0;
  bool operator==(const Instr& o) const;
};

enum class FieldKind { Unsigned, Signed, Flag };

struct FieldSpec {
  const char* name;   // assembler keyword
  unsigned lsb;       // bit position in the 128-bit word
  unsigned width;
  FieldKind kind;
  int64_t bias;       // encoded = value - bias (counts store value - 1 so zero is never illegal)
  int64_t Instr::*member;
  enum Default { Required, Zero, One, ArraySize } deflt;
  const char* doc;
  bool listed_at_default = true;  // false: format_instr leaves it out at its default

  int64_t min_value() const;
  int64_t max_value() const;
  // The default that does not depend on the configuration: Zero 0, One 1; else none.
  std::optional<int64_t> fixed_default() const;
};

struct OpSpec {
  Opcode op;
  const char* mnemonic;
  const char* summary;
  std::vector<FieldSpec> fields;
};

const std::vector<OpSpec>& isa_table();
const OpSpec* find_op(Opcode op);
const OpSpec* find_op(std::string_view mnemonic);
const FieldSpec* find_field(const OpSpec& spec, std::string_view name);

// Bits an opcode does not use: they must be zero in a legal instruction.
Word reserved_mask(const OpSpec& spec);

// Fields must be within min_value()..max_value(); throws std::out_of_range otherwise
// ("rhm: rows=70000 outside 1..65536").
Word encode(const Instr& in);

enum class DecodeResult { Ok, ReservedOpcode, ReservedBits };
DecodeResult decode(Word w, Instr& out);

Word load_word(const uint8_t* bytes);
void store_word(Word w, uint8_t* bytes);
uint64_t extract_bits(Word w, unsigned lsb, unsigned width);
std::string word_hex(Word w);  // 32 hex digits, most significant first

// "mmc ub=0, rows=16, acc=0, accumulate": every field, so it reassembles exactly.
std::string format_instr(const Instr& in);

}  // namespace tessera
