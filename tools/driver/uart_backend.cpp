// SPDX-License-Identifier: Apache-2.0
#include "driver/uart_backend.hpp"

#include "driver/csr_access.hpp"
#include "driver/uart_link.hpp"

namespace tessera {

namespace {

class UartBackend : public Backend {
 public:
  UartBackend(const Config& cfg, const DeviceOptions& opts)
      : link_(std::make_unique<SerialPort>(opts.port, opts.baud), link_options(opts)),
        watchdog_cycles_(opts.watchdog_cycles) {
    const auto read = [this](uint8_t a) { return link_.csr_read(a); };
    const uint32_t id = read(csr::kId);
    if (id != csr::kIdValue)
      throw DriverError("the device on " + opts.port + " is not a Tessera core (ID register " + hex(id) + ")");
    try {
      check_core_config(read, cfg);
    } catch (const DriverError& e) {
      throw DriverError(std::string("board on ") + opts.port + ": " + e.what());
    }
  }

  std::string name() const override { return "uart " + link_.port_name(); }
  void write_mem(uint32_t addr, const uint8_t* data, size_t len) override { link_.mem_write(addr, data, len); }
  void read_mem(uint32_t addr, uint8_t* data, size_t len) override { link_.mem_read(addr, data, len); }

  // Starts the core and polls STATUS. A run over max_cycles, or one that makes no
  // progress (no counter moves) for the watchdog's cycles, is stopped by a soft reset.
  RunResult run(uint32_t entry, const RunLimits& limits) override {
    link_.csr_write(csr::kIrq, 1);
    link_.csr_write(csr::kEntry, entry);
    const auto read = [this](uint8_t a) { return link_.csr_read(a); };
    start();
    RunResult res;
    uint64_t progress_at = 0, last_work = ~uint64_t{0};
    while (true) {
      const auto state = static_cast<RunState>((link_.csr_read(csr::kStatus) >> csr::kStatusStateLsb) & 3);
      if (state == RunState::Done || state == RunState::Error) break;
      const uint64_t cycles = read_counter(read, CounterId::Cycles);
      const uint64_t work = read_counter(read, CounterId::Instructions) +
                            read_counter(read, CounterId::DramReadBytes) +
                            read_counter(read, CounterId::DramWriteBytes) + read_counter(read, CounterId::Macs);
      if (work != last_work) {
        last_work = work;
        progress_at = cycles;
      }
      if (limits.max_cycles && cycles >= limits.max_cycles) {
        res.limit_reached = true;
      } else if (cycles - progress_at > watchdog_cycles_) {
        res.hang = "no progress for " + std::to_string(cycles - progress_at) + " cycles at pc " +
                   hex(link_.csr_read(csr::kPc)) + " (the core was stopped by a soft reset)";
      } else {
        continue;
      }
      read_run_state(read, res);
      link_.csr_write(csr::kControl, csr::kSoftReset);
      return res;
    }
    read_run_state(read, res);
    return res;
  }

 private:
  // A start must not reach the core twice (a second one would run the program again
  // after this run ends): when its reply is lost, the run state tells whether it arrived.
  void start() {
    for (int attempt = 0; attempt < link_.options().tries; ++attempt) {
      if (link_.csr_write_once(csr::kControl, csr::kStart)) return;
      const auto state = static_cast<RunState>((link_.csr_read(csr::kStatus) >> csr::kStatusStateLsb) & 3);
      if (state == RunState::Running || (link_.csr_read(csr::kIrq) >> csr::kIrqPendingBit & 1)) return;
    }
    throw DriverError("starting the run: no reply from the board on " + link_.port_name() + " after " +
                      std::to_string(link_.options().tries) + " tries");
  }

  static LinkOptions link_options(const DeviceOptions& o) {
    LinkOptions l;
    l.timeout_ms = o.link_timeout_ms;
    l.tries = o.link_tries;
    return l;
  }
  static std::string hex(uint32_t v) {
    char b[16];
    std::snprintf(b, sizeof b, "0x%x", v);
    return b;
  }

  UartLink link_;
  uint64_t watchdog_cycles_;
};

}  // namespace

std::unique_ptr<Backend> make_uart_backend(const Config& cfg, const DeviceOptions& opts) {
  if (opts.port.empty()) throw DriverError("the UART backend needs a serial port (--port /dev/ttyUSB1)");
  return std::make_unique<UartBackend>(cfg, opts);
}

}  // namespace tessera
