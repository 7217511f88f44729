// SPDX-License-Identifier: Apache-2.0
// A board's reset: held for 16 cycles after configuration (flip-flops start at zero),
// while the clock is not yet stable, and while the (active-low) button is pressed.
`default_nettype none

module tpu_board_reset (
    input  wire clk_i,
    input  wire btn_ni,      // button, active low, asynchronous
    input  wire clk_ok_i,    // the clock is stable (a PLL's lock; 1 without a PLL)
    output wire rst_no
);
  reg [4:0] count_q = 5'd0;
  reg [1:0] btn_q = 2'b00;  // synchronizer
  always @(posedge clk_i) begin
    btn_q <= {btn_q[0], btn_ni && clk_ok_i};
    if (!btn_q[1]) count_q <= 5'd0;
    else if (!count_q[4]) count_q <= count_q + 5'd1;
  end
  assign rst_no = count_q[4];
endmodule

`default_nettype wire
