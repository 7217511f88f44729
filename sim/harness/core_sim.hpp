// SPDX-License-Identifier: Apache-2.0
// A plain C++ harness around a Verilated tpu_core: device memory (DeviceMemory behind
// an AxiSlave) on the AXI4 master port, a blocking AXI4-Lite master for the registers, a run loop that
// starts the core and waits for its interrupt, and a watchdog that turns a hang into
// a report. V is the Verilated class of one configuration (they share port names).
#pragma once

#include <verilated.h>
#include <verilated_fst_c.h>

#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "axi_slave.hpp"
#include "driver/csr_access.hpp"
#include "hang_report.hpp"
#include "memory_target.hpp"
#include "sim_error.hpp"
#include "config/config.hpp"
#include "driver/device.hpp"
#include "vl_bits.hpp"

namespace tessera::sim {

struct SimOptions {
  MemTiming timing;
  uint64_t watchdog_cycles = 100000;  // no issue, retire or bus handshake for this long: hang
};

template <class V>
class CoreSim {
 public:
  CoreSim(const Config& cfg, const SimOptions& opt)
      : cfg_(cfg), opt_(opt), mem_(cfg.dram_bytes, opt.timing),
        port_(mem_, cfg.dma_width / 8, opt.timing.random_stall, opt.timing.seed) {
    Verilated::traceEverOn(true);  // waves are switched on at run time (enable_wave)
    dut_ = std::make_unique<V>();
    master_.wdata.assign(cfg.dma_width / 8, 0);
    reset();
    check_config();
  }

  V& dut() { return *dut_; }
  DeviceMemory& memory() { return mem_; }
  const AxiSlave& port() const { return port_; }
  uint64_t cycle() const { return cycle_; }
  // Called after every clock edge (monitors, wave dumpers).
  std::function<void(V&, uint64_t)> on_cycle;

  // Another run with other memory timing, from reset (the model and its coverage
  // counters stay).
  void restart(const SimOptions& opt) {
    opt_ = opt;
    mem_.set_timing(opt.timing);
    port_.set_stalls(opt.timing.random_stall, opt.timing.seed);
    reset();
  }

  void reset() {
    dut_->rst_ni = 0;
    clear_lite_inputs();
    for (int i = 0; i < 4; ++i) step();
    dut_->rst_ni = 1;
    port_.reset();
  }

  void step() {
    low();
    high();
  }

  // Register access as a host does it; *resp (if given) receives the AXI response.
  uint32_t csr_read(uint8_t addr, uint8_t* resp = nullptr) {
    dut_->s_axil_araddr_i = addr;
    dut_->s_axil_arvalid_i = 1;
    dut_->s_axil_rready_i = 1;
    bool addr_done = false;
    for (int t = 0; t < 1000; ++t) {
      low();
      const bool ar = dut_->s_axil_arvalid_i && dut_->s_axil_arready_o;
      const bool r = dut_->s_axil_rvalid_o && dut_->s_axil_rready_i;
      const uint32_t data = dut_->s_axil_rdata_o;
      const uint8_t rresp = dut_->s_axil_rresp_o;
      high();
      if (ar) addr_done = true, dut_->s_axil_arvalid_i = 0;
      if (r && addr_done) {
        dut_->s_axil_rready_i = 0;
        if (resp) *resp = rresp;
        return data;
      }
    }
    throw SimError("CSR read of 0x" + hex8(addr) + " got no response");
  }

  void csr_write(uint8_t addr, uint32_t value, uint8_t* resp = nullptr) {
    dut_->s_axil_awaddr_i = addr;
    dut_->s_axil_awvalid_i = 1;
    dut_->s_axil_wdata_i = value;
    dut_->s_axil_wstrb_i = 0xf;
    dut_->s_axil_wvalid_i = 1;
    dut_->s_axil_bready_i = 1;
    for (int t = 0; t < 1000; ++t) {
      low();
      const bool aw = dut_->s_axil_awvalid_i && dut_->s_axil_awready_o;
      const bool w = dut_->s_axil_wvalid_i && dut_->s_axil_wready_o;
      const bool b = dut_->s_axil_bvalid_o && dut_->s_axil_bready_i;
      const uint8_t bresp = dut_->s_axil_bresp_o;
      high();
      if (aw) dut_->s_axil_awvalid_i = 0;
      if (w) dut_->s_axil_wvalid_i = 0;
      if (b) {
        dut_->s_axil_bready_i = 0;
        if (resp) *resp = bresp;
        return;
      }
    }
    throw SimError("CSR write of 0x" + hex8(addr) + " got no response");
  }

  // Starts the core at `entry` and runs until it ends, max_cycles pass (0: no limit) or
  // the watchdog fires (then hang() holds the report).
  RunResult run(uint32_t entry, uint64_t max_cycles = 0) {
    hang_.reset();
    csr_write(csr::kIrq, 1);  // clear a pending interrupt from an earlier run
    csr_write(csr::kEntry, entry);
    csr_write(csr::kControl, csr::kStart | csr::kIrqEnable);
    const uint64_t start = cycle_;
    uint64_t last_progress = cycle_;
    RunResult res;
    while (!dut_->irq_o) {
      if (max_cycles && cycle_ - start >= max_cycles) {
        res.limit_reached = true;
        break;
      }
      if (progress_) last_progress = cycle_;
      if (cycle_ - last_progress > opt_.watchdog_cycles) {
        hang_ = hang_report();
        break;
      }
      step();
    }
    if (!port_.violations().empty()) throw SimError("AXI protocol: " + port_.violations().front());
    read_run_state([this](uint8_t a) { return csr_read(a); }, res);
    return res;
  }

