// SPDX-License-Identifier: Apache-2.0
// An N x N weight-stationary multiply array without the systolic skew: a row of N int8
// activations enters whole, and N cycles of skew are not needed because every lane's
// products are summed in the same cycle: y[n] = sum over k of x[k] * W[k][n], exact in
// 16 + log2(N) bits. One row a cycle; its sums are on y_o three cycles later (x's
// register, the products' register, the sums' register).
//
// Weights: row k of W is written whole (w_we_i, w_row_i); a row of x uses the weights
// written up to and including its own cycle.
//
// With TPU_ICE40_DSP defined (the iCE40 builds) the products are the UP5K's SB_MAC16
// blocks in their two-8x8 mode, two products a block: block (k, j) holds W[k][2j] and
// W[k][2j + 1] in its B input register (held between writes) and takes x[k] in both
// halves of its A register; its product registers are the second stage. With FreeDsp
// = 1 the last block's two products come from tables in eight block RAMs instead
// (tpu_nibble_mul; the same stages), leaving an SB_MAC16 for the lite core's
// requantization. Otherwise (and for Verilator) the same stages in plain RTL.
`default_nettype none

module tpu_mac_array #(
    parameter integer ArraySize = 4,
    parameter integer FreeDsp   = 0   // (TPU_ICE40_DSP) 1: the last two products from block RAM tables
) (
    input  wire                              clk_i,
    input  wire                              w_we_i,
    input  wire [$clog2(ArraySize)-1:0]      w_row_i,
    input  wire [ArraySize*8-1:0]            w_i,      // W[k][0..N-1], lane n at bits 8n
    input  wire [ArraySize*8-1:0]            x_i,      // x[0..N-1], lane k at bits 8k
    output wire [ArraySize*(16+$clog2(ArraySize))-1:0] y_o  // y[n] at bits SumBits*n
);
  localparam integer N       = ArraySize;
  localparam integer SumBits = 16 + $clog2(N);

  // Stage 1: x and the weights in registers; stage 2: the N*N products.
  wire [N*N*16-1:0] prod;  // product (k, n) at bits 16 * (k * N + n)
  genvar k, n;
  generate
`ifdef TPU_ICE40_DSP
    if (N % 2 != 0) begin : g_odd
      initial $fatal(1, "tpu_mac_array: the SB_MAC16 form needs an even ArraySize");
    end
    for (k = 0; k < N; k = k + 1) begin : g_row
      for (n = 0; n < N; n = n + 2) begin : g_mac
        if (FreeDsp != 0 && k == N - 1 && n == N - 2) begin : g_logic
          // the block's input registers as flip-flops; each product from four nibble
          // products read from tables in block RAM (tpu_nibble_mul), whose read
          // registers are the product registers
          reg [7:0] x_q, w0_q, w1_q;
          always @(posedge clk_i) begin
            x_q <= x_i[8*k +: 8];
            if (w_we_i && w_row_i == k) begin
              w0_q <= w_i[8*n +: 8];
              w1_q <= w_i[8*(n+1) +: 8];
            end
          end
          tpu_nibble_mul u_p0 (.clk_i, .a_i(x_q), .b_i(w0_q), .p_o(prod[16*(k*N+n)   +: 16]));
          tpu_nibble_mul u_p1 (.clk_i, .a_i(x_q), .b_i(w1_q), .p_o(prod[16*(k*N+n+1) +: 16]));
        end else begin : g_dsp
        wire [31:0] o;
        wire        unused_co, unused_accumco, unused_signextout;
        SB_MAC16 #(
            .A_REG(1'b1), .B_REG(1'b1), .TOP_8x8_MULT_REG(1'b1), .BOT_8x8_MULT_REG(1'b1),
            .TOPOUTPUT_SELECT(2'd2), .BOTOUTPUT_SELECT(2'd2),  // the registered 8x8 products
            .MODE_8x8(1'b1), .A_SIGNED(1'b1), .B_SIGNED(1'b1)
        ) u_mac (
            .CLK(clk_i), .CE(1'b1),
            .A({x_i[8*k +: 8], x_i[8*k +: 8]}),
            .B({w_i[8*(n+1) +: 8], w_i[8*n +: 8]}),
            .C(16'd0), .D(16'd0),
            .AHOLD(1'b0), .BHOLD(!(w_we_i && w_row_i == k)), .CHOLD(1'b0), .DHOLD(1'b0),
            .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(1'b0), .ORSTBOT(1'b0),
            .OLOADTOP(1'b0), .OLOADBOT(1'b0), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
            .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(1'b0), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
            .O(o), .CO(unused_co), .ACCUMCO(unused_accumco), .SIGNEXTOUT(unused_signextout)
        );
        assign prod[16*(k*N+n)   +: 16] = o[15:0];
        assign prod[16*(k*N+n+1) +: 16] = o[31:16];
        end
      end
    end
`else
    wire unused_free = FreeDsp != 0;
    reg [N*8-1:0]    x_q;
    reg [N*N*8-1:0]  w_q;     // W[k][n] at bits 8 * (k * N + n)
    reg [N*N*16-1:0] prod_q;
    always @(posedge clk_i) x_q <= x_i;
    for (k = 0; k < N; k = k + 1) begin : g_row
      always @(posedge clk_i) if (w_we_i && w_row_i == k) w_q[8*N*k +: 8*N] <= w_i;
      for (n = 0; n < N; n = n + 1) begin : g_col
        always @(posedge clk_i)
          prod_q[16*(k*N+n) +: 16] <= $signed(x_q[8*k +: 8]) * $signed(w_q[8*(k*N+n) +: 8]);
      end
    end
    assign prod = prod_q;
`endif
  endgenerate

  // Stage 3: each column's N products summed as a balanced tree of adds, each as wide
  // as its sum needs (16 bits + 1 a level).
  reg [N*SumBits-1:0] y_q;
  generate
    for (n = 0; n < N; n = n + 1) begin : g_sum
      wire [N*16-1:0] col;
      for (k = 0; k < N; k = k + 1) begin : g_take
        assign col[16*k +: 16] = prod[16*(k*N+n) +: 16];
      end
      wire [SumBits-1:0] sum;
      tpu_sum_tree #(.Count(N), .InBits(16)) u_tree (.in_i(col), .sum_o(sum));
      always @(posedge clk_i) y_q[SumBits*n +: SumBits] <= sum;
    end
  endgenerate
  assign y_o = y_q;
endmodule

`default_nettype wire
