// SPDX-License-Identifier: Apache-2.0
// UART transmitter, 8N1, LSB first: takes a byte when ready_o is high and sends start
// bit, 8 data bits and stop bit, ClksPerBit cycles each. The line idles high.
`default_nettype none

module tpu_uart_tx #(
    parameter integer ClksPerBit = 104
) (
    input  wire       clk_i,
    input  wire       rst_ni,
    input  wire       valid_i,
    output wire       ready_o,
    input  wire [7:0] data_i,
    output wire       tx_o
);
  localparam integer CntBits = $clog2(ClksPerBit + 1);
  localparam integer FullBitI = ClksPerBit - 1;
  localparam [CntBits-1:0] FullBit = FullBitI[CntBits-1:0];

  reg [9:0]         shift_q;  // stop, data[7:0], start; bit 0 is on the line
  reg [3:0]         left_q;   // bits still to send
  reg [CntBits-1:0] cnt_q;

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      shift_q <= 10'h3ff;
      left_q  <= 4'd0;
      cnt_q   <= {CntBits{1'b0}};
    end else if (left_q == 4'd0) begin
      if (valid_i) begin
        shift_q <= {1'b1, data_i, 1'b0};
        left_q  <= 4'd10;
        cnt_q   <= FullBit;
      end
    end else if (cnt_q != {CntBits{1'b0}}) begin
      cnt_q <= cnt_q - 1'b1;
    end else begin
      shift_q <= {1'b1, shift_q[9:1]};
      left_q  <= left_q - 4'd1;
      cnt_q   <= FullBit;
    end
  end

  assign ready_o = left_q == 4'd0;
  assign tx_o    = shift_q[0];
endmodule

`default_nettype wire
