// SPDX-License-Identifier: Apache-2.0
// The lite core's device-memory port: single-word AXI4 reads for two requesters (the
// fetch and the DMA: the DMA first, unless the fetch is about to run dry), several in flight, their beats returned in
// order to the one that asked; and single-word writes with byte strobes (the DMA),
// several in flight, their responses counted. A read request waits in a register of its
// own, so that, once on the bus, it stays as AXI wants; a write is the requester's own
// address, data and strobes, which it holds until w_grant_o (both taken).
`default_nettype none
`include "tpu_axi_ports.vh"

module tpu_lite_bus #(
    parameter integer DataBits    = 32,
    parameter integer Outstanding = 4     // reads in flight (a power of two)
) (
    input  wire                  clk_i,
    input  wire                  rst_ni,
    // word reads: a (the fetch) and b (the DMA)
    input  wire                  a_req_i,
    input  wire                  a_urgent_i,   // a goes first
    input  wire [31:0]           a_addr_i,
    output wire                  a_grant_o,
    input  wire                  b_req_i,
    input  wire [31:0]           b_addr_i,
    output wire                  b_grant_o,
    output wire                  a_beat_o,    // a's next beat is on rdata_o (always taken)
    output wire                  b_beat_o,    // b's, taken with b_ready_i
    input  wire                  b_ready_i,
    output wire [DataBits-1:0]   rdata_o,
    output wire                  rerr_o,      // the beat was answered with an error
    output wire                  rd_busy_o,   // reads in flight
    // word writes (b)
    input  wire                  w_req_i,
    input  wire [31:0]           w_addr_i,
    input  wire [DataBits-1:0]   w_data_i,
    input  wire [DataBits/8-1:0] w_strb_i,
    output wire                  w_grant_o,   // the write's address and data are taken
    output wire                  w_busy_o,    // writes without their response
    output wire                  w_err_o,     // a response with an error, this cycle
    `TPU_AXI_RD_MASTER_PORTS(m_axi_, DataBits),
    `TPU_AXI_WR_MASTER_PORTS(m_axi_, DataBits)
);
  localparam integer Bytes    = DataBits / 8;
  localparam integer LaneBits = $clog2(Bytes);
  localparam [2:0]   Size     = LaneBits[2:0];
  localparam integer TagBits  = $clog2(Outstanding);

  // ---- reads -----------------------------------------------------------------------------
  reg                 ar_valid_q;
  reg  [31:0]         ar_addr_q;
  reg  [Outstanding-1:0] tags_q;                       // the requesters of the reads in flight, oldest at rd_q
  reg  [TagBits-1:0]  tag_wr_q, tag_rd_q;
  reg  [TagBits:0]    inflight_q;
  wire ar_fire  = ar_valid_q && m_axi_arready_i;
  wire ar_free  = !ar_valid_q || ar_fire;
  wire r_fire   = m_axi_rvalid_i && m_axi_rready_o;
  wire room     = inflight_q < Outstanding[TagBits:0];   // (not r_fire: the grant stays off the read data's consumers)
  wire load     = ar_free && room && (a_req_i || b_req_i);
  wire pick_b   = b_req_i && (!a_req_i || !a_urgent_i);
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ar_valid_q <= 1'b0;
      tag_wr_q   <= {TagBits{1'b0}};
      tag_rd_q   <= {TagBits{1'b0}};
      inflight_q <= {(TagBits+1){1'b0}};
    end else begin
      if (load) begin
        ar_valid_q <= 1'b1;
        tag_wr_q   <= tag_wr_q + 1'b1;
      end else if (ar_fire) begin
        ar_valid_q <= 1'b0;
      end
      if (r_fire) tag_rd_q <= tag_rd_q + 1'b1;
      inflight_q <= inflight_q + {{TagBits{1'b0}}, load} - {{TagBits{1'b0}}, r_fire};
    end
    if (load) begin
      ar_addr_q        <= {pick_b ? b_addr_i[31:LaneBits] : a_addr_i[31:LaneBits], {LaneBits{1'b0}}};
      tags_q[tag_wr_q] <= pick_b;
    end
  end
  wire head_b = tags_q[tag_rd_q];

  assign a_grant_o        = load && !pick_b;
  assign b_grant_o        = load && pick_b;
  assign m_axi_arvalid_o  = ar_valid_q;
  assign m_axi_araddr_o   = ar_addr_q;
  assign m_axi_arlen_o    = 8'd0;
  assign m_axi_arsize_o   = Size;
  assign m_axi_arburst_o  = 2'b01;
  assign m_axi_rready_o   = !head_b || b_ready_i;
  assign a_beat_o         = m_axi_rvalid_i && !head_b;
  assign b_beat_o         = m_axi_rvalid_i && head_b;
  assign rdata_o          = m_axi_rdata_i;
  assign rerr_o           = m_axi_rresp_i[1];
  assign rd_busy_o        = inflight_q != {(TagBits+1){1'b0}};

  // ---- writes ----------------------------------------------------------------------------
  // (no copy of the write: the requester's registers hold it until both channels took it;
  // AW and W each go up with the request and down once taken)
  reg        aw_took_q, w_took_q;   // this write's address, data taken in an earlier cycle
  reg  [7:0] wpend_q;               // writes taken without their response
  wire       w_on    = w_req_i && wpend_q != 8'hff;
  wire       aw_now  = w_on && !aw_took_q && m_axi_awready_i;
  wire       w_now   = w_on && !w_took_q && m_axi_wready_i;
  wire       w_taken = w_on && (aw_took_q || aw_now) && (w_took_q || w_now);
  always @(posedge clk_i) begin
    if (!rst_ni || w_taken) begin
      aw_took_q <= 1'b0;
      w_took_q  <= 1'b0;
    end else begin
      if (aw_now) aw_took_q <= 1'b1;
      if (w_now)  w_took_q  <= 1'b1;
    end
    if (!rst_ni) wpend_q <= 8'd0;
    else         wpend_q <= wpend_q + {7'd0, w_taken} - {7'd0, m_axi_bvalid_i};
  end

  assign w_grant_o        = w_taken;
  assign w_busy_o         = wpend_q != 8'd0;
  assign w_err_o          = m_axi_bvalid_i && m_axi_bresp_i[1];
  assign m_axi_awvalid_o  = w_on && !aw_took_q;
  assign m_axi_awaddr_o   = {w_addr_i[31:LaneBits], {LaneBits{1'b0}}};
  assign m_axi_awlen_o    = 8'd0;
  assign m_axi_awsize_o   = Size;
  assign m_axi_awburst_o  = 2'b01;
  assign m_axi_wvalid_o   = w_on && !w_took_q;
  assign m_axi_wdata_o    = w_data_i;
  assign m_axi_wstrb_o    = w_strb_i;
  assign m_axi_wlast_o    = 1'b1;
  assign m_axi_bready_o   = 1'b1;

  wire unused = ^{m_axi_rlast_i, m_axi_rresp_i[0], m_axi_bresp_i[0], a_addr_i[LaneBits-1:0],
                  b_addr_i[LaneBits-1:0], w_addr_i[LaneBits-1:0]};
endmodule

`default_nettype wire
