// SPDX-License-Identifier: Apache-2.0
// Coverage reports for `make coverage`: per-module line and toggle coverage from a
// Verilator coverage file, and functional coverage of the ISA from the regression.
#pragma once

#include <map>
#include <set>
#include <string>

#include "differential.hpp"
#include "progen/random_program.hpp"

namespace tessera::sim {

// Per-module table from a Verilator coverage.dat; *line_pct and *toggle_pct receive the
// line (lines and branches) and toggle coverage over all of rtl/.
std::string rtl_coverage_report(const std::string& dat_path, double* line_pct, double* toggle_pct);

class FunctionalCoverage {
 public:
  void add(const RandomProgram& p, const DiffResult& d);
  std::string report() const;
  bool complete() const;

 private:
  std::map<std::string, int> bins_;  // bin -> hits (every bin listed, hit or not)
  void hit(const std::string& bin) { bins_[bin]++; }
  void ensure_bins();
};

}  // namespace tessera::sim
