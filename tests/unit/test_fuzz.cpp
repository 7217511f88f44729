// SPDX-License-Identifier: Apache-2.0
// Fuzzing the two parsers that take untrusted input: the assembler and the image
// loader. The test build runs under AddressSanitizer and UBSan, so any memory error
// or undefined behaviour aborts the run; here every input must end in a result or a
// well-formed diagnostic.
#include <catch2/catch.hpp>

#include "asm/assembler.hpp"
#include "helpers.hpp"
#include "util/file_io.hpp"
#include "model/golden_model.hpp"
#include "util/npy.hpp"

using namespace tessera;
using namespace tessera::test;

namespace {

const char* const kVocabulary[] = {
    "rhm", "whm", "rw", "mmc", "act", "nop", "sync", "halt", "ub", "rows", "addr", "stride", "acc",
    "params", "zp", "pool", "switch", "relu", "transpose", "accumulate", "seglen", "segs", "k", "n",
    ".text", ".data", ".equ", ".byte", ".half", ".word", ".space", ".align", ".incbin", ".npy", "=",
    ",", ":", "(", ")", "+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "~", "0", "1", "16",
    "0x7fffffffffffffff", "-9223372036854775808", "65536", "lbl", "N", "\"four.bin\"", "\"w.npy\"",
    "\"", ";", "\n", " ", "\t", "@", "\x93", "\xff", "0b", "0x", "99999999999999999999"};

std::string mutate(std::string s, std::mt19937& rng) {
  std::uniform_int_distribution<int> kind(0, 5), byte(0, 255);
  const int edits = 1 + int(rng() % 8);
  for (int e = 0; e < edits; ++e) {
    const size_t at = s.empty() ? 0 : rng() % s.size();
    switch (kind(rng)) {
      case 0: if (!s.empty()) s[at] = static_cast<char>(byte(rng)); break;
      case 1: s.insert(at, 1, static_cast<char>(byte(rng))); break;
      case 2: if (!s.empty()) s.erase(at, 1 + rng() % 16); break;
      case 3: s.insert(at, kVocabulary[rng() % (sizeof kVocabulary / sizeof *kVocabulary)]); break;
      case 4: if (s.size() > 2) { const size_t b = rng() % s.size(); s.insert(at, s.substr(b, rng() % 40)); } break;
      default: if (!s.empty()) s.resize(at); break;
    }
  }
  return s;
}

std::string token_soup(std::mt19937& rng) {
  std::string s;
  const int n = int(rng() % 60);
  for (int i = 0; i < n; ++i) {
    s += kVocabulary[rng() % (sizeof kVocabulary / sizeof *kVocabulary)];
    s += (rng() % 3) ? " " : "";
  }
  return s;
}

size_t count_lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')) + 1; }

}  // namespace

TEST_CASE("10,000 mutated and random sources never crash the assembler", "[fuzz]") {
  const Config cfg = config_n(16);
  const std::vector<std::string> seeds = {
      read_file_text(source_path("firmware/examples/gemm64.s")),
      read_file_text(source_path("firmware/examples/dense_relu.s")),
      ".equ X, 3\nl: rhm ub=X, rows=2, addr=d, stride=N, segs=2, seglen=4, segstride=8\n"
      "act acc=0, ub=1, rows=1, params=2, zp=-3, relu, pool=2\n.align 16\n.data 0x4000\n"
      "d: .byte 1, 2\n.half 3\n.word -4\n.space 3, 1\n.incbin \"four.bin\", 1\n.npy \"w.npy\"\n"};
  std::mt19937 rng(test_seed());
  int assembled = 0, rejected = 0;
  for (int i = 0; i < 10000; ++i) {
    const std::string src = (i % 4 == 3) ? token_soup(rng) : mutate(seeds[i % seeds.size()], rng);
    AsmResult r;
    REQUIRE_NOTHROW(r = assemble_source(src, "f.s", source_path("tests/unit/data"), cfg));
    if (r.image) {
      ++assembled;
      REQUIRE(r.diags.empty());
      REQUIRE_NOTHROW(parse_image(serialize_image(*r.image), "f.img"));
      continue;
    }
    ++rejected;
    REQUIRE_FALSE(r.diags.empty());
    for (const auto& d : r.diags.items()) {
      INFO(src << "\n--> " << d.format());
      REQUIRE(d.loc.file == "f.s");
      REQUIRE(d.loc.line >= 1);
      REQUIRE(size_t(d.loc.line) <= count_lines(src));
      REQUIRE(d.loc.col >= 1);
      REQUIRE_FALSE(d.message.empty());
    }
  }
  CHECK(assembled > 300);  // the mutations also produce valid programs (about 12%)
  CHECK(rejected > 5000);
}

TEST_CASE("10,000 mutated images are rejected cleanly or run safely", "[fuzz]") {
  const Config cfg = config_n(4);
  Image base = make_image(cfg, {rhm(0, 2, 0x1000, 4, 4), rw(0x1000, 4, 4, 4), mmc(0, 2, 0, true, false),
                                act(0, 3, 1, 0), whm(3, 1, 0x1010, 4, 4), halt()},
                          0x1000, std::vector<uint8_t>(32, 7));
  base.symbols = {{"in", 0x1000, 16}, {"out", 0x1010, 4}};
  const std::vector<uint8_t> good = serialize_image(base);
  std::mt19937 rng(test_seed());
  int parsed = 0, ran = 0;
  for (int i = 0; i < 10000; ++i) {
    std::vector<uint8_t> b = good;
    const int edits = 1 + int(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % b.size();
      switch (rng() % 4) {
        case 0: b[at] = static_cast<uint8_t>(rng()); break;
        case 1: b.resize(at); break;
        case 2: b.insert(b.begin() + at, static_cast<uint8_t>(rng())); break;
        default: b[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
      }
      if (b.size() < 8) b = good;
    }
    // Half the time repair the checksum so the table parsing itself is exercised.
    if (i % 2) reseal_image(b);
    Image img;
    try {
      img = parse_image(b, "m.img");
    } catch (const ImageError&) {
      continue;
    }
    ++parsed;
    try {
      check_image_fits(img, cfg, "m.img");
    } catch (const ImageError&) {
      continue;
    }
    GoldenModel m(cfg);
    for (const auto& s : img.sections) std::copy(s.bytes.begin(), s.bytes.end(), m.dram().begin() + s.addr);
    m.start(img.entry);
    const Status st = m.run(100000);
    REQUIRE(st.state != RunState::Idle);
    ++ran;
  }
  CHECK(parsed > 400);  // about 8% get past the checksum and tables
  CHECK(ran > 300);
}

TEST_CASE("mutated .npy files are rejected cleanly", "[fuzz]") {
  const std::vector<uint8_t> good = serialize_npy({"<i4", {2, 3}, std::vector<uint8_t>(24, 1)});
  REQUIRE(parse_npy(good).shape == std::vector<uint64_t>{2, 3});
  std::mt19937 rng(test_seed());
  for (int i = 0; i < 5000; ++i) {
    std::vector<uint8_t> b = good;
    for (int e = 0; e < 1 + int(rng() % 4); ++e) {
      const size_t at = rng() % b.size();
      if (rng() % 3 == 0) b.resize(at);
      else b[at] = static_cast<uint8_t>(rng());
      if (b.empty()) b = good;
    }
    try {
      const NpyArray a = parse_npy(b);
      REQUIRE(!a.descr.empty());
    } catch (const NpyError&) {
    }
  }
}
