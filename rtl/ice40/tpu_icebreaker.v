// SPDX-License-Identifier: Apache-2.0
// Board top for the iCEBreaker (iCE40 UP5K, 12 MHz oscillator, FTDI UART): the board
// system (rtl/tpu_board_soc.v) with the small core (rtl/tpu_small_core.v) on the
// oscillator clock, with device memory in SPRAM.
// Reset: at power-up, and while the user button is held. LEDs (active low): green while
// a finished run is waiting for the host, red blinks to show the bitstream is alive.
// Pins: icebreaker.pcf.
`default_nettype none
`include "tpu_geometry.vh"

module tpu_icebreaker #(
    `TPU_GEOMETRY_PARAMS(4, 1024, 512, 32, 65536),
    parameter integer ClksPerBit    = 104,     // 12 MHz / 115200 baud
    parameter integer TimeoutCycles = 1200000, // 0.1 s
    parameter integer LiteCore      = 0        // 1: the lite core (tpu_lite_core) instead of the small core
) (
    input  wire clk_i,
    input  wire btn_ni,
    input  wire uart_rx_i,
    output wire uart_tx_o,
    output wire led_red_no,
    output wire led_green_no
);
  localparam integer WordBits = $clog2(DramBytes / (DmaWidth / 8));

  // Reset: 16 cycles after configuration (flip-flops start at zero), and the button,
  // synchronized.
  wire rst_n;
  tpu_board_reset u_reset (.clk_i(clk_i), .btn_ni(btn_ni), .clk_ok_i(1'b1), .rst_no(rst_n));

  wire                  irq, ram_en;
  wire [DmaWidth/8-1:0] ram_we;
  wire [WordBits-1:0]   ram_addr;
  wire [DmaWidth-1:0]   ram_wdata, ram_rdata;
  tpu_board_soc #(`TPU_GEOMETRY_PASS,
                  .ClksPerBit(ClksPerBit),
                  .TimeoutCycles(TimeoutCycles),
                  .SmallCore(LiteCore != 0 ? 2 : 1)) u_soc (  // the UP5K's 5 280 cells hold the small core only
      .clk_i,
      .rst_ni(rst_n),
      .uart_rx_i,
      .uart_tx_o,
      .irq_o(irq),
      .ram_en_o(ram_en),
      .ram_we_o(ram_we),
      .ram_addr_o(ram_addr),
      .ram_wdata_o(ram_wdata),
      .ram_rdata_i(ram_rdata));

  tpu_ice40_spram #(.DataWidth(DmaWidth), .MemBytes(DramBytes)) u_ram (
      .clk_i,
      .en_i(ram_en),
      .we_i(ram_we),
      .addr_i(ram_addr),
      .wdata_i(ram_wdata),
      .rdata_o(ram_rdata));

  reg [23:0] blink_q = 24'd0;
  always @(posedge clk_i) blink_q <= blink_q + 24'd1;
  assign led_red_no   = !blink_q[23];
  assign led_green_no = !irq;
endmodule

`default_nettype wire
