// SPDX-License-Identifier: Apache-2.0
// Runs code on the Verilated core built for a configuration: f(tag) is called with a
// tag whose ::type is the core's class (Vcore_n4, Vcore_n8 or Vcore_n16).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>

#ifdef TESSERA_COVERAGE
#include "Vcore_n4_cov.h"
#elif !defined(TESSERA_DISPATCH_ONLY)
#include "Vcore_n16.h"
#include "Vcore_n4.h"
#include "Vcore_n8.h"
#endif
#include "config/config.hpp"
#include "driver/device.hpp"

namespace tessera::sim {

template <class V> struct CoreTag { using type = V; };

inline bool same_core(const Config& a, const Config& b) {
  return a.array_size == b.array_size && a.ub_rows == b.ub_rows && a.acc_rows == b.acc_rows &&
         a.wfifo_depth == b.wfifo_depth && a.dma_width == b.dma_width && a.dram_bytes == b.dram_bytes &&
         a.gather_segs == b.gather_segs;
}

#ifdef TESSERA_COVERAGE
// The core built with Verilator coverage (make coverage): configs/n4.yaml.
template <class F>
auto with_core(const Config& cfg, const std::string& source_dir, F&& f) {
  if (same_core(cfg, load_config_file(source_dir + "/configs/n4.yaml"))) return f(CoreTag<Vcore_n4_cov>{});
  throw DriverError("the coverage core is built for configs/n4.yaml only, not " + cfg.summary());
}
#else
// The shipped configurations, one Verilated core each: f(CoreTag<N4>), f(CoreTag<N8>) or
// f(CoreTag<N16>) for configs/n4.yaml, configs/n8.yaml and configs/default.yaml.
template <class N4, class N8, class N16, class F>
auto with_core_of(const Config& cfg, const std::string& source_dir, F&& f) {
  if (same_core(cfg, load_config_file(source_dir + "/configs/n4.yaml"))) return f(CoreTag<N4>{});
  if (same_core(cfg, load_config_file(source_dir + "/configs/n8.yaml"))) return f(CoreTag<N8>{});
  if (same_core(cfg, load_config_file(source_dir + "/configs/default.yaml"))) return f(CoreTag<N16>{});
  throw DriverError("no Verilated core matches the configuration " + cfg.summary() +
                    " (cores are built for configs/n4.yaml, configs/n8.yaml and configs/default.yaml)");
}

#ifndef TESSERA_DISPATCH_ONLY
// The plain C++ cores (sim/CMakeLists.txt).
template <class F>
auto with_core(const Config& cfg, const std::string& source_dir, F&& f) {
  return with_core_of<Vcore_n4, Vcore_n8, Vcore_n16>(cfg, source_dir, std::forward<F>(f));
}
#endif
#endif

}  // namespace tessera::sim
