// SPDX-License-Identifier: Apache-2.0
// The scoreboard slot an instruction holds, as the one-hot retire mask a unit raises
// when the instruction retires (all zero when valid_i is low).
`default_nettype none

module tpu_slot_mask #(
    parameter integer Slots = 8
) (
    input  wire                valid_i,
    input  wire [SlotBits-1:0] slot_i,
    output wire [Slots-1:0]    mask_o
);
  localparam integer SlotBits = (Slots > 1) ? $clog2(Slots) : 1;
  genvar s;
  generate
    for (s = 0; s < Slots; s = s + 1) begin : g_slot
      assign mask_o[s] = valid_i && slot_i == s[SlotBits-1:0];
    end
  endgenerate
endmodule

`default_nettype wire
