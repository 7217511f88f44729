// SPDX-License-Identifier: Apache-2.0
// The driver's SystemC backend (`tpu-run --backend systemc`): the Verilated core in
// the SystemC testbench, registers through its AXI4-Lite master, device memory in
// its TLM-2.0 target. SystemC elaborates once per process, so the process keeps one
// testbench per core configuration and each backend opened resets it: backends can be
// opened one after another, not two at a time.
#pragma once

namespace tessera::tb {

// Registers the factory for BackendKind::SystemC with the driver.
void register_systemc_backend();

}  // namespace tessera::tb
