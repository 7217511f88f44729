// SPDX-License-Identifier: Apache-2.0
// A lane of the lite core's accumulator write (tpu_lite_mmc): the array's sum y (SumBits,
// signed) written as it is, or added to the accumulator word read the cycle before with
// int32 saturation. The same as tpu_sat_add32 after a choice of y, in fewer cells: the
// adder takes the word's low SumBits bits only when it accumulates, so that without it
// its low bits are y's, and the bits above are then y's sign (tests/fpga/test_acc_add.sh
// proves the two equal with Yosys's sat).
`default_nettype none

module tpu_lite_acc_add #(
    parameter integer SumBits = 18
) (
    input  wire [31:0]        acc_i,
    input  wire [SumBits-1:0] y_i,
    input  wire               add_i,   // accumulate (else y alone)
    output wire [31:0]        sum_o
);
  wire [32:0] wide = {acc_i[31], acc_i[31:SumBits], add_i ? acc_i[SumBits-1:0] : {SumBits{1'b0}}} +
                     {{(33-SumBits){y_i[SumBits-1]}}, y_i};
  wire        ovf  = wide[32] != wide[31];
  wire [31:0] sat  = wide[32] ? 32'h8000_0000 : 32'h7fff_ffff;
  assign sum_o[SumBits-1:0] = add_i && ovf ? sat[SumBits-1:0] : wide[SumBits-1:0];
  assign sum_o[31:SumBits]  = !add_i ? {(32-SumBits){y_i[SumBits-1]}} : ovf ? sat[31:SumBits] : wide[31:SumBits];
endmodule

`default_nettype wire
