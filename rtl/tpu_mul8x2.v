// SPDX-License-Identifier: Apache-2.0
// x times a two-bit slice of a weight, for the PE's product in logic (tpu_pe
// LogicProduct): p = x * (lo + 2 hi), or x * (lo - 2 hi) for the slice holding the
// weight's sign bit (Top = 1). x is a signed int8, lo and hi are weight bits; p is exact
// in 10 bits.
//
// With TPU_ECP5_CARRY defined (the ECP5 board builds, scripts/fpga.sh) the sum is five
// CCU2C carry cells whose LUT4s also take the two ANDs (x's bit with lo, the next lower
// bit with hi): the carry chain's generate is the cell's LUT at C = D = 0, which is the
// first operand's AND whenever the sum bit does not propagate. Yosys maps the generic
// form to one LUT4 per AND and a carry chain after them: 74 LUT4 a PE where this takes
// none (tests/fpga/test_ecp5_logic_product.sh checks the synthesized PE against the product
// with Yosys's CCU2C model).
`default_nettype none

module tpu_mul8x2 #(
    parameter integer Top = 0  // 1: the weight's sign bit is hi (its term subtracted)
) (
    input  wire [7:0] x_i,
    input  wire       lo_i,
    input  wire       hi_i,
    output wire [9:0] p_o
);
`ifdef TPU_ECP5_CARRY
  // Bit k adds a = x[k] & lo (x sign-extended past bit 7) and b = x[k-1] & hi (b = 0 at
  // bit 0), or a + ~b with a carry in of 1 (Top). The AND whose value is the carry
  // when the bit does not propagate sits on the cell's A and B inputs: a for the sum,
  // b for the difference (there a and ~b are equal when it does not propagate, and ~b
  // is the LUT at C = D = 0 of ~((A & B)) ^ (C & D)).
  function automatic [15:0] lut_init(input integer top);
    integer i;
    begin
      for (i = 0; i < 16; i = i + 1)  // i = {D, C, B, A}
        lut_init[i] = (top != 0 ? ~(i[0] & i[1]) : (i[0] & i[1])) ^ (i[2] & i[3]);
    end
  endfunction
  localparam [15:0] Init = lut_init(Top);
  wire [9:0] xa = {{2{x_i[7]}}, x_i};          // x[min(k, 7)]
  wire [9:0] xb = {x_i[7], x_i, 1'b0};         // x[min(k - 1, 7)], 0 at bit 0
  wire [9:0] ea = {10{Top != 0 ? hi_i : lo_i}}; // the AND on A and B
  wire [9:0] eb = {10{Top != 0 ? lo_i : hi_i}}; // the AND on C and D
  wire [9:0] oa = Top != 0 ? xb : xa;
  wire [9:0] ob = Top != 0 ? xa : xb;
  wire [5:0] carry;
  assign carry[0] = Top != 0 ? 1'b1 : 1'b0;
  genvar k;
  generate
    for (k = 0; k < 10; k = k + 2) begin : g_cell
      CCU2C #(.INIT0(Init), .INIT1(Init), .INJECT1_0("NO"), .INJECT1_1("NO")) u_cell (
          .CIN (carry[k / 2]),
          .A0  (oa[k]),     .B0 (ea[k]),     .C0 (ob[k]),     .D0 (eb[k]),
          .A1  (oa[k + 1]), .B1 (ea[k + 1]), .C1 (ob[k + 1]), .D1 (eb[k + 1]),
          .S0  (p_o[k]),
          .S1  (p_o[k + 1]),
          .COUT(carry[k / 2 + 1])
      );
    end
  endgenerate
  wire unused = carry[5];
`else
  wire [7:0] a = x_i & {8{lo_i}};
  wire [7:0] b = x_i & {8{hi_i}};
  wire [9:0] a_ext = {{2{a[7]}}, a};
  wire [9:0] b_ext = {b[7], b, 1'b0};
  assign p_o = Top != 0 ? a_ext - b_ext : a_ext + b_ext;
`endif
endmodule

`default_nettype wire
