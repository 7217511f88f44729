// SPDX-License-Identifier: Apache-2.0
// The board system's connections to its core (tpu_core or tpu_small_core, which have the
// same ports): the register slave on the UART bridge, the AXI4 master on the board
// memory, the interrupt. Included inside both instantiations in tpu_board_soc.v.
          .clk_i, .rst_ni,
          .s_axil_awvalid_i(l_awvalid), .s_axil_awready_o(l_awready), .s_axil_awaddr_i(l_awaddr),
          .s_axil_wvalid_i(l_wvalid), .s_axil_wready_o(l_wready), .s_axil_wdata_i(l_wdata),
          .s_axil_wstrb_i(l_wstrb), .s_axil_bvalid_o(l_bvalid), .s_axil_bready_i(l_bready),
          .s_axil_bresp_o(l_bresp), .s_axil_arvalid_i(l_arvalid), .s_axil_arready_o(l_arready),
          .s_axil_araddr_i(l_araddr), .s_axil_rvalid_o(l_rvalid), .s_axil_rready_i(l_rready),
          .s_axil_rdata_o(l_rdata), .s_axil_rresp_o(l_rresp),
          .m_axi_arvalid_o(arvalid), .m_axi_arready_i(arready), .m_axi_araddr_o(araddr),
          .m_axi_arlen_o(arlen), .m_axi_arsize_o(arsize), .m_axi_arburst_o(arburst),
          .m_axi_rvalid_i(rvalid), .m_axi_rready_o(rready), .m_axi_rdata_i(rdata),
          .m_axi_rresp_i(rresp), .m_axi_rlast_i(rlast),
          .m_axi_awvalid_o(awvalid), .m_axi_awready_i(awready), .m_axi_awaddr_o(awaddr),
          .m_axi_awlen_o(awlen), .m_axi_awsize_o(awsize), .m_axi_awburst_o(awburst),
          .m_axi_wvalid_o(wvalid), .m_axi_wready_i(wready), .m_axi_wdata_o(wdata),
          .m_axi_wstrb_o(wstrb), .m_axi_wlast_o(wlast),
          .m_axi_bvalid_i(bvalid), .m_axi_bready_o(bready), .m_axi_bresp_i(bresp),
          .irq_o,
