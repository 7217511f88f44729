// SPDX-License-Identifier: Apache-2.0
// The hardware configuration: one struct read from YAML and shared by every tool.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera {

struct TestbenchConfig {
  uint32_t mem_latency = 20;    // device-memory read latency, cycles
  uint32_t mem_bandwidth = 16;  // device-memory bandwidth, bytes per cycle
};

struct BoardConfig {
  uint32_t clock_mhz = 0;  // the core clock of an FPGA board top (0: not a board build)
  // Timing-only choices for boards short of multipliers (no effect on programs):
  uint32_t serial_act = 0;  // 1: one requantization lane serves all N
  uint32_t logic_rows = 0;  // the matrix unit's last rows compute their products in logic
};

struct Config {
  uint32_t array_size = 16;  // N
  uint32_t ub_rows = 4096;
  uint32_t acc_rows = 2048;
  uint32_t wfifo_depth = 4;
  uint32_t dma_width = 128;  // bits
  uint32_t dram_bytes = 1u << 20;
  uint32_t gather_segs = 3;  // rows of up to this many segments the DMA gathers at a row per cycle (0: off)
  TestbenchConfig testbench;
  BoardConfig board;
  std::string source = "<built-in>";  // file it came from, for messages

  // Identifies the architectural parameters a program depends on (not timing).
  uint64_t fingerprint() const;
  // One line such as "N=16 ub_rows=4096 acc_rows=2048 wfifo_depth=4 dram_bytes=1048576".
  std::string summary() const;
};

// Every problem found in a configuration, one "file:line:col: error: ..." per line.
class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The architectural parameters back from a summary() line (an image's record of the
// configuration it was built for), or nothing when the text is not one.
std::optional<Config> config_from_summary(const std::string& summary);

Config load_config_file(const std::string& path);
Config parse_config(const std::string& yaml_text, const std::string& source_name);
// Checks ranges and relations; throws ConfigError listing every violation.
void validate_config(const Config& cfg);

// The configuration file the tools use when none is given.
std::string default_config_path();

// The core's Verilog parameters a configuration sets (tpu_core's names), as Verilator and
// Yosys arguments: "-GArraySize=16", "-GUbRows=4096", ... The one mapping from
// configuration keys to RTL parameters (the board keys are the board build's own).
std::vector<std::string> core_params(const Config& cfg);
// The same, space-separated: what identifies a Verilated core.
std::string core_param_flags(const Config& cfg);

// configs/cores.yaml: the shipped cores, each a name and its configuration file
// (relative to the source tree), in the file's order.
struct CoreListEntry {
  std::string name;
  std::string config;
};
// Reads and checks the list (names are lowercase identifiers, each once; every file
// exists below source_dir); throws ConfigError with every problem as file:line:col.
std::vector<CoreListEntry> load_core_list(const std::string& path, const std::string& source_dir);

}  // namespace tessera
