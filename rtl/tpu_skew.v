// SPDX-License-Identifier: Apache-2.0
// Systolic data setup: lane i delayed by i cycles (skew), or by Lanes-1-i (deskew),
// so that a row entering together meets the array as a diagonal wavefront.
`default_nettype none

module tpu_skew #(
    parameter integer Lanes   = 4,  // lanes (the array size N)
    parameter integer Width   = 8,  // bits per lane
    parameter integer Reverse = 0,  // 0: lane i waits i cycles; 1: lane i waits Lanes-1-i
    parameter integer Reset   = 0   // 1: registers reset to zero (for valid bits)
) (
    input  wire                   clk_i,
    input  wire                   rst_ni,
    input  wire [Lanes*Width-1:0] d_i,
    output wire [Lanes*Width-1:0] q_o
);
  genvar i;
  generate
    for (i = 0; i < Lanes; i = i + 1) begin : g_lane
      tpu_delay #(
          .Width(Width),
          .Delay(Reverse != 0 ? Lanes - 1 - i : i),
          .Reset(Reset)
      ) u_delay (
          .clk_i (clk_i),
          .rst_ni(rst_ni),
          .d_i   (d_i[i*Width +: Width]),
          .q_o   (q_o[i*Width +: Width])
      );
    end
  endgenerate
endmodule

`default_nettype wire
