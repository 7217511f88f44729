// SPDX-License-Identifier: Apache-2.0
// Formal only (scripts/formal.sh reads rtl/formal/): the valid/ready rule of every
// stream and bus channel (AXI4 A3.2.1): a beat shown and not taken stays, unchanged,
// in the next step, unless a flush came between. Assume = 1 for a channel the
// environment drives (it constrains the inputs), 0 for one the module drives.
`default_nettype none

module tpu_f_hold #(
    parameter integer Width  = 1,
    parameter integer Assume = 0
) (
    input  wire             clk_i,
    input  wire             run_i,     // tpu_f_run's run_o
    input  wire             flush_i,   // the stream is emptied: no hold into the next step
    input  wire             valid_i,
    input  wire             ready_i,
    input  wire [Width-1:0] data_i
);
  reg             stalled_q = 1'b0;  // shown and not taken in the step before
  reg [Width-1:0] data_q;
  always @(posedge clk_i) begin
    stalled_q <= valid_i && !ready_i && !flush_i;
    data_q    <= data_i;
  end
  always @(*) begin
    if (run_i && stalled_q) begin
      if (Assume != 0) assume (valid_i && data_i == data_q);
      else             assert (valid_i && data_i == data_q);
    end
  end
endmodule

`default_nettype wire
