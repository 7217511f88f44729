// SPDX-License-Identifier: Apache-2.0
// Run by CMake at configure time (cmake/TesseraCores.cmake), before anything is built:
// reads configs/cores.yaml and every configuration in configs/ with the real parser,
// and prints CMake code for the Verilated builds:
//   set(TESSERA_CORES n4 n8 ...)                          the shipped cores, in order
//   set(TESSERA_CORE_n4_CONFIG configs/n4.yaml)           each core's configuration
//   set(TESSERA_PARAMS_configs/n4.yaml -GArraySize=4;...)  each configuration's parameters
// usage: core_list_cmake SOURCE_DIR   (exit 1 with every error, file:line:col, on stderr)
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"

using namespace tessera;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: core_list_cmake SOURCE_DIR\n");
    return 2;
  }
  const std::string src = argv[1];
  try {
    std::vector<std::string> configs;
    for (const auto& e : std::filesystem::directory_iterator(src + "/configs"))
      if (e.path().extension() == ".yaml" && e.path().filename() != "cores.yaml")
        configs.push_back("configs/" + e.path().filename().string());
    std::sort(configs.begin(), configs.end());
    std::string out;
    for (const std::string& c : configs) {
      std::string flags;
      for (const std::string& p : core_params(load_config_file(src + "/" + c))) flags += (flags.empty() ? "" : ";") + p;
      out += "set(TESSERA_PARAMS_" + c + " \"" + flags + "\")\n";
    }
    std::string names;
    for (const CoreListEntry& core : load_core_list(src + "/configs/cores.yaml", src)) {
      if (std::find(configs.begin(), configs.end(), core.config) == configs.end())
        throw ConfigError(src + "/configs/cores.yaml: error: core '" + core.name + "': " + core.config +
                          " is not a configuration in configs/");
      names += " " + core.name;
      out += "set(TESSERA_CORE_" + core.name + "_CONFIG " + core.config + ")\n";
    }
    std::printf("set(TESSERA_CORES%s)\n%s", names.c_str(), out.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
