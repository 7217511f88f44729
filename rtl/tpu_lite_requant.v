// SPDX-License-Identifier: Apache-2.0
// The lite core's requantization (docs/isa.md, "Numerics"): a value in eight cycles, a
// new one every four, with one 16 x 16 multiplier (with TPU_ICE40_DSP an SB_MAC16): the
// magnitudes (x = acc + bias comes as a 33-bit sum, its int32 saturation taken with its
// magnitude, tpu_magnitude), the 32 x 32 product of the magnitudes as four 16 x 16
// products added in 16-bit chunks from the low end, then the rounding shift, zero point
// and clamp. Bit-exact with tpu_requant and
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
    input  wire        start_i,   // shift_i is sampled now, x_i and mult_i the cycle after (held:
    input  wire [32:0] x_i,       // their magnitudes are taken then)
    input  wire [31:0] mult_i,
    input  wire [5:0]  shift_i,
    input  wire [7:0]  zp_i,      // held while values are in flight (an act instruction's own)
    input  wire        relu_i,
    output wire        done_o,    // one cycle: q_o is the result (values in the order they started)
    output wire        ready_o,   // start_i may be raised (every fourth cycle at most)
    output wire [7:0]  q_o
);
  // A value's steps, counted from its start (st_q[j]: a value is in step j + 1): 1 the
  // magnitudes taken; 2-5 the four products asked (each on the multiplier's output a
  // cycle later); 3-6 the sum of the products from its low end, a 16-bit chunk leaving
  // it in steps 4, 6 and 7 (two); 8 the result. A new value may start every four cycles
  // (ready_o): its magnitudes come as the last one asks its last product, its sum
  // begins as the last one's last chunks leave, and its window starts over as the last
  // one's result is read; so its shift and sign travel in two copies, the front one (from
  // its start, for its first chunk) and the back one (from step 4 on).
  reg  [7:0]  st_q;
  reg  [31:0] xm_q, mm_q;             // the magnitudes of x = sat(acc + bias) and m
  reg         fneg_q, bneg_q;
  reg  [2:0]  fq_q, bq_q;             // the window's upper chunk, 0-4
  reg  [3:0]  fr_q, br_q;             // the window's offset in its lower chunk
  wire [32:0] a_q;                    // the running sum, from the chunk leaving next up (below)
  reg  [15:0] wlo_q, whi_q;           // chunks q - 1 and q
  reg         above_q;                // a chunk above q is not zero

  wire [6:0]  e16 = {1'b0, shift_i} + 7'd15;
  // x's magnitude (saturated to int32 when the sum overflows: its two top bits differ)
  wire [31:0] x_mag, m_mag;
  tpu_magnitude #(.Width(32)) u_x_mag (.x_i(x_i[31:0]), .neg_i(x_i[32]), .sat_i(x_i[32] ^ x_i[31]),
                                       .y_o(x_mag));
  tpu_magnitude #(.Width(32)) u_m_mag (.x_i(mult_i), .neg_i(mult_i[31]), .sat_i(1'b0), .y_o(m_mag));

  // the multiplier: product k (asked in step k + 2) of the magnitudes' halves (0: low x
  // low; 1: high x low; 2: low x high; 3: high x high), registered; the sum adds it the
  // cycle after to 0 (step 3), to the sum shifted down a chunk (4, 6) or to the sum (5)
  wire [1:0]  k     = st_q[2] ? 2'd1 : st_q[3] ? 2'd2 : st_q[4] ? 2'd3 : 2'd0;
  wire [15:0] mul_a = k[0] ? xm_q[31:16] : xm_q[15:0];
  wire [15:0] mul_b = k[1] ? mm_q[31:16] : mm_q[15:0];
  // step 3: product 0; 4: chunk 0 leaves, + product 1; 5: + product 2; 6: chunk 1
  // leaves, + product 3; 7: chunks 2 and 3 are what is left (the sum stays below 2^33)
  wire        shift = st_q[3] || st_q[5];
  wire [31:0] addend = st_q[2] ? 32'd0 : shift ? {15'd0, a_q[32:16]} : a_q[31:0];
