// SPDX-License-Identifier: Apache-2.0
// Is an instruction younger than the reported fault? Program order within a run is pc
// order, and every instruction lies in device memory, below 2^PcBits: the comparison is
// PcBits wide, not 32. A fault at or past 2^PcBits (a fetch past the end of memory) is
// younger than every instruction that issued.
`default_nettype none

module tpu_younger #(
    parameter integer PcBits = 32
) (
    input  wire        err_valid_i,
    input  wire [31:0] err_pc_i,
    input  wire [31:0] pc_i,
    output wire        younger_o
);
  wire err_in_mem = (err_pc_i >> PcBits) == 32'd0;
  // (pc > err_pc as the borrow of err_pc - pc: a carry chain, not a tree of LUTs)
  wire [PcBits:0] diff = {1'b0, err_pc_i[PcBits-1:0]} - {1'b0, pc_i[PcBits-1:0]};
  assign younger_o = err_valid_i && err_in_mem && diff[PcBits];

  wire unused = ^pc_i;  // (its bits above PcBits are zero)
endmodule

`default_nettype wire
