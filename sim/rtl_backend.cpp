// SPDX-License-Identifier: Apache-2.0
#include "rtl_backend.hpp"

#include "core_dispatch.hpp"
#include "core_sim.hpp"
#include "isa/isa.hpp"
#include "timeline.hpp"
#include "util/file_io.hpp"

namespace tessera::sim {
namespace {

template <class V>
class RtlBackend : public Backend {
 public:
  RtlBackend(const Config& cfg, const DeviceOptions& opts) : opts_(opts), sim_(cfg, options(cfg, opts)) {
    sim_.memory().set_bus_errors(opts.bus_errors);
    if (!opts.wave_file.empty()) sim_.enable_wave(opts.wave_file, opts.wave_from, opts.wave_to);
  }
  std::string name() const override { return "rtl"; }
  void write_mem(uint32_t addr, const uint8_t* data, size_t len) override {
    std::copy(data, data + len, sim_.memory().bytes().begin() + addr);
  }
  void read_mem(uint32_t addr, uint8_t* data, size_t len) override {
    std::copy_n(sim_.memory().bytes().begin() + addr, len, data);
  }
  RunResult run(uint32_t entry, const RunLimits& limits) override {
    Timeline timeline;
    const uint64_t start = sim_.cycle();
    if (!opts_.trace_file.empty()) {
      sim_.on_cycle = [&](V& d, uint64_t c) {
        const uint64_t retire = d.trace_retire_o;
        if (!d.trace_issue_o && !retire) return;
        std::string text;
        if (d.trace_issue_o) text = instruction_text(sim_.memory().bytes(), d.trace_pc_o);
        timeline.observe(c - start, d.trace_issue_o, d.trace_pc_o, d.trace_op_o, d.trace_slot_o,
                         retire, text);
      };
    }
    RunResult r = sim_.run(entry, limits.max_cycles);
    sim_.on_cycle = nullptr;
    r.hang = sim_.hang();
    if (!opts_.trace_file.empty()) {
      try {
        write_file(opts_.trace_file, timeline.chrome_json(r.counters));
      } catch (const FileError& e) {
        throw DriverError("cannot write the trace to " + opts_.trace_file + " (" + e.reason() + ")");
      }
    }
    return r;
  }

 private:
  static SimOptions options(const Config& cfg, const DeviceOptions& opts) {
    SimOptions o;
    o.timing.latency = cfg.testbench.mem_latency;
    o.timing.bandwidth = cfg.testbench.mem_bandwidth;
    o.watchdog_cycles = opts.watchdog_cycles;
    return o;
  }
  DeviceOptions opts_;
  CoreSim<V> sim_;
};

std::unique_ptr<Backend> make(const Config& cfg, const DeviceOptions& opts) {
  return with_core(cfg, [&](auto tag) -> std::unique_ptr<Backend> {
    return std::make_unique<RtlBackend<typename decltype(tag)::type>>(cfg, opts);
  });
}

}  // namespace

void register_rtl_backend() { register_backend(BackendKind::Rtl, &make); }

}  // namespace tessera::sim
