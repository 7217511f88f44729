// SPDX-License-Identifier: Apache-2.0
// Board top for the ULX3S (ECP5 LFE5U-85F, 25 MHz oscillator, FTDI UART): the board
// system (rtl/tpu_board_soc.v) at CoreMhz from the PLL (the configuration's
// board.clock_mhz, scripts/fpga.sh), device memory in block RAM; the UART keeps 115200
// baud at any core clock.
// Reset: until the PLL locks, and while button 0 (PWR, active low) is held. LEDs: 0
// blinks to show the bitstream is alive, 1 lights while a finished run waits for the host.
// Pins: ulx3s.lpf.
`default_nettype none
`include "tpu_geometry.vh"

module tpu_ulx3s #(
    `TPU_GEOMETRY_PARAMS(8, 1024, 512, 64, 65536),
    parameter integer GatherSegs    = 0,
    parameter integer SerialAct     = 0,        // configuration board.serial_act
    parameter integer LogicRows     = 0,        // configuration board.logic_rows
    parameter integer CoreMhz       = 15       // a multiple of 5 (tpu_ecp5_pll)
) (
    input  wire       clk_25mhz,
    input  wire [0:0] btn,
    input  wire       ftdi_txd,   // the host's transmit line: our receive
    output wire       ftdi_rxd,
    output wire [7:0] led
);
  localparam integer WordBits      = $clog2(DramBytes / (DmaWidth / 8));
  localparam integer ClksPerBit    = (CoreMhz * 1000000 + 57600) / 115200;  // 115200 baud
  localparam integer TimeoutCycles = CoreMhz * 100000;                      // 0.1 s

  wire clk, locked;
  tpu_ecp5_pll #(.OutMhz(CoreMhz)) u_pll (.clk_25mhz_i(clk_25mhz), .clk_o(clk), .locked_o(locked));

  wire rst_n;
  tpu_board_reset u_reset (.clk_i(clk), .btn_ni(btn[0]), .clk_ok_i(locked), .rst_no(rst_n));

  wire                  irq, ram_en;
  wire [DmaWidth/8-1:0] ram_we;
  wire [WordBits-1:0]   ram_addr;
  wire [DmaWidth-1:0]   ram_wdata, ram_rdata;
  tpu_board_soc #(`TPU_GEOMETRY_PASS,
                  .GatherSegs(GatherSegs),
                  .SerialAct(SerialAct),
                  .LogicRows(LogicRows),
                  .ClksPerBit(ClksPerBit), .TimeoutCycles(TimeoutCycles), .MemRegistered(1)) u_soc (
      .clk_i(clk),
      .rst_ni(rst_n),
      .uart_rx_i(ftdi_txd),
      .uart_tx_o(ftdi_rxd),
      .irq_o(irq),
      .ram_en_o(ram_en),
      .ram_we_o(ram_we),
      .ram_addr_o(ram_addr),
      .ram_wdata_o(ram_wdata),
      .ram_rdata_i(ram_rdata));

  tpu_board_ram #(.DataWidth(DmaWidth), .MemBytes(DramBytes), .OutReg(1)) u_ram (
      .clk_i(clk),
      .en_i(ram_en),
      .we_i(ram_we),
      .addr_i(ram_addr),
      .wdata_i(ram_wdata),
      .rdata_o(ram_rdata));

  reg [23:0] blink_q = 24'd0;
  always @(posedge clk) blink_q <= blink_q + 24'd1;
  assign led = {6'd0, irq, blink_q[23]};
endmodule

`default_nettype wire
