// SPDX-License-Identifier: Apache-2.0
// One lane of the activation unit: int32 accumulator -> int8, bit-exact with the
// golden model (tools/model/numerics.hpp, docs/isa.md "Numerics"):
//   x = sat32(acc + bias); p = x * multiplier; y = round(p / 2^shift) ties away
//   from zero; y + zp clamped to [relu ? zp : -128, 127].
// Eleven pipeline stages (the inputs registered, add, the operands again, four partial
// products, the products again, the rounded magnitude's low half, its high half, byte
// shift, bit shift, zero point, clamp); one value per cycle.
// tpu_activation delays the rows' tags by the same eleven cycles (RequantStages). The
// inputs get a stage of their own because the accumulator row comes straight off block
// RAM; the multipliers' operands and products one each because on the ECP5 those
// registers move into the multiplier blocks (scripts/ecp5-pack-regs.py), often several
// nanoseconds of routing from the logic on the other side, so that route gets a cycle to
// itself (the operands' copy is what lets them move: the bias add's register, behind a
// carry chain, may not).
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
  // Stage 0: the inputs.
  reg  [31:0] acc_q0, bias_q0, mult_q0;
  reg  [5:0]  shift_q0;
  reg  [7:0]  zp_q0;
  reg         relu_q0;

  // Stage 1: saturating bias add.
  wire [31:0] x_d;
  tpu_sat_add32 u_bias (.a_i(acc_q0), .b_i(bias_q0), .sum_o(x_d));
  reg  [31:0] x_q, mult_q;
  reg  [5:0]  shift_q, shift_qp, shift_q2, shift_q3;
  reg  [7:0]  zp_q, zp_qp, zp_q2, zp_q3;
  reg         relu_q, relu_qp, relu_q2, relu_q3;

  // Stage 2: the product's four partial products, each an 18x18 multiplier (x and the
  // multiplier split into a signed high and an unsigned low half: 17-bit signed
  // operands); the product's sign, known from the operands' (a zero product with
  // different signs is negated too, harmlessly: -0 = 0); and the rounding constant
  // 2^(shift-1), plus 3 for a negative product (below).
  // Stage 1b: the operands again (x_o, m_o), and the rest delayed with them.
  reg  [31:0] x_o, m_o;
  reg  [5:0]  shift_o;
  reg  [7:0]  zp_o;
  reg         relu_o;
  wire signed [16:0] x_hi = {x_o[31], x_o[31:16]}, x_lo = {1'b0, x_o[15:0]};
  wire signed [16:0] m_hi = {m_o[31], m_o[31:16]}, m_lo = {1'b0, m_o[15:0]};
  wire        neg_d  = x_o[31] ^ m_o[31];
  wire [62:0] half_d = (shift_o == 6'd0) ? 63'd0 : (63'd1 << (shift_o - 6'd1));
  wire [62:0] k_d    = {half_d[62:3], half_d[2:0] + (neg_d ? 3'd3 : 3'd0)};  // half[2:0] <= 4
  reg  signed [33:0] hh_q, hl_q, lh_q, ll_q;
  reg         [62:0] k_q;
  reg                negp_q;
  // Stage 2b: the partial products carried out of the multipliers (with the rest).
  reg  signed [33:0] hh_m, hl_m, lh_m, ll_m;
  reg         [62:0] k_m;
  reg                negp_m;
  reg  [5:0]         shift_qm;
  reg  [7:0]         zp_qm;
  reg                relu_qm;

  // Stages 3 and 4: the rounded magnitude |p| + half. p is the sum of three terms
  // ({hh, ll}, which do not overlap, and the two middle ones), so for a negative p
  // -p = ~t1 + ~t2 + ~t3 + 3 (mod 2^64): each term inverted by the sign, and k = half
  // (+ 3) the fourth term. Two carry-save steps (a LUT per bit each) leave two
  // operands, added in two 32-bit carry chains, the low half in stage 3 and the high
  // half with its carry in stage 4, instead of 64-bit chains in both stages.
  wire [63:0] sgn   = {64{negp_m}};
  wire [63:0] t_out = {hh_m[31:0], ll_m[31:0]} ^ sgn;
  wire [63:0] t_hl  = {{14{hl_m[33]}}, hl_m, 16'd0} ^ sgn;
  wire [63:0] t_lh  = {{14{lh_m[33]}}, lh_m, 16'd0} ^ sgn;
  wire [63:0] s1 = t_out ^ t_hl ^ t_lh;
  wire [63:0] c1 = {(t_out[62:0] & t_hl[62:0]) | (t_out[62:0] & t_lh[62:0]) | (t_hl[62:0] & t_lh[62:0]), 1'b0};
  wire [63:0] rk = {1'b0, k_m};
  wire [63:0] s2 = s1 ^ c1 ^ rk;
  wire [63:0] c2 = {(s1[62:0] & c1[62:0]) | (s1[62:0] & rk[62:0]) | (c1[62:0] & rk[62:0]), 1'b0};
  wire [32:0] lo_d = {1'b0, s2[31:0]} + {1'b0, c2[31:0]};
  reg  [31:0] lo_q, s_hi_q, c_hi_q;
  reg         cy_q, neg3_q;
  wire [63:0] sum_d = {s_hi_q + c_hi_q + {31'd0, cy_q}, lo_q};  // |p| + half <= 2^62 + 2^62
  reg  [63:0] sum;
  reg         neg_q;

  // Stages 5 and 6: the shift, by whole bytes and then by bits. Any rounded magnitude
  // q >= 512 clamps like 511 (511 + zp > 127 and -511 + zp < -128 for every int8 zp), so
  // only q's low nine bits and "q >= 512" are computed, not all of q. Stage 5 keeps the
  // 16 bits from byte shift/8 on and whether any byte above them is set; stage 6 shifts
  // those by shift%8 and looks at their bits from 9 + shift%8 on.
  reg  [7:0]  byte_any;                                           // byte k of sum is nonzero
  integer k;
  always @(*) for (k = 0; k < 8; k = k + 1) byte_any[k] = |sum[8*k +: 8];
  wire [2:0]  coarse  = shift_q3[5:3];
  wire [79:0] sum_pad = {16'd0, sum};
  wire [15:0] win_d   = sum_pad[8*coarse +: 16];
  wire [9:0]  above_d = {2'b00, byte_any} >> coarse;                // bytes from coarse on ...
  wire        hi_d    = |above_d[9:2];                             // ... beyond the window
  reg  [15:0] win_q;
  reg         hi_q;
  reg  [2:0]  fine_q;
  wire [15:0] win_r = win_q >> fine_q;
  wire [8:0]  q_lo  = win_r[8:0];                                 // the rest: q_big
  wire        q_big = hi_q || (win_r[15:9] != 7'd0);
  wire [8:0]  q_d   = q_big ? 9'h1ff : q_lo;
  reg  [8:0]  q_q;
  reg         neg_q2, neg_q3;
  reg  [7:0]  zp_q4, zp_q5;
  reg         relu_q4, relu_q5;

  // Stage 7: the zero point, y = zp +- q, and the clamp's decisions beside it, from q
  // and the zero point rather than from y: for y = zp - q, y < (relu ? zp : -128) iff
  // q > 0 (relu) or q > zp + 128; for y = zp + q, y > 127 iff q > 127 - zp (both bounds
  // are the zero point's bits). Only y's low byte is added: a q beyond 255 clamps.
  wire [7:0]  thr_lo  = {~zp_q5[7], zp_q5[6:0]};                    // zp + 128
  wire [7:0]  thr_hi  = {zp_q5[7], ~zp_q5[6:0]};                    // 127 - zp
  wire        under_d = neg_q3 && (relu_q5 ? (q_q != 9'd0) : (q_q > {1'b0, thr_lo}));
  wire        over_d  = !neg_q3 && (q_q > {1'b0, thr_hi});
  wire [7:0]  y_d     = neg_q3 ? zp_q5 - q_q[7:0] : zp_q5 + q_q[7:0];
  reg  [7:0]  y_q, lo_bound_q;
  reg         under_q, over_q;
  // Stage 8: the clamp to [relu ? zp : -128, 127], a LUT per bit.
  wire [7:0]  out_d = under_q ? lo_bound_q : (over_q ? 8'd127 : y_q);
  reg  [7:0]  out_q;

  reg v0_q, v1_q, vo_q, vp_q, vm_q, v2_q, v3_q, vc_q, v4_q, v5_q, v6_q;
  always @(posedge clk_i) begin
    if (!rst_ni) begin
      v0_q <= 1'b0;
      v1_q <= 1'b0;
      vo_q <= 1'b0;
      vp_q <= 1'b0;
      vm_q <= 1'b0;
      v2_q <= 1'b0;
      v3_q <= 1'b0;
      vc_q <= 1'b0;
      v4_q <= 1'b0;
      v5_q <= 1'b0;
      v6_q <= 1'b0;
    end else begin
      v0_q <= in_valid_i;
      v1_q <= v0_q;
      vo_q <= v1_q;
      vp_q <= vo_q;
      vm_q <= vp_q;
      v2_q <= vm_q;
      v3_q <= v2_q;
      vc_q <= v3_q;
      v4_q <= vc_q;
      v5_q <= v4_q;
      v6_q <= v5_q;
    end
  end

  always @(posedge clk_i) begin
    acc_q0   <= acc_i;
    bias_q0  <= bias_i;
    mult_q0  <= mult_i;
    shift_q0 <= shift_i;
    zp_q0    <= zp_i;
    relu_q0  <= relu_i;
    x_q      <= x_d;
    mult_q   <= mult_q0;
    shift_q  <= shift_q0;
    zp_q     <= zp_q0;
    relu_q   <= relu_q0;
    x_o      <= x_q;
    m_o      <= mult_q;
    shift_o  <= shift_q;
    zp_o     <= zp_q;
    relu_o   <= relu_q;
    hh_q     <= x_hi * m_hi;
    hl_q     <= x_hi * m_lo;
    lh_q     <= x_lo * m_hi;
    ll_q     <= x_lo * m_lo;
    k_q      <= k_d;
    negp_q   <= neg_d;
    shift_qp <= shift_o;
    zp_qp    <= zp_o;
    relu_qp  <= relu_o;
    hh_m     <= hh_q;
    hl_m     <= hl_q;
    lh_m     <= lh_q;
    ll_m     <= ll_q;
    k_m      <= k_q;
    negp_m   <= negp_q;
    shift_qm <= shift_qp;
    zp_qm    <= zp_qp;
    relu_qm  <= relu_qp;
    lo_q     <= lo_d[31:0];
    cy_q     <= lo_d[32];
    s_hi_q   <= s2[63:32];
    c_hi_q   <= c2[63:32];
    neg3_q   <= negp_m;
    shift_q2 <= shift_qm;
    zp_q2    <= zp_qm;
    relu_q2  <= relu_qm;
    sum      <= sum_d;
    neg_q    <= neg3_q;
    shift_q3 <= shift_q2;
    zp_q3    <= zp_q2;
    relu_q3  <= relu_q2;
    win_q    <= win_d;
    hi_q     <= hi_d;
    fine_q   <= shift_q3[2:0];
    neg_q2   <= neg_q;
    zp_q4    <= zp_q3;
    relu_q4  <= relu_q3;
    q_q      <= q_d;
    neg_q3   <= neg_q2;
    zp_q5    <= zp_q4;
    relu_q5  <= relu_q4;
    y_q      <= y_d;
    under_q  <= under_d;
    over_q   <= over_d;
    lo_bound_q <= relu_q5 ? zp_q5 : 8'h80;
    out_q    <= out_d;
  end

  assign out_valid_o = v6_q;
  assign out_o       = out_q;
  wire unused = ^{above_d[1:0], hh_m[33:32], ll_m[33:32]};  // (|hh| <= 2^30, 0 <= ll < 2^32)
endmodule

`default_nettype wire
