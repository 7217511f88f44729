// SPDX-License-Identifier: Apache-2.0
// int32 + int32 saturated to the int32 range (the accumulators never wrap).
`default_nettype none

module tpu_sat_add32 (
    input  wire [31:0] a_i,
    input  wire [31:0] b_i,
    output wire [31:0] sum_o
);
  wire [32:0] wide = {a_i[31], a_i} + {b_i[31], b_i};
  // Overflow when the 33-bit sum's top two bits differ; its sign picks the limit.
  assign sum_o = (wide[32] == wide[31]) ? wide[31:0]
               : (wide[32] ? 32'h8000_0000 : 32'h7fff_ffff);
endmodule

`default_nettype wire
