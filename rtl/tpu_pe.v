// SPDX-License-Identifier: Apache-2.0
// One processing element of the weight-stationary array: psum + int8 x int8.
//
// Activations move east and partial sums move south, one PE per cycle. The PE holds
// an active weight and a shadow weight: the next tile is written into the shadow
// registers while the current one computes, and a row flagged `switch` makes the
// shadow weight active exactly when that row reaches this PE, so rows still in
// flight keep the old weight (TPU v1's double buffering).
`default_nettype none

module tpu_pe #(
    parameter integer LogicProduct = 0, // 1: the product in logic, not a multiplier (boards short of them)
    // 1: a switch may reach this PE in the very cycle its shadow weight is written (the
    // array's first column, tpu_matrix_unit's contract); elsewhere the shadow was
    // written at least a cycle before, so the active weight's multiplexer leaves the
    // write enable out (on the ECP5 it feeds the multiplier's input register)
    parameter integer WriteBypass  = 1,
    parameter integer PsumBits     = 32 // the partial sum's width (tpu_systolic_array: exact for its rows)
) (
    input  wire        clk_i,
    input  wire        rst_ni,       // synchronous, active low: clears the valid bits only
    // activations from the west, passed east one cycle later
    input  wire [7:0]  x_i,
    input  wire        x_valid_i,
    input  wire        x_switch_i,   // this row starts a new tile
    output wire [7:0]  x_o,
    output wire        x_valid_o,
    output wire        x_switch_o,
    // partial sums from the north, passed south one cycle later
    input  wire [PsumBits-1:0] psum_i,
    output wire [PsumBits-1:0] psum_o,
    // the row reaching x_i next cycle starts a new tile (the west neighbour's
    // x_valid_i & x_switch_i): the weight is chosen a cycle ahead, so the multiply
    // starts at a register
    input  wire        switch_next_i,
    // shadow weight write port
    input  wire        w_we_i,
    input  wire [7:0]  w_i
);
  reg  [7:0]  x_q;
  reg         x_valid_q, x_switch_q;
  reg  [PsumBits-1:0] psum_q;
  reg  [7:0]  w_active_q, w_shadow_q;  // w_active_q: the weight of the row at x_i now

  wire [7:0]  w_shadow_d = w_we_i ? w_i : w_shadow_q;
  wire [7:0]  w_active_d = switch_next_i ? (WriteBypass != 0 ? w_shadow_d : w_shadow_q) : w_active_q;
  // The product is registered (the multiplier's own output register on FPGAs), so the
  // add to the partial sum from above is a cycle of its own: every PE is one cycle
  // later, the array as a whole one cycle longer.
  wire signed [15:0] product;
  generate
    if (LogicProduct != 0) begin : g_logic
      // x * w as the sum of x times each two-bit slice of w, shifted (the top slice's
      // sign bit subtracted: two's complement), added as a tree of narrow signed sums,
      // each a carry chain of its own (keep: never merged into one multi-operand add).
      // On the ECP5 the slices' ANDs ride in their sums' carry cells (tpu_mul8x2).
      (* keep *) wire [9:0]  sum01, sum23, sum45, sum67;
      (* keep *) wire [12:0] sum0123;
      (* keep *) wire [11:0] sum4567;  // only its low 12 bits reach the 16-bit product
      tpu_mul8x2 #(.Top(0)) u_sum01 (.x_i(x_i), .lo_i(w_active_q[0]), .hi_i(w_active_q[1]), .p_o(sum01));
      tpu_mul8x2 #(.Top(0)) u_sum23 (.x_i(x_i), .lo_i(w_active_q[2]), .hi_i(w_active_q[3]), .p_o(sum23));
      tpu_mul8x2 #(.Top(0)) u_sum45 (.x_i(x_i), .lo_i(w_active_q[4]), .hi_i(w_active_q[5]), .p_o(sum45));
      tpu_mul8x2 #(.Top(1)) u_sum67 (.x_i(x_i), .lo_i(w_active_q[6]), .hi_i(w_active_q[7]), .p_o(sum67));
      assign sum0123 = {{3{sum01[9]}}, sum01} + {sum23[9], sum23, 2'b0};
      assign sum4567 = {{2{sum45[9]}}, sum45} + {sum67, 2'b0};
      assign product = {{3{sum0123[12]}}, sum0123} + {sum4567, 4'b0};
    end else begin : g_mul
      assign product = $signed(x_i) * $signed(w_active_q);
    end
  endgenerate
  reg  signed [15:0] product_q;
  wire [PsumBits-1:0] psum_d = psum_i + {{(PsumBits-16){product_q[15]}}, product_q};

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      x_valid_q  <= 1'b0;
      x_switch_q <= 1'b0;
    end else begin
      x_valid_q  <= x_valid_i;
      x_switch_q <= x_switch_i;
    end
  end

  always @(posedge clk_i) begin
    x_q        <= x_i;
    product_q  <= product;
    psum_q     <= psum_d;
    w_active_q <= w_active_d;
    w_shadow_q <= w_shadow_d;
  end

  assign x_o        = x_q;
  assign x_valid_o  = x_valid_q;
  assign x_switch_o = x_switch_q;
  assign psum_o     = psum_q;
endmodule

`default_nettype wire
