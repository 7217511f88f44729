// SPDX-License-Identifier: Apache-2.0
#include "driver/device.hpp"

#include "driver/model_backend.hpp"
#include "driver/uart_backend.hpp"

namespace tessera {

namespace {
// Factories of the backends that live outside this library, by BackendKind.
BackendFactory& factory_of(BackendKind kind) {
  static BackendFactory f[4] = {};
  return f[static_cast<int>(kind)];
}
}  // namespace

void register_backend(BackendKind kind, BackendFactory factory) {
  if (kind != BackendKind::Model) factory_of(kind) = factory;
}

BackendKind parse_backend_name(const std::string& name) {
  if (name == "model") return BackendKind::Model;
  if (name == "rtl") return BackendKind::Rtl;
  if (name == "systemc") return BackendKind::SystemC;
  if (name == "uart") return BackendKind::Uart;
  throw DriverError("unknown backend '" + name + "' (available: model, rtl, systemc, uart)");
}

Device::Device(const Config& cfg, std::unique_ptr<Backend> backend)
    : cfg_(cfg), backend_(std::move(backend)) {}

std::unique_ptr<Device> Device::open(const Config& cfg, const DeviceOptions& opts) {
  validate_config(cfg);
  for (const auto& r : opts.bus_errors) {
    if (r.lo % kBusErrorGranule || r.hi % kBusErrorGranule || r.hi <= r.lo)
      throw DriverError("bus-error range [" + std::to_string(r.lo) + ", " + std::to_string(r.hi) +
                        ") must be non-empty with both ends multiples of " +
                        std::to_string(kBusErrorGranule) + " bytes");
  }
  switch (opts.backend) {
    case BackendKind::Model:
      if (!opts.wave_file.empty() || !opts.trace_file.empty())
        throw DriverError("waves and traces need an RTL backend (--backend rtl or systemc)");
      return std::make_unique<Device>(cfg, std::make_unique<ModelBackend>(cfg, opts.bus_errors));
    case BackendKind::Rtl:
    case BackendKind::SystemC:
      if (!factory_of(opts.backend))
        throw DriverError(std::string("this program was built without the ") +
                          (opts.backend == BackendKind::Rtl ? "RTL" : "SystemC") + " backend");
      return std::make_unique<Device>(cfg, factory_of(opts.backend)(cfg, opts));
    case BackendKind::Uart:
      if (!opts.wave_file.empty() || !opts.trace_file.empty())
        throw DriverError("waves and traces need a simulated core (--backend rtl or systemc)");
      if (!opts.bus_errors.empty())
        throw DriverError("bus-error ranges exist only in simulation; a board has none");
      return std::make_unique<Device>(cfg, make_uart_backend(cfg, opts));
  }
  throw DriverError("unsupported backend");
}

void Device::check_range(uint64_t addr, uint64_t len, const char* what) const {
  if (addr + len > cfg_.dram_bytes)
    throw DriverError(std::string(what) + " of " + std::to_string(len) + " bytes at " +
                      std::to_string(addr) + " is outside device memory (" +
                      std::to_string(cfg_.dram_bytes) + " bytes)");
}

void Device::load(const Image& img, const std::string& name) {
  try {
    check_image_fits(img, cfg_, name);
  } catch (const ImageError& e) {
    throw DriverError(e.what());
  }
  for (const auto& s : img.sections)
    if (!s.bytes.empty()) backend_->write_mem(s.addr, s.bytes.data(), s.bytes.size());  // (an empty one's data() may be null)
  image_ = img;
  last_.reset();
}

const Image& Device::image() const {
  if (!image_) throw DriverError("no image loaded");
  return *image_;
}

const Symbol& Device::symbol(const std::string& name) const {
  const Symbol* s = image().find_symbol(name);
  if (!s) {
    std::string known;
    for (const auto& sym : image_->symbols) known += (known.empty() ? "" : ", ") + sym.name;
    throw DriverError("no symbol '" + name + "' in the image (it has: " +
                      (known.empty() ? "none" : known) + ")");
  }
  return *s;
}

void Device::write(const std::string& symbol_name, const std::vector<uint8_t>& data) {
  const Symbol& s = symbol(symbol_name);
  if (data.size() > s.size)
    throw DriverError("'" + symbol_name + "' holds " + std::to_string(s.size) + " bytes, got " +
                      std::to_string(data.size()));
  write_mem(s.addr, data);
}

std::vector<uint8_t> Device::read(const std::string& symbol_name) {
  const Symbol& s = symbol(symbol_name);
  return read_mem(s.addr, s.size);
}

void Device::write_mem(uint32_t addr, const std::vector<uint8_t>& data) {
  check_range(addr, data.size(), "write");
  if (!data.empty()) backend_->write_mem(addr, data.data(), data.size());
}

std::vector<uint8_t> Device::read_mem(uint32_t addr, size_t len) {
  check_range(addr, len, "read");
  std::vector<uint8_t> out(len);
  if (len) backend_->read_mem(addr, out.data(), len);
  return out;
}

RunResult Device::run(const RunLimits& limits) {
  const uint32_t entry = image().entry;
  last_ = backend_->run(entry, limits);
  return *last_;
}

}  // namespace tessera
