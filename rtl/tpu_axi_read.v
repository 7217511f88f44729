// SPDX-License-Identifier: Apache-2.0
// DMA read engine: reads spans of device memory [addr, addr + len) over AXI4, several
// at a time.
//
// A span is split into INCR bursts of at most MaxBeats full-width beats that never
// cross a 4 KB boundary. The address side issues bursts as soon as there is room to
// remember them (up to Bursts outstanding), and takes the next span in the cycle the
// last burst of the current one is issued; the data side matches the returning beats,
// in order, to the remembered bursts. Each beat leaves on the out stream as the raw bus word with
// its window of valid byte lanes [lo, hi) and its span's tag; `last` marks a span's
// final beat. A non-OKAY response on any beat of a span sets `error` from that beat to
// the span's end (the consumer reports BUS_ERROR at `last`).
`default_nettype none

module tpu_axi_read #(
    parameter integer DataBits = 32,  // AXI data width: 32..512, a power of two
    parameter integer MaxBeats = 16,  // beats per burst, 1..256
    parameter integer Bursts   = 8    // bursts in flight, a power of two >= 2
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    // command: a span of len bytes (1..4095) at addr, for the consumer `tag`
    input  wire                    cmd_valid_i,
    output wire                    cmd_ready_o,
    input  wire [31:0]             cmd_addr_i,
    input  wire [11:0]             cmd_len_i,
    input  wire                    cmd_tag_i,
    // AXI4 read address channel
    output wire                    m_axi_arvalid_o,
    input  wire                    m_axi_arready_i,
    output wire [31:0]             m_axi_araddr_o,
    output wire [7:0]              m_axi_arlen_o,
    output wire [2:0]              m_axi_arsize_o,
    output wire [1:0]              m_axi_arburst_o,
    // AXI4 read data channel
    input  wire                    m_axi_rvalid_i,
    output wire                    m_axi_rready_o,
    input  wire [DataBits-1:0]     m_axi_rdata_i,
    input  wire [1:0]              m_axi_rresp_i,
    input  wire                    m_axi_rlast_i,
    // beats out
    output wire                    out_valid_o,
    input  wire                    out_ready_i,
    output wire [DataBits-1:0]     out_data_o,
    output wire [LaneBits:0]       out_lo_o,     // first valid byte lane
    output wire [LaneBits:0]       out_hi_o,     // one past the last valid byte lane
    output wire                    out_last_o,
    output wire                    out_error_o,
    output wire                    out_tag_o,
    output wire                    busy_o        // a span is being issued or is in flight
);
  localparam integer Bytes    = DataBits / 8;        // byte lanes per beat
  localparam integer LaneBits = $clog2(Bytes);       // width of a lane index
  localparam [2:0]   Size     = LaneBits[2:0];       // AXI arsize: log2(bytes per beat)
  localparam integer RecBits  = 33 + 33 + 1;         // a burst: first byte, span end, tag
  localparam integer CntBits  = $clog2(Bursts) + 1;

  // ---- address side: the span being split into bursts --------------------------------
  reg         walk_q;           // bursts of the current span remain to be issued
  reg  [32:0] cur_q;            // first byte of the next burst
  reg  [32:0] end_q;            // one past the span's last byte
  reg         tag_q;

  wire [32:0] base, burst_end;
  wire [8:0]  beats;
  tpu_axi_burst #(.Bytes(Bytes), .MaxBeats(MaxBeats)) u_plan (
      .cur_i(cur_q), .end_i(end_q), .base_o(base), .end_o(burst_end), .beats_o(beats));

  wire                cmd_fire = cmd_valid_i && cmd_ready_o;
  wire                ar_fire  = m_axi_arvalid_o && m_axi_arready_i;
  wire                rec_ready;
  wire                rec_valid;
  wire [RecBits-1:0]  rec;
  wire [CntBits-1:0]  unused_count;

  always @(posedge clk_i) begin
    if (!rst_ni) walk_q <= 1'b0;
    else if (cmd_fire) walk_q <= 1'b1;
    else if (ar_fire && burst_end >= end_q) walk_q <= 1'b0;
  end
  always @(posedge clk_i) begin
    if (cmd_fire) begin
      cur_q <= {1'b0, cmd_addr_i};
      end_q <= {1'b0, cmd_addr_i} + {21'd0, cmd_len_i};
      tag_q <= cmd_tag_i;
    end else if (ar_fire) begin
      cur_q <= burst_end;
    end
  end

  // the next span is taken as the current one's last burst goes out: a span per cycle
  assign cmd_ready_o     = !walk_q || (ar_fire && burst_end >= end_q);
  // arvalid never drops before its handshake: only a handshake fills the record FIFO.
  assign m_axi_arvalid_o = walk_q && rec_ready;
  assign m_axi_araddr_o  = base[31:0];
  assign m_axi_arlen_o   = beats[7:0] - 8'd1;  // beats <= 256
  assign m_axi_arsize_o  = Size;
  assign m_axi_arburst_o = 2'b01;  // INCR

  // ---- data side: the bursts on the bus, oldest first --------------------------------
  wire r_fire = m_axi_rvalid_i && m_axi_rready_o;
  tpu_fifo #(.Width(RecBits), .Depth(Bursts)) u_bursts (
      .clk_i, .rst_ni, .clear_i(1'b0),
      .in_valid_i(ar_fire), .in_ready_o(rec_ready), .in_data_i({tag_q, end_q, cur_q}),
      .out_valid_o(rec_valid), .out_ready_i(r_fire && m_axi_rlast_i), .out_data_o(rec),
      .count_o(unused_count));
  wire [32:0] rec_cur = rec[32:0];
  wire [32:0] rec_end = rec[65:33];
  wire        rec_tag = rec[66];

  reg         mid_q;            // a burst is part-way through: beat_q is its next beat
  reg  [32:0] beat_q;
  reg         err_q;            // an earlier beat of this span had an error
  reg  [CntBits:0] spans_q;     // spans taken and not yet ended on the out stream
  wire [32:0] beat      = mid_q ? beat_q : {rec_cur[32:LaneBits], {LaneBits{1'b0}}};
  wire [32:0] beat_end  = beat + Bytes;
  wire        span_done = beat_end >= rec_end;   // this beat holds the span's last byte
  wire        bad       = m_axi_rresp_i != 2'b00;
  wire        out_fire  = r_fire;                // beats pass straight through
  wire        span_out  = out_fire && out_last_o;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      mid_q   <= 1'b0;
      err_q   <= 1'b0;
      spans_q <= {(CntBits+1){1'b0}};
    end else begin
      if (r_fire) mid_q <= !m_axi_rlast_i;
      if (span_out) err_q <= 1'b0;
      else if (r_fire && bad) err_q <= 1'b1;
      spans_q <= spans_q + {{CntBits{1'b0}}, cmd_fire} - {{CntBits{1'b0}}, span_out};
    end
  end
  always @(posedge clk_i) if (r_fire) beat_q <= beat_end;

  wire [32:0] lo_addr = (rec_cur > beat) ? rec_cur : beat;
  wire [32:0] hi_addr = span_done ? rec_end : beat_end;
  wire [32:0] lo_off  = lo_addr - beat;   // 0 .. Bytes-1
  wire [32:0] hi_off  = hi_addr - beat;   // 1 .. Bytes
  assign m_axi_rready_o = rec_valid && out_ready_i;
  assign out_valid_o    = rec_valid && m_axi_rvalid_i;
  assign out_data_o     = m_axi_rdata_i;
  assign out_lo_o       = lo_off[LaneBits:0];
  assign out_hi_o       = hi_off[LaneBits:0];
  assign out_last_o     = m_axi_rlast_i && span_done;
  assign out_error_o    = err_q || bad;
  assign out_tag_o      = rec_tag;
  assign busy_o         = spans_q != {(CntBits+1){1'b0}};

  wire unused_offsets = ^{lo_off[32:LaneBits+1], hi_off[32:LaneBits+1], beats[8], base[32]};

`ifdef FORMAL
  // Proven by `make formal`, given a slave that follows AXI4 (R held while stalled):
  // the address channel and the out stream hold while stalled.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  reg f_was_running = 1'b0;  // out of reset in the previous cycle too
  always @(posedge clk_i) f_was_running <= rst_ni;
  wire f_run = f_past_valid && f_was_running && rst_ni;
  always @(posedge clk_i) begin
    if (f_run && $past(m_axi_rvalid_i && !m_axi_rready_o)) begin
      assume (m_axi_rvalid_i);
      assume (m_axi_rdata_i == $past(m_axi_rdata_i) && m_axi_rresp_i == $past(m_axi_rresp_i) &&
              m_axi_rlast_i == $past(m_axi_rlast_i));
    end
    if (f_run && $past(m_axi_arvalid_o && !m_axi_arready_i)) begin
      assert (m_axi_arvalid_o);
      assert (m_axi_araddr_o == $past(m_axi_araddr_o) && m_axi_arlen_o == $past(m_axi_arlen_o));
    end
    if (f_run && $past(out_valid_o && !out_ready_i)) begin
      assert (out_valid_o);
      assert (out_data_o == $past(out_data_o) && out_lo_o == $past(out_lo_o) &&
              out_hi_o == $past(out_hi_o) && out_last_o == $past(out_last_o) &&
              out_error_o == $past(out_error_o));
    end
  end
`endif
endmodule

`default_nettype wire
