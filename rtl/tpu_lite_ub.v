// SPDX-License-Identifier: Apache-2.0
// The lite core's unified buffer: Rows rows of Width bits, one access a cycle (a read or
// a write of some of a row's bytes), read data the cycle after its read and good only
// until the next access.
// With TPU_ICE40_SPRAM defined (the iCEBreaker build) it is the UP5K's single-port RAM
// (tpu_ice40_spram: SB_SPRAM256KA blocks side by side, which leaves the block RAMs to
// the accumulators, the weight FIFO and the fetch ring); otherwise a tpu_small_ram
// a byte wide each, whose read data, as the SPRAM's, is undefined after a write:
// simulation inverts it, so that a core that reads it late fails its differential tests.
`default_nettype none

module tpu_lite_ub #(
    parameter integer Width = 32,   // N * 8, a multiple of 16 for the SPRAM
    parameter integer Rows  = 1024  // at most 16 384 for the SPRAM
) (
    input  wire                clk_i,
    input  wire                en_i,     // an access
    input  wire [Width/8-1:0]  we_i,     // (with en_i) the bytes written; none: a read
    input  wire [RowBits-1:0]  addr_i,
    input  wire [Width-1:0]    wdata_i,
    output wire [Width-1:0]    rdata_o
);
  localparam integer RowBits = $clog2(Rows);

`ifdef TPU_ICE40_SPRAM
  initial begin
    if (Width % 16 != 0 || Rows > 16384) begin
      $display("tpu_lite_ub: the SPRAM form needs Width a multiple of 16 and at most 16 384 rows");
      $finish;
    end
  end
  // (one row of blocks: 16 384 words of Width bits)
  tpu_ice40_spram #(.DataWidth(Width), .MemBytes(16384 * Width / 8)) u_spram (
      .clk_i,
      .en_i,
      .we_i(we_i),
      .addr_i({{(14-RowBits){1'b0}}, addr_i}),
      .wdata_i,
      .rdata_o);
`else
  wire [Width-1:0] rd;
  wire             write = |we_i;
  reg              stale_q;   // a write came after the last read
  always @(posedge clk_i) begin
    if (en_i) stale_q <= write;
  end
  genvar b;
  generate
    for (b = 0; b < Width / 8; b = b + 1) begin : g_byte
      tpu_small_ram #(.Width(8), .Depth(Rows)) u_ram (
          .clk_i,
          .rd_en_i(en_i && !write),
          .rd_addr_i(addr_i),
          .rd_data_o(rd[8*b +: 8]),
          .wr_en_i(en_i && we_i[b]),
          .wr_addr_i(addr_i),
          .wr_data_i(wdata_i[8*b +: 8]));
    end
  endgenerate
  assign rdata_o = stale_q ? ~rd : rd;
`endif
endmodule

`default_nettype wire
