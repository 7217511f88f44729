// SPDX-License-Identifier: Apache-2.0
// Device-memory order: the byte ranges of the `whm`s in flight, one per scoreboard slot,
// so that an `rhm` or `rw` waits only for the older `whm`s that write bytes it reads
// (docs/architecture.md, "Controller"). A whm leaves when it retires, which the DMA-out
// unit signals once every write response of it is in: a read issued after that sees
// the written bytes. Ranges are half-open [lo, hi); an empty one meets nothing.
`default_nettype none

module tpu_whm_ranges #(
    parameter integer Slots = 8
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    // a whm takes scoreboard slot take_slot_i with the byte range [take_lo_i, take_hi_i)
    input  wire                take_i,
    input  wire [SlotBits-1:0] take_slot_i,
    input  wire [31:0]         take_lo_i,
    input  wire [32:0]         take_hi_i,
    input  wire [Slots-1:0]    retire_i,
    // a read of [chk_lo_i, chk_hi_i) meets a whm in flight
    input  wire [31:0]         chk_lo_i,
    input  wire [32:0]         chk_hi_i,
    output wire                overlap_o
);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;

  wire [Slots-1:0] meets;
  genvar i;
  generate
    for (i = 0; i < Slots; i = i + 1) begin : g_slot
      reg        valid_q;
      reg [31:0] lo_q;
      reg [32:0] hi_q;
      wire take = take_i && take_slot_i == i[SlotBits-1:0];
      always @(posedge clk_i) begin
        if (!rst_ni)          valid_q <= 1'b0;
        else if (take)        valid_q <= 1'b1;
        else if (retire_i[i]) valid_q <= 1'b0;
      end
      always @(posedge clk_i) begin
        if (take) begin
          lo_q <= take_lo_i;
          hi_q <= take_hi_i;
        end
      end
      assign meets[i] = valid_q && {1'b0, chk_lo_i} < hi_q && chk_hi_i > {1'b0, lo_q};
    end
  endgenerate

  assign overlap_o = |meets;
endmodule

`default_nettype wire
