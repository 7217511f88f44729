// SPDX-License-Identifier: Apache-2.0
// Board memory as an inferred single-port RAM with byte write enables (block RAM on
// FPGAs without single-port RAM macros, e.g. ECP5 EBR). Same port as
// rtl/ice40/tpu_ice40_spram.v: read data the cycle after the address, held until the
// next access. OutReg = 1 adds a register after the read data (two cycles; on the ECP5
// it becomes the block RAM's output register, scripts/ecp5-pack-regs.py, which leaves
// the slow RAM output out of every logic path).
`default_nettype none

module tpu_board_ram #(
    parameter integer DataWidth = 32,
    parameter integer MemBytes  = 65536,
    parameter integer OutReg    = 0
) (
    input  wire                   clk_i,
    input  wire                   en_i,
    input  wire [DataWidth/8-1:0] we_i,
    input  wire [WordBits-1:0]    addr_i,
    input  wire [DataWidth-1:0]   wdata_i,
    output wire [DataWidth-1:0]   rdata_o
);
  localparam integer WordBits = $clog2(MemBytes / (DataWidth / 8));
  localparam integer Words    = MemBytes / (DataWidth / 8);

  reg [DataWidth-1:0] mem_q [0:Words-1];
  reg [DataWidth-1:0] out_q;
  integer b;
  always @(posedge clk_i) begin
    if (en_i) begin
      for (b = 0; b < DataWidth / 8; b = b + 1)
        if (we_i[b]) mem_q[addr_i][8*b +: 8] <= wdata_i[8*b +: 8];
      if (we_i == {(DataWidth/8){1'b0}}) out_q <= mem_q[addr_i];
    end
  end
  generate
    if (OutReg != 0) begin : g_out_reg
      reg [DataWidth-1:0] out2_q;
      always @(posedge clk_i) out2_q <= out_q;
      assign rdata_o = out2_q;
    end else begin : g_direct
      assign rdata_o = out_q;
    end
  endgenerate
endmodule

`default_nettype wire
