// SPDX-License-Identifier: Apache-2.0
// An AXI4-Lite master for the core's registers. read() and write() block the calling
// SystemC thread until the response handshake (at most `timeout` cycles, then
// TbError). Signals are sampled just after a rising edge, i.e. the values the core saw
// at that edge; new values take effect for the next one.
#pragma once

#include <systemc>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core_signals.hpp"

namespace tessera::tb {

class TbError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

template <class V>
class AxiLiteMaster {
 public:
  AxiLiteMaster(CoreSignals<V>& sig, const sc_core::sc_event& edge, unsigned timeout = 1000)
      : sig_(sig), edge_(edge), timeout_(timeout) {}

  uint32_t read(uint8_t addr) {
    sig_.s_axil_araddr_i.write(addr);
    sig_.s_axil_arvalid_i.write(true);
    sig_.s_axil_rready_i.write(true);
    bool addr_done = false;
    for (unsigned t = 0; t < timeout_; ++t) {
      sc_core::wait(edge_);
      if (!addr_done && sig_.s_axil_arready_o.read()) {
        addr_done = true;
        sig_.s_axil_arvalid_i.write(false);
      }
      if (addr_done && sig_.s_axil_rvalid_o.read()) {
        sig_.s_axil_rready_i.write(false);
        return sig_.s_axil_rdata_o.read();
      }
    }
    throw TbError("AXI-Lite read of register " + std::to_string(addr) + " got no response");
  }

  void write(uint8_t addr, uint32_t value) {
    sig_.s_axil_awaddr_i.write(addr);
    sig_.s_axil_awvalid_i.write(true);
    sig_.s_axil_wdata_i.write(value);
    sig_.s_axil_wstrb_i.write(0xf);
    sig_.s_axil_wvalid_i.write(true);
    sig_.s_axil_bready_i.write(true);
    bool aw_done = false, w_done = false;
    for (unsigned t = 0; t < timeout_; ++t) {
      sc_core::wait(edge_);
      if (!aw_done && sig_.s_axil_awready_o.read()) aw_done = true, sig_.s_axil_awvalid_i.write(false);
      if (!w_done && sig_.s_axil_wready_o.read()) w_done = true, sig_.s_axil_wvalid_i.write(false);
      if (sig_.s_axil_bvalid_o.read()) {
        sig_.s_axil_bready_i.write(false);
        return;
      }
    }
    throw TbError("AXI-Lite write of register " + std::to_string(addr) + " got no response");
  }

 private:
  CoreSignals<V>& sig_;
  const sc_core::sc_event& edge_;
  unsigned timeout_;
};

}  // namespace tessera::tb
