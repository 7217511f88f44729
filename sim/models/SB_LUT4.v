// SPDX-License-Identifier: Apache-2.0
// Lint stand-in for the iCE40 four-input lookup table: O is LUT_INIT[{I3, I2, I1, I0}].
// Synthesis uses the real cell; tests/fpga/test_magnitude.sh proves with Yosys's own model.
`default_nettype none

module SB_LUT4 #(
    parameter [15:0] LUT_INIT = 16'h0000
) (
    input  wire I0, I1, I2, I3,
    output wire O
);
  assign O = LUT_INIT[{I3, I2, I1, I0}];
endmodule

`default_nettype wire
