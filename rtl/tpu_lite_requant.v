// SPDX-License-Identifier: Apache-2.0
// The lite core's requantization of one value (docs/isa.md, "Numerics") in eight cycles
// with one 16 x 16 multiplier: the saturating bias add, the magnitudes, the 32 x 32
// product of the magnitudes as four 16 x 16 products added in 16-bit chunks from the
// low end, then the rounding shift, zero point and clamp. Bit-exact with tpu_requant and
// the golden model.
//
// The shift needs no shifter over the product: with e = shift - 1 (the rounding is
// (P / 2^e + 1) / 2), the bits that count are P's 16-bit chunks q - 1 and q, where
// q = (e + 16) / 16 (chunk -1 and chunk 4 being zero), shifted by (e + 16) mod 16, and
// whether any bit above them is set; each chunk is kept as it comes out of the sum.
`default_nettype none

module tpu_lite_requant (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire        start_i,   // the operands are sampled now
    input  wire [31:0] acc_i,
    input  wire [31:0] bias_i,
    input  wire [31:0] mult_i,
    input  wire [5:0]  shift_i,
    input  wire [7:0]  zp_i,
    input  wire        relu_i,
    output wire        done_o,    // one cycle: q_o is the result
    output wire [7:0]  q_o
);
  // step_q: 0 idle; 1 the sum taken; 2 the magnitudes taken; 2-5 the four products
  // asked (each on the multiplier's output a cycle later); 3-7 the sum of the products
  // from its low end, a 16-bit chunk leaving it in steps 4, 6 and 7 (two)
  reg  [2:0]  step_q;
  reg         on_q;
  reg  [31:0] x_q, m_q, xm_q, mm_q;   // x = sat(acc + bias), m; their magnitudes
  reg         neg_q, relu_q;
  reg  [7:0]  zp_q;
  reg  [2:0]  q_q;                    // the window's upper chunk, 0-4
  reg  [3:0]  r_q;                    // the window's offset in its lower chunk
  reg  [33:0] a_q;                    // the running sum, from the chunk leaving next up
  reg  [15:0] wlo_q, whi_q;           // chunks q - 1 and q
  reg         above_q;                // a chunk above q is not zero

  wire [6:0]  e16 = {1'b0, shift_i} + 7'd15;
  wire [31:0] x_sum;
  tpu_sat_add32 u_bias (.a_i(acc_i), .b_i(bias_i), .sum_o(x_sum));

  // the multiplier: product k = step - 2 of the magnitudes' halves (0: low x low; 1: high
  // x low; 2: low x high; 3: high x high)
  wire [1:0]  k     = step_q[1:0] + 2'd2;
  wire [15:0] mul_a = k[0] ? xm_q[31:16] : xm_q[15:0];
  wire [15:0] mul_b = k[1] ? mm_q[31:16] : mm_q[15:0];
  reg  [31:0] prod_q;
  always @(posedge clk_i) prod_q <= mul_a * mul_b;
  // step 3: product 0; 4: chunk 0 leaves, + product 1; 5: + product 2; 6: chunk 1
  // leaves, + product 3; 7: chunks 2 and 3 are what is left
  wire        shift = step_q == 3'd4 || step_q == 3'd6;
  wire [33:0] sum_a = (step_q == 3'd3 ? 34'd0 : shift ? {16'd0, a_q[33:16]} : a_q) + {2'd0, prod_q};
  wire        leave = shift || step_q == 3'd7;
  wire [2:0]  c_lo  = step_q == 3'd4 ? 3'd0 : step_q == 3'd6 ? 3'd1 : 3'd2;   // the chunk(s) leaving
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      on_q   <= 1'b0;
      step_q <= 3'd0;
    end else if (start_i) begin
      on_q   <= 1'b1;
      step_q <= 3'd1;
    end else if (on_q) begin
      step_q <= step_q + 3'd1;
      if (step_q == 3'd7) on_q <= 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (start_i) begin
      x_q    <= x_sum;
      m_q    <= mult_i;
      zp_q   <= zp_i;
      relu_q <= relu_i;
      // e + 16 = shift + 15: the window's chunk and its offset
      q_q    <= e16[6:4];
      r_q    <= e16[3:0];
    end
    if (step_q == 3'd1) begin
      xm_q    <= x_q[31] ? -x_q : x_q;      // (|-2^31| = 2^31 fits unsigned)
      mm_q    <= m_q[31] ? -m_q : m_q;
      neg_q   <= x_q[31] ^ m_q[31];
      wlo_q   <= 16'd0;                     // (chunk -1)
      whi_q   <= 16'd0;                     // (chunk 4)
      above_q <= 1'b0;
    end
    if (step_q >= 3'd3 && step_q <= 3'd6) a_q <= sum_a;
    // a chunk c leaving (in step 7 also c + 1, the sum's upper half): kept when it is one
    // of the window's, noted when above it
    if (leave) begin
      if (q_q == c_lo + 3'd1) wlo_q <= a_q[15:0];
      if (q_q == c_lo) whi_q <= a_q[15:0];
      if (q_q < c_lo && |a_q[15:0]) above_q <= 1'b1;
      if (step_q == 3'd7) begin
        if (q_q == 3'd4) wlo_q <= a_q[31:16];
        if (q_q == 3'd3) whi_q <= a_q[31:16];
        if (q_q < 3'd3 && |a_q[31:16]) above_q <= 1'b1;
      end
    end
  end

  // v = P / 2^e: the window's low eleven bits, and whether anything above them is set
  wire [31:0] pair   = {whi_q, wlo_q} >> r_q;
  wire [10:0] v      = pair[10:0];
  wire        upper  = above_q || |pair[31:11];
  // rounded magnitude (v + 1) / 2: only its low nine bits and whether it reaches 512
  // matter, since anything from 512 on clamps for every int8 zero point
  wire [9:0]  mag     = {1'b0, v[9:1]} + {9'd0, v[0]};
  wire        big     = upper || v[10] || mag[9];
  wire [10:0] y       = neg_q ? -{1'b0, mag} : {1'b0, mag};
  wire [10:0] t       = y + {{3{zp_q[7]}}, zp_q};
  wire [10:0] lo_lim  = relu_q ? {{3{zp_q[7]}}, zp_q} : 11'h780;  // -128
  wire        under   = $signed(t) < $signed(lo_lim);
  wire        over    = $signed(t) > $signed(11'd127);
  wire [7:0]  clamped = big ? (neg_q ? lo_lim[7:0] : 8'd127)
                      : under ? lo_lim[7:0] : over ? 8'd127 : t[7:0];

  // (step 7 ends with the last chunks kept; the result is read the cycle after)
  reg done_q;
  always @(posedge clk_i) done_q <= rst_ni && on_q && step_q == 3'd7;
  assign done_o = done_q;
  assign q_o    = clamped;

  wire unused = ^a_q[33:32];   // (P < 2^62: nothing reaches bit 64)
endmodule

`default_nettype wire
