// SPDX-License-Identifier: Apache-2.0
// The unified buffer: Rows rows of N int8 lanes in two banks (even and odd rows), each
// a one-read, one-write memory with a synchronous read (one cycle), so each bank maps
// onto FPGA block RAM. Two read ports: A (matrix unit) always gets its row; B
// (activation parameters, DMA-out) gets its row in the same cycle when it is in the
// other bank (b_ok_o), which it is at least every other cycle while A streams
// consecutive rows. Read data is valid the cycle after the read. One write per cycle; a read of
// the row being written in the same cycle returns the old contents (read-first).
`default_nettype none

module tpu_unified_buffer #(
    parameter integer ArraySize = 4,    // N: bytes per row
    parameter integer Rows      = 1024  // rows (a power of two, at least 2)
) (
    input  wire                   clk_i,
    input  wire                   a_en_i,
    input  wire [AddrBits-1:0]    a_addr_i,
    output wire [ArraySize*8-1:0] a_data_o,    // valid the cycle after a_en_i
    input  wire                   b_en_i,
    input  wire [AddrBits-1:0]    b_addr_i,
    output wire                   b_ok_o,      // port B is served this cycle
    output wire [ArraySize*8-1:0] b_data_o,    // valid the cycle after b_en_i && b_ok_o
    input  wire                   wr_en_i,
    input  wire [AddrBits-1:0]    wr_addr_i,
    input  wire [ArraySize*8-1:0] wr_data_i
);
  localparam integer AddrBits = $clog2(Rows);
  localparam integer W        = ArraySize * 8;

  assign b_ok_o = !a_en_i || a_addr_i[0] != b_addr_i[0];

  wire [2*W-1:0] bank_data;
  genvar k;
  generate
    for (k = 0; k < 2; k = k + 1) begin : g_bank
      reg [W-1:0] mem_q [0:Rows/2-1];
      reg [W-1:0] rd_q;
      wire a_here = a_en_i && a_addr_i[0] == k;
      wire b_here = b_en_i && b_ok_o && b_addr_i[0] == k;
      wire [AddrBits-2:0] rd_row = a_here ? a_addr_i[AddrBits-1:1] : b_addr_i[AddrBits-1:1];
      always @(posedge clk_i) begin
        if (wr_en_i && wr_addr_i[0] == k) mem_q[wr_addr_i[AddrBits-1:1]] <= wr_data_i;
        if (a_here || b_here) rd_q <= mem_q[rd_row];
      end
      assign bank_data[W*k +: W] = rd_q;
    end
  endgenerate

  // Which bank each port read last.
  reg a_bank_q, b_bank_q;
  always @(posedge clk_i) begin
    if (a_en_i) a_bank_q <= a_addr_i[0];
    if (b_en_i && b_ok_o) b_bank_q <= b_addr_i[0];
  end
  assign a_data_o = a_bank_q ? bank_data[W +: W] : bank_data[0 +: W];
  assign b_data_o = b_bank_q ? bank_data[W +: W] : bank_data[0 +: W];
endmodule

`default_nettype wire
