// SPDX-License-Identifier: Apache-2.0
#include "cli/cli_common.hpp"

#include <algorithm>
#include <fstream>

namespace tessera::cli {

Args::Args(int argc, char** argv) : args_(argv + 1, argv + argc) {}

bool Args::flag(const char* name) {
  if (done() || args_[i_] != name) return false;
  ++i_;
  return true;
}

bool Args::option(const char* name, std::string& value) {
  if (done()) return false;
  const std::string& a = args_[i_];
  const std::string prefix = std::string(name) + "=";
  if (a.compare(0, prefix.size(), prefix) == 0) {
    value = a.substr(prefix.size());
    ++i_;
    return true;
  }
  if (a != name) return false;
  if (i_ + 1 >= args_.size()) throw CliError{std::string(name) + " needs a value"};
  value = args_[i_ + 1];
  i_ += 2;
  return true;
}

std::string Args::positional() {
  const std::string& a = args_[i_];
  if (a.size() > 1 && a[0] == '-') throw CliError{"unknown option '" + a + "'"};
  ++i_;
  return a;
}

Config load_config_arg(const std::string& path) {
  return load_config_file(path.empty() ? default_config_path() : path);
}

void write_file_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();  // (a full device refuses the bytes only when the buffer is flushed)
  if (!out) throw CliError{"cannot write '" + path + "'"};
}

uint64_t parse_number(const std::string& text, const char* what) {
  size_t used = 0;
  uint64_t v = 0;
  try {
    if (!text.empty() && text[0] != '-') v = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw CliError{std::string(what) + " must be a non-negative number, got '" + text + "'"};
  return v;
}

const char* const kLinkUsage =
    "  --port     (uart) the board's serial port, e.g. /dev/ttyUSB1 (tpu-board-sim prints its own)\n"
    "  --baud     (uart) baud rate (default 115200, as the board's bitstream)\n"
    "  --link-timeout MS, --link-tries N  (uart) wait per reply (default 500), attempts per request (4)\n";

bool link_option(Args& args, DeviceOptions& opts) {
  std::string value;
  if (args.option("--port", opts.port)) return true;
  if (args.option("--baud", value)) {
    opts.baud = unsigned(parse_number(value, "--baud"));
  } else if (args.option("--link-timeout", value)) {
    opts.link_timeout_ms = int(std::min<uint64_t>(parse_number(value, "--link-timeout"), 3600000));
  } else if (args.option("--link-tries", value)) {
    opts.link_tries = int(std::min<uint64_t>(parse_number(value, "--link-tries"), 1000));
  } else {
    return false;
  }
  return true;
}

}  // namespace tessera::cli
