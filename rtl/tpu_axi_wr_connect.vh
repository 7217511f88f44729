// SPDX-License-Identifier: Apache-2.0
// The AXI4 master's write channels (AW, W, B; tpu_bus_ports.vh) passed through by name,
// at the end of the port list of the instance that drives them (tpu_core's write
// engine, tpu_small_bus).
      .m_axi_awvalid_o,
      .m_axi_awready_i,
      .m_axi_awaddr_o,
      .m_axi_awlen_o,
      .m_axi_awsize_o,
      .m_axi_awburst_o,
      .m_axi_wvalid_o,
      .m_axi_wready_i,
      .m_axi_wdata_o,
      .m_axi_wstrb_o,
      .m_axi_wlast_o,
      .m_axi_bvalid_i,
      .m_axi_bready_o,
      .m_axi_bresp_i
