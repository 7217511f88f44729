// SPDX-License-Identifier: Apache-2.0
#include "config/config.hpp"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <functional>
#include <map>
#include <sstream>
#include <vector>

#include "util/file_io.hpp"
#include "util/fnv.hpp"
#include "util/number.hpp"
#include "util/shown.hpp"

#ifndef TESSERA_DEFAULT_CONFIG
#define TESSERA_DEFAULT_CONFIG "configs/default.yaml"
#endif

namespace tessera {
namespace {

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

struct Limits {
  uint64_t lo, hi;
  bool pow2;
};

// The legal range of each key; docs/config.md repeats this table.
const std::map<std::string, Limits>& top_limits() {
  static const std::map<std::string, Limits> limits = {
      {"array_size", {4, 32, true}},          {"ub_rows", {64, 65536, true}},
      {"acc_rows", {64, 65536, true}},        {"wfifo_depth", {1, 16, true}},
      {"dma_width", {32, 512, true}},         {"dram_bytes", {4096, 1u << 31, true}},
      {"gather_segs", {0, 8, false}},
  };
  return limits;
}

const std::map<std::string, Limits>& testbench_limits() {
  static const std::map<std::string, Limits> limits = {
      {"mem_latency", {0, 100000, false}},
      {"mem_bandwidth", {1, 4096, false}},
  };
  return limits;
}

const std::map<std::string, Limits>& board_limits() {
  static const std::map<std::string, Limits> limits = {
      {"clock_mhz", {1, 500, false}},
      {"serial_act", {0, 1, false}},
      {"logic_rows", {0, 256, false}},
  };
  return limits;
}

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  void error(const YAML::Mark& m, const std::string& msg) {
    std::ostringstream os;
    os << source_ << ':' << (m.line + 1) << ':' << (m.column + 1) << ": error: " << msg;
    errors_.push_back(os.str());
  }

  void read_map(const YAML::Node& node, const std::string& where,
                const std::map<std::string, Limits>& limits,
                const std::map<std::string, std::function<void(const YAML::Node&)>>& nested,
                const std::map<std::string, uint32_t*>& targets) {
    if (!node.IsMap()) {
      error(node.Mark(), where + " must be a mapping of key: value");
      return;
    }
    for (const auto& kv : node) {
      if (!kv.first.IsScalar()) {  // (YAML allows a list or a map as a key: "? [a, b]")
        error(kv.first.Mark(), "a key in " + where + " must be a name");
        continue;
      }
      const std::string key = kv.first.Scalar();
      auto nest = nested.find(key);
      if (nest != nested.end()) {
        nest->second(kv.second);
        continue;
      }
      auto lim = limits.find(key);
      if (lim == limits.end()) {
        error(kv.first.Mark(), "unknown key '" + shown(key) + "' in " + where);
        continue;
      }
      read_value(kv.second, key, lim->second, targets.at(key));
    }
  }

