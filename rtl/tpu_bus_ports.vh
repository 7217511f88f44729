// SPDX-License-Identifier: Apache-2.0
// The bus ports every core has (tpu_core, tpu_small_core): the AXI4-Lite register slave
// and the AXI4 device-memory master, DmaWidth bits wide. Included in a module's port
// list (tpu_axi_ports.vh declares each bus).
`include "tpu_axi_ports.vh"
    `TPU_AXIL_SLAVE_PORTS(s_axil_),            // registers (rtl/tpu_csr.v)
    `TPU_AXI_RD_MASTER_PORTS(m_axi_, DmaWidth), // device memory
    `TPU_AXI_WR_MASTER_PORTS(m_axi_, DmaWidth),
