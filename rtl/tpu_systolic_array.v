// SPDX-License-Identifier: Apache-2.0
// N x N grid of PEs. Row r receives input lane r (already skewed) from the west;
// column c produces output lane c at the south edge. Partial sums enter the north
// edge as zero.
`default_nettype none

module tpu_systolic_array #(
    parameter integer ArraySize = 4,  // N
    parameter integer LogicRows = 0   // the last LogicRows rows' PEs multiply in logic (tpu_pe LogicProduct)
) (
    input  wire                      clk_i,
    input  wire                      rst_ni,
    // west edge, one lane per row
    input  wire [ArraySize*8-1:0]    x_i,
    input  wire [ArraySize-1:0]      x_valid_i,
    input  wire [ArraySize-1:0]      x_switch_i,
    input  wire [ArraySize-1:0]      x_switch_next_i,  // next cycle's x_valid_i & x_switch_i
    // shadow weight rows: row r takes w_row_i when w_row_we_i[r]
    input  wire [ArraySize-1:0]      w_row_we_i,
    input  wire [ArraySize*8-1:0]    w_row_i,
    // south edge, one lane per column; valid_o is the bottom-left PE's row valid
    output wire [ArraySize*32-1:0]   psum_o,
    output wire                      valid_o
);
  localparam integer N = ArraySize;
  // The partial sums are exact in 16 + clog2(N) bits (N products in [-2^14 + 2^7, 2^14]),
  // sign-extended to 32 at the bottom: a shorter carry chain and fewer flip-flops per PE.
  localparam integer PsumBits = 16 + $clog2(N);

  // x_h[r][c]: activations entering PE(r, c) from the west (c = N: leaving the east edge)
  wire [8*N*(N+1)-1:0] x_h;
  wire [N*(N+1)-1:0]   xv_h, xs_h;
  // sw_next[r][c]: the row reaching PE(r, c) next cycle switches tiles (tpu_pe)
  wire [N*N-1:0]       sw_next;
  // ps_v[r][c]: partial sums entering PE(r, c) from the north (r = N: leaving the south edge)
  wire [PsumBits*(N+1)*N-1:0] ps_v;

  genvar r, c;
  generate
    for (r = 0; r < N; r = r + 1) begin : g_row
      assign x_h[8*(r*(N+1)) +: 8]   = x_i[8*r +: 8];
      assign xv_h[r*(N+1)]           = x_valid_i[r];
      assign xs_h[r*(N+1)]           = x_switch_i[r];
      for (c = 0; c < N; c = c + 1) begin : g_col
        if (c == 0) begin : g_west
          assign sw_next[r*N] = x_switch_next_i[r];
        end else begin : g_inner
          assign sw_next[r*N+c] = xv_h[r*(N+1)+c-1] & xs_h[r*(N+1)+c-1];
        end
        tpu_pe #(.LogicProduct(r >= N - LogicRows ? 1 : 0), .WriteBypass(c == 0 ? 1 : 0),
                 .PsumBits(PsumBits)) u_pe (
            .clk_i     (clk_i),
            .rst_ni    (rst_ni),
            .x_i       (x_h[8*(r*(N+1)+c) +: 8]),
            .x_valid_i (xv_h[r*(N+1)+c]),
            .x_switch_i(xs_h[r*(N+1)+c]),
            .x_o       (x_h[8*(r*(N+1)+c+1) +: 8]),
            .x_valid_o (xv_h[r*(N+1)+c+1]),
            .x_switch_o(xs_h[r*(N+1)+c+1]),
            .psum_i    (ps_v[PsumBits*(r*N+c) +: PsumBits]),
            .psum_o    (ps_v[PsumBits*((r+1)*N+c) +: PsumBits]),
            .switch_next_i(sw_next[r*N+c]),
            .w_we_i    (w_row_we_i[r]),
            .w_i       (w_row_i[8*c +: 8])
        );
      end
    end
    for (c = 0; c < N; c = c + 1) begin : g_edge
      assign ps_v[PsumBits*c +: PsumBits] = {PsumBits{1'b0}};
      assign psum_o[32*c +: 32] = {{(32-PsumBits){ps_v[PsumBits*(N*N+c)+PsumBits-1]}}, ps_v[PsumBits*(N*N+c) +: PsumBits]};
    end
  endgenerate

  // The bottom row's valid leaves PE(N-1, 0) in step with column 0's sum.
  // Deeper down the row the columns follow one cycle apart; the deskew aligns them.
  // the bottom row's sums are one cycle behind its x (the PEs' product register)
  reg valid_q;
  always @(posedge clk_i) valid_q <= rst_ni && xv_h[(N-1)*(N+1)+1];
  assign valid_o = valid_q;

  // East-edge outputs and the other rows' valid/switch chains are not needed.
  wire unused_east;
  generate
    if (1) begin : g_unused
      wire [N-1:0] east;
      for (r = 0; r < N; r = r + 1) begin : g_east
        assign east[r] = ^x_h[8*(r*(N+1)+N) +: 8] ^ xv_h[r*(N+1)+N] ^ xs_h[r*(N+1)+N];
      end
      assign unused_east = ^east;
    end
  endgenerate
endmodule

`default_nettype wire
