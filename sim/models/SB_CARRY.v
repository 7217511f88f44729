// SPDX-License-Identifier: Apache-2.0
// Lint stand-in for the iCE40 carry cell: the majority of I0, I1 and CI. Synthesis uses
// the real cell; tests/fpga/test_magnitude.sh proves with Yosys's own model.
`default_nettype none

module SB_CARRY (
    input  wire I0, I1, CI,
    output wire CO
);
  assign CO = (I0 & I1) | (CI & (I0 | I1));
endmodule

`default_nettype wire
