// SPDX-License-Identifier: Apache-2.0
// The bus port lists, written once: each macro declares one bus's ports under a name
// prefix (names end in _i or _o as seen from the module), for the port list of any
// module that has that bus. Data widths are in bits.
`ifndef TPU_AXI_PORTS_VH
`define TPU_AXI_PORTS_VH
// AXI4-Lite slave (the register block), 8-bit addresses, 32-bit data.
`define TPU_AXIL_SLAVE_PORTS(p) \
    input  wire               p``awvalid_i, \
    output wire               p``awready_o, \
    input  wire [7:0]         p``awaddr_i, \
    input  wire               p``wvalid_i, \
    output wire               p``wready_o, \
    input  wire [31:0]        p``wdata_i, \
    input  wire [3:0]         p``wstrb_i, \
    output wire               p``bvalid_o, \
    input  wire               p``bready_i, \
    output wire [1:0]         p``bresp_o, \
    input  wire               p``arvalid_i, \
    output wire               p``arready_o, \
    input  wire [7:0]         p``araddr_i, \
    output wire               p``rvalid_o, \
    input  wire               p``rready_i, \
    output wire [31:0]        p``rdata_o, \
    output wire [1:0]         p``rresp_o
// AXI4-Lite master (the host link's side of the same bus).
`define TPU_AXIL_MASTER_PORTS(p) \
    output wire               p``awvalid_o, \
    input  wire               p``awready_i, \
    output wire [7:0]         p``awaddr_o, \
    output wire               p``wvalid_o, \
    input  wire               p``wready_i, \
    output wire [31:0]        p``wdata_o, \
    output wire [3:0]         p``wstrb_o, \
    input  wire               p``bvalid_i, \
    output wire               p``bready_o, \
    input  wire [1:0]         p``bresp_i, \
    output wire               p``arvalid_o, \
    input  wire               p``arready_i, \
    output wire [7:0]         p``araddr_o, \
    input  wire               p``rvalid_i, \
    output wire               p``rready_o, \
    input  wire [31:0]        p``rdata_i, \
    input  wire [1:0]         p``rresp_i
// AXI4 master, read channels (AR, R), width-bit data.
`define TPU_AXI_RD_MASTER_PORTS(p, width) \
    output wire               p``arvalid_o, \
    input  wire               p``arready_i, \
    output wire [31:0]        p``araddr_o, \
    output wire [7:0]         p``arlen_o, \
    output wire [2:0]         p``arsize_o, \
    output wire [1:0]         p``arburst_o, \
    input  wire               p``rvalid_i, \
    output wire               p``rready_o, \
    input  wire [(width)-1:0] p``rdata_i, \
    input  wire [1:0]         p``rresp_i, \
    input  wire               p``rlast_i
// AXI4 master, write channels (AW, W, B), width-bit data.
`define TPU_AXI_WR_MASTER_PORTS(p, width) \
    output wire                   p``awvalid_o, \
    input  wire                   p``awready_i, \
    output wire [31:0]            p``awaddr_o, \
    output wire [7:0]             p``awlen_o, \
    output wire [2:0]             p``awsize_o, \
    output wire [1:0]             p``awburst_o, \
    output wire                   p``wvalid_o, \
    input  wire                   p``wready_i, \
    output wire [(width)-1:0]     p``wdata_o, \
    output wire [(width)/8-1:0]   p``wstrb_o, \
    output wire                   p``wlast_o, \
    input  wire                   p``bvalid_i, \
    output wire                   p``bready_o, \
    input  wire [1:0]             p``bresp_i
`endif
