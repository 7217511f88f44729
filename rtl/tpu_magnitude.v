// SPDX-License-Identifier: Apache-2.0
// A two's-complement value negated when neg_i is set (the magnitude of a signed value with
// neg_i its sign; -2^(Width-1) gives 2^(Width-1), which fits unsigned); with sat_i the
// largest magnitude of that sign instead (2^(Width-1) - 1, or 2^(Width-1) negative): the
// magnitude of a sum saturated to Width bits, sat_i its overflow.
//
// With TPU_ICE40_CARRY, one logic cell a bit instead of about three: negating keeps the
// bits up to the lowest one and inverts those above it, so bit i is x_i ^ (neg & any bit
// below i set), the "any bit below" running up the cell's carry chain (the carry is
// MAJ(x_i, neg, c): x_i | c when negating; unused otherwise), and sat_i is the LUT's
// fourth input. Yosys makes adders and multiplexers of the plain form
// (tests/fpga/test_magnitude.sh proves the two forms equal).
`default_nettype none

module tpu_magnitude #(
    parameter integer Width = 32
) (
    input  wire [Width-1:0] x_i,
    input  wire             neg_i,
    input  wire             sat_i,
    output wire [Width-1:0] y_o
);
`ifdef TPU_ICE40_CARRY
  wire [Width:0] below;   // a set bit below bit i (when negating)
  assign below[0] = 1'b0;
  genvar i;
  generate
    for (i = 0; i < Width; i = i + 1) begin : g_bit
      SB_CARRY u_carry (.I0(x_i[i]), .I1(neg_i), .CI(below[i]), .CO(below[i+1]));
      // O = I0 ? (the top bit: I2; below it: !I2) : I1 ^ (I2 & I3), the carry's own inputs
      // on I1 and I2 so that both share a cell
      SB_LUT4 #(.LUT_INIT(i == Width - 1 ? 16'hb4e4 : 16'h1e4e)) u_lut (
          .I0(sat_i), .I1(x_i[i]), .I2(neg_i), .I3(below[i]), .O(y_o[i]));
    end
  endgenerate
  wire unused = below[Width];
`else
  assign y_o = sat_i ? {neg_i, {(Width-1){!neg_i}}} : neg_i ? -x_i : x_i;
`endif
endmodule

`default_nettype wire
