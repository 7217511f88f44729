// SPDX-License-Identifier: Apache-2.0
// A signed 8 x 8 product from four 4 x 4 products read from tables in block RAM, for
// an FPGA short of multipliers but not of block RAM (the lite core's array on the
// iCE40 UP5K: tpu_mac_array, FreeDsp). With a = ah * 16 + al and b = bh * 16 + bl (the
// high nibbles signed, the low ones unsigned):
//   a * b = ah*bh * 256 + (ah*bl + al*bh) * 16 + al*bl
// where every nibble product fits eight bits, and ah*bh * 256 + al*bl is the two bytes
// side by side (0 <= al*bl < 256): one 9-bit and one 12-bit add after the tables. The
// tables' read registers are the product's register: p_o is the product of the a_i and
// b_i of the cycle before.
`default_nettype none

module tpu_nibble_mul (
    input  wire        clk_i,
    input  wire [7:0]  a_i,
    input  wire [7:0]  b_i,
    output wire [15:0] p_o
);
  function automatic [7:0] nibble_product(input [3:0] a, input [3:0] b, input a_signed, input b_signed);
    reg signed [7:0] av, bv;   // (every such product fits eight bits, signed or not)
    begin
      av = a_signed ? {{4{a[3]}}, a} : {4'b0000, a};
      bv = b_signed ? {{4{b[3]}}, b} : {4'b0000, b};
      nibble_product = av * bv;
    end
  endfunction

  // the tables, indexed by {a nibble, b nibble}: high x high, high x low, low x high, low x low
  (* ram_style = "block" *) reg [7:0] hh_rom [0:255];
  (* ram_style = "block" *) reg [7:0] hl_rom [0:255];
  (* ram_style = "block" *) reg [7:0] lh_rom [0:255];
  (* ram_style = "block" *) reg [7:0] ll_rom [0:255];
  integer i;
  initial begin
    for (i = 0; i < 256; i = i + 1) begin
      hh_rom[i] = nibble_product(i[7:4], i[3:0], 1'b1, 1'b1);
      hl_rom[i] = nibble_product(i[7:4], i[3:0], 1'b1, 1'b0);
      lh_rom[i] = nibble_product(i[7:4], i[3:0], 1'b0, 1'b1);
      ll_rom[i] = nibble_product(i[7:4], i[3:0], 1'b0, 1'b0);
    end
  end
  reg [7:0] hh_q, hl_q, lh_q, ll_q;
  always @(posedge clk_i) begin
    hh_q <= hh_rom[{a_i[7:4], b_i[7:4]}];
    hl_q <= hl_rom[{a_i[7:4], b_i[3:0]}];
    lh_q <= lh_rom[{a_i[3:0], b_i[7:4]}];
    ll_q <= ll_rom[{a_i[3:0], b_i[3:0]}];
  end
  wire [8:0] mid = {hl_q[7], hl_q} + {lh_q[7], lh_q};
  assign p_o = {hh_q, ll_q} + {{3{mid[8]}}, mid, 4'd0};
endmodule

`default_nettype wire
