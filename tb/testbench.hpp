// SPDX-License-Identifier: Apache-2.0
// The SystemC testbench around a Verilated (--sc) tpu_core: a clock, the core, a
// TLM-2.0 device memory behind the AXI4 slave adapter, an AXI4-Lite master for the
// registers, the monitor and the watchdog. A host thread runs the host's requests
// (reset, run) in simulated time; the public calls are made from outside the
// simulation and advance it until their request is done (sc_pause). SystemC allows
// one elaboration per process, so a process holds one testbench and reuses it.
#pragma once

#include <systemc>
#include <verilated.h>
#include <verilated_fst_sc.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "axi_slave_adapter.hpp"
#include "axil_master.hpp"
#include "config/config.hpp"
#include "core_signals.hpp"
#include "driver/csr_access.hpp"
#include "driver/device.hpp"
#include "monitor.hpp"
#include "sim_error.hpp"
#include "tlm_memory.hpp"
#include "watchdog.hpp"

namespace tessera::tb {

struct MemorySettings {
  unsigned latency = 10, bandwidth = 16;  // cycles to the first byte; bytes per cycle
  double random_stall = 0;                // probability of a random AXI handshake stall
  uint32_t seed = 1;
  std::vector<ErrorRange> errors;
};

inline MemorySettings memory_settings(const Config& cfg) {
  MemorySettings m;
  m.latency = cfg.testbench.mem_latency;
  m.bandwidth = cfg.testbench.mem_bandwidth;
  return m;
}

template <class V>
class Testbench : public sc_core::sc_module {
 public:
  static constexpr double kCycleNs = 10;

  SC_HAS_PROCESS(Testbench);
  // wave_file: FST of the whole simulation (empty: none); fixed for the process.
  Testbench(sc_core::sc_module_name name, const Config& cfg, const std::string& wave_file = "")
      : sc_module(name),
        clk_("clk", sc_core::sc_time(kCycleNs, sc_core::SC_NS)),
        core_((Verilated::traceEverOn(true), "core")),
        memory_("memory", cfg.dram_bytes, clk_.period()),
        adapter_("axi", sig_, cfg.dma_width / 8, clk_.period()),
        lite_(sig_, clk_.posedge_event()),
        monitor_("monitor", sig_),
        watchdog_("watchdog", sig_, [this] { return adapter_.slave().handshakes(); },
                  [this] { return adapter_.slave().idle(); }),
        cfg_(cfg),
        wave_file_(wave_file) {
    core_.clk_i(clk_);
    sig_.bind(core_);
    adapter_.clk(clk_);
    adapter_.port.socket.bind(memory_.socket);
    monitor_.clk(clk_);
    watchdog_.clk(clk_);
    set_memory(memory_settings(cfg));
    SC_THREAD(host);
  }
  ~Testbench() override { close_waves(); }

  // Finishes the FST file (the trace file stays registered with SystemC, closed).
  void close_waves() {
    if (wave_ && wave_->isOpen()) wave_->close();
  }
  bool waves_closed() const { return wave_ && !wave_->isOpen(); }

  const Config& config() const { return cfg_; }
  // Device memory as the host loads it (TLM debug transport: no simulated time).
  void write_mem(uint32_t addr, const uint8_t* data, size_t len) { adapter_.port.debug_write(addr, data, len); }
  void read_mem(uint32_t addr, uint8_t* data, size_t len) { adapter_.port.debug_read(addr, data, len); }
  std::vector<uint8_t>& memory_bytes() { return memory_.bytes(); }

  void set_memory(const MemorySettings& m) {
    memory_.set_timing(m.latency, m.bandwidth);
    memory_.set_error_ranges(m.errors);
    adapter_.slave().set_stalls(m.random_stall, m.seed);
  }

