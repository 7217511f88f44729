// SPDX-License-Identifier: Apache-2.0
// Lint stand-in for the ECP5 carry cell (two bits of a carry chain, a LUT4 each): a bit's
// sum is its LUT4 XOR the carry in; the carry out is the carry in where the LUT4 is 1
// (propagate), else the LUT4's value at C = D = 0 (INIT[3:0], generate). INJECT1 "YES"
// cuts the carry into a bit. Synthesis uses the real cell; the ECP5 test simulates with
// Yosys's own model (tests/fpga/test_ecp5_logic_product.sh).
`default_nettype none

module CCU2C #(
    parameter [15:0] INIT0 = 16'h0000,
    parameter [15:0] INIT1 = 16'h0000,
    parameter [23:0] INJECT1_0 = "YES",
    parameter [23:0] INJECT1_1 = "YES"
) (
    input  wire CIN,
    input  wire A0, B0, C0, D0, A1, B1, C1, D1,
    output wire S0, S1,
    output wire COUT
);
  wire lut0 = INIT0[{D0, C0, B0, A0}], gen0 = INIT0[{2'b00, B0, A0}];
  wire lut1 = INIT1[{D1, C1, B1, A1}], gen1 = INIT1[{2'b00, B1, A1}];
  wire cin0 = INJECT1_0 == "YES" ? 1'b0 : CIN;
  wire g0   = INJECT1_0 == "YES" ? 1'b0 : gen0;
  wire c1   = lut0 ? CIN : g0;
  wire cin1 = INJECT1_1 == "YES" ? 1'b0 : c1;
  wire g1   = INJECT1_1 == "YES" ? 1'b0 : gen1;
  assign S0   = lut0 ^ cin0;
  assign S1   = lut1 ^ cin1;
  assign COUT = lut1 ? c1 : g1;
endmodule

`default_nettype wire
