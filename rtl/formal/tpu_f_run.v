// SPDX-License-Identifier: Apache-2.0
// Formal only (scripts/formal.sh reads rtl/formal/): the reset preamble of every
// module's `ifdef FORMAL` properties. The first step is in reset (assumed);
// past_valid_o: a step before this one exists; run_o: out of reset in this step and the
// one before, so that a property about the previous step speaks of a running design.
`default_nettype none

module tpu_f_run (
    input  wire clk_i,
    input  wire rst_ni,
    output wire past_valid_o,
    output wire run_o
);
  reg past_valid_q = 1'b0;
  reg was_running_q = 1'b0;
  always @(posedge clk_i) begin
    past_valid_q  <= 1'b1;
    was_running_q <= rst_ni;
  end
  always @(*) if (!past_valid_q) assume (!rst_ni);
  assign past_valid_o = past_valid_q;
  assign run_o        = past_valid_q && was_running_q && rst_ni;
endmodule

`default_nettype wire