`ifdef TPU_ICE40_DSP
  // an SB_MAC16: the unsigned 16 x 16 product into its pipeline register, and its 32-bit
  // adder (C and D the addend) into its output register: the sum, but its carry
  wire [31:0] sum_lo;
  wire        carry;
  reg         carry_q;
  wire        unused_accumco, unused_signextout;
  SB_MAC16 #(
      .MODE_8x8(1'b0), .A_SIGNED(1'b0), .B_SIGNED(1'b0), .PIPELINE_16x16_MULT_REG2(1'b1),
      .TOPOUTPUT_SELECT(2'd1), .BOTOUTPUT_SELECT(2'd1),
      .TOPADDSUB_LOWERINPUT(2'd2), .BOTADDSUB_LOWERINPUT(2'd2),
      .TOPADDSUB_UPPERINPUT(1'b1), .BOTADDSUB_UPPERINPUT(1'b1),
      .TOPADDSUB_CARRYSELECT(2'd3), .BOTADDSUB_CARRYSELECT(2'd0)
  ) u_mul (
      .CLK(clk_i), .CE(1'b1),
      .A(mul_a), .B(mul_b), .C(addend[31:16]), .D(addend[15:0]),
      .AHOLD(1'b0), .BHOLD(1'b0), .CHOLD(1'b0), .DHOLD(1'b0),
      .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(1'b0), .ORSTBOT(1'b0),
      .OLOADTOP(1'b0), .OLOADBOT(1'b0), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
      .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(1'b0), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
      .O(sum_lo), .CO(carry), .ACCUMCO(unused_accumco), .SIGNEXTOUT(unused_signextout));
  always @(posedge clk_i) carry_q <= carry;
  assign a_q = {carry_q, sum_lo};
`else
  reg  [31:0] prod_q;
  reg  [32:0] sum_q;
  always @(posedge clk_i) begin
    prod_q <= mul_a * mul_b;
    sum_q  <= {1'b0, addend} + {1'b0, prod_q};
  end
  assign a_q = sum_q;
`endif
  always @(posedge clk_i) begin
    if (!rst_ni) st_q <= 8'd0;
    else         st_q <= {st_q[6:0], start_i};
  end
  // chunk c leaving (in step 7 also c + 1, the sum's upper half): kept when it is one of
  // the window's (q - 1 or q), noted when above it; the first (step 4) starts the window
  // over, with the front copy's q (the back copy is still the last value's)
  wire [15:0] chunk = a_q[15:0];
  wire        first = st_q[3];
  wire [2:0]  cq    = first ? fq_q : bq_q;
  wire [2:0]  c_lo  = st_q[3] ? 3'd0 : st_q[5] ? 3'd1 : 3'd2;
  always @(posedge clk_i) begin
    if (start_i) begin
      fq_q    <= e16[6:4];
      fr_q    <= e16[3:0];
    end
    if (st_q[0]) begin
      xm_q   <= x_mag;   // (|-2^31| = 2^31 fits unsigned)
      mm_q   <= m_mag;
      fneg_q <= x_i[32] ^ mult_i[31];
    end
    if (st_q[3]) begin   // the value's own copy from here on
      bneg_q  <= fneg_q;
      bq_q    <= fq_q;
      br_q    <= fr_q;
    end
    if (shift || st_q[6]) begin
      if (cq == c_lo + 3'd1) wlo_q <= chunk;
      else if (first) wlo_q <= 16'd0;               // (chunk -1)
      if (cq == c_lo) whi_q <= chunk;
      else if (first) whi_q <= 16'd0;               // (chunk 4)
      if (cq < c_lo && |chunk) above_q <= 1'b1;
      else if (first) above_q <= 1'b0;
      if (st_q[6]) begin
        if (bq_q == 3'd4) wlo_q <= a_q[31:16];
        if (bq_q == 3'd3) whi_q <= a_q[31:16];
        if (bq_q < 3'd3 && |a_q[31:16]) above_q <= 1'b1;
      end
    end
  end

  // v = P / 2^e: the window's low eleven bits, and whether anything above them is set
  wire [31:0] pair   = {whi_q, wlo_q} >> br_q;
  wire [10:0] v      = pair[10:0];
  wire        upper  = above_q || |pair[31:11];
  // The rounded magnitude m = (v + 1) / 2 with the sign, plus the zero point, clamped to
  // [lo, 127] (lo: the zero point with ReLU, else -128). Positive, only 127 can bind, when
  // m > 127 - zp; negative, only lo, when m > zp + 128 (m > 0 with ReLU); m > b is
  // v > 2b, compared beside the sum from v itself. The sum's low byte is zp + m, or
  // zp - m = zp + ~(v >> 1) + !v[0]: one 8-bit add with v's low bit as its carry in (the
  // compares and the add one carry chain deep each, after the window's shift).
  wire [7:0]  k_hi    = {zp_i[7], ~zp_i[6:0]};                 // 127 - zp
  wire [7:0]  k_lo    = relu_i ? 8'd0 : {~zp_i[7], zp_i[6:0]};  // zp + 128
  wire [7:0]  bound   = bneg_q ? k_lo : k_hi;
  wire        clamp   = upper || v > {2'b0, bound, 1'b0};
  wire [7:0]  t       = zp_i + (v[8:1] ^ {8{bneg_q}}) + {7'd0, v[0] ^ bneg_q};
  wire [7:0]  lo      = relu_i ? zp_i : 8'h80;
  wire [7:0]  clamped = !clamp ? t : bneg_q ? lo : 8'd127;

  // (step 7 ends with the last chunks kept; the result is read in step 8)
  assign done_o  = st_q[7];
  assign ready_o = !(st_q[0] || st_q[1] || st_q[2]);   // (four cycles after the last start)
  assign q_o     = clamped;

endmodule

`default_nettype wire
