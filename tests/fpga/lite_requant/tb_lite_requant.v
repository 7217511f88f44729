// SPDX-License-Identifier: Apache-2.0
// tpu_lite_requant's iCE40 netlist (its product on an SB_MAC16) against the plain RTL
// (whose results the block test checks against the golden model): the same random
// operands into both, values started back to back and apart, every result compared.
`timescale 1ns / 1ps
`default_nettype none

module tb_lite_requant;
  localparam integer Values = 4000;
  reg         clk = 1'b0, rst_n = 1'b0, start = 1'b0;
  reg  [31:0] acc = 0, bias = 0, mult = 0;
  reg  [5:0]  shift = 0;
  reg  [7:0]  zp = 0;
  reg         relu = 1'b0;
  wire        done_rtl, done_net, ready_rtl, ready_net;
  wire [7:0]  q_rtl, q_net;

  tpu_lite_requant u_rtl (.clk_i(clk), .rst_ni(rst_n), .start_i(start), .x_i({acc[31], acc} + {bias[31], bias}),
      .mult_i(mult), .shift_i(shift), .zp_i(zp), .relu_i(relu), .done_o(done_rtl), .ready_o(ready_rtl), .q_o(q_rtl));
  tpu_lite_requant_ice40 u_net (.clk_i(clk), .rst_ni(rst_n), .start_i(start), .x_i({acc[31], acc} + {bias[31], bias}),
      .mult_i(mult), .shift_i(shift), .zp_i(zp), .relu_i(relu), .done_o(done_net), .ready_o(ready_net), .q_o(q_net));

  always #5 clk = ~clk;

  // operands: full range, small, or a product a little above 2^shift (results inside int8)
  function [31:0] operand(input integer r);
    case (r & 3)
      0: operand = $random;
      1: operand = $random % 4096;
      2: operand = 32'h40000000 + $random % 65536;
      default: operand = {{16{1'b0}}, 16'h0} | ($random & 32'h000fffff);
    endcase
  endfunction

  integer started = 0, compared = 0, errors = 0;
  initial begin
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    while (compared < Values) begin
      @(negedge clk);
      if (done_rtl !== done_net || ready_rtl !== ready_net) begin
        errors = errors + 1;
        if (errors < 5) $display("tb_lite_requant: handshake differs at result %0d", compared);
      end
      if (done_rtl) begin
        compared = compared + 1;
        if (q_rtl !== q_net) begin
          errors = errors + 1;
          if (errors < 5) $display("tb_lite_requant: result %0d: RTL %0d, netlist %0d", compared, q_rtl, q_net);
        end
      end
      start = ready_rtl && started < Values && ($random & 3) != 0;
      if (start) begin
        started = started + 1;
        acc   = operand($random);
        bias  = ($random & 1) ? 32'd0 : operand($random);
        mult  = operand($random);
        shift = ($random & 1) ? 6'd30 + ($random & 15) : $random;
        zp    = $random;
        relu  = $random;
      end
    end
    $display("tb_lite_requant: %0d results compared, %0d errors", compared, errors);
    if (errors != 0) $fatal(1, "tb_lite_requant: FAIL");
    $finish;
  end
endmodule
