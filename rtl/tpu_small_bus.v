// SPDX-License-Identifier: Apache-2.0
// The small core's device-memory port: one access at a time as a single-beat AXI4
// transfer, a bus word read or one byte written. The board memory serves one beat in
// two cycles, so bursts would buy the small core little and cost the burst planners.
`default_nettype none
`include "tpu_axi_ports.vh"

module tpu_small_bus #(
    parameter integer DmaWidth = 32
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    input  wire                  req_i,     // start an access (taken when !busy_o)
    input  wire                  we_i,      // 1: write wbyte_i to addr_i; 0: read
    input  wire [31:0]           addr_i,    // byte address
    input  wire [7:0]            wbyte_i,
    output wire                  busy_o,
    output wire                  done_o,    // the access completes this cycle ...
    output wire                  err_o,     // ... answered with an error
    output wire [DmaWidth-1:0]   rword_o,   // ... (reads) the bus word holding addr_i
    output wire [7:0]            rbyte_o,   // ... (reads) the byte at addr_i
    // AXI4 master
    `TPU_AXI_RD_MASTER_PORTS(m_axi_, DmaWidth),
    `TPU_AXI_WR_MASTER_PORTS(m_axi_, DmaWidth)
);
  localparam integer Bytes    = DmaWidth / 8;
  localparam integer LaneBits = $clog2(Bytes);
  localparam [2:0]   Size     = LaneBits[2:0];
  localparam [1:0]   Idle = 2'd0, Addr = 2'd1, Data = 2'd2, Resp = 2'd3;

  reg [1:0]          st_q;
  reg                we_q, aw_q, w_q;
  reg [31:0]         addr_q;
  reg [7:0]          byte_q;

  wire [LaneBits-1:0] lane = addr_q[LaneBits-1:0];
  wire [31:0]         word_addr = {addr_q[31:LaneBits], {LaneBits{1'b0}}};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= Idle;
      aw_q <= 1'b0;
      w_q  <= 1'b0;
    end else begin
      case (st_q)
        Idle: if (req_i) begin
          st_q <= we_i ? Data : Addr;
          aw_q <= we_i;
          w_q  <= we_i;
        end
        Addr: if (m_axi_arready_i) st_q <= Resp;
        Data: begin  // write: address and data, each until taken
          if (m_axi_awready_i) aw_q <= 1'b0;
          if (m_axi_wready_i) w_q <= 1'b0;
          if ((!aw_q || m_axi_awready_i) && (!w_q || m_axi_wready_i)) st_q <= Resp;
        end
        default: if (we_q ? m_axi_bvalid_i : m_axi_rvalid_i) st_q <= Idle;
      endcase
    end
  end
  always @(posedge clk_i) begin
    if (st_q == Idle && req_i) begin
      we_q   <= we_i;
      addr_q <= addr_i;
      byte_q <= wbyte_i;
    end
  end

  assign busy_o  = st_q != Idle;
  assign done_o  = st_q == Resp && (we_q ? m_axi_bvalid_i : m_axi_rvalid_i);
  assign err_o   = we_q ? m_axi_bresp_i[1] : m_axi_rresp_i[1];
  assign rword_o = m_axi_rdata_i;
  assign rbyte_o = m_axi_rdata_i[8*lane +: 8];

  assign m_axi_arvalid_o = st_q == Addr;
  assign m_axi_araddr_o  = word_addr;
  assign m_axi_arlen_o   = 8'd0;
  assign m_axi_arsize_o  = Size;
  assign m_axi_arburst_o = 2'b01;
  assign m_axi_rready_o  = st_q == Resp && !we_q;
  assign m_axi_awvalid_o = st_q == Data && aw_q;
  assign m_axi_awaddr_o  = word_addr;
  assign m_axi_awlen_o   = 8'd0;
  assign m_axi_awsize_o  = Size;
  assign m_axi_awburst_o = 2'b01;
  assign m_axi_wvalid_o  = st_q == Data && w_q;
  assign m_axi_wdata_o   = {Bytes{byte_q}};
  assign m_axi_wstrb_o   = {{(Bytes-1){1'b0}}, 1'b1} << lane;
  assign m_axi_wlast_o   = 1'b1;
  assign m_axi_bready_o  = st_q == Resp && we_q;

  // Single beats: rlast is always set; the response's low bit tells OKAY from EXOKAY.
  wire unused = ^{m_axi_rlast_i, m_axi_rresp_i[0], m_axi_bresp_i[0]};
endmodule

`default_nettype wire
