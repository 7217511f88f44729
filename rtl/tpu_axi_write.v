// SPDX-License-Identifier: Apache-2.0
// DMA write engine: writes one span of at most SpanBytes bytes (a unified-buffer row)
// to device memory [addr, addr + len) over AXI4.
//
// The span goes out as one INCR burst, or two when it crosses a 4 KB page; each beat's
// WSTRB enables exactly the span's bytes in it. The next span is taken as soon as this
// one's data is out: up to Bursts bursts wait for their write responses, and when a
// span's last response arrives the engine answers on the rsp stream, in span order,
// with `error` set if any of its responses was not OKAY.
`default_nettype none

module tpu_axi_write #(
    parameter integer DataBits  = 32,  // AXI data width: 32..512, a power of two
    parameter integer SpanBytes = 16,  // longest span: the unified-buffer row (N bytes)
    parameter integer Bursts    = 8    // bursts awaiting their response, a power of two >= 2
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

  localparam [1:0] StIdle = 2'd0, StAddr = 2'd1, StData = 2'd2;
  localparam integer CntBits = $clog2(Bursts) + 1;

  reg [1:0]             state_q, state_d;
  reg [32:0]            start_q, start_d;  // the span's first byte
  reg [32:0]            end_q, end_d;      // one past its last byte
  reg [32:0]            cur_q, cur_d;      // first byte of the current burst
  reg [32:0]            beat_q, beat_d;    // aligned address of the current beat
  reg [SpanBytes*8-1:0] data_q, data_d;

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

  // Bursts awaiting their response, oldest first: does each end its span?
  wire               rec_ready, rec_valid, rec_last;
  wire [CntBits-1:0] unused_count;
  tpu_fifo #(.Width(1), .Depth(Bursts)) u_bursts (
      .clk_i, .rst_ni, .clear_i(1'b0),
      .in_valid_i(aw_fire), .in_ready_o(rec_ready), .in_data_i(burst_end >= end_q),
      .out_valid_o(rec_valid), .out_ready_i(b_fire), .out_data_o(rec_last), .count_o(unused_count));
  reg bad_q;                 // an earlier response of the oldest span was not OKAY
  reg rsp_q, rsp_err_q;      // a span's answer waits on the rsp stream
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      bad_q <= 1'b0;
      rsp_q <= 1'b0;
    end else begin
      if (rsp_valid_o && rsp_ready_i) rsp_q <= 1'b0;
      if (b_fire) begin
        if (rec_last) begin
          rsp_q     <= 1'b1;
          rsp_err_q <= bad_q || m_axi_bresp_i != 2'b00;
          bad_q     <= 1'b0;
        end else if (m_axi_bresp_i != 2'b00) begin
          bad_q <= 1'b1;
        end
      end
    end
  end

  always @(*) begin
    state_d = state_q;
    start_d = start_q;
    end_d   = end_q;
    cur_d   = cur_q;
    beat_d  = beat_q;
    data_d  = data_q;
    case (state_q)
      StIdle: if (cmd_valid_i) begin
        start_d = {1'b0, cmd_addr_i};
        cur_d   = {1'b0, cmd_addr_i};
        end_d   = {1'b0, cmd_addr_i} + {{(33-LenBits){1'b0}}, cmd_len_i};
        data_d  = cmd_data_i;
        state_d = StAddr;
      end
      StAddr: begin
        beat_d = base;
        if (aw_fire) state_d = StData;
      end
      StData: if (w_fire) begin
        beat_d = beat_end;
        if (last_beat) begin
          cur_d   = burst_end;
          state_d = (burst_end >= end_q) ? StIdle : StAddr;
        end
      end
      default: state_d = StIdle;
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) state_q <= StIdle;
    else state_q <= state_d;
  end

  always @(posedge clk_i) begin
    start_q <= start_d;
    end_q   <= end_d;
    cur_q   <= cur_d;
    beat_q  <= beat_d;
    data_q  <= data_d;
  end

  assign cmd_ready_o     = state_q == StIdle;
  // awvalid never drops before its handshake: only a handshake fills the burst FIFO.
  assign m_axi_awvalid_o = state_q == StAddr && rec_ready;
  assign m_axi_awaddr_o  = base[31:0];
  assign m_axi_awlen_o   = beats[7:0] - 8'd1;
  assign m_axi_awsize_o  = Size;
  assign m_axi_awburst_o = 2'b01;  // INCR
  assign m_axi_wvalid_o  = state_q == StData;
  assign m_axi_wdata_o   = wdata;
  assign m_axi_wstrb_o   = wstrb;
  assign m_axi_wlast_o   = last_beat;
  // A span's last response waits while the previous span's answer is still unread.
  assign m_axi_bready_o  = rec_valid && !(rec_last && rsp_q);
  assign rsp_valid_o     = rsp_q;
  assign rsp_error_o     = rsp_err_q;

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
