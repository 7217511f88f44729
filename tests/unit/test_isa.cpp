// SPDX-License-Identifier: Apache-2.0
// The ISA table: encodings do not overlap, every field round-trips, reserved bits
// and opcodes are rejected, and the generated Verilog header and docs are in step.
#include <catch2/catch.hpp>
#include <set>

#include "helpers.hpp"
#include "util/file_io.hpp"
#include "isa/csr_map.hpp"
#include "isa/isa.hpp"
#include "isa/isa_gen.hpp"

using namespace tessera;

namespace {

Word field_bits(const FieldSpec& f) { return ((Word{1} << f.width) - 1) << f.lsb; }

}  // namespace

TEST_CASE("opcodes are distinct and fields never overlap each other or the opcode", "[isa]") {
  std::set<int> opcodes;
  std::set<std::string> mnemonics;
  for (const auto& op : isa_table()) {
    INFO(op.mnemonic);
    CHECK(opcodes.insert(static_cast<int>(op.op)).second);
    CHECK(mnemonics.insert(op.mnemonic).second);
    CHECK(static_cast<int>(op.op) < (1 << kOpcodeBits));
    Word used = (Word{1} << kOpcodeBits) - 1;
    std::set<std::string> names;
    for (const auto& f : op.fields) {
      INFO(f.name);
      CHECK(f.lsb + f.width <= kInstrBits);
      CHECK((used & field_bits(f)) == 0);
      used |= field_bits(f);
      CHECK(names.insert(f.name).second);
      CHECK(f.width >= 1);
      CHECK(f.member != nullptr);
    }
    CHECK((reserved_mask(op) & used) == 0);
    CHECK((reserved_mask(op) | used) == ~Word{0});
  }
}

TEST_CASE("no two instructions decode from the same word", "[isa]") {
  // An encoding is identified by its opcode bits; decode must pick exactly one table row.
  for (const auto& a : isa_table())
    for (const auto& b : isa_table())
      if (&a != &b) CHECK(a.op != b.op);
  for (int opc = 0; opc < 16; ++opc) {
    Instr in;
    const DecodeResult r = decode(Word(opc), in);
    if (find_op(static_cast<Opcode>(opc))) {
      CHECK(r == DecodeResult::Ok);
      CHECK(static_cast<int>(in.op) == opc);
    } else {
      CHECK(r == DecodeResult::ReservedOpcode);
    }
  }
}

TEST_CASE("every field round-trips through encode and decode", "[isa]") {
  std::mt19937_64 rng(test::test_seed());
  for (const auto& op : isa_table()) {
    for (int trial = 0; trial < 2000; ++trial) {
      Instr in;
      in.op = op.op;
      for (const auto& f : op.fields) {
        std::uniform_int_distribution<int64_t> d(f.min_value(), f.max_value());
        const int pick = trial % 4;  // min, max, random, random
        in.*(f.member) = pick == 0 ? f.min_value() : pick == 1 ? f.max_value() : d(rng);
        if (f.kind == FieldKind::Flag) in.*(f.member) = d(rng);
      }
      Instr out;
      REQUIRE(decode(encode(in), out) == DecodeResult::Ok);
      REQUIRE(out == in);
      uint8_t bytes[kInstrBytes];
      store_word(encode(in), bytes);
      REQUIRE(load_word(bytes) == encode(in));
    }
  }
}

TEST_CASE("each field lands in its documented bits", "[isa]") {
  for (const auto& op : isa_table())
    for (const auto& f : op.fields) {
      INFO(op.mnemonic << "." << f.name);
      Instr in;
      in.op = op.op;
      for (const auto& g : op.fields) in.*(g.member) = g.min_value();
      const Word base = encode(in);
      in.*(f.member) = f.min_value() + 1;  // raw field value becomes 1 (or -bias+1)
      const Word diff = encode(in) ^ base;
      CHECK(diff == (Word{1} << f.lsb));
    }
}

TEST_CASE("every reserved bit of every opcode makes the word illegal", "[isa]") {
  for (const auto& op : isa_table()) {
    Instr in;
    in.op = op.op;
    for (const auto& f : op.fields) in.*(f.member) = f.min_value();
    const Word legal = encode(in);
    const Word rsvd = reserved_mask(op);
    for (unsigned bit = 0; bit < kInstrBits; ++bit) {
      if (!((rsvd >> bit) & 1)) continue;
      Instr out;
      CHECK(decode(legal | (Word{1} << bit), out) == DecodeResult::ReservedBits);
    }
  }
}

TEST_CASE("encode refuses values outside a field", "[isa]") {
  Instr in;
  in.op = Opcode::MMC;
  in.rows = 0;  // rows is stored minus one: 1..65536
  CHECK_THROWS_AS(encode(in), std::out_of_range);
  in.rows = 65537;
  CHECK_THROWS_AS(encode(in), std::out_of_range);
  in.rows = 65536;
  CHECK_NOTHROW(encode(in));
}

TEST_CASE("format_instr prints text that names every operand", "[isa]") {
  Instr in;
  in.op = Opcode::MMC;
  in.ub = 3, in.rows = 7, in.acc = 9, in.sw = 1;
  CHECK(format_instr(in) == "mmc switch, ub=3, rows=7, acc=9");
}

TEST_CASE("rtl/tpu_isa.vh is the generated header", "[isa]") {
  CHECK(read_file_text(test::source_path("rtl/tpu_isa.vh")) == generate_verilog_header());
}

TEST_CASE("docs/isa.md carries the generated encoding tables", "[isa]") {
  const std::string doc = read_file_text(test::source_path("docs/isa.md"));
  CHECK(doc.find(generate_markdown_tables()) != std::string::npos);
}

TEST_CASE("docs/architecture.md carries the generated CSR map", "[isa]") {
  const std::string doc = read_file_text(test::source_path("docs/architecture.md"));
  CHECK(doc.find(generate_csr_markdown()) != std::string::npos);
}

TEST_CASE("the CSR map's registers are word-aligned, distinct and below the counters", "[isa]") {
  std::set<unsigned> seen;
  for (const auto& r : csr::kRegisters) {
    INFO(r.name);
    CHECK(r.offset % 4 == 0);
    CHECK(seen.insert(r.offset).second);
    if (r.offset != csr::kCounters) CHECK(r.offset < csr::kCounters);
  }
}
