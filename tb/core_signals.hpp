// SPDX-License-Identifier: Apache-2.0
// The signals around a Verilated (--sc) tpu_core, one per port and named like it, with
// the port's own type: bool for one bit, uint32_t / uint64_t up to 64 bits (cheap to
// copy and compare), sc_bv<W> for wider buses. V is the Verilated class of one
// configuration; the byte helpers hide the type of the data buses.
#pragma once

#include <systemc>

#include <cstdint>
#include <type_traits>

namespace tessera::tb {

// X(port) for every port but the clock.
#define TESSERA_CORE_PORTS(X)                                                                    \
  X(rst_ni) X(s_axil_awvalid_i) X(s_axil_awready_o) X(s_axil_awaddr_i) X(s_axil_wvalid_i)        \
  X(s_axil_wready_o) X(s_axil_wdata_i) X(s_axil_wstrb_i) X(s_axil_bvalid_o) X(s_axil_bready_i)   \
  X(s_axil_bresp_o) X(s_axil_arvalid_i) X(s_axil_arready_o) X(s_axil_araddr_i)                   \
  X(s_axil_rvalid_o) X(s_axil_rready_i) X(s_axil_rdata_o) X(s_axil_rresp_o)                      \
  X(m_axi_arvalid_o) X(m_axi_arready_i) X(m_axi_araddr_o) X(m_axi_arlen_o) X(m_axi_arsize_o)     \
  X(m_axi_arburst_o) X(m_axi_rvalid_i) X(m_axi_rready_o) X(m_axi_rdata_i) X(m_axi_rresp_i)       \
  X(m_axi_rlast_i) X(m_axi_awvalid_o) X(m_axi_awready_i) X(m_axi_awaddr_o) X(m_axi_awlen_o)      \
  X(m_axi_awsize_o) X(m_axi_awburst_o) X(m_axi_wvalid_o) X(m_axi_wready_i) X(m_axi_wdata_o)      \
  X(m_axi_wstrb_o) X(m_axi_wlast_o) X(m_axi_bvalid_i) X(m_axi_bready_o) X(m_axi_bresp_i)         \
  X(irq_o) X(trace_issue_o) X(trace_pc_o) X(trace_op_o) X(trace_slot_o) X(trace_retire_o)        \
  X(dbg_unit_busy_o) X(dbg_queue_count_o)

// The value type of a Verilated port member (Verilator declares ports as references).
template <class Port>
using port_value_t = typename std::remove_reference_t<Port>::data_type;

template <class V>
struct CoreSignals {
#define TESSERA_DECLARE(port) sc_core::sc_signal<port_value_t<decltype(V::port)>> port{#port};
  TESSERA_CORE_PORTS(TESSERA_DECLARE)
#undef TESSERA_DECLARE

  void bind(V& core) {
#define TESSERA_BIND(port) core.port(port);
    TESSERA_CORE_PORTS(TESSERA_BIND)
#undef TESSERA_BIND
  }
};

inline uint8_t byte_of(uint32_t v, unsigned i) { return uint8_t(v >> (8 * i)); }
inline uint8_t byte_of(uint64_t v, unsigned i) { return uint8_t(v >> (8 * i)); }
template <int W>
uint8_t byte_of(const sc_dt::sc_bv<W>& v, unsigned i) {
  return uint8_t(v.range(int(8 * i + 7), int(8 * i)).to_uint());
}
inline void set_byte(uint32_t& v, unsigned i, uint8_t b) {
  v = (v & ~(0xffu << (8 * i))) | uint32_t{b} << (8 * i);
}
inline void set_byte(uint64_t& v, unsigned i, uint8_t b) {
  v = (v & ~(uint64_t{0xff} << (8 * i))) | uint64_t{b} << (8 * i);
}
template <int W>
void set_byte(sc_dt::sc_bv<W>& v, unsigned i, uint8_t b) {
  v.range(int(8 * i + 7), int(8 * i)) = b;
}
inline uint64_t to_u64(uint32_t v) { return v; }
inline uint64_t to_u64(uint64_t v) { return v; }

}  // namespace tessera::tb
