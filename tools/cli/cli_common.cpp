// SPDX-License-Identifier: Apache-2.0
#include "cli/cli_common.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "util/file_io.hpp"
#include "util/number.hpp"
#include "util/shown.hpp"

namespace tessera::cli {

namespace {

char g_tool[64] = "tool";

// What a tool printed must have reached its standard output: checked at exit, when the
// last of it is flushed (`tpu-objdump x.img > /dev/full` is an error, exit code 1).
void check_stdout() {
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fprintf(stderr, "%s: error: cannot write the standard output (%s)\n", g_tool, std::strerror(errno));
    std::_Exit(1);
  }
}

}  // namespace

Args::Args(int argc, char** argv) : args_(argv + 1, argv + argc) {
  if (argc > 0) {
    const char* slash = std::strrchr(argv[0], '/');
    std::snprintf(g_tool, sizeof g_tool, "%s", slash ? slash + 1 : argv[0]);
  }
  static const bool registered = std::atexit(check_stdout) == 0;
  (void)registered;
}

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
  try {
    write_file(path, std::string(bytes.begin(), bytes.end()));
  } catch (const FileError& e) {
    throw CliError{"cannot write '" + path + "' (" + e.reason() + ")"};
  }
}

uint64_t parse_number(const std::string& text, const char* what) {
  const std::optional<uint64_t> v = parse_unsigned(text);
  if (!v) throw CliError{std::string(what) + " must be a non-negative number, got '" + shown(text) + "'"};
  return *v;
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
