// SPDX-License-Identifier: Apache-2.0
// The host's register block: an AXI4-Lite slave (32-bit registers). The map (offsets,
// fields, the counters at TPU_CSR_COUNTERS + 8k) is tools/isa/csr_map.hpp's, through
// the generated tpu_isa.vh; docs/architecture.md ("CSR block") shows it.
// Other addresses, and writes to read-only registers, answer SLVERR.
`default_nettype none
`include "tpu_axi_ports.vh"
`include "tpu_geometry.vh"

module tpu_csr #(
    `TPU_GEOMETRY_PARAMS(16, 4096, 2048, 128, 1048576),
    parameter integer Counters   = 1,     // 64-bit performance counters (the cores: TPU_COUNTERS)
    // 1: the counter port's answer stays until the next ask (tpu_counters_ram), so a high
    // word is read from it; 0: it may move (tpu_counters), so the high word is latched
    parameter integer CountersHold = 0
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    // AXI4-Lite slave
    `TPU_AXIL_SLAVE_PORTS(s_),
    // core side
    output wire                   start_o,        // one-cycle pulse
    output wire                   soft_reset_o,   // one-cycle pulse
    output wire [31:0]            entry_o,
    input  wire [1:0]             state_i,
    input  wire [3:0]             error_i,
    input  wire [31:0]            pc_i,
    input  wire                   run_end_i,      // one-cycle pulse when a run ends
    // a counter's value (tpu_counters, tpu_counters_ram): asked for while a read of its low
    // word waits, which answers when it comes
    output wire                   cnt_rd_o,
    output wire [4:0]             cnt_index_o,
    input  wire                   cnt_valid_i,
    input  wire [63:0]            cnt_value_i,
    output wire                   irq_o
);
`include "tpu_isa.vh"
  localparam [1:0] Okay = 2'b00, SlvErr = 2'b10;

  localparam [7:0]   CounterBase = TPU_CSR_COUNTERS;
  localparam integer CounterEndI = {24'd0, CounterBase} + 8 * Counters;
  localparam [8:0]   CounterEnd  = CounterEndI[8:0];
  initial begin
    if (Counters < 1 || CounterEndI > 256) begin
      $display("tpu_csr: Counters must be 1.. the map's end (0xff)");
      $finish;
    end
  end

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
  wire w_control = wa == TPU_CSR_CONTROL;
  wire w_entry   = wa == TPU_CSR_ENTRY;
  wire w_irq     = wa == TPU_CSR_IRQ;
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
      start_q      <= w_fire && w_control && low_byte && s_wdata_i[TPU_CSR_CONTROL_START];
      soft_reset_q <= w_fire && w_control && low_byte && s_wdata_i[TPU_CSR_CONTROL_SOFT_RESET];
      if (w_fire && w_control && low_byte) irq_en_q <= s_wdata_i[TPU_CSR_CONTROL_IRQ_ENABLE];
      if (w_fire && w_entry) entry_q <= entry_d;
      // A run ending wins over a clear in the same cycle: the host sees it next read.
      if (run_end_i) irq_pending_q <= 1'b1;
      else if (w_fire && w_irq && low_byte && s_wdata_i[TPU_CSR_IRQ_PENDING]) irq_pending_q <= 1'b0;
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
  wire [31:0] hi_word;    // high word of the counter whose low word was read last

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
  wire       cnt_rd    = ra_valid_q && r_counter && !r_off[2];
  wire       r_done    = ra_valid_q && (!cnt_rd || cnt_valid_i);  // the answer is ready
  wire [63:0] counter  = cnt_value_i;

  reg [31:0] rdata_d;
  reg        rok_d;
  always @(*) begin
    rok_d   = 1'b1;
    rdata_d = 32'd0;
    case (ra)
      TPU_CSR_ID:      rdata_d = TPU_CSR_ID_VALUE;
      TPU_CSR_VERSION: rdata_d = {TPU_CSR_VERSION_MAJOR, TPU_CSR_VERSION_MINOR};
      TPU_CSR_CONFIG0: rdata_d = {16'd0, DmaWidth[15:0]} << TPU_CSR_CONFIG0_DMA_WIDTH_LSB |
                                 {24'd0, WfifoDepth[7:0]} << TPU_CSR_CONFIG0_WFIFO_DEPTH_LSB |
                                 {24'd0, ArraySize[7:0]} << TPU_CSR_CONFIG0_N_LSB;
      TPU_CSR_CONFIG1: rdata_d = UbRows[31:0];
      TPU_CSR_CONFIG2: rdata_d = AccRows[31:0];
      TPU_CSR_CONFIG3: rdata_d = DramBytes[31:0];
      TPU_CSR_CONTROL: rdata_d = {31'd0, irq_en_q} << TPU_CSR_CONTROL_IRQ_ENABLE;
      TPU_CSR_ENTRY:   rdata_d = entry_q;
      TPU_CSR_STATUS:  rdata_d = {31'd0, irq_pending_q} << TPU_CSR_STATUS_IRQ |
                                 {28'd0, error_i} << TPU_CSR_STATUS_ERROR_LSB |
                                 {30'd0, state_i} << TPU_CSR_STATUS_STATE_LSB;
      TPU_CSR_PC:      rdata_d = pc_i;
      TPU_CSR_IRQ:     rdata_d = {31'd0, irq_pending_q} << TPU_CSR_IRQ_PENDING;
      default: begin
        if (r_counter) rdata_d = r_off[2] ? hi_word : counter[31:0];
        else rok_d = 1'b0;
      end
    endcase
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      ra_valid_q <= 1'b0;
      rvalid_q   <= 1'b0;
    end else begin
      ra_valid_q <= r_fire || (ra_valid_q && !r_done);
      if (r_done)          rvalid_q <= 1'b1;
      else if (s_rready_i) rvalid_q <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (r_fire) ra_q <= s_araddr_i;
    if (r_done) begin
      rdata_q <= rdata_d;
      rresp_q <= rok_d ? Okay : SlvErr;
    end
  end

  generate
    if (CountersHold != 0) begin : g_held
      assign hi_word = counter[63:32];
    end else begin : g_latch
      reg [31:0] hi_latch_q;
      always @(posedge clk_i) if (r_done && cnt_rd) hi_latch_q <= counter[63:32];
      assign hi_word = hi_latch_q;
    end
  endgenerate

  assign s_awready_o  = w_fire;
  assign s_wready_o   = w_fire;
  assign s_bvalid_o   = bvalid_q;
  assign s_bresp_o    = bresp_q;
  assign s_arready_o  = !rvalid_q && !ra_valid_q;
  assign s_rvalid_o   = rvalid_q;
  assign s_rdata_o    = rdata_q;
  assign s_rresp_o    = rresp_q;
  assign cnt_rd_o     = cnt_rd;
  assign cnt_index_o  = r_index;
  assign start_o      = start_q;
  assign soft_reset_o = soft_reset_q;
  assign entry_o      = entry_q;
  assign irq_o        = irq_pending_q && irq_en_q;

  wire unused_offset = ^r_off[1:0];  // counters are word-aligned (checked in r_counter)

`ifdef FORMAL
  // Proven by `make formal`: the read-data and write-response channels hold while stalled
  // (a read waiting for its counter has no data out yet: the invariant for induction).
  `include "tpu_formal.vh"
  `TPU_F_PREAMBLE
  always @(*) if (f_past_valid && rst_ni) assert (!(ra_valid_q && rvalid_q));
  `TPU_F_HOLD(u_f_r, 34, 0, 1'b0, s_rvalid_o, s_rready_i, {s_rdata_o, s_rresp_o})
  `TPU_F_HOLD(u_f_b, 2, 0, 1'b0, s_bvalid_o, s_bready_i, s_bresp_o)
`endif
endmodule

`default_nettype wire
