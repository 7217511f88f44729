// SPDX-License-Identifier: Apache-2.0
// Assembler: syntax that works, and every error reported as file:line:col.
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>

#include "asm/assembler.hpp"
#include "asm/disassembler.hpp"
#include "helpers.hpp"
#include "isa/asm_text.hpp"
#include "isa/legality.hpp"
#include "util/npy.hpp"

using namespace tessera;

namespace {

const Config& cfg4() {
  static const Config c = test::config_n(4);  // ub_rows 1024, acc_rows 512, dram 256 KiB
  return c;
}

AsmResult assemble(const std::string& src, const Config& cfg = cfg4()) {
  return assemble_source(src, "t.s", TESSERA_SOURCE_DIR "/tests/unit/data", cfg);
}

// The one diagnostic `src` must produce, formatted.
std::string only_error(const std::string& src) {
  const AsmResult r = assemble(src);
  if (r.image) return "(assembled)";
  if (r.diags.items().size() != 1) return "(" + std::to_string(r.diags.items().size()) + " errors)\n" + r.diags.format();
  return r.diags.items()[0].format();
}

Instr decode_at(const Image& img, size_t index) {
  Instr in;
  REQUIRE(decode(load_word(&img.sections.at(0).bytes.at(index * kInstrBytes)), in) == DecodeResult::Ok);
  return in;
}

}  // namespace

TEST_CASE("instructions, labels, constants and data assemble", "[asm]") {
  const AsmResult r = assemble(R"(
; a comment
.equ ROWS, 3            # another comment
.equ END, buf + FOUR * 4  // forward references to a label and a constant
.equ FOUR, 4
start:  rhm ub=1, rows=ROWS, addr=buf, stride=N
        mmc rows=2, acc=5, ub=0, switch, accumulate
        act acc=0, ub=2, rows=1, params=10, zp=-7, relu, pool=2
        rw  addr=END, transpose
        halt
.data
buf:    .byte 1, 2, -1, 255
        .half 0x1234
        .word -2
        .space 2, 0xAA
tail:   .align 8
last:
)");
  INFO(r.diags.format());
  REQUIRE(r.image);
  const Image& img = *r.image;
  REQUIRE(img.sections.size() == 2);
  CHECK(img.entry == 0);
  CHECK(img.sections[0].bytes.size() == 5 * kInstrBytes);
  CHECK(img.sections[1].addr == 0x80);  // text end (0x50) rounded up to 64
  CHECK(img.sections[1].bytes == std::vector<uint8_t>{1, 2, 0xff, 0xff, 0x34, 0x12, 0xfe, 0xff, 0xff,
                                                     0xff, 0xaa, 0xaa, 0, 0, 0, 0});
  const Instr a = decode_at(img, 0);
  CHECK(a.op == Opcode::RHM);
  CHECK(a.ub == 1);
  CHECK(a.rows == 3);
  CHECK(a.addr == 0x80);
  CHECK(a.stride == 4);
  CHECK(a.seglen == 4);  // default N
  CHECK(a.segs == 1);
  const Instr m = decode_at(img, 1);
  CHECK((m.op == Opcode::MMC && m.rows == 2 && m.acc == 5 && m.sw == 1 && m.accumulate == 1));
  const Instr t = decode_at(img, 2);
  CHECK((t.zp == -7 && t.relu == 1 && t.pool == 2 && t.params == 10));
  const Instr w = decode_at(img, 3);
  CHECK((w.addr == 0x90 && w.transpose == 1 && w.k == 4 && w.n == 4 && w.stride == 4));
  REQUIRE(img.symbols.size() == 4);
  CHECK(img.find_symbol("start")->addr == 0);
  CHECK(img.find_symbol("start")->size == 80);
  CHECK(img.find_symbol("buf")->addr == 0x80);
  CHECK(img.find_symbol("buf")->size == 12);
  CHECK(img.find_symbol("tail")->size == 4);
  CHECK(img.find_symbol("last")->size == 0);
}

