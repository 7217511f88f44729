// SPDX-License-Identifier: Apache-2.0
// The host's register block: an AXI4-Lite slave (32-bit registers).
//
//   0x00 ID        RO  0x54535241 ("TSRA")
//   0x04 VERSION   RO  [31:16] major, [15:0] minor of the ISA and image format
//   0x08 CONFIG0   RO  [7:0] N, [15:8] wfifo_depth, [31:16] dma_width (bits)
//   0x0c CONFIG1   RO  ub_rows
//   0x10 CONFIG2   RO  acc_rows
//   0x14 CONFIG3   RO  dram_bytes
//   0x20 CONTROL   RW  [0] start (write 1: pulse), [1] soft reset (write 1: pulse),
//                      [2] interrupt enable (kept)
//   0x24 ENTRY     RW  first instruction's address for the next start
//   0x28 STATUS    RO  [1:0] run state, [11:8] error code, [16] interrupt pending
//   0x2c PC        RO  the last instruction fetched (the faulting one on error)
//   0x30 IRQ       W1C [0] interrupt pending: set when a run ends (DONE or ERROR)
//   0x40 + 8k      RO  counter k, low word; reading it latches the high word
//   0x44 + 8k      RO  counter k, high word as latched (k = 0 .. Counters-1)
// Other addresses, and writes to read-only registers, answer SLVERR.
`default_nettype none

module tpu_csr #(
    parameter integer ArraySize  = 16,
    parameter integer WfifoDepth = 4,
    parameter integer DmaWidth   = 128,
    parameter integer UbRows     = 4096,
    parameter integer AccRows    = 2048,
    parameter integer DramBytes  = 1048576,
    parameter integer Counters   = 9      // 64-bit performance counters
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // AXI4-Lite slave
    input  wire                   s_awvalid_i,
    output wire                   s_awready_o,
    input  wire [7:0]             s_awaddr_i,
    input  wire                   s_wvalid_i,
    output wire                   s_wready_o,
    input  wire [31:0]            s_wdata_i,
    input  wire [3:0]             s_wstrb_i,
    output wire                   s_bvalid_o,
    input  wire                   s_bready_i,
    output wire [1:0]             s_bresp_o,
    input  wire                   s_arvalid_i,
    output wire                   s_arready_o,
    input  wire [7:0]             s_araddr_i,
    output wire                   s_rvalid_o,
    input  wire                   s_rready_i,
    output wire [31:0]            s_rdata_o,
    output wire [1:0]             s_rresp_o,
    // core side
    output wire                   start_o,        // one-cycle pulse
    output wire                   soft_reset_o,   // one-cycle pulse
    output wire [31:0]            entry_o,
    input  wire [1:0]             state_i,
    input  wire [3:0]             error_i,
    input  wire [31:0]            pc_i,
    input  wire                   run_end_i,      // one-cycle pulse when a run ends
    input  wire [Counters*64-1:0] counters_i,
    output wire                   irq_o
);
  localparam [1:0] Okay = 2'b00, SlvErr = 2'b10;

  initial begin
    if (Counters < 1 || Counters > 24) begin
      $display("tpu_csr: Counters must be 1..24 (they live at 0x40..0xff)");
      $finish;
    end
  end
  localparam [7:0]   CounterBase = 8'h40;
  localparam integer CounterEndI = 64 + 8 * Counters;  // at most 0x100: Counters <= 24
  localparam [8:0]   CounterEnd  = CounterEndI[8:0];

  // ---- writes: both AW and W, then one B --------------------------------
  reg        bvalid_q;
  reg [1:0]  bresp_q;
  reg        start_q, soft_reset_q, irq_en_q, irq_pending_q;
  reg [31:0] entry_q;

  wire       w_fire = s_awvalid_i && s_wvalid_i && !bvalid_q;
  wire [7:0] wa     = s_awaddr_i;
  // Byte strobes apply to ENTRY; CONTROL and IRQ act on their low byte.
  wire [31:0] entry_d;
  genvar b;
  generate
    for (b = 0; b < 4; b = b + 1) begin : g_strobe
      assign entry_d[8*b +: 8] = s_wstrb_i[b] ? s_wdata_i[8*b +: 8] : entry_q[8*b +: 8];
    end
  endgenerate
  wire w_control = wa == 8'h20;
  wire w_entry   = wa == 8'h24;
  wire w_irq     = wa == 8'h30;
  wire w_ok      = w_control || w_entry || w_irq;
  wire low_byte  = s_wstrb_i[0];

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      bvalid_q      <= 1'b0;
      start_q       <= 1'b0;
      soft_reset_q  <= 1'b0;
      irq_en_q      <= 1'b0;
      irq_pending_q <= 1'b0;
      entry_q       <= 32'd0;
    end else begin
      start_q      <= w_fire && w_control && low_byte && s_wdata_i[0];
      soft_reset_q <= w_fire && w_control && low_byte && s_wdata_i[1];
      if (w_fire && w_control && low_byte) irq_en_q <= s_wdata_i[2];
      if (w_fire && w_entry) entry_q <= entry_d;
      // A run ending wins over a clear in the same cycle: the host sees it next read.
      if (run_end_i) irq_pending_q <= 1'b1;
      else if (w_fire && w_irq && low_byte && s_wdata_i[0]) irq_pending_q <= 1'b0;
      if (w_fire) bvalid_q <= 1'b1;
      else if (s_bready_i) bvalid_q <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (w_fire) bresp_q <= w_ok ? Okay : SlvErr;
  end

  // ---- reads ---------------------------------------------------------------
  reg        rvalid_q;
  reg [1:0]  rresp_q;
  reg [31:0] rdata_q;
  reg [31:0] hi_latch_q;  // high word of the counter whose low word was read last

  // A read takes its address into a register first and answers the cycle after, so that
  // the bus's address meets the register map's decode and the counters' multiplexer
  // only from a flip-flop.
  reg        ra_valid_q;
  reg  [7:0] ra_q;
  wire       r_fire = s_arvalid_i && !rvalid_q && !ra_valid_q;
  wire [7:0] ra     = ra_q;
  wire       r_counter = ra >= CounterBase && {1'b0, ra} < CounterEnd && ra[1:0] == 2'b00;
  wire [7:0] r_off     = ra - CounterBase;
  wire [4:0] r_index   = r_off[7:3];
  wire [63:0] counter  = counters_i[64*r_index +: 64];

  reg [31:0] rdata_d;
  reg        rok_d;
  always @(*) begin
    rok_d   = 1'b1;
    rdata_d = 32'd0;
    case (ra)
      8'h00: rdata_d = 32'h5453_5241;
      8'h04: rdata_d = {16'd1, 16'd0};
      8'h08: rdata_d = {DmaWidth[15:0], WfifoDepth[7:0], ArraySize[7:0]};
      8'h0c: rdata_d = UbRows[31:0];
      8'h10: rdata_d = AccRows[31:0];
      8'h14: rdata_d = DramBytes[31:0];
      8'h20: rdata_d = {29'd0, irq_en_q, 2'b00};
      8'h24: rdata_d = entry_q;
      8'h28: rdata_d = {15'd0, irq_pending_q, 4'd0, error_i, 6'd0, state_i};
      8'h2c: rdata_d = pc_i;
      8'h30: rdata_d = {31'd0, irq_pending_q};
      default: begin
        if (r_counter) rdata_d = r_off[2] ? hi_latch_q : counter[31:0];
        else rok_d = 1'b0;
      end
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ra_valid_q <= 1'b0;
      rvalid_q   <= 1'b0;
    end else begin
      ra_valid_q <= r_fire;
      if (ra_valid_q)      rvalid_q <= 1'b1;
      else if (s_rready_i) rvalid_q <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (r_fire) ra_q <= s_araddr_i;
    if (ra_valid_q) begin
      rdata_q <= rdata_d;
      rresp_q <= rok_d ? Okay : SlvErr;
      if (r_counter && !r_off[2]) hi_latch_q <= counter[63:32];
    end
  end

  assign s_awready_o  = w_fire;
  assign s_wready_o   = w_fire;
  assign s_bvalid_o   = bvalid_q;
  assign s_bresp_o    = bresp_q;
  assign s_arready_o  = !rvalid_q && !ra_valid_q;
  assign s_rvalid_o   = rvalid_q;
  assign s_rdata_o    = rdata_q;
  assign s_rresp_o    = rresp_q;
  assign start_o      = start_q;
  assign soft_reset_o = soft_reset_q;
  assign entry_o      = entry_q;
  assign irq_o        = irq_pending_q && irq_en_q;

  wire unused_offset = ^r_off[1:0];  // counters are word-aligned (checked in r_counter)

`ifdef FORMAL
  // Proven by `make formal`: the read-data and write-response channels hold while stalled.
  reg f_past_valid = 1'b0;
  always @(posedge clk_i) f_past_valid <= 1'b1;
  always @(*) if (!f_past_valid) assume (!rst_ni);
  reg f_was_running = 1'b0;  // out of reset in the previous cycle too
  always @(posedge clk_i) f_was_running <= rst_ni;
  wire f_run = f_past_valid && f_was_running && rst_ni;
  always @(posedge clk_i) begin
    if (f_run && $past(s_rvalid_o && !s_rready_i)) begin
      assert (s_rvalid_o);
      assert (s_rdata_o == $past(s_rdata_o) && s_rresp_o == $past(s_rresp_o));
    end
    if (f_run && $past(s_bvalid_o && !s_bready_i)) begin
      assert (s_bvalid_o);
      assert (s_bresp_o == $past(s_bresp_o));
    end
  end
`endif
endmodule

`default_nettype wire
