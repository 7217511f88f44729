// SPDX-License-Identifier: Apache-2.0
// Seed for randomized tests: printed once per run; TESSERA_SEED replays it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

namespace tessera::test {

inline uint32_t test_seed() {
  static const uint32_t seed = [] {
    const char* env = std::getenv("TESSERA_SEED");
    const uint32_t s = env ? static_cast<uint32_t>(std::strtoul(env, nullptr, 0)) : std::random_device{}();
    std::fprintf(stderr, "test seed: TESSERA_SEED=%u\n", s);
    return s;
  }();
  return seed;
}

}  // namespace tessera::test
