// SPDX-License-Identifier: Apache-2.0
// One processing element of the weight-stationary array: psum + int8 x int8.
//
// Activations move east and partial sums move south, one PE per cycle. The PE holds
// an active weight and a shadow weight: the next tile is written into the shadow
// registers while the current one computes, and a row flagged `switch` makes the
// shadow weight active exactly when that row reaches this PE, so rows still in
// flight keep the old weight (TPU v1's double buffering).
`default_nettype none

module tpu_pe (
    input  wire        clk_i,
    input  wire        rst_ni,       // synchronous, active low: clears the valid bits only
    // activations from the west, passed east one cycle later
    input  wire [7:0]  x_i,
    input  wire        x_valid_i,
    input  wire        x_switch_i,   // this row starts a new tile
    output wire [7:0]  x_o,
    output wire        x_valid_o,
    output wire        x_switch_o,
    // partial sums from the north, passed south one cycle later
    input  wire [31:0] psum_i,
    output wire [31:0] psum_o,
    // shadow weight write port
    input  wire        w_we_i,
    input  wire [7:0]  w_i
);
  reg  [7:0]  x_q;
  reg         x_valid_q, x_switch_q;
  reg  [31:0] psum_q;
  reg  [7:0]  w_active_q, w_shadow_q;

  wire        switching  = x_valid_i & x_switch_i;
  wire [7:0]  w_active_d = switching ? w_shadow_q : w_active_q;
  wire [7:0]  w_shadow_d = w_we_i ? w_i : w_shadow_q;
  // The product is registered (the multiplier's own output register on FPGAs), so the
  // add to the partial sum from above is a cycle of its own: every PE is one cycle
  // later, the array as a whole one cycle longer.
  wire signed [15:0] product = $signed(x_i) * $signed(w_active_d);
  reg  signed [15:0] product_q;
  wire [31:0] psum_d = psum_i + {{16{product_q[15]}}, product_q};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      x_valid_q  <= 1'b0;
      x_switch_q <= 1'b0;
    end else begin
      x_valid_q  <= x_valid_i;
      x_switch_q <= x_switch_i;
    end
  end

  always @(posedge clk_i) begin
    x_q        <= x_i;
    product_q  <= product;
    psum_q     <= psum_d;
    w_active_q <= w_active_d;
    w_shadow_q <= w_shadow_d;
  end

  assign x_o        = x_q;
  assign x_valid_o  = x_valid_q;
  assign x_switch_o = x_switch_q;
  assign psum_o     = psum_q;
endmodule

`default_nettype wire
