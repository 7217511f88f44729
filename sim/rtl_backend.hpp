// SPDX-License-Identifier: Apache-2.0
// The RTL backend of the host driver: programs run on the Verilated tpu_core of the
// configuration (one is built for each shipped core, configs/cores.yaml), in the C++ harness.
#pragma once

#include "driver/device.hpp"

namespace tessera::sim {

// Makes BackendKind::Rtl available to Device::open in this program.
void register_rtl_backend();

}  // namespace tessera::sim
