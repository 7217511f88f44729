// SPDX-License-Identifier: Apache-2.0
// What the command-line tools share: argument scanning, config loading, file I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "driver/device.hpp"

namespace tessera::cli {

// Thrown for a usage or input problem; main() prints "<tool>: error: <what>" and exits 1.
struct CliError {
  std::string message;
};

// Walks argv; options are "--name VALUE", "--name=VALUE" or bare "--flag".
class Args {
 public:
  Args(int argc, char** argv);
  bool done() const { return i_ >= args_.size(); }
  // True if the current argument is the option `name`; consumes it (and its value).
  bool flag(const char* name);
  bool option(const char* name, std::string& value);
  // The next positional argument; CliError on an unknown option.
  std::string positional();

 private:
  std::vector<std::string> args_;
  size_t i_ = 0;
};

Config load_config_arg(const std::string& path);  // "" = the default configuration
void write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes);
uint64_t parse_number(const std::string& text, const char* what);

// The board link's options, shared by every tool that opens a device: --port, --baud,
// --link-timeout MS, --link-tries N. True if the current argument was one of them.
bool link_option(Args& args, DeviceOptions& opts);
extern const char* const kLinkUsage;

}  // namespace tessera::cli