  void read_value(const YAML::Node& v, const std::string& key, const Limits& lim, uint32_t* out) {
    if (!v.IsScalar()) {
      error(v.Mark(), "'" + key + "' must be an integer");
      return;
    }
    const std::string text = v.Scalar();
    const std::optional<uint64_t> parsed = parse_unsigned(text);
    if (!parsed) {
      error(v.Mark(), "'" + key + "' must be a non-negative integer, got '" + shown(text) + "'");
      return;
    }
    const uint64_t value = *parsed;
    if (value < lim.lo || value > lim.hi) {
      error(v.Mark(), "'" + key + "' = " + shown(text) + " is out of range [" + std::to_string(lim.lo) +
                          ", " + std::to_string(lim.hi) + "]");
      return;
    }
    if (lim.pow2 && !is_pow2(value)) {
      error(v.Mark(), "'" + key + "' = " + shown(text) + " must be a power of two");
      return;
    }
    *out = static_cast<uint32_t>(value);
  }

  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string source_;
  std::vector<std::string> errors_;
};

std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace

uint64_t Config::fingerprint() const {
  // Only what changes the meaning of a program: array size, memory sizes, FIFO depth.
  return fnv1a64(summary());
}

std::string Config::summary() const {
  std::ostringstream os;
  os << "N=" << array_size << " ub_rows=" << ub_rows << " acc_rows=" << acc_rows
     << " wfifo_depth=" << wfifo_depth << " dram_bytes=" << dram_bytes;
  return os.str();
}

std::optional<Config> config_from_summary(const std::string& summary) {
  Config c;
  unsigned long long v[5];
  if (std::sscanf(summary.c_str(), "N=%llu ub_rows=%llu acc_rows=%llu wfifo_depth=%llu dram_bytes=%llu", &v[0], &v[1],
                  &v[2], &v[3], &v[4]) != 5)
    return std::nullopt;
  for (unsigned long long x : v)
    if (x > UINT32_MAX) return std::nullopt;
  c.array_size = uint32_t(v[0]), c.ub_rows = uint32_t(v[1]), c.acc_rows = uint32_t(v[2]);
  c.wfifo_depth = uint32_t(v[3]), c.dram_bytes = uint32_t(v[4]);
  if (c.summary() != summary) return std::nullopt;  // (the one format: summary() writes it)
  return c;
}

Config parse_config(const std::string& yaml_text, const std::string& source_name) {
  Config cfg;
  cfg.source = source_name;
  Reader reader(source_name);
  YAML::Node root;
  try {
    root = YAML::Load(yaml_text);
  } catch (const YAML::Exception& e) {
    reader.error(e.mark, "invalid YAML: " + e.msg);
    throw ConfigError(join_lines(reader.errors()));
  }
  if (!root || root.IsNull()) {
    throw ConfigError(source_name + ":1:1: error: configuration is empty");
  }
  std::map<std::string, uint32_t*> top = {
      {"array_size", &cfg.array_size}, {"ub_rows", &cfg.ub_rows},
      {"acc_rows", &cfg.acc_rows},     {"wfifo_depth", &cfg.wfifo_depth},
      {"dma_width", &cfg.dma_width},   {"dram_bytes", &cfg.dram_bytes},
      {"gather_segs", &cfg.gather_segs}};
  std::map<std::string, uint32_t*> tb = {{"mem_latency", &cfg.testbench.mem_latency},
                                         {"mem_bandwidth", &cfg.testbench.mem_bandwidth}};
  std::map<std::string, uint32_t*> board = {{"clock_mhz", &cfg.board.clock_mhz},
                                            {"serial_act", &cfg.board.serial_act},
                                            {"logic_rows", &cfg.board.logic_rows}};
  reader.read_map(root, "the configuration", top_limits(),
                  {{"testbench",
                    [&](const YAML::Node& n) {
                      reader.read_map(n, "'testbench'", testbench_limits(), {}, tb);
                    }},
                   {"board",
                    [&](const YAML::Node& n) {
                      reader.read_map(n, "'board'", board_limits(), {}, board);
                    }}},
                  top);
  if (!reader.errors().empty()) throw ConfigError(join_lines(reader.errors()));
  validate_config(cfg);
  return cfg;
}

Config load_config_file(const std::string& path) {
  std::string text;
  try {
    text = read_file_text(path);
  } catch (const FileError& e) {
    throw ConfigError(path + ": error: cannot open configuration file (" + e.reason() + ")");
  }
  return parse_config(text, path);
}

void validate_config(const Config& cfg) {
  std::vector<std::string> errs;
  auto check = [&](const std::string& key, uint64_t v, const Limits& lim) {
    if (v < lim.lo || v > lim.hi || (lim.pow2 && !is_pow2(v))) {
      errs.push_back(cfg.source + ": error: '" + key + "' = " + std::to_string(v) +
                     " is not a legal value");
    }
  };
  const auto& t = top_limits();
  check("array_size", cfg.array_size, t.at("array_size"));
  check("ub_rows", cfg.ub_rows, t.at("ub_rows"));
  check("acc_rows", cfg.acc_rows, t.at("acc_rows"));
  check("wfifo_depth", cfg.wfifo_depth, t.at("wfifo_depth"));
  check("dma_width", cfg.dma_width, t.at("dma_width"));
  check("dram_bytes", cfg.dram_bytes, t.at("dram_bytes"));
  check("gather_segs", cfg.gather_segs, t.at("gather_segs"));
  check("testbench.mem_latency", cfg.testbench.mem_latency, testbench_limits().at("mem_latency"));
  check("testbench.mem_bandwidth", cfg.testbench.mem_bandwidth,
        testbench_limits().at("mem_bandwidth"));
  if (cfg.board.clock_mhz != 0) check("board.clock_mhz", cfg.board.clock_mhz, board_limits().at("clock_mhz"));
  check("board.serial_act", cfg.board.serial_act, board_limits().at("serial_act"));
  if (cfg.board.logic_rows > cfg.array_size) {
    errs.push_back(cfg.source + ": error: 'board.logic_rows' = " + std::to_string(cfg.board.logic_rows) +
                   " is more than the array's " + std::to_string(cfg.array_size) + " rows");
  }
  // One DMA beat fills at most one unified-buffer row, which keeps the DMA's row packer simple.
  if (cfg.dma_width > cfg.array_size * 8) {
    errs.push_back(cfg.source + ": error: 'dma_width' = " + std::to_string(cfg.dma_width) +
                   " is wider than a unified-buffer row (8 * array_size = " +
                   std::to_string(cfg.array_size * 8) + " bits)");
  }
  if (!errs.empty()) throw ConfigError(join_lines(errs));
}

std::string default_config_path() { return TESSERA_DEFAULT_CONFIG; }

}  // namespace tessera
