// SPDX-License-Identifier: Apache-2.0
// The host driver: one API over every backend (golden model, RTL, SystemC, a board).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "image/image.hpp"
#include "isa/arch.hpp"
#include "model/golden_model.hpp"

namespace tessera {

class DriverError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunLimits {
  // 0 = no limit. The model has no clock: on it this bounds retired instructions.
  uint64_t max_cycles = 0;
};

struct RunResult {
  Status status;
  Counters counters;
  bool limit_reached = false;  // stopped by RunLimits, not by HALT or an error
  std::optional<std::string> hang;  // timed backends: the watchdog's report of a stuck core
  bool ok() const { return status.state == RunState::Done && !limit_reached; }
};

// What a backend provides. Device memory is the only state the host touches directly.
class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual void write_mem(uint32_t addr, const uint8_t* data, size_t len) = 0;
  virtual void read_mem(uint32_t addr, uint8_t* data, size_t len) = 0;
  virtual RunResult run(uint32_t entry, const RunLimits& limits) = 0;
};

// Model: the golden model. Rtl: the Verilated core in a plain C++ harness (fast).
// SystemC: the Verilated core in the SystemC/TLM-2.0 testbench (tb/). Uart: a board
// (or the simulated board) over its serial host link.
enum class BackendKind { Model, Rtl, SystemC, Uart };

struct DeviceOptions {
  BackendKind backend = BackendKind::Model;
  // Device memory answers accesses in these ranges with a bus error. Both ends must be
  // multiples of kBusErrorGranule: the RTL reads whole bus beats, so a beat is then
  // entirely inside or outside a range on every backend.
  std::vector<AddrRange> bus_errors;
  // RTL and SystemC backends only: FST waves of cycles [wave_from, wave_to], the instruction
  // timeline as Chrome trace-event JSON, and the watchdog's patience in cycles.
  std::string wave_file;
  uint64_t wave_from = 0, wave_to = ~uint64_t{0};
  std::string trace_file;
  uint64_t watchdog_cycles = 100000;
  // Uart backend only: the serial port, its baud rate, how long to wait for each reply
  // and how often to send a request before giving up.
  std::string port;
  unsigned baud = 115200;
  int link_timeout_ms = 500;
  int link_tries = 4;
};

// Backends that live outside the driver library (the RTL backend needs the Verilated
// core) register a factory; Device::open uses it for their kind.
using BackendFactory = std::unique_ptr<Backend> (*)(const Config&, const DeviceOptions&);
void register_backend(BackendKind kind, BackendFactory factory);

constexpr uint32_t kBusErrorGranule = 64;  // bytes: the widest DMA beat (512 bits)

BackendKind parse_backend_name(const std::string& name);  // throws DriverError

class Device {
 public:
  Device(const Config& cfg, std::unique_ptr<Backend> backend);
  static std::unique_ptr<Device> open(const Config& cfg, const DeviceOptions& opts = {});

  const Config& config() const { return cfg_; }
  std::string backend_name() const { return backend_->name(); }

  // Checks the image against the configuration, then writes its sections.
  void load(const Image& img, const std::string& name = "image");
  const Image& image() const;
  const Symbol& symbol(const std::string& name) const;

  // By symbol: `data` may be shorter than the symbol, never longer.
  void write(const std::string& symbol_name, const std::vector<uint8_t>& data);
  std::vector<uint8_t> read(const std::string& symbol_name);
  void write_mem(uint32_t addr, const std::vector<uint8_t>& data);
  std::vector<uint8_t> read_mem(uint32_t addr, size_t len);

  RunResult run(const RunLimits& limits = {});
  const std::optional<RunResult>& last_result() const { return last_; }

 private:
  void check_range(uint64_t addr, uint64_t len, const char* what) const;

  Config cfg_;
  std::unique_ptr<Backend> backend_;
  std::optional<Image> image_;
  std::optional<RunResult> last_;
};

}  // namespace tessera
