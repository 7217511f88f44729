// SPDX-License-Identifier: Apache-2.0
// UART receiver, 8 data bits, no parity, one stop bit (8N1), LSB first. The line is
// synchronized with two flip-flops and sampled in the middle of each bit. A byte whose
// stop bit is low is dropped (frame error) and the receiver waits for the line to
// return high before looking for the next start bit.
`default_nettype none

module tpu_uart_rx #(
    parameter integer ClksPerBit = 104  // clock cycles per bit (12 MHz / 115200 baud)
) (
    input  wire       clk_i,
    input  wire       rst_ni,
    input  wire       rx_i,
    output wire       valid_o,  // one cycle: data_o holds a received byte
    output wire [7:0] data_o
);
  localparam integer CntBits = $clog2(ClksPerBit + 1);
  localparam integer FullBitI = ClksPerBit - 1;
  localparam [CntBits-1:0] FullBit = FullBitI[CntBits-1:0];
  localparam integer HalfBitI = ClksPerBit / 2 - 1;
  localparam [CntBits-1:0] HalfBit = HalfBitI[CntBits-1:0];
  localparam [2:0] StIdle = 3'd0, StStart = 3'd1, StData = 3'd2, StStop = 3'd3, StWaitHigh = 3'd4;

  reg [1:0]         sync_q;
  reg [2:0]         state_q;
  reg [CntBits-1:0] cnt_q;
  reg [2:0]         bit_q;
  reg [7:0]         shift_q;
  reg               valid_q;
  wire              rx = sync_q[1];
  wire              tick = cnt_q == {CntBits{1'b0}};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      sync_q  <= 2'b11;
      state_q <= StIdle;
      valid_q <= 1'b0;
      cnt_q   <= {CntBits{1'b0}};
      bit_q   <= 3'd0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      valid_q <= 1'b0;
      if (!tick) cnt_q <= cnt_q - 1'b1;
      case (state_q)
        StIdle: if (!rx) begin
          state_q <= StStart;
          cnt_q   <= HalfBit;
        end
        StStart: if (tick) begin
          state_q <= rx ? StIdle : StData;  // a glitch, or the middle of the start bit
          cnt_q   <= FullBit;
          bit_q   <= 3'd0;
        end
        StData: if (tick) begin
          shift_q <= {rx, shift_q[7:1]};
          cnt_q   <= FullBit;
          bit_q   <= bit_q + 3'd1;
          if (bit_q == 3'd7) state_q <= StStop;
        end
        StStop: if (tick) begin
          valid_q <= rx;
          state_q <= rx ? StIdle : StWaitHigh;
        end
        StWaitHigh: if (rx) state_q <= StIdle;
        default: state_q <= StIdle;
      endcase
    end
  end

  assign valid_o = valid_q;
  assign data_o  = shift_q;
endmodule

`default_nettype wire