TEST_CASE("expressions follow C precedence", "[asm]") {
  const std::pair<const char*, int64_t> cases[] = {
      {"1+2*3", 7},     {"(1+2)*3", 9},    {"1<<4|1", 17},  {"10-2-3", 5},  {"-3%2", -1},
      {"~0&0xff", 255}, {"7/2", 3},        {"0b101^1", 4},  {"-(-5)", 5},   {"2*N+UB_ROWS/1024", 9},
      {"1_000", 1000},  {"6&3|8", 10},     {"+4", 4},       {"1<<2+1", 8}};
  for (const auto& [text, value] : cases) {
    INFO(text);
    const AsmResult r = assemble(std::string(".data\n.word ") + text + "\n");
    REQUIRE(r.image);
    const auto& b = r.image->sections.at(0).bytes;
    CHECK(int32_t(uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24) == value);
  }
}

TEST_CASE("segment addresses, .incbin and .npy", "[asm]") {
  const AsmResult r = assemble(R"(
.text 0x100
        halt
.data 0x2000
raw:    .incbin "four.bin"
part:   .incbin "four.bin", 1, 2
arr:    .npy "w.npy"
)");
  INFO(r.diags.format());
  REQUIRE(r.image);
  CHECK(r.image->entry == 0x100);
  CHECK(r.image->sections[0].addr == 0x100);
  CHECK(r.image->sections[1].addr == 0x2000);
  CHECK(r.image->sections[1].bytes == std::vector<uint8_t>{10, 20, 30, 40, 20, 30, 1, 0xfe, 3, 4, 5, 0xfa});
  CHECK(r.image->find_symbol("arr")->size == 6);
}

