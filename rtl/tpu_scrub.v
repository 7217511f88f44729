// SPDX-License-Identifier: Apache-2.0
// A memory's scrubber: from a start pulse it walks the rows 0..Rows-1, one a cycle,
// while active_o holds, and the memory writes zeros there through its own write port
// (so that no run sees a row an earlier run left behind). The controller starts every
// memory's scrub together, during reset and when a run ends (tpu_controller).
`default_nettype none

module tpu_scrub #(
    parameter integer Rows = 1024  // rows of the memory (a power of two)
) (
    input  wire                clk_i,
    input  wire                rst_ni,
    input  wire                start_i,
    output wire                active_o,
    output wire [AddrBits-1:0] row_o
);
  localparam integer AddrBits = $clog2(Rows);

  reg                active_q;
  reg [AddrBits-1:0] row_q;
  always @(posedge clk_i) begin
    if (!rst_ni)                   active_q <= 1'b0;
    else if (start_i)              active_q <= 1'b1;
    else if (active_q && &row_q)   active_q <= 1'b0;
    if (start_i)       row_q <= {AddrBits{1'b0}};
    else if (active_q) row_q <= row_q + 1'b1;
  end
  assign active_o = active_q;
  assign row_o    = row_q;
endmodule

`default_nettype wire
