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
// in span order, with `error` set if any of its responses was not OKAY. The W channel
// leaves through a register slice: its beat is a page of shifting (the span's bytes to
// their lanes), which must not run on into the slave's logic in the same cycle.
`default_nettype none
`include "tpu_axi_ports.vh"

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
    `TPU_AXI_WR_MASTER_PORTS(m_axi_, DataBits),
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
  wire w_valid, w_ready;
  wire w_fire   = w_valid && w_ready;   // the data walker's beat enters the W register slice
  wire b_fire   = m_axi_bvalid_i && m_axi_bready_o;
  wire cmd_fire = cmd_valid_i && cmd_ready_o;

  // ---- the span ring: entries [w_q, aw_q) are addressed, [aw_q, wr_q) are not yet -------
  // Each span is planned as it arrives, in arithmetic as narrow as a span: its first
  // lane, its beats, whether it crosses a 4 KB page and after how many beats, and one
  // past the last valid lane of its last beat. The walkers then only count beats.
  localparam integer BeatBits = $clog2((SpanBytes + 2 * Bytes) / Bytes + 1);
  localparam integer PlanBits = LaneBits + 1 + 2 * BeatBits + (LaneBits + 1);
  wire [LaneBits-1:0] c_off   = cmd_addr_i[LaneBits-1:0];
  wire [12:0]         c_need  = {{(13-LenBits){1'b0}}, cmd_len_i} + {{(13-LaneBits){1'b0}}, c_off};
  wire [12:0]         c_room  = 13'd4096 - {1'b0, cmd_addr_i[11:LaneBits], {LaneBits{1'b0}}};
  // (c_need > c_room: the span's end, addr[11:0] + len, is past 4096; one add, not the
  // two above and a comparison of their sums)
  wire [12:0]         c_end   = {1'b0, cmd_addr_i[11:0]} + {{(13-LenBits){1'b0}}, cmd_len_i};
  wire                c_cross = c_end[12] && c_end[11:0] != 12'd0;
  wire [12:0]         c_total = (c_need + Bytes[12:0] - 1'b1) >> LaneBits;   // beats of the span
  wire [12:0]         c_first = c_room >> LaneBits;                          // beats before the page end
  wire [LaneBits:0]   c_hi    = {1'b0, c_need[LaneBits-1:0] - 1'b1} + 1'b1;  // lanes of the last beat
  wire [PlanBits-1:0] c_plan  = {c_off, c_cross, c_total[BeatBits-1:0], c_first[BeatBits-1:0], c_hi};
  wire unused_plan = ^{c_total[12:BeatBits], c_first[12:BeatBits]};

  reg [31:0]            start_m [0:Spans-1];  // the span's first byte
  reg [PlanBits-1:0]    plan_m  [0:Spans-1];
  // The span's bytes as its beats will carry them: shifted up by its first lane as the
  // span arrives, so that a beat is a choice among the entry's beats, not a shift.
  localparam integer AlBeats = (SpanBytes + Bytes - 1 + Bytes - 1) / Bytes;
  localparam integer AlBits  = AlBeats * DataBits;
  wire [AlBits-1:0]     c_aligned = {{(AlBits - SpanBytes * 8){1'b0}}, cmd_data_i} << {c_off, 3'b000};
  reg [AlBits-1:0]      data_m  [0:Spans-1];
  reg [RingBits:0]      wr_q, aw_q, w_q;      // one extra bit tells full from empty
  always @(posedge clk_i) begin
    if (cmd_fire) begin
      start_m[wr_q[RingBits-1:0]] <= cmd_addr_i;
      plan_m[wr_q[RingBits-1:0]]  <= c_plan;
      data_m[wr_q[RingBits-1:0]]  <= c_aligned;
    end
  end

  // ---- address walker: the bursts of span aw_q (a second one past a page end) -----------
  reg                 aw_mid_q;   // the span's first burst is out; the second is next
  wire [31:0]         a_start = start_m[aw_q[RingBits-1:0]];
  wire [LaneBits-1:0] a_off;
  wire                a_cross;
  wire [BeatBits-1:0] a_total, a_first;
  wire [LaneBits:0]   a_hi;
  assign {a_off, a_cross, a_total, a_first, a_hi} = plan_m[aw_q[RingBits-1:0]];
  wire [31:0]         base  = aw_mid_q ? {a_start[31:12] + 20'd1, 12'd0}
                                       : {a_start[31:LaneBits], {LaneBits{1'b0}}};
  wire [BeatBits-1:0] beats = !a_cross ? a_total : aw_mid_q ? a_total - a_first : a_first;
  wire                a_last = !a_cross || aw_mid_q;  // this burst ends the span

  // ---- data walker: the beats of span w_q -----------------------------------------------
  reg                 w_mid_q;    // earlier beats of span w_q are out; the next is beat_q
  reg  [BeatBits-1:0] beat_q;
  wire [BeatBits-1:0] k = w_mid_q ? beat_q : {BeatBits{1'b0}};
  wire [LaneBits-1:0] w_off;
  wire                w_cross;
  wire [BeatBits-1:0] w_total, w_first;
  wire [LaneBits:0]   w_hi;
  assign {w_off, w_cross, w_total, w_first, w_hi} = plan_m[w_q[RingBits-1:0]];
  wire                w_last     = k == w_total - 1'b1;                   // the span's last beat
  wire                burst_last = w_last || (w_cross && k == w_first - 1'b1);

  // Beat lanes: lane l of beat k carries span byte j = k * Bytes + l - off when that is
  // inside the span: the entry's beat k (the strobes mark the span's bytes).
  wire [AlBits-1:0]     w_entry = data_m[w_q[RingBits-1:0]];
  reg  [DataBits-1:0]   moved;
  integer b;
  always @(*) begin
    moved = {DataBits{1'b0}};
    for (b = 0; b < AlBeats; b = b + 1)
      if (k == b[BeatBits-1:0]) moved = w_entry[b * DataBits +: DataBits];
  end
  wire [LaneBits:0]     lo_lane = w_mid_q ? {(LaneBits+1){1'b0}} : {1'b0, w_off};
  wire [LaneBits:0]     hi_lane = w_last ? w_hi : Bytes[LaneBits:0];
  wire [Bytes-1:0]      wstrb;
  genvar l;
  generate
    for (l = 0; l < Bytes; l = l + 1) begin : g_lane
      assign wstrb[l] = l >= lo_lane && l < hi_lane;
    end
  endgenerate

  // The pointers' next values, and whether the ring is full (wr_q - w_q == Spans) as a
  // register of its own from them: the DMA-out's take and its row count wait on
  // cmd_ready_o (the subtraction and comparison in front of them was the N = 8 build's
  // longest path).
  wire              w_done  = w_fire && w_last;
  wire [RingBits:0] wr_next = wr_q + {{RingBits{1'b0}}, cmd_fire};
  wire [RingBits:0] w_next  = w_q + {{RingBits{1'b0}}, w_done};
  reg               full_q;
  always @(posedge clk_i) full_q <= rst_ni && wr_next - w_next == Spans[RingBits:0];

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_q     <= {(RingBits + 1){1'b0}};
      aw_q     <= {(RingBits + 1){1'b0}};
      w_q      <= {(RingBits + 1){1'b0}};
      aw_mid_q <= 1'b0;
      w_mid_q  <= 1'b0;
    end else begin
      wr_q <= wr_next;
      w_q  <= w_next;
      if (aw_fire) begin
        aw_mid_q <= !a_last;
        if (a_last) aw_q <= aw_q + 1'b1;
      end
      if (w_fire) w_mid_q <= !w_last;
    end
  end
  always @(posedge clk_i) if (w_fire) beat_q <= k + 1'b1;

  // ---- responses --------------------------------------------------------------------------
  // Bursts awaiting their response, oldest first: does each end its span?
  wire               rec_ready, rec_valid, rec_last;
  wire [CntBits-1:0] unused_count;
  tpu_fifo #(.Width(1), .Depth(Bursts)) u_bursts (
      .clk_i,
      .rst_ni,
      .clear_i(1'b0),
      .in_valid_i(aw_fire),
      .in_ready_o(rec_ready),
      .in_data_i(a_last),
      .out_valid_o(rec_valid),
      .out_ready_i(b_fire),
      .out_data_o(rec_last),
      .count_o(unused_count));
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

  assign cmd_ready_o     = !full_q;
  // awvalid never drops before its handshake: only a handshake fills the burst FIFO.
  assign m_axi_awvalid_o = aw_q != wr_q && rec_ready;
  assign m_axi_awaddr_o  = base;
  assign m_axi_awlen_o   = {{(8-BeatBits){1'b0}}, beats} - 8'd1;
  assign m_axi_awsize_o  = Size;
  assign m_axi_awburst_o = 2'b01;  // INCR
  assign w_valid = w_q != aw_q;
  tpu_reg_slice #(.Width(DataBits + Bytes + 1)) u_w (
      .clk_i,
      .rst_ni,
      .in_valid_i(w_valid),
      .in_ready_o(w_ready),
      .in_data_i({moved, wstrb, burst_last}),
      .out_valid_o(m_axi_wvalid_o),
      .out_ready_i(m_axi_wready_i),
      .out_data_o({m_axi_wdata_o, m_axi_wstrb_o, m_axi_wlast_o}));
  // A span's last response waits while the previous span's answer is still unread (it
  // may be read in the same cycle).
  assign m_axi_bready_o  = rec_valid && !(rec_last && rsp_q && !rsp_ready_i);
  assign rsp_valid_o     = rsp_q;
  assign rsp_error_o     = rsp_err_q;

  wire unused_bits = ^{a_off, a_hi, a_start[LaneBits-1:0]};

`ifdef FORMAL
  // The address and data channels and the response stream hold while stalled; the
  // walkers keep their order in the ring. Not in `make formal` (z3 does not finish it
  // in minutes, scripts/formal.sh); the block test checks the channels cycle by cycle.
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE
  always @(*) begin
    if (f_past_valid && rst_ni) begin
      assert (wr_q - w_q <= Spans[RingBits:0]);
      assert (aw_q - w_q <= wr_q - w_q);
      if (w_q == aw_q) assert (!w_mid_q);
      if (aw_q == wr_q) assert (!aw_mid_q);
    end
  end
  `TPU_F_HOLD(u_f_aw, 40, 0, 1'b0, m_axi_awvalid_o, m_axi_awready_i,
             {m_axi_awaddr_o, m_axi_awlen_o})
  `TPU_F_HOLD(u_f_w, DataBits + DataBits / 8 + 1, 0, 1'b0, m_axi_wvalid_o, m_axi_wready_i,
             {m_axi_wdata_o, m_axi_wstrb_o, m_axi_wlast_o})
  `TPU_F_HOLD(u_f_rsp, 1, 0, 1'b0, rsp_valid_o, rsp_ready_i, rsp_error_o)
`endif
endmodule

`default_nettype wire