TEST_CASE("each kind of mistake gets its own message at its line and column", "[asm]") {
  const std::pair<const char*, const char*> cases[] = {
      {"  foo ub=1", "t.s:1:3: error: unknown instruction 'foo'"},
      {".bogus 1", "t.s:1:1: error: unknown directive '.bogus'"},
      {"mmc ub=0, rows=1, acc=0, bad=1",
       "t.s:1:26: error: unknown operand 'bad' for mmc (it takes accumulate, switch, ub, rows, acc, tiles, ubstride, accstride)"},
      {"mmc ub=0, ub=1, rows=1, acc=0", "t.s:1:11: error: operand 'ub' given twice"},
      {"mmc ub=0, rows=1", "t.s:1:1: error: missing operand 'acc' for mmc"},
      {"mmc ub=70000, rows=1, acc=0", "t.s:1:8: error: value 70000 for 'ub' is out of range [0, 65535]"},
      {"mmc ub=0, rows=0, acc=0", "t.s:1:16: error: value 0 for 'rows' is out of range [1, 65536]"},
      {"mmc ub=0, rows=1, acc=0, switch=1", "t.s:1:32: error: 'switch' is a flag and takes no value"},
      {"mmc ub, rows=1, acc=0", "t.s:1:7: error: operand 'ub' needs a value: ub=EXPR"},
      {"mmc ub=nothere, rows=1, acc=0", "t.s:1:8: error: undefined symbol 'nothere'"},
      {"mmc ub=0 rows=1, acc=0", "t.s:1:10: error: expected ',' before 'rows'"},
      {"mmc ub=, rows=1, acc=0", "t.s:1:8: error: expected an expression, found ','"},
      {".equ X, 4/0", "t.s:1:10: error: division by zero"},
      {".equ X, (1+2", "t.s:1:13: error: expected ')'"},
      {".equ X, 1 << 64", "t.s:1:11: error: shift count 64 is out of range [0, 63]"},
      {".equ X, 0x7fffffffffffffff + 1", "t.s:1:28: error: integer overflow in expression"},
      {".equ N, 3", "t.s:1:6: error: 'N' is a predefined constant and cannot be redefined"},
      {"a:\na: halt", "t.s:2:1: error: symbol 'a' is already defined"},
      {".x: halt", "t.s:1:1: error: label names cannot start with '.'"},
      {"halt @", "t.s:1:6: error: unexpected character '@'"},
      {"mmc ub=0x, rows=1, acc=0", "t.s:1:8: error: number has no digits"},
      {"mmc ub=12ab, rows=1, acc=0", "t.s:1:8: error: invalid digit 'a' in number"},
      {".data\n.incbin \"four.bin", "t.s:2:9: error: unterminated string"},
      {".data\n.incbin \"nofile.bin\"", "t.s:2:9: error: cannot open 'nofile.bin' (no such file)"},
      {".data\n.incbin \"\"", "t.s:2:9: error: empty file name"},
      {".data\n.npy \".\"", "t.s:2:6: error: cannot open '.' (not a regular file)"},
      {".data\n.incbin four.bin", "t.s:2:9: error: .incbin needs a file name in double quotes"},
      {".data\n.incbin \"four.bin\", 5", "t.s:2:21: error: .incbin offset 5 is beyond the file's 4 bytes"},
      {".data\n.incbin \"four.bin\", 1, 0x7fffffffffffffff",
       "t.s:2:24: error: .incbin length 9223372036854775807 runs past the end of the file"},
      {".data\n.npy \"four.bin\"", "t.s:2:6: error: 'four.bin': not a .npy file (bad magic)"},
      {".data\n.npy \"f32.npy\"",
       "t.s:2:6: error: 'f32.npy': unsupported .npy dtype '<f4' (use int8, uint8, int16, uint16, int32 or uint32, little-endian)"},
      {".data\n.byte 1, 300", "t.s:2:10: error: value 300 does not fit in 1 byte [-128, 255]"},
      {".data\n.half 70000", "t.s:2:7: error: value 70000 does not fit in 2 bytes [-32768, 65535]"},
      {".data\n.byte", "t.s:2:6: error: .byte needs at least one value"},
      {".data\nhalt", "t.s:2:1: error: instruction 'halt' in the .data segment"},
      {".byte 1\nhalt", "t.s:2:1: error: instruction is not 16-byte aligned (add '.align 16' before it)"},
      {".align 3", "t.s:1:8: error: alignment must be a power of two from 1 to 64, got 3"},
      {".data\n.space x\nx:", "t.s:2:8: error: a .space size must be a constant known at this point (no labels)"},
      {".data\n.space -1", "t.s:2:8: error: .space size -1 is out of range [0, 262144]"},
      {".text 0x104", "t.s:1:7: error: segment address 260 must be a multiple of 64 inside device memory"},
      {".text 0x100\n.text 0x200", "t.s:2:7: error: .text address is already set to 256"},
      {"halt\n.text 0x100", "t.s:2:7: error: .text address must be set before the segment's first content"},
      {"rhm ub=0, rows=1, addr=0, stride=4, seglen=8", "t.s:1:1: error: rhm: seglen=8 exceeds the array size N=4"},
      {"rhm ub=0, rows=1, addr=0, stride=4, seglen=2, segs=3",
       "t.s:1:1: error: rhm: seglen*segs=6 exceeds the array size N=4"},
      {"mmc ub=1020, rows=10, acc=0",
       "t.s:1:1: error: mmc: input unified-buffer rows [1020, 1030) are outside [0, 1024)"},
      {"mmc ub=0, rows=10, acc=510", "t.s:1:1: error: mmc: accumulator rows [510, 520) are outside [0, 512)"},
      {"act ub=0, rows=1, acc=0, params=1020",
       "t.s:1:1: error: act: parameter unified-buffer rows [1020, 1029) are outside [0, 1024)"},
      {"whm ub=0, rows=2, addr=0x3fffc, stride=4",
       "t.s:1:1: error: whm: device-memory bytes [0x3fffc, 0x40004) reach past the end of device memory (0x40000)"},
      {"whm ub=0, rows=2, addr=0x3f000, stride=4, groups=3, gstride=0x800",
       "t.s:1:1: error: whm: device-memory bytes [0x3f000, 0x40008) reach past the end of device memory (0x40000)"},
      {"whm ub=1000, rows=10, addr=0, stride=4, groups=3, gstride=64",
       "t.s:1:1: error: whm: source unified-buffer rows [1000, 1030) are outside [0, 1024)"},
      {".data\n.space 200000\n.space 100000",
       "t.s:2:1: error: .data segment (300000 bytes at 0) does not fit in device memory (262144 bytes)"},
      {".equ A, B + 1\n.equ C, 1", "t.s:1:9: error: undefined symbol 'B'"},
      {".equ X, 3 << 62", "t.s:1:11: error: integer overflow in expression"},
      {".equ X, -1 << 63", "(assembled)"},  // INT64_MIN: only copies of the sign bit shifted out
      {".equ A, B\n.equ B, A", "t.s:2:9: error: circular .equ definition: A -> B -> A"},
      {".equ A, A + 1", "t.s:1:9: error: circular .equ definition: A -> A"},
      {".equ A, B\n.equ B, C\n.equ C, 1/0", "t.s:3:10: error: division by zero"},
      {"halt 1", "t.s:1:6: error: expected an operand name, found '1'"},
      {"nop x=1", "t.s:1:5: error: unknown operand 'x' for nop (it takes no operands)"},
      {"5 halt", "t.s:1:1: error: expected a label, directive or instruction, found '5'"},
  };
  for (const auto& [src, want] : cases) {
    INFO(src);
    CHECK(only_error(src) == want);
  }
}

