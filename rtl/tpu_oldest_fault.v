// SPDX-License-Identifier: Apache-2.0
// The oldest of several faults: the valid candidate with the lowest PC (program order
// within a run), the first in candidate order on a tie. Every pair of PCs is compared
// at once and the winner picked by an AND-OR, so the depth is one comparator and a
// mux, not a chain of K compare-and-select steps (the ECP5 build's longest path).
// The comparisons are PcBits + 1 wide: a PC's low PcBits bits and whether it lies at or
// past 2^PcBits. Every instruction lies in device memory, below 2^PcBits; only a fetch
// past its end faults there, and nothing is fetched after it, so the PCs at or past it
// that meet here are one and the same (PcBits = 32: the whole PCs).
// Registered = 1: the comparisons are registered every cycle from the PCs as they are,
// so the choice starts at flip-flops; a valid candidate's PC must then have been the
// same a cycle before (the units' PCs: steady from their take to their retirement).
`default_nettype none

module tpu_oldest_fault #(
    parameter integer K      = 5,
    parameter integer PcBits = 32,
    parameter integer Registered = 0
) (
    input  wire            clk_i,       // (Registered only)
    input  wire [K-1:0]    valid_i,
    input  wire [K*4-1:0]  code_i,
    input  wire [K*32-1:0] pc_i,
    output wire            any_o,
    output reg  [3:0]      code_o,
    output reg  [31:0]     pc_o,
    output reg  [K-1:0]    win_o        // the chosen candidate, one-hot (none: no valid one)
);
  // le[K*i + j], j < i: candidate j's PC is at most candidate i's, so j, earlier in
  // candidate order, wins over i; otherwise i wins over j. One comparator per pair.
  localparam integer KeyBits = (PcBits < 32) ? PcBits + 1 : 32;
  wire [K*KeyBits-1:0] key;
  wire [K*K-1:0] le_now, le;
  genvar i, j;
  generate
    for (i = 0; i < K; i = i + 1) begin : g_key
      if (PcBits < 32) begin : g_narrow
        assign key[KeyBits*i +: KeyBits] = {|pc_i[32*i + PcBits +: 32 - PcBits], pc_i[32*i +: PcBits]};
      end else begin : g_whole
        assign key[KeyBits*i +: KeyBits] = pc_i[32*i +: 32];
      end
    end
    for (i = 0; i < K; i = i + 1) begin : g_row
      for (j = 0; j < K; j = j + 1) begin : g_col
        if (j < i) begin : g_cmp
          assign le_now[K*i + j] = key[KeyBits*j +: KeyBits] <= key[KeyBits*i +: KeyBits];
        end else begin : g_none
          assign le_now[K*i + j] = 1'b0;
        end
      end
    end
    if (Registered != 0) begin : g_reg
      reg [K*K-1:0] le_q;
      always @(posedge clk_i) le_q <= le_now;
      assign le = le_q;
    end else begin : g_comb
      assign le = le_now;
      wire unused_clk = clk_i;
    end
  endgenerate

  reg [K-1:0] beaten;   // a valid candidate wins over this one
  integer a, b;
  always @(*) begin
    code_o = 4'd0;
    pc_o   = 32'd0;
    win_o  = {K{1'b0}};
    for (a = 0; a < K; a = a + 1) begin
      beaten[a] = 1'b0;
      for (b = 0; b < K; b = b + 1)
        if (b < a)      beaten[a] = beaten[a] | (valid_i[b] && le[K*a + b]);
        else if (b > a) beaten[a] = beaten[a] | (valid_i[b] && !le[K*b + a]);
      if (valid_i[a] && !beaten[a]) begin
        win_o[a] = 1'b1;
        code_o = code_o | code_i[4*a +: 4];
        pc_o   = pc_o | pc_i[32*a +: 32];
      end
    end
  end
  assign any_o = |valid_i;
endmodule

`default_nettype wire
