// SPDX-License-Identifier: Apache-2.0
// The AXI4 slave adapter: the core's AXI4 master pins on one side, a TLM-2.0 initiator
// socket on the other. Every rising edge it samples the master's pins and runs the
// cycle-level slave of the plain harness (sim/harness/axi_slave.hpp: burst tracking,
// beat timing, random handshake stalls, protocol checks) with a TlmMemoryPort as its
// memory, then drives the slave pins for the next cycle.
#pragma once

#include <systemc>

#include "axi_slave.hpp"
#include "core_signals.hpp"
#include "tlm_memory_port.hpp"

namespace tessera::tb {

template <class V>
class AxiSlaveAdapter : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk{"clk"};
  TlmMemoryPort port;

  SC_HAS_PROCESS(AxiSlaveAdapter);
  AxiSlaveAdapter(sc_core::sc_module_name name, CoreSignals<V>& sig, unsigned bus_bytes,
                  sc_core::sc_time cycle)
      : sc_module(name), port("port", bus_bytes, cycle), sig_(sig), slave_(port, bus_bytes, 0, 1) {
    master_.wdata.assign(bus_bytes, 0);
    SC_METHOD(on_clock);
    sensitive << clk.pos();
    dont_initialize();
  }

  sim::AxiSlave& slave() { return slave_; }

 private:
  void on_clock() {
    if (!sig_.rst_ni.read()) {
      slave_.reset();
      drive();
      return;
    }
    master_.arvalid = sig_.m_axi_arvalid_o.read();
    master_.araddr = sig_.m_axi_araddr_o.read();
    master_.arlen = sig_.m_axi_arlen_o.read();
    master_.arsize = sig_.m_axi_arsize_o.read();
    master_.arburst = sig_.m_axi_arburst_o.read();
    master_.rready = sig_.m_axi_rready_o.read();
    master_.awvalid = sig_.m_axi_awvalid_o.read();
    master_.awaddr = sig_.m_axi_awaddr_o.read();
    master_.awlen = sig_.m_axi_awlen_o.read();
    master_.awsize = sig_.m_axi_awsize_o.read();
    master_.awburst = sig_.m_axi_awburst_o.read();
    master_.wvalid = sig_.m_axi_wvalid_o.read();
    if (master_.wvalid) {
      const auto& wdata = sig_.m_axi_wdata_o.read();
      for (unsigned i = 0; i < master_.wdata.size(); ++i) master_.wdata[i] = byte_of(wdata, i);
      master_.wstrb = to_u64(sig_.m_axi_wstrb_o.read());
    }
    master_.wlast = sig_.m_axi_wlast_o.read();
    master_.bready = sig_.m_axi_bready_o.read();
    slave_.clock(master_);
    drive();
  }

  void drive() {
    const sim::AxiSlavePins& s = slave_.pins();
    sig_.m_axi_arready_i.write(s.arready);
    sig_.m_axi_rvalid_i.write(s.rvalid);
    if (s.rvalid) {
      rdata_ = sig_.m_axi_rdata_i.read();
      for (unsigned i = 0; i < s.rdata.size(); ++i) set_byte(rdata_, i, s.rdata[i]);
      sig_.m_axi_rdata_i.write(rdata_);
    }
    sig_.m_axi_rresp_i.write(s.rresp);
    sig_.m_axi_rlast_i.write(s.rlast);
    sig_.m_axi_awready_i.write(s.awready);
    sig_.m_axi_wready_i.write(s.wready);
    sig_.m_axi_bvalid_i.write(s.bvalid);
    sig_.m_axi_bresp_i.write(s.bresp);
  }

  CoreSignals<V>& sig_;
  sim::AxiSlave slave_;
  sim::AxiMasterPins master_;
  port_value_t<decltype(V::m_axi_rdata_i)> rdata_{};
};

}  // namespace tessera::tb
