// SPDX-License-Identifier: Apache-2.0
// Configuration loading and validation errors (each with its file:line:col).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "config/config.hpp"
#include "helpers.hpp"
#include "util/file_io.hpp"

using namespace tessera;

namespace {

std::string config_error(const std::string& yaml) {
  try {
    parse_config(yaml, "cfg.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kValid =
    "array_size: 8\nub_rows: 256\nacc_rows: 128\nwfifo_depth: 2\ndma_width: 64\n"
    "dram_bytes: 65536\ntestbench:\n  mem_latency: 3\n  mem_bandwidth: 8\n";

}  // namespace

TEST_CASE("shipped configurations load", "[config]") {
  const Config d = load_config_file(test::source_path("configs/default.yaml"));
  CHECK(d.array_size == 16);
  CHECK(d.wfifo_depth == 8);
  CHECK(load_config_file(test::source_path("configs/n4.yaml")).array_size == 4);
  CHECK(load_config_file(test::source_path("configs/n8.yaml")).array_size == 8);
  CHECK(load_config_file(default_config_path()).array_size == 16);
}

TEST_CASE("a valid configuration parses into the struct", "[config]") {
  const Config c = parse_config(kValid, "cfg.yaml");
  CHECK(c.array_size == 8);
  CHECK(c.ub_rows == 256);
  CHECK(c.acc_rows == 128);
  CHECK(c.wfifo_depth == 2);
  CHECK(c.dma_width == 64);
  CHECK(c.dram_bytes == 65536);
  CHECK(c.testbench.mem_latency == 3);
  CHECK(c.testbench.mem_bandwidth == 8);
  CHECK(c.source == "cfg.yaml");
}

TEST_CASE("configuration errors name the file, line, column and the problem", "[config]") {
  CHECK(config_error("array_size: 8\nfoo: 1\n") == "cfg.yaml:2:1: error: unknown key 'foo' in the configuration");
  CHECK(config_error("array_size: 12\n") == "cfg.yaml:1:13: error: 'array_size' = 12 must be a power of two");
  CHECK(config_error("array_size: 64\n") == "cfg.yaml:1:13: error: 'array_size' = 64 is out of range [4, 32]");
  CHECK(config_error("wfifo_depth: 0\n") == "cfg.yaml:1:14: error: 'wfifo_depth' = 0 is out of range [1, 16]");
  CHECK(config_error("wfifo_depth: 3\n") == "cfg.yaml:1:14: error: 'wfifo_depth' = 3 must be a power of two");
  CHECK(config_error("ub_rows: lots\n") == "cfg.yaml:1:10: error: 'ub_rows' must be a non-negative integer, got 'lots'");
  CHECK(config_error("ub_rows: -64\n") == "cfg.yaml:1:10: error: 'ub_rows' must be a non-negative integer, got '-64'");
  CHECK(config_error("ub_rows: \"\\n8\"\n") == "cfg.yaml:1:10: error: 'ub_rows' must be a non-negative integer, got '\\x0a8'");  // (fuzz_config)
  CHECK(config_error("ub_rows: [1, 2]\n") == "cfg.yaml:1:10: error: 'ub_rows' must be an integer");
  CHECK(config_error("testbench:\n  latency: 3\n") ==
        "cfg.yaml:2:3: error: unknown key 'latency' in 'testbench'");
  CHECK(config_error("testbench: 5\n") == "cfg.yaml:1:12: error: 'testbench' must be a mapping of key: value");
  CHECK(config_error("? [a, b]\n: 1\n") == "cfg.yaml:1:3: error: a key in the configuration must be a name");  // (found by fuzz_config)
  CHECK(config_error("") == "cfg.yaml:1:1: error: configuration is empty");
  CHECK(config_error("array_size: [\n").find("cfg.yaml:") == 0);
  CHECK(config_error("array_size: [\n").find("invalid YAML") != std::string::npos);
  CHECK(config_error("array_size: 4\ndma_width: 64\n") ==
        "cfg.yaml: error: 'dma_width' = 64 is wider than a unified-buffer row (8 * array_size = 32 bits)");
}

TEST_CASE("every error in a configuration is reported, not just the first", "[config]") {
  const std::string e = config_error("array_size: 3\nub_rows: 1\nbogus: 2\n");
  CHECK(e.find("cfg.yaml:1:13:") != std::string::npos);
  CHECK(e.find("cfg.yaml:2:10:") != std::string::npos);
  CHECK(e.find("cfg.yaml:3:1:") != std::string::npos);
}

TEST_CASE("a missing configuration file is a clear error", "[config]") {
  CHECK_THROWS_WITH(load_config_file("/nonexistent/x.yaml"),
                    "/nonexistent/x.yaml: error: cannot open configuration file (no such file)");
}

TEST_CASE("a board configuration carries its core clock", "[config]") {
  const tessera::Config c = tessera::parse_config("board:\n  clock_mhz: 45\n", "b.yaml");
  CHECK(c.board.clock_mhz == 45);
  CHECK(tessera::parse_config("array_size: 16\n", "b.yaml").board.clock_mhz == 0);
  CHECK(config_error("board:\n  clock_mhz: 501\n") ==
        "cfg.yaml:2:14: error: 'clock_mhz' = 501 is out of range [1, 500]");
  CHECK(config_error("board:\n  clock: 50\n") == "cfg.yaml:2:3: error: unknown key 'clock' in 'board'");
}

TEST_CASE("a board configuration may trade multipliers for logic, within the array", "[config]") {
  const tessera::Config c =
      tessera::parse_config("array_size: 16\nboard:\n  serial_act: 1\n  logic_rows: 8\n", "b.yaml");
  CHECK(c.board.serial_act == 1);
  CHECK(c.board.logic_rows == 8);
  CHECK(config_error("board:\n  serial_act: 2\n") ==
        "cfg.yaml:2:15: error: 'serial_act' = 2 is out of range [0, 1]");
  CHECK(config_error("array_size: 4\ndma_width: 32\nboard:\n  logic_rows: 5\n") ==
        "cfg.yaml: error: 'board.logic_rows' = 5 is more than the array's 4 rows");
}

TEST_CASE("the fingerprint covers architecture, not testbench timing", "[config]") {
  const Config a = parse_config(kValid, "a");
  Config b = a;
  b.testbench.mem_latency = 99;
  b.dma_width = 32;
  CHECK(a.fingerprint() == b.fingerprint());
  for (auto field : {&Config::array_size, &Config::ub_rows, &Config::acc_rows, &Config::wfifo_depth,
                     &Config::dram_bytes}) {
    Config c = a;
    c.*field *= 2;
    CHECK(c.fingerprint() != a.fingerprint());
  }
}

TEST_CASE("a configuration's core parameters are tpu_core's, with the file's values", "[config]") {
  const Config c = parse_config(kValid, "cfg.yaml");
  const std::vector<std::string> want = {"-GArraySize=8", "-GUbRows=256",    "-GAccRows=128", "-GWfifoDepth=2",
                                         "-GDmaWidth=64", "-GDramBytes=65536", "-GGatherSegs=3"};
  CHECK(core_params(c) == want);  // (gather_segs: the default, 3)
  CHECK(core_param_flags(c) ==
        "-GArraySize=8 -GUbRows=256 -GAccRows=128 -GWfifoDepth=2 -GDmaWidth=64 -GDramBytes=65536 -GGatherSegs=3");
  // every name is a parameter of the core's top (the geometry's from rtl/tpu_geometry.vh,
  // which the top declares with TPU_GEOMETRY_PARAMS)
  std::string top = read_file_text(test::source_path("rtl/tpu_core.v"));
  REQUIRE(top.find("`TPU_GEOMETRY_PARAMS(") != std::string::npos);
  top += read_file_text(test::source_path("rtl/tpu_geometry.vh"));
  for (const std::string& p : want) {
    const std::string name = p.substr(2, p.find('=') - 2);
    INFO(name);
    CHECK(top.find("parameter integer " + name + " ") != std::string::npos);
  }
}

TEST_CASE("the shipped core list names each core's configuration", "[config]") {
  const std::vector<CoreListEntry> cores =
      load_core_list(test::source_path("configs/cores.yaml"), TESSERA_SOURCE_DIR);
  REQUIRE(!cores.empty());
  for (const CoreListEntry& c : cores) {
    INFO(c.name);
    CHECK_NOTHROW(load_config_file(test::source_path(c.config)));
  }
  CHECK(cores.front().name == "n4");
  CHECK(cores.front().config == "configs/n4.yaml");
}

TEST_CASE("core list errors name the file, line, column and the problem", "[config]") {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("tessera_cores_" + std::to_string(::getpid()) + ".yaml")).string();
  auto list_error = [&](const std::string& text) {
    std::ofstream(path) << text;
    try {
      load_core_list(path, TESSERA_SOURCE_DIR);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(list_error("n4: configs/n4.yaml\nN-8: configs/n8.yaml\n") ==
        path + ":2:1: error: core name 'N-8' must be lowercase letters, digits and '_' (it names classes)");
  CHECK(list_error("n4: configs/n4.yaml\nn4: configs/n8.yaml\n") == path + ":2:1: error: core 'n4' is listed twice");
  CHECK(list_error("n4: configs/none.yaml\n") ==
        path + ":1:5: error: core 'n4': no configuration file configs/none.yaml in " + TESSERA_SOURCE_DIR);
  CHECK(list_error("n4: [a, b]\n") == path + ":1:5: error: core 'n4': the value must be a configuration file");
  CHECK(list_error("- n4\n") == path + ":1:1: error: the core list must be a mapping of name: configuration file");
  CHECK(list_error("n4: configs/n4.yaml\nn8: configs/n8.yaml\n") == "(no error)");
  std::filesystem::remove(path);
}