  // Resets the core (four cycles of rst_ni low), checks its configuration registers
  // and waits out the memory scrub that follows reset (max(ub_rows, acc_rows) cycles,
  // docs/architecture.md), so that a run started next begins at once.
  void reset() {
    call([this] {
      sig_.rst_ni.write(false);
      for (int i = 0; i < 4; ++i) sc_core::wait(clk_.posedge_event());
      sig_.rst_ni.write(true);
      sc_core::wait(clk_.posedge_event());
      check_core_config([this](uint8_t a) { return lite_.read(a); }, cfg_);
      sc_core::wait(clk_.period() * double(std::max(cfg_.ub_rows, cfg_.acc_rows)));
    });
  }

  // Starts the core at entry and waits for its interrupt, max_cycles (0: no limit) or
  // the watchdog (watchdog_cycles without progress; its report is in the result).
  RunResult run(uint32_t entry, uint64_t max_cycles = 0, uint64_t watchdog_cycles = 100000) {
    RunResult res;
    call([&] { res = host_run(entry, max_cycles, watchdog_cycles); });
    return res;
  }

  const sim::Timeline& timeline() const { return monitor_.timeline(); }
  // The testbench's own count of the last run's cycles, from the START write to the
  // interrupt (includes any scrub still running from an earlier run).
  uint64_t monitored_cycles() const { return monitor_.cycles(); }

 private:
  // Runs f on the host thread and simulates until it is done.
  void call(std::function<void()> f) {
    if (!started_) start();
    job_ = std::move(f);
    done_ = false;
    while (!done_) sc_core::sc_start();
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  void start() {
    started_ = true;
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate, then waves can be attached
    if (!wave_file_.empty()) {
      wave_ = std::make_unique<VerilatedFstSc>();
      core_.trace(wave_.get(), 99);
      wave_->open(wave_file_.c_str());
      if (!wave_->isOpen()) throw sim::SimError("cannot write waves to " + wave_file_);
    }
  }

  void host() {
    for (;;) {
      while (!job_) sc_core::wait(clk_.posedge_event());
      auto job = std::move(job_);
      job_ = nullptr;
      try {
        job();
      } catch (...) {
        error_ = std::current_exception();
      }
      done_ = true;
      sc_core::sc_pause();
    }
  }

  RunResult host_run(uint32_t entry, uint64_t max_cycles, uint64_t watchdog_cycles) {
    auto read = [this](uint8_t a) { return lite_.read(a); };
    lite_.write(csr::kIrq, 1);  // clear a pending interrupt from an earlier run
    lite_.write(csr::kEntry, entry);
    monitor_.start([this](uint32_t pc) { return sim::instruction_text(memory_.bytes(), pc); });
    watchdog_.arm(watchdog_cycles);
    lite_.write(csr::kControl, csr::kStart | csr::kIrqEnable);
    const sc_core::sc_event_or_list stop = sig_.irq_o.posedge_event() | watchdog_.fired();
    if (!sig_.irq_o.read()) {
      if (max_cycles) sc_core::wait(clk_.period() * double(max_cycles), stop);
      else sc_core::wait(stop);
    }
    RunResult res;
    res.hang = watchdog_.report();
    res.limit_reached = !res.hang && !sig_.irq_o.read();
    watchdog_.disarm();
    monitor_.stop();
    const auto& violations = adapter_.slave().violations();
    if (!violations.empty()) throw sim::SimError("AXI protocol: " + violations.front());
    read_run_state(read, res);
    return res;
  }


  sc_core::sc_clock clk_;
  CoreSignals<V> sig_;
  V core_;
  TlmMemory memory_;
  AxiSlaveAdapter<V> adapter_;
  AxiLiteMaster<V> lite_;
  Monitor<V> monitor_;
  Watchdog<V> watchdog_;
  Config cfg_;
  std::string wave_file_;
  std::unique_ptr<VerilatedFstSc> wave_;
  bool started_ = false, done_ = false;
  std::function<void()> job_;
  std::exception_ptr error_;
};

}  // namespace tessera::tb
