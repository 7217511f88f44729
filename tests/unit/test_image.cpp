// SPDX-License-Identifier: Apache-2.0
// Program image format: round trip and every rejection, each with its own message.
#include <catch2/catch.hpp>

#include <algorithm>

#include "helpers.hpp"
#include "image/image.hpp"

using namespace tessera;
using Catch::Matchers::Contains;

namespace {

Image sample(const Config& cfg) {
  Image img = test::make_image(cfg, {test::rhm(0, 1, 0x1000, 4, 4), test::halt()}, 0x1000,
                               {1, 2, 3, 4, 5, 6, 7});
  img.symbols = {{"input", 0x1000, 4}, {"out", 0x1004, 3}};
  return img;
}

std::string parse_error(const std::vector<uint8_t>& b) {
  try {
    parse_image(b, "x.img");
  } catch (const ImageError& e) {
    return e.what();
  }
  return "(accepted)";
}

void put32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

void fix_crc(std::vector<uint8_t>& b) { put32(b, b.size() - 4, crc32(b.data(), b.size() - 4)); }

}  // namespace

TEST_CASE("an image round-trips through its binary form", "[image]") {
  const Config cfg = test::config_n(4);
  const Image img = sample(cfg);
  const Image back = parse_image(serialize_image(img), "x.img");
  CHECK(back.entry == img.entry);
  CHECK(back.config_fingerprint == cfg.fingerprint());
  CHECK(back.config_summary == cfg.summary());
  REQUIRE(back.sections.size() == 2);
  CHECK(back.sections[1].bytes == img.sections[1].bytes);
  CHECK(back.sections[0].kind == SectionKind::Text);
  REQUIRE(back.symbols.size() == 2);
  CHECK(back.symbols[1].name == "out");
  CHECK(back.symbols[1].addr == 0x1004);
  CHECK(back.symbols[1].size == 3);
  CHECK(serialize_image(back) == serialize_image(img));
  CHECK_NOTHROW(check_image_fits(back, cfg, "x.img"));
}

TEST_CASE("crc32 is the standard IEEE CRC", "[image]") {
  const std::string s = "123456789";
  CHECK(crc32(reinterpret_cast<const uint8_t*>(s.data()), s.size()) == 0xCBF43926u);
}

TEST_CASE("the loader rejects corrupt images, each with its own message", "[image]") {
  const std::vector<uint8_t> good = serialize_image(sample(test::config_n(4)));

  SECTION("bad magic") {
    auto b = good;
    b[0] = 'X';
    CHECK(parse_error(b) == "x.img: not a Tessera program image (bad magic)");
    CHECK(parse_error({}) == "x.img: not a Tessera program image (bad magic)");
  }
  SECTION("unsupported version") {
    auto b = good;
    b[8] = 2;
    fix_crc(b);
    CHECK(parse_error(b) == "x.img: unsupported image version 2.0 (this tool reads version 1.x)");
  }
  SECTION("every truncation") {
    for (size_t n = 8; n < good.size(); ++n) {
      INFO("length " << n);
      const std::string e = parse_error(std::vector<uint8_t>(good.begin(), good.begin() + n));
      CHECK_THAT(e, Contains("truncated image"));
    }
  }
  SECTION("trailing bytes") {
    auto b = good;
    b.push_back(0);
    CHECK_THAT(parse_error(b), Contains("unexpected bytes after the end"));
  }
  SECTION("any flipped byte after the header fails the checksum") {
    for (size_t i = 40; i < good.size(); ++i) {
      auto b = good;
      b[i] ^= 0x20;
      INFO("byte " << i);
      CHECK_THAT(parse_error(b), Contains("checksum mismatch"));
    }
  }
  SECTION("malformed tables behind a valid checksum") {
    auto b = good;
    put32(b, 28, 99);  // section count
    fix_crc(b);
    CHECK_THAT(parse_error(b), Contains("corrupt image"));
    b = good;
    put32(b, 12, 44);  // header size
    fix_crc(b);
    CHECK(parse_error(b) == "x.img: corrupt image: header size 44, expected 40");
  }
  SECTION("a symbol name longer than any tool writes") {  // (it parsed, then could not be written back)
    Image img = sample(test::config_n(4));
    img.symbols[1].name = std::string(kMaxSymbolName, 'a');
    auto b = serialize_image(img);
    const size_t at = size_t(std::search_n(b.begin(), b.end(), kMaxSymbolName, uint8_t('a')) - b.begin());
    b.insert(b.begin() + at, 976, uint8_t('a'));  // 2000 bytes (a multiple of 4: no padding to add)
    b[at - 2] = uint8_t(2000 & 255), b[at - 1] = uint8_t(2000 >> 8);
    reseal_image(b);
    CHECK(parse_error(b) == "x.img: corrupt image: symbol 1's name is 2000 bytes, at most 1024");
  }
}

TEST_CASE("an image for another configuration or outside memory is refused", "[image]") {
  const Config n4 = test::config_n(4);
  const Image img = sample(n4);
  const Config n8 = test::config_n(8);
  CHECK_THROWS_WITH(check_image_fits(img, n8, "x.img"),
                    "x.img: image was built for another configuration (" + n4.summary() +
                        "), the device is " + n8.summary());
  Config small = n4;
  small.dram_bytes = 4096;
  Image moved = img;
  moved.config_fingerprint = small.fingerprint();
  CHECK_THROWS_WITH(check_image_fits(moved, small, "x.img"), Contains("does not fit in device memory"));
  Image overlap = img;
  overlap.sections[1].addr = 0x10;
  CHECK_THROWS_WITH(check_image_fits(overlap, n4, "x.img"), Contains("sections overlap"));
  Image entry = img;
  entry.entry = 0x1000;
  CHECK_THROWS_WITH(check_image_fits(entry, n4, "x.img"), Contains("entry point 0x00001000"));
  entry.entry = 8;
  CHECK_THROWS_WITH(check_image_fits(entry, n4, "x.img"), Contains("not an aligned address"));
}