TEST_CASE(".equ constants resolve through chains in any order", "[asm]") {
  const AsmResult r = assemble(".equ A, B + 1\n.equ B, C * 2\n.equ C, D - 7\n.equ D, end\n.data 0x40\n"
                               ".byte A\nend:\n");
  REQUIRE(r.image);  // end = 0x41, D = 65, C = 58, B = 116, A = 117
  CHECK(r.image->sections.at(0).bytes.at(0) == 117);

  // The longest chain allowed, defined last to first, and one longer.
  auto chain = [](int n) {
    std::string src;
    for (int i = 0; i < n; ++i) src += ".equ C" + std::to_string(i) + ", C" + std::to_string(i + 1) + " + 1\n";
    return src + ".equ C" + std::to_string(n) + ", 0\n.data\n.half C0\n";
  };
  const AsmResult ok = assemble(chain(256));
  REQUIRE(ok.image);
  const auto& b = ok.image->sections.at(0).bytes;
  CHECK((b.at(0) | b.at(1) << 8) == 256);
  CHECK(only_error(chain(257)) == "t.s:257:6: error: chain of .equ definitions deeper than 256");
}

TEST_CASE("label names fit the image's symbol table", "[asm]") {
  // (a 65536-character label wrapped the image's 16-bit name length: a corrupt image)
  CHECK(only_error("halt\n" + std::string(65536, 'a') + ": halt") ==
        "t.s:2:1: error: label name of 65536 characters (at most 1024)");
  const std::string longest(1024, 'b');
  const AsmResult r = assemble(longest + ": halt");
  REQUIRE(r.image);
  CHECK(parse_image(serialize_image(*r.image), "t.img").find_symbol(longest) != nullptr);
  Image bad = *r.image;
  bad.symbols[0].name += "b";
  CHECK_THROWS_WITH(serialize_image(bad), Catch::Contains("symbol name of 1025 bytes (at most 1024)"));
}

TEST_CASE("hostile expressions get an error, not a stack overflow", "[asm]") {
  // 256 levels of nesting are fine; the 257th is an error at its own column, however
  // deep the input goes on.
  const std::string ok = ".equ X, " + std::string(256, '(') + "1" + std::string(256, ')');
  CHECK(only_error(ok) == "(assembled)");
  for (const std::string& deep : {".equ X, " + std::string(100000, '(') + "1" + std::string(100000, ')'),
                                  ".equ X, " + std::string(100000, '-') + "1",
                                  ".equ X, " + std::string(100000, '~') + "(" + std::string(100000, '+') + "1)"}) {
    CHECK(only_error(deep) ==
          "t.s:1:265: error: expression nested deeper than 256 levels (parentheses and unary operators)");
  }
}

