// SPDX-License-Identifier: Apache-2.0
// The AXI4 master's read channels (AR, R; tpu_bus_ports.vh) passed through by name, in
// the port list of the instance that drives them (tpu_core's read engine, tpu_small_bus).
      .m_axi_arvalid_o,
      .m_axi_arready_i,
      .m_axi_araddr_o,
      .m_axi_arlen_o,
      .m_axi_arsize_o,
      .m_axi_arburst_o,
      .m_axi_rvalid_i,
      .m_axi_rready_o,
      .m_axi_rdata_i,
      .m_axi_rresp_i,
      .m_axi_rlast_i,
