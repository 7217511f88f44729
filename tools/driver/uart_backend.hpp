// SPDX-License-Identifier: Apache-2.0
// The UART backend: programs run on a board (rtl/ice40/, docs/fpga.md), or on the
// simulated board behind a pseudo-terminal (tpu-board-sim), over the framed host link.
#pragma once

#include <memory>

#include "driver/device.hpp"

namespace tessera {

// Opens opts.port, checks that the board answers and that its core is the one `cfg`
// describes (DriverError otherwise).
std::unique_ptr<Backend> make_uart_backend(const Config& cfg, const DeviceOptions& opts);

}  // namespace tessera