TEST_CASE("all errors are reported, in line order, and no image is made", "[asm]") {
  const AsmResult r = assemble("halt\n  bad1\nhalt\nmmc ub=0\n.data\n.byte 999\nhalt\n");
  CHECK_FALSE(r.image);
  REQUIRE(r.diags.items().size() == 4);
  CHECK(r.diags.items()[0].loc.line == 2);
  CHECK(r.diags.items()[1].loc.line == 4);
  CHECK(r.diags.items()[2].loc.line == 6);
  CHECK(r.diags.items()[3].loc.line == 7);
}

TEST_CASE("a label after a bad instruction keeps its address", "[asm]") {
  const AsmResult r = assemble("bogus\nhere: halt\n");
  REQUIRE_FALSE(r.image);
  const AsmResult ok = assemble("nop\nhere: halt\n");
  REQUIRE(ok.image);
  CHECK(ok.image->find_symbol("here")->addr == 16);
}

TEST_CASE("disassembled source reassembles to the identical image", "[asm]") {
  const Config cfg = load_config_file(test::source_path("configs/default.yaml"));
  const AsmResult r = assemble_file(test::source_path("firmware/examples/gemm64.s"), cfg);
  INFO(r.diags.format());
  REQUIRE(r.image);
  const std::string src = disassemble_source(*r.image);
  const AsmResult again = assemble(src, cfg);
  INFO(again.diags.format());
  REQUIRE(again.image);
  CHECK(serialize_image(*again.image) == serialize_image(*r.image));
  CHECK(disassemble_listing(*r.image).find("mmc switch, ub=0, rows=64, acc=0") != std::string::npos);
}

TEST_CASE("disassembled source reproduces sections written in turns and labels in empty segments", "[asm]") {
  // (found by fuzz_asm: the symbol table followed the source's order, so text and data
  // written in turns came back in another order; labels of an empty segment, or of the
  // data segment at a text label's address, were dropped or moved into the text)
  for (const std::string src : {".text 0x100\nt1: nop\n.data 0x2000\nd1: .byte 1\n.text\nt2: halt\n.data\nd2: .byte 2\n",
                                "l: halt\n.data 0x4000\nd:", "l: halt\n.data 0\nd:", ".text 0x40\nentry:\n.data 0x80\nx: .byte 1\n",
                                "l: nop\nnop\nnop\nnop\nnop\nm: nop\n.data 0x40\nd:\n",  // (d inside the text's addresses)
                                "w: .space 20\nparams: .space 12\nnop\ny: .space 3\n"}) {  // (labels inside text words)
    const AsmResult r = assemble(src);
    INFO(src << r.diags.format());
    REQUIRE(r.image);
    const std::string text = disassemble_source(*r.image);
    const AsmResult again = assemble(text);
    INFO(text << again.diags.format());
    REQUIRE(again.image);
    CHECK(serialize_image(*again.image) == serialize_image(*r.image));
  }
  const AsmResult mixed = assemble(".data 0x2000\nd1: .byte 1\n.text\nt1: halt\n");
  REQUIRE(mixed.image);
  REQUIRE(mixed.image->symbols.size() == 2);
  CHECK(mixed.image->symbols[0].name == "t1");  // text labels first, then data, each by address

  // An image no source reproduces (data before text) is refused, not misprinted.
  Image img = *mixed.image;
  std::swap(img.sections[0], img.sections[1]);
  CHECK_THROWS_WITH(disassemble_source(img), Catch::Contains("cannot be written as source") && Catch::Contains("section 0"));
}

