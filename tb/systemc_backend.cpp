// SPDX-License-Identifier: Apache-2.0
#include "systemc_backend.hpp"

#include <cstdlib>

#include "core_dispatch.hpp"
#include "shipped_tb_models.hpp"
#include "testbench.hpp"
#include "util/file_io.hpp"

namespace tessera::tb {
namespace {

bool open_now = false;  // a SystemC backend is open (one at a time: one testbench)

// The process's testbench of core V, made on first use (SystemC elaborates once) and
// reset for every backend opened after it.
template <class V>
Testbench<V>& shared_testbench(const Config& cfg, const std::string& wave_file) {
  static Testbench<V>* tb = nullptr;
  static std::string tb_wave;
  if (!tb) {
    tb = new Testbench<V>("tb", cfg, wave_file);
    tb_wave = wave_file;
  } else if (wave_file != tb_wave || (!wave_file.empty() && tb->waves_closed())) {
    throw DriverError("the SystemC testbench of this process was made " +
                      (tb_wave.empty() ? std::string("without waves") : "with waves to " + tb_wave + ", now closed") +
                      "; SystemC cannot make another");
  }
  return *tb;
}

template <class V>
class SystemCBackend : public Backend {
 public:
  SystemCBackend(const Config& cfg, const DeviceOptions& opts)
      : opts_(opts), tb_(shared_testbench<V>(cfg, opts.wave_file)) {
    MemorySettings m = memory_settings(cfg);
    for (const AddrRange& r : opts.bus_errors) m.errors.push_back({r, tlm::TLM_GENERIC_ERROR_RESPONSE});
    tb_.set_memory(m);
    tb_.reset();
    std::vector<uint8_t> zero(cfg.dram_bytes, 0);  // a fresh device: memory cleared
    tb_.write_mem(0, zero.data(), zero.size());
    open_now = true;
  }
  ~SystemCBackend() override {
    tb_.close_waves();  // the testbench lives on (SystemC cannot make another): finish the file now
    open_now = false;
  }
  std::string name() const override { return "systemc"; }
  void write_mem(uint32_t addr, const uint8_t* data, size_t len) override { tb_.write_mem(addr, data, len); }
  void read_mem(uint32_t addr, uint8_t* data, size_t len) override { tb_.read_mem(addr, data, len); }
  RunResult run(uint32_t entry, const RunLimits& limits) override {
    const RunResult r = tb_.run(entry, limits.max_cycles, opts_.watchdog_cycles);
    if (!opts_.trace_file.empty()) {
      try {
        write_file(opts_.trace_file, tb_.timeline().chrome_json(r.counters));
      } catch (const FileError& e) {
        throw DriverError("cannot write the trace to " + opts_.trace_file + " (" + e.reason() + ")");
      }
    }
    return r;
  }

 private:
  DeviceOptions opts_;
  Testbench<V>& tb_;
};

std::unique_ptr<Backend> make(const Config& cfg, const DeviceOptions& opts) {
  if (open_now) throw DriverError("the SystemC backend is already open in this process (one testbench at a time)");
  if (opts.wave_from != 0 || opts.wave_to != ~uint64_t{0})
    throw DriverError("--wave-from/--wave-to need --backend rtl; the SystemC backend writes whole runs");
  // SystemC prints its banner when the first module is made; keep tool output clean.
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);
  return sim::with_core_of<TESSERA_SHIPPED_CORE_CLASSES(Vtb_core_)>(
      cfg, [&](auto tag) -> std::unique_ptr<Backend> {
        return std::make_unique<SystemCBackend<typename decltype(tag)::type>>(cfg, opts);
      });
}

}  // namespace

void register_systemc_backend() { register_backend(BackendKind::SystemC, &make); }

}  // namespace tessera::tb
