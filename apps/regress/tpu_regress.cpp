// SPDX-License-Identifier: Apache-2.0
// tpu-regress: constrained-random differential regression. Each seed makes a program
// (legal, or with one planted architectural error) and a device-memory timing, runs it
// on the Verilated core and on the golden model, and compares them (harness/
// differential.hpp). Prints a summary table; a failing seed prints its report and the
// command that replays it with waves.
#include <cstdio>
#include <map>
#include <memory>
#include <random>

#include "cli/cli_common.hpp"
#include "core_dispatch.hpp"
#include "coverage_report.hpp"
#include "csr_sweep.hpp"
#include "differential.hpp"
#include "progen/random_program.hpp"
#ifndef TESSERA_COVERAGE
#include "Vcore_n4_serial_act.h"
#include "Vlite_icebreaker.h"
#include "Vsmall_icebreaker.h"
#endif

using namespace tessera;
using namespace tessera::sim;

static const char* kUsage =
    "usage: tpu-regress [--config FILE] [--seeds N] [--first-seed S] [--seed S [--wave FILE.fst]]\n"
    "                   [--instructions K] [--coverage FILE.dat] [--core full|small|lite|serial-act]\n"
    "  Runs N seeds (default 100) from S (default 1); every fifth seed plants an error.\n"
    "  --seed S runs that seed alone (with --wave: and writes its waves).\n"
    "  --coverage  print functional coverage of the ISA; in tpu-regress-cov (make coverage)\n"
    "              also write Verilator coverage to FILE.dat and print line/toggle coverage\n"
    "              per module\n"
    "  --core small  run on the small core (rtl/tpu_small_core.v), built for\n"
    "              configs/icebreaker.yaml; --core lite on the lite core (rtl/tpu_lite_core.v)\n"
    "              for the same; --core serial-act on the N = 4 core with one\n"
    "              requantization lane (SerialAct = 1) and its last two rows' products in\n"
    "              logic (LogicRows = 2), built for configs/n4.yaml\n"
    "  Exit code 0 only when every run matched the golden model.\n";