TEST_CASE("disassembled source keeps labels at a section's end and refused instructions as .word", "[asm]") {
  // (tpu-objdump --source dropped a label after the last instruction, and wrote an
  // instruction the configuration refuses as one, which tpu-as then refused)
  const AsmResult r = assemble("start: halt\nend:\n.data\nbuf: .byte 1, 2\nbuf_end:\n");
  REQUIRE(r.image);
  const AsmResult again = assemble(disassemble_source(*r.image));
  INFO(disassemble_source(*r.image) << again.diags.format());
  REQUIRE(again.image);
  CHECK(serialize_image(*again.image) == serialize_image(*r.image));

  Image img = test::make_image(cfg4(), {test::mmc(1020, 10, 0, false, false), test::halt()});  // UB rows past 1024
  img.symbols = {{"code", 0, 32}, {"end", 32, 0}};
  const std::string src = disassemble_source(img);
  CHECK(src.find(".word") != std::string::npos);
  CHECK(src.find("mmc") == std::string::npos);
  const AsmResult back = assemble(src);
  INFO(src << back.diags.format());
  REQUIRE(back.image);
  CHECK(serialize_image(*back.image) == serialize_image(img));
  CHECK(config_from_summary(cfg4().summary())->summary() == cfg4().summary());
  CHECK_FALSE(config_from_summary("N=4 ub_rows=1024"));
}

namespace {

// Random values for every field of in's opcode; a field with a fixed default keeps the
// one it has one time in `keep` (0: never).
void random_fields(Instr& in, std::mt19937_64& rng, unsigned keep = 0) {
  for (const auto& f : find_op(in.op)->fields) {
    std::uniform_int_distribution<int64_t> d(f.min_value(), f.max_value());
    if (!keep || !f.fixed_default() || rng() % keep) in.*(f.member) = d(rng);
  }
}

}  // namespace

TEST_CASE("random instructions survive format -> assemble -> encode", "[asm]") {
  const Config cfg = test::config_n(32);
  std::mt19937_64 rng(test::test_seed());
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Instr in;
    in.op = isa_table()[trial % isa_table().size()].op;
    random_fields(in, rng);
    if (check_static(in, cfg).code != ErrorCode::None) continue;  // the assembler rejects those
    const AsmResult r = assemble(format_instr(in) + "\n", cfg);
    INFO(format_instr(in) << "\n" << r.diags.format());
    REQUIRE(r.image);
    CHECK(load_word(r.image->sections[0].bytes.data()) == encode(in));
    ++checked;
  }
  CHECK(checked > 500);
}

TEST_CASE("asm_text: built instructions, with labelled addresses, assemble to the instruction built", "[asm]") {
  // The compiler and the GEMM generator write their programs through asm_text: random
  // operands (a labelled address resolved to where the label lands) must come back from
  // the assembler exactly, and the defaults they leave out must be the assembler's.
  const Config cfg = test::config_n(32);
  std::mt19937_64 rng(test::test_seed());
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const OpSpec& op = isa_table()[trial % isa_table().size()];
    AsmInstr x = asm_plain(op.op);
    random_fields(x.in, rng, 3);  // (a default kept is left out of the text)
    const bool labelled = find_field(op, "addr") && rng() % 2;
    if (labelled) x.addr_label = "buf", x.in.addr %= 0x10000;
    const uint32_t buf_at = 0x20000;
    Instr want = x.in;
    if (labelled) want.addr += buf_at;
    if (check_static(want, cfg).code != ErrorCode::None) continue;  // the assembler rejects those
    const std::string src = asm_text(x) + "\n.data 0x20000\nbuf: .byte 0\n";
    const AsmResult r = assemble(src, cfg);
    INFO(src << r.diags.format());
    REQUIRE(r.image);
    CHECK(load_word(r.image->sections[0].bytes.data()) == encode(want));
    ++checked;
  }
  CHECK(checked > 500);
  CHECK(asm_text(asm_rhm(3, 16, {"a", 64}, 8, 4)) == "rhm ub=3, rows=16, addr=a+64, stride=8, seglen=4");
  CHECK(asm_text(asm_mmc(0, 4, 8, true, false)) == "mmc switch, ub=0, rows=4, acc=8");
  CHECK(asm_text(asm_whm(1, 2, {"c"}, 16, 8)) == "whm ub=1, rows=2, addr=c, stride=16, len=8");
  CHECK_THROWS_WITH(asm_text(asm_rhm(0, 70000, {"a"}, 8, 4)), "rhm: rows=70000 outside 1..65536");
}
