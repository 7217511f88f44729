// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the configuration loader (every tool's --config). A text is refused with
// "source:line:col: error: ..." lines, or it is a valid configuration whose summary (an
// image's record of it) reads back to the same architecture.
#include <cstdint>
#include <sstream>
#include <string>

#include "config/config.hpp"
#include "fuzz_check.hpp"

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  Config cfg;
  try {
    cfg = parse_config(text, "f.yaml");
  } catch (const ConfigError& e) {
    std::istringstream lines(e.what());
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
      ++n;
      FUZZ_CHECK(line.rfind("f.yaml:", 0) == 0 && line.find(": error: ") != std::string::npos,
                 "each error line is file:line:col: error: ...");
    }
    FUZZ_CHECK(n > 0, "a refusal says why");
    return 0;
  }
  validate_config(cfg);  // (throws if parse_config let an invalid configuration through)
  FUZZ_CHECK(!core_params(cfg).empty(), "a configuration sets the core's parameters");
  const std::optional<Config> back = config_from_summary(cfg.summary());
  FUZZ_CHECK(back && back->summary() == cfg.summary() && back->fingerprint() == cfg.fingerprint(),
             "the summary reads back to the same architecture");
  return 0;
}