  const std::optional<std::string>& hang() const { return hang_; }

  // FST waves of cycles [from, to] from now on, into path (closed by the destructor).
  void enable_wave(const std::string& path, uint64_t from = 0, uint64_t to = ~uint64_t{0}) {
    wave_ = std::make_unique<VerilatedFstC>();
    dut_->trace(wave_.get(), 99);
    wave_->open(path.c_str());
    if (!wave_->isOpen()) throw SimError("cannot write waves to " + path);
    wave_from_ = from;
    wave_to_ = to;
  }
  ~CoreSim() {
    if (wave_) wave_->close();
  }
  CoreSim(const CoreSim&) = delete;
  CoreSim& operator=(const CoreSim&) = delete;

 private:
  static std::string hex8(uint32_t v) {
    std::ostringstream s;
    s << std::hex << v;
    return s.str();
  }

  void clear_lite_inputs() {
    dut_->s_axil_awvalid_i = 0;
    dut_->s_axil_wvalid_i = 0;
    dut_->s_axil_bready_i = 0;
    dut_->s_axil_arvalid_i = 0;
    dut_->s_axil_rready_i = 0;
  }

  // First half of a cycle: drive the slave's pins, settle, sample the master's pins and
  // let device memory take this cycle's handshakes.
  void low() {
    const AxiSlavePins& s = port_.pins();
    dut_->m_axi_arready_i = s.arready;
    dut_->m_axi_rvalid_i = s.rvalid;
    for (unsigned i = 0; i < s.rdata.size(); ++i) rtl::set_bits(dut_->m_axi_rdata_i, 8 * i, 8, s.rdata[i]);
    dut_->m_axi_rresp_i = s.rresp;
    dut_->m_axi_rlast_i = s.rlast;
    dut_->m_axi_awready_i = s.awready;
    dut_->m_axi_wready_i = s.wready;
    dut_->m_axi_bvalid_i = s.bvalid;
    dut_->m_axi_bresp_i = s.bresp;
    dut_->clk_i = 0;
    dut_->eval();
    if (wave_ && cycle_ >= wave_from_ && cycle_ <= wave_to_) wave_->dump(2 * cycle_);
    master_.arvalid = dut_->m_axi_arvalid_o;
    master_.araddr = dut_->m_axi_araddr_o;
    master_.arlen = dut_->m_axi_arlen_o;
    master_.arsize = dut_->m_axi_arsize_o;
    master_.arburst = dut_->m_axi_arburst_o;
    master_.rready = dut_->m_axi_rready_o;
    master_.awvalid = dut_->m_axi_awvalid_o;
    master_.awaddr = dut_->m_axi_awaddr_o;
    master_.awlen = dut_->m_axi_awlen_o;
    master_.awsize = dut_->m_axi_awsize_o;
    master_.awburst = dut_->m_axi_awburst_o;
    master_.wvalid = dut_->m_axi_wvalid_o;
    for (unsigned i = 0; i < master_.wdata.size(); ++i)
      master_.wdata[i] = uint8_t(rtl::get_bits(dut_->m_axi_wdata_o, 8 * i, 8));
    master_.wstrb = rtl::get_bits(dut_->m_axi_wstrb_o, 0, unsigned(master_.wdata.size()));
    master_.wlast = dut_->m_axi_wlast_o;
    master_.bready = dut_->m_axi_bready_o;
    progress_ = dut_->trace_issue_o || dut_->trace_retire_o ||
                (s.arready && master_.arvalid) || (s.rvalid && master_.rready) ||
                (s.awready && master_.awvalid) || (s.wready && master_.wvalid) ||
                (s.bvalid && master_.bready);
    port_.clock(master_);
  }

  void high() {
    dut_->clk_i = 1;
    dut_->eval();
    ++cycle_;
    if (wave_ && cycle_ - 1 >= wave_from_ && cycle_ - 1 <= wave_to_) wave_->dump(2 * cycle_ - 1);
    if (on_cycle) on_cycle(*dut_, cycle_);
  }

  void check_config() {
    check_core_config([this](uint8_t a) { return csr_read(a); }, cfg_);
  }

  std::string hang_report() const {
    return sim::hang_report(opt_.watchdog_cycles, cycle_, dut_->trace_pc_o, dut_->dbg_unit_busy_o,
                            dut_->dbg_queue_count_o, port_.idle());
  }

  Config cfg_;
  SimOptions opt_;
  std::unique_ptr<V> dut_;
  std::unique_ptr<VerilatedFstC> wave_;
  uint64_t wave_from_ = 0, wave_to_ = 0;
  DeviceMemory mem_;
  AxiSlave port_;
  AxiMasterPins master_;
  uint64_t cycle_ = 0;
  bool progress_ = false;
  std::optional<std::string> hang_;
};

}  // namespace tessera::sim
