// SPDX-License-Identifier: Apache-2.0
// tpu_mac_array against sums written from the operands: random weight-row
// writes and activation rows, some in the same cycle, every int8 extreme included; each
// row's sums checked three cycles after it entered, with the weights written up to and
// including its own cycle.
`timescale 1ns / 1ps
`default_nettype none

module tb_mac_array #(
    parameter integer N = 4  // (the SB_MAC16 form: even N)
);
  localparam integer NB = N > 1 ? $clog2(N) : 1, SumBits = 16 + $clog2(N), Rows = 20000;
  reg               clk = 1'b0;
  reg               w_we = 1'b0;
  reg  [NB-1:0]     w_row = 0;
  reg  [N*8-1:0]    w = 0, x = 0;
  wire [N*SumBits-1:0] y;

  tpu_mac_array #(.ArraySize(N)) u_array (
      .clk_i(clk), .w_we_i(w_we), .w_row_i(w_row), .w_i(w), .x_i(x), .y_o(y));

  always #5 clk = ~clk;

  // A byte that is an extreme a quarter of the time.
  function [7:0] pick(input integer r);
    case (r & 7)
      0: pick = 8'h80;
      1: pick = 8'h7F;
      default: pick = $random;
    endcase
  endfunction

  reg [7:0] wm [0:N-1][0:N-1];  // the weights as the next row will use them
  reg [N*SumBits-1:0] want [0:2];
  reg                 live [0:2];
  integer t, i, j, errors = 0, checked = 0, s;
  initial begin
    for (i = 0; i < N; i = i + 1) for (j = 0; j < N; j = j + 1) wm[i][j] = 8'd0;
    for (i = 0; i < 3; i = i + 1) live[i] = 1'b0;
    // all weights zero first (the SB_MAC16 registers start at zero too, but say so)
    for (i = 0; i < N; i = i + 1) begin
      @(negedge clk); w_we = 1'b1; w_row = i; w = 0;
    end
    @(negedge clk); w_we = 1'b0;
    for (t = 0; t < Rows; t = t + 1) begin
      @(negedge clk);
      // check the row that entered three cycles ago
      if (live[2]) begin
        checked = checked + 1;
        if (y !== want[2]) begin
          errors = errors + 1;
          if (errors <= 5) $display("tb_mac_array: row %0d: y %h, want %h", t - 3, y, want[2]);
        end
      end
      live[2] = live[1]; want[2] = want[1];
      live[1] = live[0]; want[1] = want[0];
      // this cycle's weight write, if any, then this cycle's row
      w_we = ($random & 3) == 0;
      w_row = {$random} % N;
      for (j = 0; j < N; j = j + 1) w[8*j +: 8] = pick($random);
      if (w_we) for (j = 0; j < N; j = j + 1) wm[w_row][j] = w[8*j +: 8];
      live[0] = ($random & 7) != 0;
      for (i = 0; i < N; i = i + 1) x[8*i +: 8] = pick($random);
      for (j = 0; j < N; j = j + 1) begin
        s = 0;
        for (i = 0; i < N; i = i + 1) s = s + $signed(x[8*i +: 8]) * $signed(wm[i][j]);
        want[0][SumBits*j +: SumBits] = s[SumBits-1:0];
      end
    end
    $display("tb_mac_array: %0d rows checked, %0d errors", checked, errors);
    if (errors != 0 || checked < Rows / 2) $fatal(1, "tb_mac_array: FAIL");
    $finish;
  end
endmodule

`default_nettype wire
