// SPDX-License-Identifier: Apache-2.0
// A fixed delay line of Delay register stages (Delay = 0 is a wire).
`default_nettype none

module tpu_delay #(
    parameter integer Width = 8,  // bits carried
    parameter integer Delay = 1,  // register stages, >= 0
    parameter integer Reset = 0   // 1: stages reset to zero (for valid bits)
) (
    input  wire             clk_i,
    input  wire             rst_ni,
    input  wire [Width-1:0] d_i,
    output wire [Width-1:0] q_o
);
  generate
    if (Delay == 0) begin : g_wire
      assign q_o = d_i;
      wire unused_clk = clk_i ^ rst_ni;
    end else begin : g_pipe
      // stage k holds d_i from k+1 cycles ago
      reg [Width*Delay-1:0] pipe_q;
      wire [Width*Delay-1:0] pipe_d;
      if (Delay == 1) begin : g_one
        assign pipe_d = d_i;
      end else begin : g_many
        assign pipe_d = {pipe_q[Width*(Delay-1)-1:0], d_i};
      end
      if (Reset != 0) begin : g_reset
        always @(posedge clk_i) begin
          if (!rst_ni) pipe_q <= {Width*Delay{1'b0}};
          else         pipe_q <= pipe_d;
        end
      end else begin : g_no_reset
        always @(posedge clk_i) pipe_q <= pipe_d;
        wire unused_rst = rst_ni;
      end
      assign q_o = pipe_q[Width*Delay-1 -: Width];
    end
  endgenerate
endmodule

`default_nettype wire
