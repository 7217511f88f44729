// SPDX-License-Identifier: Apache-2.0
// DMA write engine: writes spans of at most SpanBytes bytes (unified-buffer rows) to
// device memory [addr, addr + len) over AXI4, one span per cycle when the bus allows.
//
// Each span goes out as one INCR burst, or two when it crosses a 4 KB page; each beat's
// WSTRB enables exactly the span's bytes in it. Accepted spans wait in a ring of Spans
// entries walked by two pointers: the address walker issues a span's AW bursts, and the
// data walker follows it with the span's W beats (never ahead of its addresses, since a
// slave may wait for AW before taking W). Up to Bursts bursts wait for their write
// responses; when a span's last response arrives the engine answers on the rsp stream,
// in span order, with `error` set if any of its responses was not OKAY.
`default_nettype none

module tpu_axi_write #(
    parameter integer DataBits  = 32,  // AXI data width: 32..512, a power of two
    parameter integer SpanBytes = 16,  // longest span: the unified-buffer row (N bytes)
    parameter integer Bursts    = 32,  // bursts awaiting their response (covers the memory latency), a power of two >= 2
    parameter integer Spans     = 4    // spans accepted and not yet fully sent, a power of two >= 2
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
  localparam integer CntBits  = $clog2(Bursts) + 1;
  localparam integer RingBits = $clog2(Spans);

  wire aw_fire  = m_axi_awvalid_o && m_axi_awready_i;
  wire w_fire   = m_axi_wvalid_o && m_axi_wready_i;
  wire b_fire   = m_axi_bvalid_i && m_axi_bready_o;
  wire cmd_fire = cmd_valid_i && cmd_ready_o;

  // ---- the span ring: entries [w_q, aw_q) are addressed, [aw_q, wr_q) are not yet -------
  reg [32:0]            start_m [0:Spans-1];  // the span's first byte
  reg [32:0]            end_m   [0:Spans-1];  // one past its last byte
  reg [SpanBytes*8-1:0] data_m  [0:Spans-1];
  reg [RingBits:0]      wr_q, aw_q, w_q;      // one extra bit tells full from empty
  always @(posedge clk_i) begin
    if (cmd_fire) begin
      start_m[wr_q[RingBits-1:0]] <= {1'b0, cmd_addr_i};
      end_m[wr_q[RingBits-1:0]]   <= {1'b0, cmd_addr_i} + {{(33-LenBits){1'b0}}, cmd_len_i};
      data_m[wr_q[RingBits-1:0]]  <= cmd_data_i;
    end
  end

  // ---- address walker: the bursts of span aw_q ------------------------------------------
  reg         aw_mid_q;   // an earlier burst of span aw_q is out; the next starts at aw_cur_q
  reg  [32:0] aw_cur_q;
  wire [32:0] a_end = end_m[aw_q[RingBits-1:0]];
  wire [32:0] a_cur = aw_mid_q ? aw_cur_q : start_m[aw_q[RingBits-1:0]];
  wire [32:0] base, burst_end;
  wire [8:0]  beats;
  tpu_axi_burst #(.Bytes(Bytes), .MaxBeats(256)) u_plan (
      .cur_i(a_cur), .end_i(a_end), .base_o(base), .end_o(burst_end), .beats_o(beats));
  wire a_last = burst_end >= a_end;  // this burst ends the span

  // ---- data walker: the beats of span w_q, a beat-aligned address at a time -------------
  reg         w_mid_q;    // earlier beats of span w_q are out; the next is at beat_q
  reg  [32:0] beat_q;
  wire [32:0] w_start  = start_m[w_q[RingBits-1:0]];
  wire [32:0] w_end    = end_m[w_q[RingBits-1:0]];
  wire [32:0] beat     = w_mid_q ? beat_q : {w_start[32:LaneBits], {LaneBits{1'b0}}};
  wire [32:0] beat_end = beat + Bytes;
  wire        w_last   = beat_end >= w_end;  // the span's last beat
  // The burst holding this beat ends where the address walker's plan ended it.
  wire [32:0] w_burst_end;
  wire [32:0] unused_w_base;
  wire [8:0]  unused_w_beats;
  tpu_axi_burst #(.Bytes(Bytes), .MaxBeats(256)) u_wplan (
      .cur_i(beat), .end_i(w_end), .base_o(unused_w_base), .end_o(w_burst_end), .beats_o(unused_w_beats));
  wire        burst_last = beat_end >= w_burst_end;

  // Beat lanes: lane l carries span byte j = beat + l - start when that address is inside
  // the span. With the span padded by a beat of zeros on each side, span byte j sits at
  // padded byte j + Bytes, so the beat is one right shift.
  localparam integer PadBytes = SpanBytes + 2 * Bytes;
  localparam integer ShBits   = $clog2(PadBytes);
  wire [PadBytes*8-1:0] padded = {{(Bytes*8){1'b0}}, data_m[w_q[RingBits-1:0]], {(Bytes*8){1'b0}}};
  wire [32:0]           shift  = beat + Bytes - w_start;  // 1 .. SpanBytes + Bytes
  wire [PadBytes*8-1:0] moved  = padded >> {shift[ShBits-1:0], 3'b000};
  wire [Bytes-1:0]      wstrb;
  genvar l;
  generate
    for (l = 0; l < Bytes; l = l + 1) begin : g_lane
      wire [32:0] lane_addr = beat + l;
      assign wstrb[l] = lane_addr >= w_start && lane_addr < w_end;
    end
  endgenerate

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_q     <= {(RingBits + 1){1'b0}};
      aw_q     <= {(RingBits + 1){1'b0}};
      w_q      <= {(RingBits + 1){1'b0}};
      aw_mid_q <= 1'b0;
      w_mid_q  <= 1'b0;
    end else begin
      if (cmd_fire) wr_q <= wr_q + 1'b1;
      if (aw_fire) begin
        aw_mid_q <= !a_last;
        if (a_last) aw_q <= aw_q + 1'b1;
      end
      if (w_fire) begin
        w_mid_q <= !w_last;
        if (w_last) w_q <= w_q + 1'b1;
      end
    end
  end
  always @(posedge clk_i) begin
    if (aw_fire) aw_cur_q <= burst_end;
    if (w_fire) beat_q <= beat_end;
  end

  // ---- responses --------------------------------------------------------------------------
  // Bursts awaiting their response, oldest first: does each end its span?
  wire               rec_ready, rec_valid, rec_last;
  wire [CntBits-1:0] unused_count;
  tpu_fifo #(.Width(1), .Depth(Bursts)) u_bursts (
      .clk_i, .rst_ni, .clear_i(1'b0),
      .in_valid_i(aw_fire), .in_ready_o(rec_ready), .in_data_i(a_last),
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

  assign cmd_ready_o     = wr_q - w_q != Spans[RingBits:0];
  // awvalid never drops before its handshake: only a handshake fills the burst FIFO.
  assign m_axi_awvalid_o = aw_q != wr_q && rec_ready;
  assign m_axi_awaddr_o  = base[31:0];
  assign m_axi_awlen_o   = beats[7:0] - 8'd1;
  assign m_axi_awsize_o  = Size;
  assign m_axi_awburst_o = 2'b01;  // INCR
  assign m_axi_wvalid_o  = w_q != aw_q;
  assign m_axi_wdata_o   = moved[DataBits-1:0];
  assign m_axi_wstrb_o   = wstrb;
  assign m_axi_wlast_o   = burst_last;
  // A span's last response waits while the previous span's answer is still unread (it
  // may be read in the same cycle).
  assign m_axi_bready_o  = rec_valid && !(rec_last && rsp_q && !rsp_ready_i);
  assign rsp_valid_o     = rsp_q;
  assign rsp_error_o     = rsp_err_q;

  wire unused_bits = ^{base[32], beats[8], shift[32:ShBits], moved[PadBytes*8-1:DataBits], unused_w_base,
                       unused_w_beats};

`ifdef FORMAL
  // The address and data channels and the response stream hold while stalled; the
  // walkers keep their order in the ring. Not in `make formal` (z3 does not finish it
  // in minutes, scripts/formal.sh); the block test checks the channels cycle by cycle.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  reg f_was_running = 1'b0;  // out of reset in the previous cycle too
  always @(posedge clk_i) f_was_running <= rst_ni;
  wire f_run = f_past_valid && f_was_running && rst_ni;
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      assert (wr_q - w_q <= Spans[RingBits:0]);
      assert (aw_q - w_q <= wr_q - w_q);
      if (w_q == aw_q) assert (!w_mid_q);
      if (aw_q == wr_q) assert (!aw_mid_q);
    end
  end
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
