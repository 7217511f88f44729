// SPDX-License-Identifier: Apache-2.0
// Runs code on the Verilated core built for a configuration: f(tag) is called with a
// tag whose ::type is the core's class (Vcore_n4, ..., one per shipped core in
// configs/cores.yaml; generated/shipped_cores.hpp lists them).
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <utility>

#ifdef TESSERA_COVERAGE
#include "Vcore_n4_cov.h"
#elif !defined(TESSERA_DISPATCH_ONLY)
#include "shipped_core_models.hpp"
#endif
#include "config/config.hpp"
#include "driver/device.hpp"
#include "shipped_cores.hpp"

namespace tessera::sim {

template <class V> struct CoreTag { using type = V; };

// Whether that shipped core was built with cfg's parameters (core_params).
inline bool built_for(const Config& cfg, const ShippedCore& core) { return core_param_flags(cfg) == core.params; }

// f(CoreTag<V>) for the first of the classes V (kShippedCores' order, from index i on)
// whose core was built for cfg.
template <class V, class... Rest, class F>
auto with_core_from(const Config& cfg, size_t i, F&& f) -> decltype(f(CoreTag<V>{})) {
  if (built_for(cfg, kShippedCores[i])) return f(CoreTag<V>{});
  if constexpr (sizeof...(Rest) == 0) {
    std::string list;
    for (const ShippedCore& c : kShippedCores) list += std::string(list.empty() ? "" : ", ") + c.config;
    throw DriverError("no Verilated core is built with the parameters of " + cfg.source + " (" +
                      core_param_flags(cfg) + "); the shipped cores are " + list + " (configs/cores.yaml)");
  } else {
    return with_core_from<Rest...>(cfg, i + 1, std::forward<F>(f));
  }
}

// The shipped cores' classes, one per kShippedCores entry, in order:
// with_core_of<TESSERA_SHIPPED_CORE_CLASSES(Vcore_)>(cfg, f).
template <class... V, class F>
auto with_core_of(const Config& cfg, F&& f) {
  static_assert(sizeof...(V) == std::size(kShippedCores), "one class per shipped core");
  return with_core_from<V...>(cfg, 0, std::forward<F>(f));
}

#ifdef TESSERA_COVERAGE
// The core built with Verilator coverage (make coverage): the shipped core n4's.
template <class F>
auto with_core(const Config& cfg, F&& f) {
  const ShippedCore& n4 = shipped_core("n4");
  if (built_for(cfg, n4)) return f(CoreTag<Vcore_n4_cov>{});
  throw DriverError(std::string("the coverage core is built for ") + n4.config + " only, not " + cfg.source);
}
#elif !defined(TESSERA_DISPATCH_ONLY)
// The plain C++ cores (sim/CMakeLists.txt).
template <class F>
auto with_core(const Config& cfg, F&& f) {
  return with_core_of<TESSERA_SHIPPED_CORE_CLASSES(Vcore_)>(cfg, std::forward<F>(f));
}
#endif

}  // namespace tessera::sim
