// SPDX-License-Identifier: Apache-2.0
// The unified buffer: Rows rows of N int8 lanes, one read and one write port per
// cycle, synchronous read (one cycle), so it maps onto FPGA block RAM. A read of the
// row being written in the same cycle returns the old contents (read-first).
`default_nettype none

module tpu_unified_buffer #(
    parameter integer ArraySize = 4,    // N: bytes per row
    parameter integer Rows      = 1024  // rows (a power of two)
) (
    input  wire                   clk_i,
    input  wire                   rd_en_i,
    input  wire [AddrBits-1:0]    rd_addr_i,
    output wire [ArraySize*8-1:0] rd_data_o,   // valid the cycle after rd_en_i
    input  wire                   wr_en_i,
    input  wire [AddrBits-1:0]    wr_addr_i,
    input  wire [ArraySize*8-1:0] wr_data_i
);
  localparam integer AddrBits = $clog2(Rows);

  reg [ArraySize*8-1:0] mem_q [0:Rows-1];
  reg [ArraySize*8-1:0] rd_data_q;

  always @(posedge clk_i) begin
    if (wr_en_i) mem_q[wr_addr_i] <= wr_data_i;
    if (rd_en_i) rd_data_q <= mem_q[rd_addr_i];
  end

  assign rd_data_o = rd_data_q;
endmodule

`default_nettype wire
