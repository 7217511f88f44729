// SPDX-License-Identifier: Apache-2.0
// One lane of the activation unit: int32 accumulator -> int8, bit-exact with the
// golden model (tools/model/numerics.hpp, docs/isa.md "Numerics"):
//   x = sat32(acc + bias); p = x * multiplier; y = round(p / 2^shift) ties away
//   from zero; y + zp clamped to [relu ? zp : -128, 127].
// Three pipeline stages (add, multiply, shift/clamp); one value per cycle.
`default_nettype none

module tpu_requant (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire        in_valid_i,
    input  wire [31:0] acc_i,
    input  wire [31:0] bias_i,
    input  wire [31:0] mult_i,
    input  wire [5:0]  shift_i,    // 0..63
    input  wire [7:0]  zp_i,       // int8 zero point
    input  wire        relu_i,
    output wire        out_valid_o,
    output wire [7:0]  out_o       // int8
);
  // Stage 1: saturating bias add.
  wire [31:0] x_d;
  tpu_sat_add32 u_bias (.a_i(acc_i), .b_i(bias_i), .sum_o(x_d));
  reg  [31:0] x_q, mult_q;
  reg  [5:0]  shift_q, shift_q2;
  reg  [7:0]  zp_q, zp_q2;
  reg         relu_q, relu_q2;

  // Stage 2: exact 64-bit product (|p| <= 2^62).
  wire signed [63:0] p_d = $signed(x_q) * $signed(mult_q);
  reg  signed [63:0] p_q;

  // Stage 3: rounding shift on the magnitude, then zero point and clamp.
  wire        neg   = p_q[63];
  wire [63:0] mag   = neg ? (~p_q + 64'd1) : p_q;
  wire [63:0] half  = (shift_q2 == 6'd0) ? 64'd0 : (64'd1 << (shift_q2 - 6'd1));
  wire [63:0] q     = (mag + half) >> shift_q2;
  wire [64:0] y     = neg ? (~{1'b0, q} + 65'd1) : {1'b0, q};
  wire [64:0] y_zp  = y + {{57{zp_q2[7]}}, zp_q2};
  wire [64:0] lo    = relu_q2 ? {{57{zp_q2[7]}}, zp_q2} : {{57{1'b1}}, 8'h80};
  wire        below = $signed(y_zp) < $signed(lo);
  wire        above = $signed(y_zp) > $signed(65'd127);
  wire [7:0]  out_d = below ? lo[7:0] : (above ? 8'd127 : y_zp[7:0]);
  reg  [7:0]  out_q;

  reg v1_q, v2_q, v3_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      v1_q <= 1'b0;
      v2_q <= 1'b0;
      v3_q <= 1'b0;
    end else begin
      v1_q <= in_valid_i;
      v2_q <= v1_q;
      v3_q <= v2_q;
    end
  end

  always @(posedge clk_i) begin
    x_q      <= x_d;
    mult_q   <= mult_i;
    shift_q  <= shift_i;
    zp_q     <= zp_i;
    relu_q   <= relu_i;
    p_q      <= p_d;
    shift_q2 <= shift_q;
    zp_q2    <= zp_q;
    relu_q2  <= relu_q;
    out_q    <= out_d;
  end

  assign out_valid_o = v3_q;
  assign out_o       = out_q;
endmodule

`default_nettype wire
