// SPDX-License-Identifier: Apache-2.0
// Plans the next AXI4 INCR burst of a byte span: from the bus word holding cur_i, as
// many full-width beats as reach end_i, at most MaxBeats, never past the 4 KB page.
`default_nettype none

module tpu_axi_burst #(
    parameter integer Bytes    = 4,   // bytes per beat, a power of two
    parameter integer MaxBeats = 16   // beats per burst, 1..256
) (
    input  wire [32:0] cur_i,    // first span byte still to transfer
    input  wire [32:0] end_i,    // one past the span's last byte
    output wire [32:0] base_o,   // aligned address of the burst's first beat
    output wire [32:0] end_o,    // one past the last span byte this burst carries
    output wire [8:0]  beats_o   // 1..MaxBeats
);
  localparam integer LaneBits = $clog2(Bytes);
  localparam [32:0]  CapBytes = Bytes * MaxBeats;

  wire [32:0] page_end = {cur_i[32:12] + 21'd1, 12'd0};
  wire [32:0] cap_end  = base_o + CapBytes;
  wire [32:0] limit    = (cap_end < page_end) ? cap_end : page_end;
  wire [32:0] beats    = (end_o - base_o + Bytes - 1) >> LaneBits;

  assign base_o  = {cur_i[32:LaneBits], {LaneBits{1'b0}}};
  assign end_o   = (end_i < limit) ? end_i : limit;
  assign beats_o = beats[8:0];

  wire unused_bits = ^{cur_i[LaneBits-1:0], beats[32:9]};  // Bytes >= 4
endmodule

`default_nettype wire
