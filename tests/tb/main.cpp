// SPDX-License-Identifier: Apache-2.0
// SystemC calls sc_main; Catch2 runs the tests from there (one testbench per process).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <systemc>

#include <cstdlib>

namespace {
// SystemC prints its banner when it starts, before sc_main; test discovery reads stdout.
const int quiet_systemc = setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
}  // namespace

int sc_main(int argc, char** argv) { return Catch::Session().run(argc, argv); }
