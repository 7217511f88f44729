// SPDX-License-Identifier: Apache-2.0
// The small core's requantization of one value (docs/isa.md, "Numerics") over several
// cycles and without multipliers: the saturating bias add, the 32x32 product of the
// magnitudes by shift-and-add (32 cycles), the rounding shift one bit per cycle (shift
// cycles), then zero point and clamp. Bit-exact with tpu_requant and the golden model.
`default_nettype none

module tpu_small_requant (
    input  wire        clk_i,
    input  wire        rst_ni,
    input  wire        start_i,   // acc_i is sampled now; the rest is held until done_o
    input  wire [31:0] acc_i,
    input  wire [31:0] bias_i,
    input  wire [31:0] mult_i,
    input  wire [5:0]  shift_i,
    input  wire [7:0]  zp_i,
    input  wire        relu_i,
    output wire        done_o,    // one cycle: q_o is the result
    output wire [7:0]  q_o
);
  localparam [1:0] Idle = 2'd0, Mul = 2'd1, Shift = 2'd2, Done = 2'd3;

  wire [31:0] x;   // sat32(acc + bias)
  tpu_sat_add32 u_bias (.a_i(acc_i), .b_i(bias_i), .sum_o(x));
  wire [31:0] x_mag    = x[31] ? -x : x;          // |-2^31| = 2^31 fits unsigned
  wire [31:0] mult_mag = mult_i[31] ? -mult_i : mult_i;

  reg [1:0]  st_q;
  reg [5:0]  count_q;
  reg        neg_q;
  reg [31:0] mcand_q;
  reg [31:0] hi_q, lo_q;   // the product {hi, lo}, then shifted right
  reg        round_q;      // the last bit shifted out

  wire [32:0] partial = {1'b0, hi_q} + (lo_q[0] ? {1'b0, mcand_q} : 33'd0);

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= Idle;
    end else begin
      case (st_q)
        Idle: if (start_i) st_q <= Mul;
        Mul: if (count_q == 6'd31) st_q <= Shift;
        Shift: if (count_q == shift_i) st_q <= Done;
        default: st_q <= Idle;
      endcase
    end
  end
  always @(posedge clk_i) begin
    case (st_q)
      Idle: begin
        neg_q   <= x[31] ^ mult_i[31];
        mcand_q <= x_mag;
        hi_q    <= 32'd0;
        lo_q    <= mult_mag;
        count_q <= 6'd0;
        round_q <= 1'b0;
      end
      Mul: begin  // one multiplier bit per cycle, low bits leaving through lo
        {hi_q, lo_q} <= {partial, lo_q[31:1]};
        count_q      <= count_q == 6'd31 ? 6'd0 : count_q + 6'd1;
      end
      Shift: if (count_q != shift_i) begin
        {hi_q, lo_q, round_q} <= {1'b0, hi_q, lo_q};
        count_q <= count_q + 6'd1;
      end
      default: ;
    endcase
  end

  // Rounded magnitude: only its low nine bits and whether it reaches 512 matter, since
  // anything from 512 on clamps for every int8 zero point.
  wire [9:0]  mag     = {1'b0, lo_q[8:0]} + {9'd0, round_q};
  wire        big     = |hi_q || |lo_q[31:9] || mag[9];
  wire [10:0] y       = neg_q ? -{1'b0, mag} : {1'b0, mag};
  wire [10:0] t       = y + {{3{zp_i[7]}}, zp_i};
  wire [10:0] lo_lim  = relu_i ? {{3{zp_i[7]}}, zp_i} : 11'h780;  // -128
  wire        under   = $signed(t) < $signed(lo_lim);
  wire        over    = $signed(t) > $signed(11'd127);
  wire [7:0]  clamped = big ? (neg_q ? lo_lim[7:0] : 8'd127)
                      : under ? lo_lim[7:0] : over ? 8'd127 : t[7:0];

  assign done_o = st_q == Done;
  assign q_o    = clamped;
endmodule

`default_nettype wire
