// SPDX-License-Identifier: Apache-2.0
// Configuration to RTL parameters, and the list of shipped cores.
#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "config/config.hpp"
#include "util/file_io.hpp"

namespace tessera {

std::vector<std::string> core_params(const Config& cfg) {
  const std::pair<const char*, uint32_t> params[] = {
      {"ArraySize", cfg.array_size}, {"UbRows", cfg.ub_rows},       {"AccRows", cfg.acc_rows},
      {"WfifoDepth", cfg.wfifo_depth}, {"DmaWidth", cfg.dma_width}, {"DramBytes", cfg.dram_bytes},
      {"GatherSegs", cfg.gather_segs}};
  std::vector<std::string> out;
  for (const auto& [name, value] : params) out.push_back(std::string("-G") + name + "=" + std::to_string(value));
  return out;
}

std::string core_param_flags(const Config& cfg) {
  std::string out;
  for (const std::string& p : core_params(cfg)) out += (out.empty() ? "" : " ") + p;
  return out;
}

std::vector<CoreListEntry> load_core_list(const std::string& path, const std::string& source_dir) {
  std::vector<std::string> errors;
  auto error = [&](const YAML::Mark& m, const std::string& msg) {
    errors.push_back(path + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) +
                     ": error: " + msg);
  };
  YAML::Node root;
  try {
    root = YAML::Load(read_file_text(path));
  } catch (const FileError& e) {
    throw ConfigError(path + ": error: cannot open the core list (" + e.reason() + ")");
  } catch (const YAML::Exception& e) {
    error(e.mark, "invalid YAML: " + e.msg);
    throw ConfigError(errors.front());
  }
  if (!root.IsMap() || root.size() == 0)
    throw ConfigError(path + ":1:1: error: the core list must be a mapping of name: configuration file");
  std::vector<CoreListEntry> cores;
  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string name = kv.first.Scalar();
    const bool ident = !name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") ==
                                            std::string::npos;
    if (!ident) {
      error(kv.first.Mark(), "core name '" + name + "' must be lowercase letters, digits and '_' (it names classes)");
      continue;
    }
    if (!seen.insert(name).second) {
      error(kv.first.Mark(), "core '" + name + "' is listed twice");
      continue;
    }
    if (!kv.second.IsScalar()) {
      error(kv.second.Mark(), "core '" + name + "': the value must be a configuration file");
      continue;
    }
    const std::string file = kv.second.Scalar();
    if (!std::ifstream(source_dir + "/" + file)) {
      error(kv.second.Mark(), "core '" + name + "': no configuration file " + file + " in " + source_dir);
      continue;
    }
    cores.push_back({name, file});
  }
  if (!errors.empty()) {
    std::string all;
    for (const auto& e : errors) all += (all.empty() ? "" : "\n") + e;
    throw ConfigError(all);
  }
  return cores;
}

}  // namespace tessera
