// SPDX-License-Identifier: Apache-2.0
// Every int8 pair through one PE whose product is in logic (tpu_pe LogicProduct, as
// the ECP5 board builds synthesize it): weight w is written and switched in, x runs
// -128 .. 127 with a partial sum from above, and psum_o two cycles later must be
// psum_i + x * w (the product written from the operands, not from the PE's terms).
`timescale 1ns / 1ps
`default_nettype none

module tb_pe;
  reg         clk = 1'b0, rst_n = 1'b0;
  reg  [7:0]  x = 8'd0, w = 8'd0;
  reg         x_valid = 1'b0, w_we = 1'b0, switch_next = 1'b0;
  reg  [19:0] psum_in = 20'd0;
  wire [19:0] psum_out;
  wire [7:0]  x_out;
  wire        x_valid_out, x_switch_out;

  tpu_pe u_pe (
      .clk_i(clk), .rst_ni(rst_n),
      .x_i(x), .x_valid_i(x_valid), .x_switch_i(1'b0),
      .x_o(x_out), .x_valid_o(x_valid_out), .x_switch_o(x_switch_out),
      .psum_i(psum_in), .psum_o(psum_out),
      .switch_next_i(switch_next), .w_we_i(w_we), .w_i(w)
  );

  always #5 clk = ~clk;

  integer wi, xi, errors = 0, checked = 0;
  reg [19:0] want [0:1];  // the expected psum_o one and two cycles on
  reg        live [0:1];
  initial begin
    live[0] = 1'b0; live[1] = 1'b0;
    repeat (2) @(posedge clk);
    rst_n <= 1'b1;
    for (wi = -128; wi < 128; wi = wi + 1) begin
      // write the shadow weight and switch it in before the first x
      @(posedge clk);
      w <= wi[7:0]; w_we <= 1'b1; switch_next <= 1'b1; x_valid <= 1'b0;
      @(posedge clk);
      w_we <= 1'b0; switch_next <= 1'b0;
      for (xi = -128; xi < 128; xi = xi + 1) begin
        @(posedge clk);
        x <= xi[7:0]; x_valid <= 1'b1;
        psum_in <= (wi * 3 + xi * 5) & 20'hFFFFF;  // a varying partial sum, signed or not
      end
      @(posedge clk); x_valid <= 1'b0;
      repeat (3) @(posedge clk);
    end
    $display("tb_pe: %0d checked, %0d errors", checked, errors);
    if (errors != 0 || checked != 65536) $fatal(1, "tb_pe: FAIL");
    $finish;
  end

  // The model: x and psum_i at a clock edge give psum_o two edges later (the product's
  // register, then the sum's); psum_i is taken at the second edge.
  reg [7:0]  x_d1;
  reg        v_d1, v_d2;
  reg [19:0] exp_q;
  integer    prod;
  always @(posedge clk) begin
    v_d1 <= x_valid && rst_n;
    x_d1 <= x;
    prod  = $signed(x_d1) * $signed(w_seen);
    exp_q <= psum_in + prod[19:0];
    v_d2 <= v_d1;
    if (v_d2) begin
      checked = checked + 1;
      if (psum_out !== exp_q) begin
        errors = errors + 1;
        if (errors <= 5) $display("tb_pe: w %0d: psum_o %h, want %h", $signed(w_seen), psum_out, exp_q);
      end
    end
  end
  // the weight the PE multiplies by (the one switched in last)
  reg [7:0] w_seen = 8'd0;
  always @(posedge clk) if (switch_next) w_seen <= w;
endmodule

`default_nettype wire
