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
// halves of its A register; its product registers are the second stage, and the third
// is the blocks' adders' registers, each the sum of two rows' products (below): the
// column sums are added from them, after the registers. With FreeDsp = 1 the last
// block's two products come from tables in eight block RAMs instead (tpu_nibble_mul; the
// same stages), leaving an SB_MAC16 for the lite core's requantization. Otherwise (and
// for Verilator) the same stages in plain RTL, the column sums registered.
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

  // Stage 1: x and the weights in registers; stage 2: the N*N products; stage 3: their
  // column sums.
  genvar k, n;
  generate
`ifdef TPU_ICE40_DSP
    if (N % 2 != 0) begin : g_odd
      initial $fatal(1, "tpu_mac_array: the SB_MAC16 form needs an even ArraySize");
    end
    // Rows k and k + 1 (k even) pair up: row k + 1's blocks put out their registered
    // products, and row k's blocks add them to their own in their 16-bit adders (C: the
    // upper product, D: the lower), registered: stage 3 is the pair sums, in the
    // blocks. A pair sum is in [-32512, 32768], so its 16 bits are exact but for 32768,
    // which reads as 0x8000 (-32768 never occurs): read with that, each is 17 bits, and a
    // column's N / 2 of them are summed after the registers.
    wire [N*N*16-1:0] prod;           // the odd rows' products: (k, n) at bits 16 * (k * N + n)
    wire [(N/2)*N*16-1:0] pair;       // pair sums: (k / 2, n) at bits 16 * ((k / 2) * N + n)
    for (k = 0; k < N; k = k + 1) begin : g_row
      for (n = 0; n < N; n = n + 2) begin : g_mac
        if (FreeDsp != 0 && k == N - 1 && n == N - 2) begin : g_logic
          // (an odd row) the block's input registers as flip-flops; each product from
          // four nibble products read from tables in block RAM (tpu_nibble_mul), whose
          // read registers are the product registers
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
          localparam integer Adds = (k % 2 == 0) ? 1 : 0;   // row k adds row k + 1's products
          localparam integer Next = (k % 2 == 0) ? k + 1 : k;   // (that row)
          wire [31:0] o;
          wire [15:0] c = Adds != 0 ? prod[16*(Next*N+n+1) +: 16] : 16'd0;
          wire [15:0] d = Adds != 0 ? prod[16*(Next*N+n)   +: 16] : 16'd0;
          wire        unused_co, unused_accumco, unused_signextout;
          SB_MAC16 #(
              .A_REG(1'b1), .B_REG(1'b1), .TOP_8x8_MULT_REG(1'b1), .BOT_8x8_MULT_REG(1'b1),
              // the registered 8x8 products, or their registered sums with C and D
              .TOPOUTPUT_SELECT(Adds != 0 ? 2'd1 : 2'd2), .BOTOUTPUT_SELECT(Adds != 0 ? 2'd1 : 2'd2),
              .TOPADDSUB_LOWERINPUT(2'd1), .TOPADDSUB_UPPERINPUT(1'b1), .TOPADDSUB_CARRYSELECT(2'd0),
              .BOTADDSUB_LOWERINPUT(2'd1), .BOTADDSUB_UPPERINPUT(1'b1), .BOTADDSUB_CARRYSELECT(2'd0),
              .MODE_8x8(1'b1), .A_SIGNED(1'b1), .B_SIGNED(1'b1)
          ) u_mac (
              .CLK(clk_i), .CE(1'b1),
              .A({x_i[8*k +: 8], x_i[8*k +: 8]}),
              .B({w_i[8*(n+1) +: 8], w_i[8*n +: 8]}),
              .C(c), .D(d),
              .AHOLD(1'b0), .BHOLD(!(w_we_i && w_row_i == k)), .CHOLD(1'b0), .DHOLD(1'b0),
              .IRSTTOP(1'b0), .IRSTBOT(1'b0), .ORSTTOP(1'b0), .ORSTBOT(1'b0),
              .OLOADTOP(1'b0), .OLOADBOT(1'b0), .ADDSUBTOP(1'b0), .ADDSUBBOT(1'b0),
              .OHOLDTOP(1'b0), .OHOLDBOT(1'b0), .CI(1'b0), .ACCUMCI(1'b0), .SIGNEXTIN(1'b0),
              .O(o), .CO(unused_co), .ACCUMCO(unused_accumco), .SIGNEXTOUT(unused_signextout)
          );
          if (Adds != 0) begin : g_pair
            assign pair[16*((k/2)*N+n)   +: 16] = o[15:0];
            assign pair[16*((k/2)*N+n+1) +: 16] = o[31:16];
            assign prod[16*(k*N+n) +: 32] = 32'd0;   // (unused)
          end else begin : g_prod
            assign prod[16*(k*N+n)   +: 16] = o[15:0];
            assign prod[16*(k*N+n+1) +: 16] = o[31:16];
          end
        end
      end
    end
    for (n = 0; n < N; n = n + 1) begin : g_sum
      wire [(N/2)*17-1:0] col;
      for (k = 0; k < N / 2; k = k + 1) begin : g_take
        wire [15:0] v = pair[16*(k*N+n) +: 16];
        assign col[17*k +: 17] = {v[15] && v[14:0] != 15'd0, v};   // (0x8000: 32768)
      end
      tpu_sum_tree #(.Count(N / 2), .InBits(17)) u_tree (.in_i(col), .sum_o(y_o[SumBits*n +: SumBits]));
    end
    wire unused_prod = ^prod;
`else
    wire unused_free = FreeDsp != 0;
    reg [N*8-1:0]       x_q;
    reg [N*N*8-1:0]     w_q;     // W[k][n] at bits 8 * (k * N + n)
    reg [N*N*16-1:0]    prod_q;  // product (k, n) at bits 16 * (k * N + n)
    reg [N*SumBits-1:0] y_q;
    always @(posedge clk_i) x_q <= x_i;
    for (k = 0; k < N; k = k + 1) begin : g_row
      always @(posedge clk_i) if (w_we_i && w_row_i == k) w_q[8*N*k +: 8*N] <= w_i;
      for (n = 0; n < N; n = n + 1) begin : g_col
        always @(posedge clk_i)
          prod_q[16*(k*N+n) +: 16] <= $signed(x_q[8*k +: 8]) * $signed(w_q[8*(k*N+n) +: 8]);
      end
    end
    // each column's N products summed as a balanced tree of adds, each as wide as its sum
    // needs (16 bits + 1 a level)
    for (n = 0; n < N; n = n + 1) begin : g_sum
      wire [N*16-1:0] col;
      for (k = 0; k < N; k = k + 1) begin : g_take
        assign col[16*k +: 16] = prod_q[16*(k*N+n) +: 16];
      end
      wire [SumBits-1:0] sum;
      tpu_sum_tree #(.Count(N), .InBits(16)) u_tree (.in_i(col), .sum_o(sum));
      always @(posedge clk_i) y_q[SumBits*n +: SumBits] <= sum;
    end
    assign y_o = y_q;
`endif
  endgenerate
endmodule

`default_nettype wire
