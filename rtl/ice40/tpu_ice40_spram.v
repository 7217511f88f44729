// SPDX-License-Identifier: Apache-2.0
// Board memory in the iCE40 UltraPlus single-port RAMs (SB_SPRAM256KA, 16K x 16 bits,
// 32 KB each; the UP5K has four). Banks side by side make a DataWidth-bit word; with
// more bytes than one row of banks holds, a second row follows (the UP5K holds 128 KB).
// Read data appears the cycle after the address and stays until the next access.
`default_nettype none

module tpu_ice40_spram #(
    parameter integer DataWidth = 32,
    parameter integer MemBytes  = 65536
) (
    input  wire                   clk_i,
    input  wire                   en_i,
    input  wire [DataWidth/8-1:0] we_i,
    input  wire [WordBits-1:0]    addr_i,
    input  wire [DataWidth-1:0]   wdata_i,
    output wire [DataWidth-1:0]   rdata_o
);
  localparam integer Cols     = DataWidth / 16;
  localparam integer Rows     = MemBytes / (Cols * 32768);
  localparam integer WordBits = $clog2(MemBytes / (DataWidth / 8));
  localparam integer RowBits  = (Rows > 1) ? $clog2(Rows) : 1;

  wire [RowBits-1:0] row;
  if (Rows > 1) begin : g_rows
    assign row = addr_i[WordBits-1:14];
  end else begin : g_one_row
    assign row = 1'b0;
  end
  reg [RowBits-1:0] row_q;  // the row whose output is being read
  always @(posedge clk_i) if (en_i) row_q <= row;

  wire [DataWidth-1:0] out [0:Rows-1];
  genvar r, c;
  for (r = 0; r < Rows; r = r + 1) begin : g_row
    for (c = 0; c < Cols; c = c + 1) begin : g_col
      wire [1:0] bytes = we_i[2*c +: 2];
      SB_SPRAM256KA u_ram (
          .ADDRESS(addr_i[13:0]),
          .DATAIN(wdata_i[16*c +: 16]),
          .MASKWREN({bytes[1], bytes[1], bytes[0], bytes[0]}),
          .WREN(|we_i),
          .CHIPSELECT(en_i && row == r[RowBits-1:0]),
          .CLOCK(clk_i),
          .STANDBY(1'b0),
          .SLEEP(1'b0),
          .POWEROFF(1'b1),
          .DATAOUT(out[r][16*c +: 16]));
    end
  end
  assign rdata_o = out[row_q];
endmodule

`default_nettype wire