namespace {

// make coverage's targets over rtl/: line (statements and branches) and toggle coverage.
[[maybe_unused]] constexpr double kLineTarget = 95.0, kToggleTarget = 80.0;

struct Row {
  int runs = 0, passed = 0;
  uint64_t cycles = 0, instructions = 0;
};

ErrorCode planted(uint64_t seed) {
  return seed % 5 == 4 ? ErrorCode(1 + (seed / 5) % 7) : ErrorCode::None;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    cli::Args args(argc, argv);
    std::string config_path, value, wave, coverage, core = "full";
    uint64_t seeds = 100, first = 1, instructions = 40;
    bool single = false;
    while (!args.done()) {
      if (args.flag("--help") || args.flag("-h")) {
        std::fputs(kUsage, stdout);
        return 0;
      }
      if (args.option("--config", config_path) || args.option("--wave", wave) ||
          args.option("--coverage", coverage) || args.option("--core", core)) {}
      else if (args.option("--seeds", value)) seeds = cli::parse_number(value, "--seeds");
      else if (args.option("--first-seed", value)) first = cli::parse_number(value, "--first-seed");
      else if (args.option("--seed", value)) first = cli::parse_number(value, "--seed"), seeds = 1, single = true;
      else if (args.option("--instructions", value)) instructions = cli::parse_number(value, "--instructions");
      else throw cli::CliError{"unexpected argument '" + args.positional() + "'"};
    }
    if (!wave.empty() && !single) throw cli::CliError{"--wave needs --seed"};
    if (core != "full" && core != "small" && core != "lite" && core != "serial-act")
      throw cli::CliError{"--core must be full, small, lite or serial-act, not '" + core + "'"};
    const Config cfg = cli::load_config_arg(config_path);
    const std::string cfg_arg = (config_path.empty() ? "" : " --config " + config_path) + (core == "full" ? "" : " --core " + core);
    std::map<std::string, Row> table;
    FunctionalCoverage functional;
    int failures = 0;
    auto regress = [&](auto tag) {
      using V = typename decltype(tag)::type;
      std::unique_ptr<CoreSim<V>> shared;  // coverage: one model collects every run
      for (uint64_t seed = first; seed < first + seeds; ++seed) {
        RandomProgramOptions o;
        o.instructions = int(instructions);
        o.inject = planted(seed);
        const RandomProgram p = random_program(cfg, seed, o);
        std::mt19937 rng(uint32_t(seed * 2654435761u));
        SimOptions opt;
        opt.timing = random_mem_timing(rng, cfg.dma_width / 8);
        // The small core computes an `act` lane by lane with no bus traffic: one over every
        // accumulator row runs about 300 cycles a row without the watchdog's signs of life.
        if (core == "small" || core == "lite") opt.watchdog_cycles = 400 * uint64_t(cfg.acc_rows) + 100000;
        DiffResult d;
#ifdef TESSERA_COVERAGE
        if (!shared) shared = std::make_unique<CoreSim<V>>(cfg, opt);
        shared->restart(opt);
        CoreSim<V>& sim = *shared;
#else
        CoreSim<V> sim(cfg, opt);
        if (!wave.empty()) sim.enable_wave(wave);
#endif
        d = differential_run_on(sim, cfg, {p.dram, p.entry, p.bus_errors});
        // a program meant to be legal must end in DONE (the generator's own check)
        if (d.match && o.inject == ErrorCode::None && d.model.state != RunState::Done)
          d.match = false, d.report = std::string("the generator's legal program ended in ") + error_name(d.model.error);
        // then the register map as the host sees it after the run
        if (d.match) {
          const std::string sweep = csr_sweep(sim, cfg, d.rtl, rng);
          if (!sweep.empty()) d.match = false, d.report = sweep;
        }
        functional.add(p, d);
        Row& row = table[o.inject == ErrorCode::None ? "legal" : std::string("error ") + error_name(o.inject)];
        row.runs++;
        row.passed += d.match;
        row.cycles += d.rtl.counters.cycles.value_or(0);
        row.instructions += d.model_counters.instructions;
        if (!d.match || single) {
          std::printf("seed %llu: %s\n", static_cast<unsigned long long>(seed), d.report.c_str());
          if (single && d.match) std::printf("%s", p.listing().c_str());  // (--seed: the program too)
        }
        if (!d.match) {
          ++failures;
          std::printf("%s  replay with waves: build/bin/tpu-regress%s --seed %llu --wave seed-%llu.fst\n",
                      p.listing().c_str(), cfg_arg.c_str(), static_cast<unsigned long long>(seed),
                      static_cast<unsigned long long>(seed));
        }
      }
#ifdef TESSERA_COVERAGE
      if (!coverage.empty()) Verilated::threadContextp()->coveragep()->write(coverage.c_str());
#endif
      return 0;
    };
    if (core != "full") {
#ifdef TESSERA_COVERAGE
      throw cli::CliError{"the coverage build has the full N = 4 core only"};
#else
      const ShippedCore model =
          core == "small" ? ShippedCore{"small_icebreaker", TESSERA_small_icebreaker_CONFIG, TESSERA_small_icebreaker_PARAMS}
          : core == "lite" ? ShippedCore{"lite_icebreaker", TESSERA_lite_icebreaker_CONFIG, TESSERA_lite_icebreaker_PARAMS}
                           : ShippedCore{"core_n4_serial_act", TESSERA_core_n4_serial_act_CONFIG, TESSERA_core_n4_serial_act_PARAMS};
      if (!built_for(cfg, model))
        throw cli::CliError{"--core " + core + " is built for " + model.config + " only, not " + cfg.summary()};
      if (core == "small") regress(CoreTag<Vsmall_icebreaker>{});
      else if (core == "lite") regress(CoreTag<Vlite_icebreaker>{});
      else regress(CoreTag<Vcore_n4_serial_act>{});
#endif
    } else {
      with_core(cfg, regress);
    }
    std::printf("\n%-22s %6s %6s %6s %14s %12s\n", "programs", "runs", "pass", "fail", "instructions",
                "RTL cycles");
    Row total;
    for (const auto& [name, r] : table) {
      std::printf("%-22s %6d %6d %6d %14llu %12llu\n", name.c_str(), r.runs, r.passed, r.runs - r.passed,
                  static_cast<unsigned long long>(r.instructions), static_cast<unsigned long long>(r.cycles));
      total.runs += r.runs, total.passed += r.passed, total.cycles += r.cycles, total.instructions += r.instructions;
    }
    std::printf("%-22s %6d %6d %6d %14llu %12llu\n", "total", total.runs, total.passed,
                total.runs - total.passed, static_cast<unsigned long long>(total.instructions),
                static_cast<unsigned long long>(total.cycles));
    bool covered = true;
    if (!coverage.empty()) {
      std::printf("\n%s", functional.report().c_str());
      covered = functional.complete();
#ifdef TESSERA_COVERAGE
      double line_pct = 0, toggle_pct = 0;
      std::printf("\n%s", rtl_coverage_report(coverage, &line_pct, &toggle_pct).c_str());
      std::printf("line coverage of rtl/: %.1f%% (target %.0f%%), toggle coverage: %.1f%% (target %.0f%%)\n",
                  line_pct, kLineTarget, toggle_pct, kToggleTarget);
      covered = covered && line_pct >= kLineTarget && toggle_pct >= kToggleTarget;
#else
      std::printf("(line and toggle coverage: make coverage)\n");
#endif
    }
    if (!covered) std::printf("tpu-regress: coverage below target\n");
    std::printf("tpu-regress: %s (%s): %d of %d runs match the golden model\n",
                failures ? "FAILED" : "OK", cfg.summary().c_str(), total.passed, total.runs);
    return failures || !covered ? 1 : 0;
  } catch (const cli::CliError& e) {
    std::fprintf(stderr, "tpu-regress: error: %s\n", e.message.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tpu-regress: error: %s\n", e.what());
  }
  return 1;
}
