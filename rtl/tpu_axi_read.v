// SPDX-License-Identifier: Apache-2.0
// DMA read engine: reads one span of device memory [addr, addr + len) over AXI4.
//
// The span is split into INCR bursts of at most MaxBeats full-width beats that never
// cross a 4 KB boundary. Each returned beat leaves on the out stream as the raw bus
// word with its window of valid byte lanes [lo, hi); `last` marks the span's final
// beat. A non-OKAY response on any beat of the span sets `error` from that beat on
// (the consumer reports BUS_ERROR at `last`). One span is in flight at a time.
`default_nettype none

module tpu_axi_read #(
    parameter integer DataBits = 32,  // AXI data width: 32..512, a power of two
    parameter integer MaxBeats = 16   // beats per burst, 1..256
) (
    input  wire                    clk_i,
    input  wire                    rst_ni,
    // command: a span of len bytes (1..4095) at addr
    input  wire                    cmd_valid_i,
    output wire                    cmd_ready_o,
    input  wire [31:0]             cmd_addr_i,
    input  wire [11:0]             cmd_len_i,
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
    output wire                    out_error_o
);
  localparam integer Bytes    = DataBits / 8;        // byte lanes per beat
  localparam integer LaneBits = $clog2(Bytes);       // width of a lane index
  localparam [2:0]   Size     = LaneBits[2:0];       // AXI arsize: log2(bytes per beat)

  localparam [1:0] StIdle = 2'd0, StAddr = 2'd1, StData = 2'd2;

  reg  [1:0]  state_q, state_d;
  reg  [32:0] cur_q, cur_d;        // first byte of the next burst
  reg  [32:0] end_q, end_d;        // one past the span's last byte
  reg  [32:0] beat_q, beat_d;      // aligned address of the beat expected next
  reg         err_q, err_d;

  wire [32:0] base, burst_end;
  wire [8:0]  beats;
  tpu_axi_burst #(.Bytes(Bytes), .MaxBeats(MaxBeats)) u_plan (
      .cur_i(cur_q), .end_i(end_q), .base_o(base), .end_o(burst_end), .beats_o(beats));

  wire ar_fire = m_axi_arvalid_o && m_axi_arready_i;
  wire r_fire  = m_axi_rvalid_i && m_axi_rready_o;
  wire [32:0] beat_end    = beat_q + Bytes;
  wire        span_done   = beat_end >= end_q;   // this beat holds the span's last byte

  always @(*) begin
    state_d = state_q;
    cur_d   = cur_q;
    end_d   = end_q;
    beat_d  = beat_q;
    err_d   = err_q;
    case (state_q)
      StIdle: if (cmd_valid_i) begin
        cur_d   = {1'b0, cmd_addr_i};
        end_d   = {1'b0, cmd_addr_i} + {21'd0, cmd_len_i};
        err_d   = 1'b0;
        state_d = StAddr;
      end
      StAddr: begin
        beat_d = base;
        if (ar_fire) state_d = StData;
      end
      StData: if (r_fire) begin
        beat_d = beat_end;
        if (m_axi_rresp_i != 2'b00) err_d = 1'b1;
        if (m_axi_rlast_i) begin
          cur_d   = beat_end;
          state_d = span_done ? StIdle : StAddr;
        end
      end
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
    cur_q   <= cur_d;
    end_q   <= end_d;
    beat_q  <= beat_d;
  end

  assign cmd_ready_o     = state_q == StIdle;
  assign m_axi_arvalid_o = state_q == StAddr;
  assign m_axi_araddr_o  = base[31:0];
  assign m_axi_arlen_o   = beats[7:0] - 8'd1;  // beats <= 256
  assign m_axi_arsize_o  = Size;
  assign m_axi_arburst_o = 2'b01;  // INCR

  // Data beats pass straight through; the byte window comes from the beat address.
  wire [32:0] lo_addr = (cur_q > beat_q) ? cur_q : beat_q;
  wire [32:0] hi_addr = span_done ? end_q : beat_end;
  wire [32:0] lo_off  = lo_addr - beat_q;   // 0 .. Bytes-1
  wire [32:0] hi_off  = hi_addr - beat_q;   // 1 .. Bytes
  assign m_axi_rready_o = state_q == StData && out_ready_i;
  assign out_valid_o    = state_q == StData && m_axi_rvalid_i;
  assign out_data_o     = m_axi_rdata_i;
  assign out_lo_o       = lo_off[LaneBits:0];
  assign out_hi_o       = hi_off[LaneBits:0];
  assign out_last_o     = m_axi_rlast_i && span_done;
  assign out_error_o    = err_q || (m_axi_rresp_i != 2'b00);

  wire unused_offsets = ^{lo_off[32:LaneBits+1], hi_off[32:LaneBits+1], beats[8], burst_end};

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
