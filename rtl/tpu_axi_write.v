// SPDX-License-Identifier: Apache-2.0
// DMA write engine: writes one span of at most SpanBytes bytes (a unified-buffer row)
// to device memory [addr, addr + len) over AXI4.
//
// The span goes out as one INCR burst, or two when it crosses a 4 KB page; each beat's
// WSTRB enables exactly the span's bytes in it. After the last write response the
// engine answers on the rsp stream, with `error` set if any response was not OKAY.
// One span is in flight at a time.
`default_nettype none

module tpu_axi_write #(
    parameter integer DataBits  = 32,  // AXI data width: 32..512, a power of two
    parameter integer SpanBytes = 16   // longest span: the unified-buffer row (N bytes)
) (
    input  wire                     clk_i,
    input  wire                     rst_ni,
    // command: len bytes (1..SpanBytes) of data, byte j to addr + j
    input  wire                     cmd_valid_i,
    output wire                     cmd_ready_o,
    input  wire [31:0]              cmd_addr_i,
    input  wire [LenBits-1:0]       cmd_len_i,
    input  wire [SpanBytes*8-1:0]   cmd_data_i,
    // AXI4 write address, data and response channels
    output wire                     m_axi_awvalid_o,
    input  wire                     m_axi_awready_i,
    output wire [31:0]              m_axi_awaddr_o,
    output wire [7:0]               m_axi_awlen_o,
    output wire [2:0]               m_axi_awsize_o,
    output wire [1:0]               m_axi_awburst_o,
    output wire                     m_axi_wvalid_o,
    input  wire                     m_axi_wready_i,
    output wire [DataBits-1:0]      m_axi_wdata_o,
    output wire [DataBits/8-1:0]    m_axi_wstrb_o,
    output wire                     m_axi_wlast_o,
    input  wire                     m_axi_bvalid_i,
    output wire                     m_axi_bready_o,
    input  wire [1:0]               m_axi_bresp_i,
    // completion
    output wire                     rsp_valid_o,
    input  wire                     rsp_ready_i,
    output wire                     rsp_error_o
);
  localparam integer Bytes    = DataBits / 8;
  localparam integer LaneBits = $clog2(Bytes);
  localparam integer LenBits  = $clog2(SpanBytes + 1);
  localparam [2:0]   Size     = LaneBits[2:0];

  localparam [2:0] StIdle = 3'd0, StAddr = 3'd1, StData = 3'd2, StResp = 3'd3, StDone = 3'd4;

  reg [2:0]             state_q, state_d;
  reg [32:0]            start_q, start_d;  // the span's first byte
  reg [32:0]            end_q, end_d;      // one past its last byte
  reg [32:0]            cur_q, cur_d;      // first byte of the current burst
  reg [32:0]            beat_q, beat_d;    // aligned address of the current beat
  reg [SpanBytes*8-1:0] data_q, data_d;
  reg                   err_q, err_d;

  // The current burst runs from the word holding cur_q to the span's end or the page
  // end (a span is at most SpanBytes, far below the 256-beat AXI limit).
  wire [32:0] base, burst_end;
  wire [8:0]  beats;
  tpu_axi_burst #(.Bytes(Bytes), .MaxBeats(256)) u_plan (
      .cur_i(cur_q), .end_i(end_q), .base_o(base), .end_o(burst_end), .beats_o(beats));
  wire [32:0] beat_end  = beat_q + Bytes;
  wire        last_beat = beat_end >= burst_end;

  // Beat lanes: lane l carries span byte j = beat_q + l - start_q when that address is
  // inside the current burst. With the span padded by a beat of zeros on each side,
  // span byte j sits at padded byte j + Bytes, so the beat is one right shift.
  localparam integer PadBytes = SpanBytes + 2 * Bytes;
  localparam integer ShBits   = $clog2(PadBytes);
  wire [PadBytes*8-1:0] padded = {{(Bytes*8){1'b0}}, data_q, {(Bytes*8){1'b0}}};
  wire [32:0]           shift  = beat_q + Bytes - start_q;  // 1 .. SpanBytes + Bytes
  wire [PadBytes*8-1:0] moved  = padded >> {shift[ShBits-1:0], 3'b000};
  wire [DataBits-1:0]   wdata  = moved[DataBits-1:0];
  wire [Bytes-1:0]      wstrb;
  genvar l;
  generate
    for (l = 0; l < Bytes; l = l + 1) begin : g_lane
      wire [32:0] lane_addr = beat_q + l;
      assign wstrb[l] = lane_addr >= cur_q && lane_addr < burst_end;
    end
  endgenerate

  wire aw_fire = m_axi_awvalid_o && m_axi_awready_i;
  wire w_fire  = m_axi_wvalid_o && m_axi_wready_i;
  wire b_fire  = m_axi_bvalid_i && m_axi_bready_o;

  always @(*) begin
    state_d = state_q;
    start_d = start_q;
    end_d   = end_q;
    cur_d   = cur_q;
    beat_d  = beat_q;
    data_d  = data_q;
    err_d   = err_q;
    case (state_q)
      StIdle: if (cmd_valid_i) begin
        start_d = {1'b0, cmd_addr_i};
        cur_d   = {1'b0, cmd_addr_i};
        end_d   = {1'b0, cmd_addr_i} + {{(33-LenBits){1'b0}}, cmd_len_i};
        data_d  = cmd_data_i;
        err_d   = 1'b0;
        state_d = StAddr;
      end
      StAddr: begin
        beat_d = base;
        if (aw_fire) state_d = StData;
      end
      StData: if (w_fire) begin
        beat_d = beat_end;
        if (last_beat) state_d = StResp;
      end
      StResp: if (b_fire) begin
        if (m_axi_bresp_i != 2'b00) err_d = 1'b1;
        cur_d   = burst_end;
        state_d = (burst_end >= end_q) ? StDone : StAddr;
      end
      StDone: if (rsp_ready_i) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      err_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      err_q   <= err_d;
    end
  end

  always @(posedge clk_i) begin
    start_q <= start_d;
    end_q   <= end_d;
    cur_q   <= cur_d;
    beat_q  <= beat_d;
    data_q  <= data_d;
  end

  assign cmd_ready_o     = state_q == StIdle;
  assign m_axi_awvalid_o = state_q == StAddr;
  assign m_axi_awaddr_o  = base[31:0];
  assign m_axi_awlen_o   = beats[7:0] - 8'd1;
  assign m_axi_awsize_o  = Size;
  assign m_axi_awburst_o = 2'b01;  // INCR
  assign m_axi_wvalid_o  = state_q == StData;
  assign m_axi_wdata_o   = wdata;
  assign m_axi_wstrb_o   = wstrb;
  assign m_axi_wlast_o   = last_beat;
  assign m_axi_bready_o  = state_q == StResp;
  assign rsp_valid_o     = state_q == StDone;
  assign rsp_error_o     = err_q;

  wire unused_bits = ^{beats[8], shift[32:ShBits], moved[PadBytes*8-1:DataBits]};

`ifdef FORMAL
  // Proven by `make formal`: the address and data channels and the response stream
  // hold while stalled.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  reg f_was_running = 1'b0;  // out of reset in the previous cycle too
  always @(posedge clk_i) f_was_running <= rst_ni;
  wire f_run = f_past_valid && f_was_running && rst_ni;
  always @(posedge clk_i) begin
    if (f_run && $past(m_axi_awvalid_o && !m_axi_awready_i)) begin
      assert (m_axi_awvalid_o);
      assert (m_axi_awaddr_o == $past(m_axi_awaddr_o) && m_axi_awlen_o == $past(m_axi_awlen_o));
    end
    if (f_run && $past(m_axi_wvalid_o && !m_axi_wready_i)) begin
      assert (m_axi_wvalid_o);
      assert (m_axi_wdata_o == $past(m_axi_wdata_o) && m_axi_wstrb_o == $past(m_axi_wstrb_o) &&
              m_axi_wlast_o == $past(m_axi_wlast_o));
    end
    if (f_run && $past(rsp_valid_o && !rsp_ready_i)) begin
      assert (rsp_valid_o);
      assert (rsp_error_o == $past(rsp_error_o));
    end
  end
`endif
endmodule

`default_nettype wire
