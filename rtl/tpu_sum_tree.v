// SPDX-License-Identifier: Apache-2.0
// The sum of Count signed numbers as a balanced tree of adds, each only as wide as its
// sum (a level adds a bit): InBits + clog2(Count) bits, exact. (Written as one chain,
// Yosys keeps the chain, and every add is as wide as the total.)
`default_nettype none

module tpu_sum_tree #(
    parameter integer Count  = 4,
    parameter integer InBits = 16
) (
    input  wire [Count*InBits-1:0]         in_i,
    output wire [InBits+$clog2(Count)-1:0] sum_o
);
  localparam integer Levels = $clog2(Count);
  genvar l, i;
  generate
    // Level l: ceil(Count / 2^l) terms of InBits + l bits; level 0 is the input.
    for (l = 0; l <= Levels; l = l + 1) begin : g_level
      localparam integer Terms = (Count + (1 << l) - 1) >> l;
      localparam integer Bits  = InBits + l;
      wire [Terms*Bits-1:0] t;
      if (l == 0) begin : g_in
        assign t = in_i;
      end else begin : g_add
        localparam integer Below = (Count + (1 << (l - 1)) - 1) >> (l - 1);  // terms a level down
        for (i = 0; i < Terms; i = i + 1) begin : g_term
          wire [Bits-2:0] a = g_level[l-1].t[(2*i)*(Bits-1) +: Bits-1];
          if (2 * i + 1 < Below) begin : g_pair
            wire [Bits-2:0] b = g_level[l-1].t[(2*i+1)*(Bits-1) +: Bits-1];
            assign t[i*Bits +: Bits] = {a[Bits-2], a} + {b[Bits-2], b};
          end else begin : g_odd
            assign t[i*Bits +: Bits] = {a[Bits-2], a};
          end
        end
      end
    end
  endgenerate
  assign sum_o = g_level[Levels].t;
endmodule

`default_nettype wire
